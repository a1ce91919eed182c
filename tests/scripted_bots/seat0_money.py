#!/usr/bin/env python3
"""seat0_money: WRONG: takes seat 0's money for its own, as a bot that assumes it is seat 0
does (`view.money[0]` rather than `view.money[view.seat]`).

It bids all the money it thinks it has: in an open or once-around auction when that is at
least legal.min (else it passes), in a hidden one always, and names it as a fixed price when
it is within legal.min..legal.max; every other decision gets the first legal choice.  At seat
0 every answer is legal.  At another seat, seat 0's money is not its own (and is null under
hidden-money, read as 0): once seat 0 has more than it, it bids more than it has, an
`illegal` fault.  Run: python3 tests/scripted_bots/seat0_money.py
"""

import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request):
    decision, legal, view = request["decision"], request["legal"], request["view"]
    money = view["money"][0] or 0  # the bug: seat 0's money, whatever its seat
    if decision == "play":
        return {"action": "play", "card": legal["cards"][0]}
    if decision == "hidden_bid":
        return {"action": "bid", "amount": money}
    if decision == "bid":
        return {"action": "bid", "amount": money} if money >= legal["min"] else {"action": "pass"}
    if decision == "price":
        amount = money if legal["min"] <= money <= legal["max"] else legal["min"]
        return {"action": "price", "amount": amount}
    return {"action": "pass"}  # offer, buy, mystery


def main():
    for line in sys.stdin.buffer:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "seat0_money", "protocol": 1})
        elif kind == "request":
            send({"id": message["id"], **answer(message)})
        elif kind == "goodbye":
            return
        # new_game, event, warning and game_end need no answer


if __name__ == "__main__":
    main()
