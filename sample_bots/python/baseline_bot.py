#!/usr/bin/env python3
"""A strong-ish baseline Modern Art bot (protocol v1), standard library only.

It values each artist from the table: the cards played this round, its own hand, the cards
still unseen, and the tiles so far.  From a projected end-of-round count it estimates each
artist's place and the sale value of one painting, discounted by how sure that place is.  It
bids up to that value less a margin, prices fixed-price auctions just under it, adds second
cards to doubles when that makes it the auctioneer, and plays the card whose auction should
pay it most.  Run: python3 baseline_bot.py
"""

from __future__ import annotations

import json
import os
import sys
import traceback

TILES = (30, 20, 10)
MARGIN = 0.8  # bid at most this share of a painting's estimated value


class Game:
    def __init__(self, msg: dict) -> None:
        self.seat = msg["seat"]
        self.players = msg["players"]
        self.artists = msg["edition"]["artists"]
        self.cards = {c["id"]: (c["artist"], c["type"]) for c in msg["edition"]["cards"]}
        self.per_artist = [0] * len(self.artists)
        for artist, _ in self.cards.values():
            self.per_artist[artist] += 1
        self.gone = [0] * len(self.artists)  # cards of earlier rounds, seen in events

    def seen_event(self, ev: dict) -> None:
        if ev["type"] == "round_ended":
            for a, n in enumerate(ev["counts"]):
                self.gone[a] += n

    # ------------------------------------------------------------ valuation

    def values(self, view: dict) -> list[float]:
        """Estimated sale value of one painting of each artist at the end of this round."""
        n_art = len(self.artists)
        played = view["played"]
        mine = [0] * n_art
        for c in view["hand"]:
            mine[self.cards[c][0]] += 1
        others_cards = sum(view["hand_sizes"]) - len(view["hand"]) + view["mystery_size"]
        unseen = [max(0, self.per_artist[a] - self.gone[a] - played[a] - mine[a])
                  for a in range(n_art)]
        total_unseen = sum(unseen) or 1
        progress = max(played) / 5 if played else 0.0
        # Projected count at round end: what is down, part of my hand, part of the rest.
        projected = [
            played[a] + 0.45 * mine[a] + 0.35 * others_cards * unseen[a] / total_unseen
            + 0.001 * (n_art - a)  # ties go to the artist further left
            for a in range(n_art)
        ]
        order = sorted(range(n_art), key=lambda a: -projected[a])
        earlier = [sum(row[a] for row in view["tiles"][: view["round"] - 1]) for a in range(n_art)]
        out = [0.0] * n_art
        for place, a in enumerate(order):
            if place < 3:
                gap = projected[a] - projected[order[3]] if len(order) > 3 else 2.0
                sure = min(1.0, 0.45 + 0.5 * progress + 0.15 * gap)
                out[a] = (TILES[place] + earlier[a]) * sure
            elif place == 3:
                out[a] = (10 + earlier[a]) * 0.15 * (1 - progress)
        if view["round"] == 4:
            pass  # last round: nothing carries over; the same estimate applies
        return out

    def lot_value(self, view: dict, cards: list[int]) -> float:
        vals = self.values(view)
        return sum(vals[self.cards[c][0]] for c in cards)

    # ------------------------------------------------------------ decisions

    def decide(self, kind: str, view: dict, legal: dict) -> dict:
        me = self.seat
        if kind == "play":
            return {"action": "play", "card": self.choose_card(view, legal["cards"])}
        if kind == "offer":
            double = view["double"]
            cards = legal["cards"]
            # Adding makes me the auctioneer of both cards and earns me the proceeds.
            best = min(cards, key=lambda c: self.type_rank(c))
            if double["seat"] == me or self.values(view)[self.cards[double["card"]][0]] > 4:
                return {"action": "offer", "card": best}
            return {"action": "pass"}
        auction = view["auction"]
        value = self.lot_value(view, auction["cards"]) if auction else 0.0
        if kind == "bid":
            mine = auction["auctioneer"] == me
            limit = value * (MARGIN - (0.25 if mine else 0.0))
            if legal["min"] <= limit:
                step = 1 if auction["type"] == "open" else max(1, int((limit - legal["min"]) / 2))
                return {"action": "bid", "amount": min(legal["max"], legal["min"] + step - 1)}
            return {"action": "pass"}
        if kind == "hidden_bid":
            mine = auction["auctioneer"] == me
            amount = int(value * (0.55 if mine else 0.65))
            return {"action": "bid", "amount": max(0, min(legal["max"], amount))}
        if kind == "price":
            amount = int(value * 0.75)
            return {"action": "price", "amount": max(legal["min"], min(legal["max"], amount))}
        if kind == "buy":
            return {"action": "buy"} if legal["price"] <= value * MARGIN else {"action": "pass"}
        return {"action": "pass"}  # mystery: leave the mystery hand alone

    def type_rank(self, card: int) -> int:
        order = {"open": 0, "hidden": 1, "once-around": 2, "fixed-price": 3, "double": 4}
        return order[self.cards[card][1]]

    def choose_card(self, view: dict, cards: list[int]) -> int:
        vals = self.values(view)
        played = view["played"]
        my_bought = view["bought"][self.seat]
        hand_artists = [self.cards[c][0] for c in view["hand"]]

        def score(card: int) -> float:
            artist, kind = self.cards[card]
            if played[artist] >= 4:  # this card ends the round, unsold
                mine_now = sum(vals[self.cards[c][0]] for c in my_bought)
                theirs = sum(vals[self.cards[c][0]] for s, b in enumerate(view["bought"])
                             if s != self.seat for c in b) / max(1, self.players - 1)
                return mine_now - theirs - 5
            s = vals[artist] * 0.6  # what others should pay me
            if kind == "double":
                partner = hand_artists.count(artist) - 1
                s = s * 1.8 if partner > 0 else s * 0.3
            s += 0.5 * hand_artists.count(artist)  # push artists I hold
            return s

        return max(cards, key=lambda c: (score(c), -c))


