/*
 * sample_c: a Modern Art bot in C, speaking protocol v1 (see ../../protocol/README.md).
 *
 * It reads one JSON object per line from stdin, parses it with cJSON, and answers every
 * `request` with one JSON line on stdout (flushed at once).  Everything else it writes goes
 * to stderr.  It plays any number of games and exits on `goodbye` or at end of input.
 *
 * Strategy (simple, but not silly): a painting is worth about the tiles its artist already
 * has plus the tile it may get this round, guessed from how many of its cards are on the
 * table and in our hand.  It bids up to part of that worth, prices and buys by it, plays
 * the artists it holds most of, and never plays a card that would be the fifth of its artist.
 * Whatever it computes is checked against `legal`.  A field the protocol always sends that
 * is missing (a bid's legal.min, the view's turn, new_game's edition) is never read as 0:
 * the bot logs it by its name and answers the first legal answer (the referee's default).
 */

#define _POSIX_C_SOURCE 200809L /* getline, ssize_t */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#define BOT_NAME "sample_c"

/* ------------------------------------------------------------------ game state */

/* The edition's cards (from new_game): artist index and auction type, by card id. */
enum { T_OPEN, T_ONCE_AROUND, T_HIDDEN, T_FIXED_PRICE, T_DOUBLE, T_UNKNOWN };

static int in_game; /* whether the last new_game could be read (then its requests are played) */
static int n_cards;
static int *card_artist; /* -1 when unknown */
static int *card_type;
static int n_artists;

static int type_from_name(const char *s)
{
    if (s == NULL) return T_UNKNOWN;
    if (strcmp(s, "open") == 0) return T_OPEN;
    if (strcmp(s, "once-around") == 0) return T_ONCE_AROUND;
    if (strcmp(s, "hidden") == 0) return T_HIDDEN;
    if (strcmp(s, "fixed-price") == 0) return T_FIXED_PRICE;
    if (strcmp(s, "double") == 0) return T_DOUBLE;
    return T_UNKNOWN;
}

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (q == NULL) {
        fprintf(stderr, BOT_NAME ": out of memory\n");
        exit(1);
    }
    return q;
}

/* ------------------------------------------------------------------ JSON helpers */

/* obj[key] as a long, or `dflt` when missing or not a number. */
static long get_long(const cJSON *obj, const char *key, long dflt)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(item) ? (long)item->valuedouble : dflt;
}

static long num_or(const cJSON *item, long dflt)
{
    return cJSON_IsNumber(item) ? (long)item->valuedouble : dflt;
}

