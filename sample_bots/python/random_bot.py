#!/usr/bin/env python3
"""random_bot: a random but always legal Modern Art bot (protocol v1, standard library only).

It plays a random card, bids now and then (modestly), names modest fixed prices, buys cheap
fixed-price paintings sometimes, adds a second card to a double sometimes and turns the mystery
card sometimes.  Every choice is drawn from the request's `legal` field, so it never makes an
illegal move.  Games are reproducible: each game's random generator is seeded from the `seed`
the referee sends in `new_game` (the same for the same game, seat order and seat) and, if given,
`--seed`.

Run:   python3 random_bot.py [--seed N] [--name NAME]
Try:   referee play "python3 random_bot.py" "python3 random_bot.py" "python3 random_bot.py" -v

Protocol: ../../protocol/README.md.  Everything on stdout is a protocol line; logging goes to
stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

PROTOCOL = 1

# How adventurous the bot is.  Probabilities are per request.
BID_CHANCE = 0.4  # bid at all in an open or once-around auction
BID_SPREAD = 15  # bid between legal.min and legal.min + BID_SPREAD (capped at legal.max)
HIDDEN_CAP = 30  # hidden bids are 0 .. min(legal.max, HIDDEN_CAP)
PRICE_CAP = 30  # fixed prices are legal.min .. min(legal.max, PRICE_CAP)
CHEAP_PRICE = 20  # a fixed price at most this much is worth considering ...
BUY_CHANCE = 0.5  # ... and is bought with this probability
OFFER_CHANCE = 0.5  # add a second card to a double
REVEAL_CHANCE = 0.3  # turn the mystery card


def log(*parts: object) -> None:
    """Logging goes to stderr, never stdout (stdout is for protocol lines only)."""
    print("random_bot:", *parts, file=sys.stderr, flush=True)


def send(message: dict) -> None:
    """One JSON object on one line, flushed at once."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class RandomBot:
    def __init__(self, seed: int | None) -> None:
        self.seed = seed
        self.rng = random.Random(f"{seed}:no-game")
        self.game_id = None
        self.seat = None

    def new_game(self, message: dict) -> None:
        self.game_id = message.get("game_id")
        self.seat = message.get("seat")
        # The referee's seed for this seat: the same in the same game of a gauntlet whoever the
        # candidate is, so every candidate meets the same random bot.  (The game id and seat
        # from a referee that sends none.)  A string seed is hashed deterministically (not with
        # Python's per-run hash salt), so the same seed and --seed always give the same game.
        seed = message.get("seed")
        own = seed if isinstance(seed, int) else f"{self.game_id}:{self.seat}"
        prefix = "" if self.seed is None else f"{self.seed}:"
        self.rng = random.Random(f"{prefix}{own}")
        log(f"new game {self.game_id}: seat {self.seat} of {message.get('players')}")

    def decide(self, request: dict) -> dict:
        """A random legal answer to a request (without its id)."""
        rng = self.rng
        decision = request.get("decision")
        legal = request["legal"]  # its fields by decision (protocol section 4), all required

        if decision == "play":
            return {"action": "play", "card": rng.choice(legal["cards"])}

        if decision == "offer":
            cards = legal["cards"]
            if cards and rng.random() < OFFER_CHANCE:
                return {"action": "offer", "card": rng.choice(cards)}
            return {"action": "pass"}

        if decision == "bid":
            low, high = legal["min"], legal["max"]
            if low <= high and rng.random() < BID_CHANCE:
                return {"action": "bid", "amount": rng.randint(low, min(high, low + BID_SPREAD))}
            return {"action": "pass"}

        if decision == "hidden_bid":
            low, high = legal["min"], legal["max"]
            top = max(low, min(high, HIDDEN_CAP))
            return {"action": "bid", "amount": rng.randint(low, top)}

        if decision == "price":
            low, high = legal["min"], legal["max"]
            top = max(low, min(high, PRICE_CAP))
            return {"action": "price", "amount": rng.randint(low, top)}

        if decision == "buy":
            if legal["price"] <= CHEAP_PRICE and rng.random() < BUY_CHANCE:
                return {"action": "buy"}
            return {"action": "pass"}

        if decision == "mystery":
            if rng.random() < REVEAL_CHANCE:
                return {"action": "reveal"}
            return {"action": "pass"}

        log(f"unknown decision {decision!r}; passing")
        return {"action": "pass"}


def fallback(kind: object, legal: object) -> dict:
    """The referee's default answer (protocol section 8), for a request it could not read,
    from what `legal` has."""
    legal = legal if isinstance(legal, dict) else {}
    cards = legal.get("cards")
    if kind == "play":
        if isinstance(cards, list) and cards:
            return {"action": "play", "card": cards[0]}
        return {"action": "pass"}  # no cards to play: a fault whatever the answer
    if kind == "hidden_bid":
        return {"action": "bid", "amount": 0}
    if kind == "price":
        return {"action": "price", "amount": legal.get("min", 0)}
    return {"action": "pass"}


def raised_at(exc: BaseException) -> str:
    """Where in this file `exc` was raised ("random_bot.py:80 in decide"): the innermost of
    its traceback's frames that run this file's code, which is the line to look at."""
    spot = "somewhere outside " + os.path.basename(__file__)
    frame = exc.__traceback__
    while frame is not None:
        code = frame.tb_frame.f_code
        if code.co_filename == __file__:
            spot = f"{os.path.basename(__file__)}:{frame.tb_lineno} in {code.co_name}"
        frame = frame.tb_next
    return spot


def main() -> None:
    parser = argparse.ArgumentParser(description="A random legal Modern Art bot.")
    parser.add_argument("--seed", type=int, default=None,
                        help="mixed into every game's seed (default: new_game's seed alone)")
    parser.add_argument("--name", default="random_bot", help="the name sent in hello")
    args = parser.parse_args()
    bot = RandomBot(args.seed)

    try:
        for raw in sys.stdin.buffer:  # bytes: json.loads decodes UTF-8 whatever the locale
            try:
                message = json.loads(raw)
            except ValueError:
                log(f"ignoring a line that is not JSON: {raw[:80]!r}")
                continue
            if not isinstance(message, dict):
                continue
            kind = message.get("type")
            if kind == "hello":
                send({"type": "hello", "name": args.name[:64], "protocol": PROTOCOL})
            elif kind == "new_game":
                bot.new_game(message)
            elif kind == "request":
                try:
                    reply = bot.decide(message)
                except Exception as exc:  # a field missing costs a move, never a fault
                    log(f"request {message.get('id')} ({message.get('decision')}): "
                        f"{exc!r} at {raised_at(exc)}; falling back to the default answer")
                    reply = fallback(message.get("decision"), message.get("legal"))
                send({"id": message.get("id"), **reply})
            elif kind == "warning":
                log(f"warning for request {message.get('id')}: {message.get('fault')}: "
                    f"{message.get('reason')} (applied {message.get('applied')})")
            elif kind == "game_end":
                log(f"game {message.get('game_id')} over: money {message.get('money')}, "
                    f"ranks {message.get('ranks')}")
            elif kind == "goodbye":
                break
            # events and unknown message types need no answer
    except (BrokenPipeError, KeyboardInterrupt):
        # The referee went away: nothing left to do.  Point stdout at /dev/null so that
        # Python's final flush at exit does not complain about the broken pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    main()