def main() -> None:
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
            out.write(json.dumps({"type": "hello", "name": "baseline", "protocol": 1}) + "\n")
            out.flush()
        elif kind == "new_game":
            game = None  # until this one is read: its requests get the default answers
            try:
                game = Game(msg)
            except Exception as exc:  # a field missing: logged, the game played by default
                log(f"cannot read new_game ({problem(exc)}); answering the defaults")
        elif kind == "event" and game is not None:
            try:
                game.seen_event(msg["event"])
            except Exception as exc:  # an event it cannot read is not worth a crash
                log(f"cannot read an event ({problem(exc)}), ignored")
        elif kind == "request":
            decision, legal = msg.get("decision"), msg.get("legal")
            try:
                if game is None:
                    raise ValueError("no game read before this request")
                reply = game.decide(msg["decision"], msg["view"], msg["legal"])
            except Exception as exc:  # never let a bug in the strategy forfeit the move
                log(f"request {msg.get('id')} ({decision}): {problem(exc)}; falling back")
                reply = fallback(decision, legal)
            reply["id"] = msg.get("id")
            out.write(json.dumps(reply) + "\n")
            out.flush()
        elif kind == "warning":
            log(f"warning {msg.get('reason')}")
        elif kind == "goodbye":
            break


def log(text: str) -> None:
    """Logging goes to stderr, never stdout (stdout is for protocol lines only)."""
    print(f"baseline: {text}", file=sys.stderr, flush=True)


def fallback(kind: object, legal: object) -> dict:
    """The referee's default answer (protocol section 8), for a decision the strategy failed
    on, from what `legal` has."""
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


def problem(exc: Exception) -> str:
    """What went wrong, and where in this file (the last line of it the error passed): a
    KeyError is a field the message lacks, or a key of the strategy's own dictionaries, and
    both are named so."""
    what = (f"no field or key {exc.args[0]!r} (KeyError)"
            if isinstance(exc, KeyError) and exc.args else repr(exc))
    ours = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == __file__]
    where = ours[-1] if ours else None
    return what + (f" at {os.path.basename(where.filename)}:{where.lineno} in {where.name}"
                   if where else "")


if __name__ == "__main__":
    main()