static const cJSON *get(const cJSON *obj, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* obj[key] as a string, or `dflt` when missing or not a string. */
static const char *get_str(const cJSON *obj, const char *key, const char *dflt)
{
    const char *s = cJSON_GetStringValue(get(obj, key));
    return s != NULL ? s : dflt;
}

/* ------------------------------------------------------------------ checking messages */

/* Why the last message checked cannot be read: the field that is missing, by its name. */
static char problem[200];

/* Whether obj[key] is there (and, unless nullable, not null); else `problem` names it. */
static int need(const cJSON *obj, const char *key, int nullable, const char *where)
{
    const cJSON *item = cJSON_IsObject(obj) ? get(obj, key) : NULL;
    if (item == NULL)
        snprintf(problem, sizeof problem, "%sno field \"%s\"", where, key);
    else if (!nullable && cJSON_IsNull(item))
        snprintf(problem, sizeof problem, "%sfield \"%s\" is null", where, key);
    else
        return 1;
    return 0;
}

/* need() of each key (a NULL-ended list), none of them nullable. */
static int need_all(const cJSON *obj, const char *const *keys, const char *where)
{
    for (; *keys != NULL; keys++)
        if (!need(obj, *keys, 0, where)) return 0;
    return 1;
}

/* Whether obj[key] is a number; else `problem` says so. */
static int need_number(const cJSON *obj, const char *key, const char *where)
{
    if (!need(obj, key, 0, where)) return 0;
    if (cJSON_IsNumber(get(obj, key))) return 1;
    snprintf(problem, sizeof problem, "%sfield \"%s\" is not a number", where, key);
    return 0;
}

/* Whether the request has every field its view and its legal (the fields of its decision,
 * protocol section 4) always have; else `problem` names the one missing. */
static int check_request(const cJSON *msg, const char *decision)
{
    static const char *const view_keys[] = {"seat", "round", "money", "hand", "hand_sizes",
        "mystery_size", "deck_size", "tiles", "played", "bought", "unsold", "turn", NULL};
    static const char *const auction_keys[] = {"cards", "type", "auctioneer", "high_bid", NULL};
    static const char *const double_keys[] = {"seat", "card", NULL};
    const cJSON *view = get(msg, "view"), *legal = get(msg, "legal"), *part;

    if (!need(msg, "view", 0, "") || !need_all(view, view_keys, "view: ")) return 0;
    if (!need(view, "auction", 1, "view: ") || !need(view, "double", 1, "view: ")) return 0;
    part = get(view, "auction");
    if (!cJSON_IsNull(part) && (!need_all(part, auction_keys, "view.auction: ") ||
                                !need(part, "high_bidder", 1, "view.auction: ") ||
                                !need(part, "price", 1, "view.auction: ")))
        return 0;
    part = get(view, "double");
    if (!cJSON_IsNull(part) && !need_all(part, double_keys, "view.double: ")) return 0;
    if (!need(msg, "legal", 0, "") || !need(legal, "can_pass", 0, "legal: ")) return 0;
    if (strcmp(decision, "play") == 0 || strcmp(decision, "offer") == 0)
        return need(legal, "cards", 0, "legal: ");
    if (strcmp(decision, "bid") == 0 || strcmp(decision, "hidden_bid") == 0 ||
        strcmp(decision, "price") == 0)
        return need_number(legal, "min", "legal: ") && need_number(legal, "max", "legal: ");
    if (strcmp(decision, "buy") == 0) return need_number(legal, "price", "legal: ");
    return 1; /* mystery: can_pass alone */
}

/* Whether new_game has every field the bot reads (only seed may be absent); else `problem`
 * names the one missing. */
static int check_new_game(const cJSON *msg)
{
    static const char *const keys[] = {"game_id", "seat", "players", "edition", "variants", NULL};
    static const char *const edition_keys[] = {"artists", "cards", NULL};
    static const char *const card_keys[] = {"id", "artist", "type", NULL};
    const cJSON *edition = get(msg, "edition"), *card;
    int artists;

    if (!need_all(msg, keys, "") || !need_all(edition, edition_keys, "edition: ")) return 0;
    artists = cJSON_GetArraySize(get(edition, "artists"));
    cJSON_ArrayForEach(card, get(edition, "cards")) {
        if (!need_all(card, card_keys, "edition's card: ")) return 0;
        if (get_long(card, "artist", -1) < 0 || get_long(card, "artist", -1) >= artists) {
            snprintf(problem, sizeof problem, "edition: card %ld has no artist %ld",
                     get_long(card, "id", -1), get_long(card, "artist", -1));
            return 0;
        }
    }
    return 1;
}

static int artist_of(long card)
{
    if (card < 0 || card >= n_cards) return -1;
    return card_artist[card];
}

static int type_of(long card)
{
    if (card < 0 || card >= n_cards) return T_UNKNOWN;
    return card_type[card];
}

static void on_new_game(const cJSON *msg)
{
    const cJSON *edition = get(msg, "edition");
    const cJSON *cards = get(edition, "cards");
    const cJSON *artists = get(edition, "artists");
    const cJSON *card;
    int size = cJSON_GetArraySize(cards);

    in_game = 0; /* until this one is read: its requests get the default answers */
    if (!check_new_game(msg)) {
        fprintf(stderr, BOT_NAME ": cannot read new_game (%s); answering the defaults\n", problem);
        return;
    }
    in_game = 1;
    n_artists = cJSON_IsArray(artists) ? cJSON_GetArraySize(artists) : 0;
    n_cards = 0;
    card_artist = xrealloc(card_artist, (size_t)size * sizeof *card_artist);
    card_type = xrealloc(card_type, (size_t)size * sizeof *card_type);
    for (int i = 0; i < size; i++) {
        card_artist[i] = -1;
        card_type[i] = T_UNKNOWN;
    }
    n_cards = size;
    cJSON_ArrayForEach(card, cards) {
        long id = get_long(card, "id", -1);
        if (id < 0 || id >= size) continue;
        card_artist[id] = (int)get_long(card, "artist", -1);
        card_type[id] = type_from_name(cJSON_GetStringValue(get(card, "type")));
    }
    fprintf(stderr, BOT_NAME ": game %s, seat %ld of %ld, %d cards, %d artists\n",
            get_str(msg, "game_id", "?"),
            get_long(msg, "seat", -1), get_long(msg, "players", -1), n_cards, n_artists);
}

/* ------------------------------------------------------------------ valuation */

/* What one painting of each artist is probably worth at the end of this round. */
struct estimate {
    int n;        /* artists */
    long *value;  /* by artist */
    long *played; /* by artist, this round */
    long *in_hand;
    long *tiles;  /* sum of the tiles so far, by artist */
};

static void estimate_free(struct estimate *e)
{
    free(e->value);
    free(e->played);
    free(e->in_hand);
    free(e->tiles);
}

static void estimate_make(struct estimate *e, const cJSON *view)
{
    const cJSON *played = get(view, "played");
    const cJSON *tiles = get(view, "tiles");
    const cJSON *hand = get(view, "hand");
    const cJSON *item;
    int n = cJSON_IsArray(played) ? cJSON_GetArraySize(played) : n_artists;
    long *strength;

    e->n = n;
    e->value = calloc((size_t)n + 1, sizeof(long));
    e->played = calloc((size_t)n + 1, sizeof(long));
    e->in_hand = calloc((size_t)n + 1, sizeof(long));
    e->tiles = calloc((size_t)n + 1, sizeof(long));
    strength = calloc((size_t)n + 1, sizeof(long));
    if (!e->value || !e->played || !e->in_hand || !e->tiles || !strength) {
        fprintf(stderr, BOT_NAME ": out of memory\n");
        exit(1);
    }
    for (int a = 0; a < n; a++) e->played[a] = num_or(cJSON_GetArrayItem(played, a), 0);
    cJSON_ArrayForEach(item, tiles) {          /* one row per round */
        for (int a = 0; a < n; a++) e->tiles[a] += num_or(cJSON_GetArrayItem(item, a), 0);
    }
    cJSON_ArrayForEach(item, hand) {
        int a = artist_of(num_or(item, -1));
        if (a >= 0 && a < n) e->in_hand[a]++;
    }
    /* Cards on the table count double: they are sure; ours in hand are only likely. */
    for (int a = 0; a < n; a++) strength[a] = 2 * e->played[a] + e->in_hand[a];
    for (int a = 0; a < n; a++) {
        int rank = 0; /* artists ahead of a; ties go to the artist further left (R5.3) */
        for (int b = 0; b < n; b++)
            if (strength[b] > strength[a] || (strength[b] == strength[a] && b < a)) rank++;
        if (rank < 3)
            e->value[a] = e->tiles[a] + (rank == 0 ? 30 : rank == 1 ? 20 : 10);
        else
            e->value[a] = (e->tiles[a] + 10) / 4; /* an outside chance */
    }
    free(strength);
}

static long card_value(const struct estimate *e, long card)
{
    int a = artist_of(card);
    return (a >= 0 && a < e->n) ? e->value[a] : 0;
}

/* The worth of the lot on offer: the auction's cards, or the waiting double. */
static long lot_value(const struct estimate *e, const cJSON *view)
{
    const cJSON *auction = get(view, "auction");
    const cJSON *cards = get(auction, "cards");
    const cJSON *item;
    long total = 0;

    if (cJSON_IsArray(cards)) {
        cJSON_ArrayForEach(item, cards) total += card_value(e, num_or(item, -1));
    }
    return total;
}

static long clamp(long x, long lo, long hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* ------------------------------------------------------------------ decisions */

/* Each returns a new reply object without the id. */

static cJSON *action(const char *name)
{
    cJSON *reply = cJSON_CreateObject();
    cJSON_AddStringToObject(reply, "action", name);
    return reply;
}

static cJSON *action_with(const char *name, const char *key, long value)
{
    cJSON *reply = action(name);
    cJSON_AddNumberToObject(reply, key, (double)value);
    return reply;
}

/* The first legal answer: what tests/scripted_bots/first_legal.py does. */
static cJSON *first_legal(const char *decision, const cJSON *legal)
{
    if (strcmp(decision, "play") == 0)
        return action_with("play", "card", num_or(cJSON_GetArrayItem(get(legal, "cards"), 0), 0));
    if (strcmp(decision, "hidden_bid") == 0)
        return action_with("bid", "amount", 0);
    if (strcmp(decision, "price") == 0)
        return action_with("price", "amount", get_long(legal, "min", 1));
    return action("pass"); /* offer, bid, buy, mystery */
}

/* Whether the hand (legal.cards of a play) has a card of artist a that is not a double. */
static int holds_second_card(const cJSON *legal, int a)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, get(legal, "cards")) {
        long card = num_or(item, -1);
        if (artist_of(card) == a && type_of(card) != T_DOUBLE) return 1;
    }
    return 0;
}

