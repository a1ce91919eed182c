#!/usr/bin/env python3
"""strong_bot: a Modern Art bot that values paintings by simulating the rest of the round
(protocol v1, standard library only).

At each decision it deals the cards it has not seen (the whole deck less its hand and every
card played face up so far) into the other seats' hands, many times over, plays the rest of the
round out from each such deal with a plausible card-playing policy, and counts where each
artist ends: that gives the chance of each artist finishing first, second or third, and so the
expected sale value of one of its paintings (its tiles of earlier rounds plus this round's).

From those values it decides as if it played for its place, not its money: every amount is
weighed as what it gains over the other seats on average (paying a rival 20 costs 20 and gives
that rival 20).  So it bids up to about a painting's value as a buyer, up to four sevenths of it
on its own lot (where it pays the bank), names fixed prices a little under the value, and plays
the card whose auction, and whose push of its artist's count, leaves it furthest ahead.

Deterministic for a given `seed` (protocol section 3): its random numbers come from the seed the
referee sends, and it simulates a fixed number of deals per decision.  A decision has a budget
(0.2 s by default, `--budget`), a guard that stops the simulations early only on a machine far
slower than expected, and is never more than a third of the move time.

Run:   python3 strong_bot.py [--budget SECONDS] [--simulations N] [--seed N] [--name NAME]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from pathlib import Path

PROTOCOL = 1
TILES = (30, 20, 10)
BUDGET = 0.2  # seconds per decision, at most (a third of the move time if that is less)
SIMULATIONS = 160  # deals played out per estimate (one estimate per decision, or per artist
#                    of its hand when it chooses a card to play)

# Bidding, as shares of the lot's estimated value (see `limits`); measured against the
# baseline with benchmarks/ladder.py.
BUY_SHARE = 0.9  # open auctions and fixed prices, as a buyer
ONCE_SHARE = 0.65  # once-around, as a buyer (one bid, later seats may outbid it)
HIDDEN_SHARE = 0.65  # hidden auctions, as a buyer (a sealed first-price bid)
OWN_HIDDEN_SHARE = 0.4  # hidden auctions of its own lot (it would pay the bank)
PRICE_SHARE = 0.65  # fixed prices it names
SALE_SHARE = 0.7  # what a lot it auctions is expected to fetch, as a share of its value


def log(*parts: object) -> None:
    print("strong_bot:", *parts, file=sys.stderr, flush=True)


class Game:
    """One game as seen from one seat: the cards, what has been seen, and the decisions."""

    def __init__(self, msg: dict, budget: float, simulations: int, seed_mix: int) -> None:
        self.seat: int = msg["seat"]
        self.players: int = msg["players"]
        self.n_art = len(msg["edition"]["artists"])
        cards = msg["edition"]["cards"]
        self.artist = {c["id"]: c["artist"] for c in cards}
        self.kind = {c["id"]: c["type"] for c in cards}
        self.seen: set[int] = set()  # cards played face up (card_played, mystery_revealed)
        self.rng = random.Random(f"{msg.get('seed', 0)}:{seed_mix}")
        self.budget = budget
        self.simulations = simulations
        self.cache: dict[tuple, list[float]] = {}

    def seen_event(self, ev: dict) -> None:
        if ev["type"] in ("card_played", "mystery_revealed"):
            self.seen.add(ev["card"])
        elif ev["type"] == "round_ended":
            self.cache.clear()

    # ------------------------------------------------------------ valuation

    def earlier(self, view: dict) -> list[int]:
        """Each artist's tiles of the rounds before this one."""
        rows = view["tiles"][: view["round"] - 1]
        return [sum(row[a] for row in rows) for a in range(self.n_art)]

    def ranked_values(self, counts: list[int], earlier: list[int]) -> list[float]:
        """What a painting of each artist sells for if the round ends with `counts` (R5.3)."""
        order = sorted((a for a in range(self.n_art) if counts[a] > 0),
                       key=lambda a: (-counts[a], a))
        out = [0.0] * self.n_art
        for place, a in enumerate(order[:3]):
            out[a] = float(TILES[place] + earlier[a])
        return out

    def deals(self, view: dict, hand: list[int]) -> list[list[list[int]]]:
        """`simulations` guesses of every seat's hand: its own as it is, the others' drawn
        from the cards it has not seen (as artists)."""
        mine = set(view["hand"])
        unseen = [c for c in self.artist if c not in self.seen and c not in mine]
        unseen.sort()
        sizes = view["hand_sizes"]
        out = []
        for _ in range(self.simulations):
            self.rng.shuffle(unseen)
            hands, at = [], 0
            for s in range(self.players):
                if s == self.seat:
                    hands.append(list(hand))
                else:
                    n = min(sizes[s], len(unseen) - at)
                    hands.append(unseen[at:at + n])
                    at += n
            out.append(hands)
        return out

    def playout(self, counts: list[int], hands: list[list[int]], first: int,
                rng: random.Random) -> list[int]:
        """Play the round out from `counts` (each seat plays a card in turn, leaning to the
        artists already ahead, and a double gets a second card when its player or a later seat
        holds one); the final counts."""
        counts = list(counts)
        if max(counts, default=0) >= 5:
            return counts
        hands = [list(h) for h in hands]
        n = self.players
        seat = first
        empty = 0
        while empty < n:
            hand = hands[seat]
            if not hand:
                empty += 1
                seat = (seat + 1) % n
                continue
            empty = 0
            weights = [(1 + counts[self.artist[c]]) ** 2 for c in hand]
            card = rng.choices(hand, weights)[0]
            hand.remove(card)
            a = self.artist[card]
            counts[a] += 1
            if counts[a] >= 5:
                break
            runner = seat
            if self.kind[card] == "double":
                for k in range(n):
                    s = (seat + k) % n
                    partner = [c for c in hands[s] if self.artist[c] == a
                               and self.kind[c] != "double"]
                    if partner and rng.random() < (0.8 if k == 0 else 0.5):
                        hands[s].remove(partner[0])
                        counts[a] += 1
                        runner = s
                        break
                if counts[a] >= 5:
                    break
            seat = (runner + 1) % n
        return counts

    def values(self, view: dict, counts: list[int] | None = None, hand: list[int] | None = None,
               first: int | None = None, deals: list[list[list[int]]] | None = None
               ) -> list[float]:
        """Expected sale value of one painting of each artist at this round's end, by
        playouts from `counts` (default: the table now) with seat `first` to play next."""
        counts = list(view["played"]) if counts is None else counts
        hand = list(view["hand"]) if hand is None else hand
        first = self.next_to_play(view) if first is None else first
        earlier = self.earlier(view)
        if max(counts, default=0) >= 5:
            return self.ranked_values(counts, earlier)
        key = (view["round"], tuple(counts), tuple(sorted(hand)), first,
               tuple(view["hand_sizes"]), len(self.seen))
        if key in self.cache:
            return self.cache[key]
        deals = self.deals(view, hand) if deals is None else deals
        total = [0.0] * self.n_art
        rng = random.Random(self.rng.random())
        done = 0
        for hands in deals:
            hands[self.seat] = hand
            final = self.playout(counts, hands, first, rng)
            for a, v in enumerate(self.ranked_values(final, earlier)):
                total[a] += v
            done += 1
            if time.monotonic() > self.deadline:
                break
        out = [t / done for t in total]
        self.cache[key] = out
        return out

    def next_to_play(self, view: dict) -> int:
        """The seat that plays the next card: this one at a `play` decision, else the one
        left of whoever runs the auction now (R3.2, R4.6)."""
        auction = view.get("auction")
        if auction is not None:
            return (auction["auctioneer"] + 1) % self.players
        if view.get("double") is not None:
            return (view["double"]["seat"] + 1) % self.players
        return view["turn"]

    def holdings(self, view: dict, values: list[float]) -> float:
        """What the paintings bought this round are worth to this seat, less the others'
        average: the standing they give it."""
        worth = [sum(values[self.artist[c]] for c in bought) for bought in view["bought"]]
        others = sum(worth) - worth[self.seat]
        return worth[self.seat] - others / (self.players - 1)

    # ------------------------------------------------------------ decisions

    def decide(self, kind: str, view: dict, legal: dict, move_time: float) -> dict:
        self.deadline = time.monotonic() + min(self.budget, move_time / 3)
        if kind == "play":
            return {"action": "play", "card": self.choose_card(view, legal["cards"])}
        if kind == "offer":
            return self.offer(view, legal["cards"])
        if kind == "mystery":
            return {"action": "pass"}
        auction = view["auction"]
        vals = self.values(view)
        value = sum(vals[self.artist[c]] for c in auction["cards"])
        mine = auction["auctioneer"] == self.seat
        n = self.players
        if kind == "bid":
            high = auction["high_bid"]
            if mine:
                # Its own lot: without a bid it is free; else buying at high + 1 (paying the
                # bank) beats selling at `high` while high < value * n / (2n - 1).
                limit = value * n / (2 * n - 1) if high > 0 else -1.0
                amount = legal["min"]
            elif auction["type"] == "open":
                limit, amount = value * BUY_SHARE, legal["min"]
            else:
                limit = value * ONCE_SHARE
                amount = max(legal["min"], int(limit))
            if legal["min"] <= limit and amount <= legal["max"]:
                return {"action": "bid", "amount": amount}
            return {"action": "pass"}
        if kind == "hidden_bid":
            amount = int(value * (OWN_HIDDEN_SHARE if mine else HIDDEN_SHARE))
            return {"action": "bid", "amount": max(0, min(legal["max"], amount))}
        if kind == "price":
            amount = int(value * PRICE_SHARE)
            return {"action": "price", "amount": max(legal["min"], min(legal["max"], amount))}
        if kind == "buy":
            return {"action": "buy"} if legal["price"] <= value * BUY_SHARE else {
                "action": "pass"}
        return {"action": "pass"}

    def sale(self, value: float) -> float:
        """A lot worth `value` auctioned by this seat: what it is expected to fetch, less what
        the buyer gains over the others' average (its standing from the sale)."""
        price = SALE_SHARE * value
        return price - (value - price) / (self.players - 1)

    def offer(self, view: dict, cards: list[int]) -> dict:
        """Add a second card to the double when auctioning both is worth it: the one who adds
        runs the auction and takes the proceeds (R4.5)."""
        double = view["double"]
        a = self.artist[double["card"]]
        counts = list(view["played"])
        counts[a] += 1
        card = min(cards, key=lambda c: (self.type_rank(c), c))
        hand = [c for c in view["hand"] if c != card]
        vals = self.values(view, counts, hand, self.seat)
        if self.sale(2 * vals[a]) + self.holdings(view, vals) > 6 + self.holdings(
                view, self.values(view)):
            return {"action": "offer", "card": card}
        return {"action": "pass"}

    def type_rank(self, card: int) -> int:
        """Auction types by what they tend to fetch for the auctioneer."""
        return ("open", "once-around", "hidden", "fixed-price", "double").index(self.kind[card])

    def choose_card(self, view: dict, cards: list[int]) -> int:
        """The card whose play leaves this seat furthest ahead: its auction's proceeds and
        the change in worth of the paintings bought this round (a fifth card: the round
        scored now)."""
        earlier = self.earlier(view)
        hand = list(view["hand"])
        deals = self.deals(view, hand)
        best: tuple[float, int] | None = None
        by_artist: dict[tuple[int, bool], list[float]] = {}
        for card in cards:
            a = self.artist[card]
            counts = list(view["played"])
            counts[a] += 1
            rest = [c for c in hand if c != card]
            partner = [c for c in rest if self.artist[c] == a and self.kind[c] != "double"]
            pair = self.kind[card] == "double" and bool(partner)
            if pair:
                counts[a] += 1
                rest.remove(min(partner, key=lambda c: (self.type_rank(c), c)))
            if counts[a] >= 5:  # ends the round: not auctioned, everything sold now
                score = self.holdings(view, self.ranked_values(counts, earlier))
            else:
                if (a, pair) not in by_artist:
                    by_artist[(a, pair)] = self.values(
                        view, counts, rest, (self.seat + 1) % self.players,
                        [[list(h) for h in d] for d in deals])
                vals = by_artist[(a, pair)]
                if self.kind[card] == "double":
                    # Paired, it sells two paintings; alone, another seat may add to it and
                    # take the proceeds, or it comes back free.
                    lot = self.sale(2 * vals[a]) - 4 if pair else 0.2 * vals[a]
                else:
                    lot = self.sale(vals[a]) + 0.5 * (3 - self.type_rank(card))
                score = self.holdings(view, vals) + lot
            if best is None or score > best[0] + 1e-9:
                best = (score, card)
        assert best is not None
        return best[1]


