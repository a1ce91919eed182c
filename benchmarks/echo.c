/* The floor's child: echoes each line back at once. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        fputs(line, stdout);
        fflush(stdout);
    }
    free(line);
    return 0;
}