static cJSON *decide_play(const struct estimate *e, const cJSON *legal)
{
    const cJSON *item;
    long best = -1, best_score = 0;

    cJSON_ArrayForEach(item, get(legal, "cards")) {
        long card = num_or(item, -1);
        int a = artist_of(card);
        long score;
        if (card < 0) continue;
        if (a < 0 || a >= e->n)
            score = -500;
        else if (e->played[a] >= 4)
            score = -1000; /* the fifth card ends the round and is not auctioned (R5.1) */
        else
            score = 10 * e->played[a] + 5 * e->in_hand[a] + e->tiles[a] / 10;
        /* A double we can add to ourselves sells two paintings for us (R4.5). */
        if (score >= 0 && type_of(card) == T_DOUBLE && e->played[a] <= 2 &&
            holds_second_card(legal, a))
            score += 8;
        if (best < 0 || score > best_score) {
            best = card;
            best_score = score;
        }
    }
    return best < 0 ? NULL : action_with("play", "card", best);
}

static cJSON *decide_offer(const struct estimate *e, const cJSON *view, const cJSON *legal,
                           long seat)
{
    static const int preference[] = {T_OPEN, T_ONCE_AROUND, T_HIDDEN, T_FIXED_PRICE, T_UNKNOWN};
    const cJSON *dbl = get(view, "double");
    long dcard = get_long(dbl, "card", -1);
    int a = artist_of(dcard);
    const cJSON *item;

    /* A second card that is the fifth of its artist ends the round, both cards unsold. */
    if (a < 0 || a >= e->n || e->played[a] + 1 >= 5) return action("pass");
    /* Our own double, or a lot worth running: we become its auctioneer and get the money. */
    if (get_long(dbl, "seat", -1) != seat && 2 * e->value[a] < 20) return action("pass");
    for (size_t p = 0; p < sizeof preference / sizeof *preference; p++) {
        cJSON_ArrayForEach(item, get(legal, "cards")) {
            long card = num_or(item, -1);
            if (card >= 0 && type_of(card) == preference[p])
                return action_with("offer", "card", card);
        }
    }
    return action("pass");
}