def fallback(kind: object, legal: object) -> dict:
    """The referee's default answer (protocol section 8) to a decision the strategy failed
    on: the first card to play, no hidden bid, the lowest price, else a pass."""
    allowed = legal if isinstance(legal, dict) else {}
    if kind == "play" and allowed.get("cards"):
        return {"action": "play", "card": allowed["cards"][0]}
    amount = {"hidden_bid": ("bid", 0), "price": ("price", allowed.get("min", 0))}.get(str(kind))
    return {"action": amount[0], "amount": amount[1]} if amount else {"action": "pass"}


def placed(error: Exception) -> str:
    """Where to start looking: the deepest line of this bot that `error` passed through, as
    the other kits name it (" at strong_bot.py:214 in decide"), or "" if none."""
    for step in reversed(traceback.TracebackException.from_exception(error).stack):
        if step.filename == __file__:
            return f" at {Path(__file__).name}:{step.lineno} in {step.name}"
    return ""


def fell_back(request: dict, error: Exception) -> str:
    """The log's line for a request the strategy failed on: the request, the error and its
    place ("request 7 (bid): KeyError('min') at strong_bot.py:214 in decide; ...")."""
    return (f"request {request.get('id')} ({request.get('decision')}): {error!r}"
            f"{placed(error)}; falling back to the default answer")


