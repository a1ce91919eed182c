module modernart/bot

go 1.19