static cJSON *decide(const cJSON *request)
{
    const char *decision = get_str(request, "decision", NULL);
    const cJSON *view = get(request, "view");
    const cJSON *legal = get(request, "legal");
    const cJSON *auction = get(view, "auction");
    long seat = get_long(view, "seat", -1);
    int mine = get_long(auction, "auctioneer", -2) == seat; /* our auction: we'd pay the bank */
    long lo = get_long(legal, "min", 0), hi = get_long(legal, "max", 0);
    struct estimate e;
    cJSON *reply = NULL;
    long v;

    if (decision == NULL) return NULL;
    if (!cJSON_IsObject(view) || !cJSON_IsObject(legal)) return first_legal(decision, legal);
    estimate_make(&e, view);
    v = lot_value(&e, view);

    if (strcmp(decision, "play") == 0) {
        reply = decide_play(&e, legal);
    } else if (strcmp(decision, "offer") == 0) {
        reply = decide_offer(&e, view, legal, seat);
    } else if (strcmp(decision, "bid") == 0) {
        long limit = mine ? v / 2 : v * 3 / 5;
        limit = limit < hi ? limit : hi;
        if (limit < lo) {
            reply = action("pass");
        } else if (strcmp(get_str(auction, "type", ""), "once-around") == 0) {
            reply = action_with("bid", "amount", clamp(limit * 3 / 4, lo, limit)); /* one shot */
        } else {
            /* open: raise by a third of the way to our limit, so auctions end sooner */
            reply = action_with("bid", "amount", lo + (limit - lo) / 3);
        }
    } else if (strcmp(decision, "hidden_bid") == 0) {
        reply = action_with("bid", "amount", clamp(mine ? v / 3 : v * 2 / 5, 0, hi));
    } else if (strcmp(decision, "price") == 0) {
        /* If nobody buys we pay it ourselves (R4.4), so ask about half the worth. */
        reply = action_with("price", "amount", clamp(v / 2, lo, hi));
    } else if (strcmp(decision, "buy") == 0) {
        long price = get_long(legal, "price", -1);
        reply = action(price >= 0 && price <= v * 3 / 5 ? "buy" : "pass");
    } else if (strcmp(decision, "mystery") == 0) {
        /* Turning a card hurries the round's end: good when we already own paintings. */
        const cJSON *bought = cJSON_GetArrayItem(get(view, "bought"), (int)seat);
        reply = action(cJSON_GetArraySize(bought) > 0 ? "reveal" : "pass");
    }
    estimate_free(&e);
    return reply != NULL ? reply : first_legal(decision, legal);
}