def main() -> None:
    parser = argparse.ArgumentParser(description="A Modern Art bot that simulates rounds.")
    parser.add_argument("--budget", type=float, default=BUDGET,
                        help=f"seconds per decision, at most (default {BUDGET})")
    parser.add_argument("--simulations", type=int, default=SIMULATIONS,
                        help=f"deals played out per estimate (default {SIMULATIONS})")
    parser.add_argument("--seed", type=int, default=0, help="mixed into each game's seed")
    parser.add_argument("--name", default="strong_bot")
    args = parser.parse_args()
    out = sys.stdout
    game: Game | None = None
    for raw in sys.stdin:
        try:
            msg = json.loads(raw)
        except ValueError:
            log(f"not JSON, ignored: {raw[:80]!r}")
            continue
        if not isinstance(msg, dict):
            continue
        kind = msg.get("type")
        if kind == "hello":
            out.write(json.dumps({"type": "hello", "name": args.name, "protocol": PROTOCOL})
                      + "\n")
            out.flush()
        elif kind == "new_game":
            game = None  # until this one is read: its requests get the default answers
            try:
                game = Game(msg, args.budget, max(1, args.simulations), args.seed)
            except Exception as exc:  # a field missing: logged, the game played by default
                log(f"cannot read new_game ({exc!r}{placed(exc)}); answering the defaults")
        elif kind == "event" and game is not None:
            try:
                game.seen_event(msg["event"])
            except Exception as exc:  # an event it cannot read is not worth a crash
                seen = msg.get("event")
                kind = f"{seen.get('type')}: " if isinstance(seen, dict) else ""
                log(f"cannot read an event ({kind}{exc!r}{placed(exc)}), ignored")
        elif kind == "request":
            decision, legal = msg.get("decision"), msg.get("legal")
            try:
                assert game is not None, "a request before new_game"
                reply = game.decide(msg["decision"], msg["view"], msg["legal"],
                                    msg.get("time", {}).get("move", 1.0))
            except Exception as exc:  # a bug in the strategy costs a move, never a fault
                log(fell_back(msg, exc))
                reply = fallback(decision, legal)
            reply["id"] = msg.get("id")
            out.write(json.dumps(reply) + "\n")
            out.flush()
        elif kind == "warning":
            log("warning:", msg.get("reason"))
        elif kind == "goodbye":
            break


if __name__ == "__main__":
    main()
