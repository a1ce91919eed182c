/* The cheapest legal bot, for benchmarks: finds what it needs with strstr, no JSON parser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        if (strncmp(line, "{\"type\":\"request\"", 17) == 0) {
            long id = strtol(strstr(line, "\"id\":") + 5, NULL, 10);
            const char *kind = strstr(line, "\"decision\":\"") + 12;
            const char *legal = strstr(line, "\"legal\":");
            if (strncmp(kind, "play", 4) == 0) {
                long card = strtol(strstr(legal, "\"cards\":[") + 9, NULL, 10);
                printf("{\"id\":%ld,\"action\":\"play\",\"card\":%ld}\n", id, card);
            } else if (strncmp(kind, "hidden_bid", 10) == 0) {
                printf("{\"id\":%ld,\"action\":\"bid\",\"amount\":0}\n", id);
            } else if (strncmp(kind, "price", 5) == 0) {
                long low = strtol(strstr(legal, "\"min\":") + 6, NULL, 10);
                printf("{\"id\":%ld,\"action\":\"price\",\"amount\":%ld}\n", id, low);
            } else {
                printf("{\"id\":%ld,\"action\":\"pass\"}\n", id);
            }
            fflush(stdout);
        } else if (strncmp(line, "{\"type\":\"hello\"", 15) == 0) {
            printf("{\"type\":\"hello\",\"name\":\"minimal\",\"protocol\":1}\n");
            fflush(stdout);
        } else if (strncmp(line, "{\"type\":\"goodbye\"", 17) == 0) {
            break;
        }
    }
    free(line);
    return 0;
}