/* ------------------------------------------------------------------ I/O */

/* Write one JSON object as one line and flush; exit quietly if the referee has gone. */
static void send(cJSON *message)
{
    char *text = cJSON_PrintUnformatted(message);
    if (text == NULL) {
        fprintf(stderr, BOT_NAME ": could not encode a reply\n");
        exit(1);
    }
    if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) == EOF) {
        fprintf(stderr, BOT_NAME ": stdout closed (%s), exiting\n", strerror(errno));
        exit(0);
    }
    cJSON_free(text);
}

static void on_request(const cJSON *msg)
{
    const cJSON *id = get(msg, "id");
    const char *decision = get_str(msg, "decision", "?");
    cJSON *reply, *out, *field;
    int readable;

    if (!cJSON_IsNumber(id)) {
        fprintf(stderr, BOT_NAME ": request without an id, ignored\n");
        return;
    }
    readable = check_request(msg, decision);
    if (readable && !in_game) {
        snprintf(problem, sizeof problem, "no game: its new_game was missing or unreadable");
        readable = 0;
    }
    if (!readable) {
        fprintf(stderr, BOT_NAME ": request %.0f (%s): %s; falling back to the default\n",
                id->valuedouble, decision, problem);
        reply = first_legal(decision, get(msg, "legal"));
    } else {
        reply = decide(msg);
    }
    if (reply == NULL) {
        fprintf(stderr, BOT_NAME ": request %.0f: unknown decision, passing\n", id->valuedouble);
        reply = action("pass");
    }
    /* The id first, then the action: {"id":17,"action":"bid","amount":15}. */
    out = cJSON_CreateObject();
    cJSON_AddItemToObject(out, "id", cJSON_Duplicate(id, 0));
    while ((field = reply->child) != NULL) {
        cJSON_DetachItemViaPointer(reply, field);
        cJSON_AddItemToObject(out, field->string, field); /* copies the key */
    }
    send(out);
    cJSON_Delete(out);
    cJSON_Delete(reply);
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;

    signal(SIGPIPE, SIG_IGN); /* a closed stdout shows up as a write error in send() */
    /* getline grows the buffer as needed: requests are several KiB, new_game more. */
    while ((len = getline(&line, &cap, stdin)) != -1) {
        cJSON *msg;
        const char *type;

        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (len == 0) continue;
        msg = cJSON_Parse(line); /* getline ends the line with a NUL */
        if (msg == NULL) {
            fprintf(stderr, BOT_NAME ": not JSON, ignored: %.80s\n", line);
            continue;
        }
        type = cJSON_GetStringValue(get(msg, "type"));
        if (type == NULL) {
            /* not a message we know: ignore it */
        } else if (strcmp(type, "hello") == 0) {
            cJSON *hello = cJSON_CreateObject();
            cJSON_AddStringToObject(hello, "type", "hello");
            cJSON_AddStringToObject(hello, "name", BOT_NAME);
            cJSON_AddNumberToObject(hello, "protocol", 1);
            send(hello);
            cJSON_Delete(hello);
        } else if (strcmp(type, "new_game") == 0) {
            on_new_game(msg);
        } else if (strcmp(type, "request") == 0) {
            on_request(msg);
        } else if (strcmp(type, "warning") == 0) {
            fprintf(stderr, BOT_NAME ": warning for request %ld: %s: %s\n",
                    get_long(msg, "id", -1), get_str(msg, "fault", "?"),
                    get_str(msg, "reason", "?"));
        } else if (strcmp(type, "game_end") == 0) {
            char *result = cJSON_PrintUnformatted(get(msg, "ranks"));
            fprintf(stderr, BOT_NAME ": game over, ranks %s\n", result ? result : "?");
            cJSON_free(result);
            in_game = 0;
        } else if (strcmp(type, "goodbye") == 0) {
            cJSON_Delete(msg);
            break;
        }
        /* event: nothing to track, every request carries a full view */
        cJSON_Delete(msg);
    }
    free(line);
    free(card_artist);
    free(card_type);
    return 0;
}
