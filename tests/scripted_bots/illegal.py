#!/usr/bin/env python3
"""illegal: WRONG: gives one kind of rule-breaking answer, chosen by --kind KIND:

  over_money           bid, hidden_bid, price: legal.max + 1 (more than its money)
  not_above_high       bid: legal.min - 1 (exactly the high bid; 0 when there is none)
  negative             bid, hidden_bid, price: -5
  fractional           bid, hidden_bid, price: 2.5
  huge                 bid, hidden_bid, price: 10**100
  card_not_held        play: the lowest card id of the edition that is not in view.hand
  card_beyond_edition  play: card 1000000 (no edition has it)
  card_negative        play: card -1
  wrong_artist_second  offer: a card in hand of another artist than the double (else a hand
                       card not in legal.cards, else a card not held)

Every other decision is answered legally (the first legal choice).  Expected: an `illegal`
fault per bad answer (`malformed` for 2.5 and 10**100 if the referee's schema rejects them),
so the seat is retired after 3 of them.
"""

import argparse
import json
import sys

KINDS = ("over_money", "not_above_high", "negative", "fractional", "huge", "card_not_held",
         "card_beyond_edition", "card_negative", "wrong_artist_second")
BAD_CARD = {"card_beyond_edition": 1_000_000, "card_negative": -1}
AMOUNT_ACTION = {"bid": "bid", "hidden_bid": "bid", "price": "price"}
BAD_AMOUNT = {"negative": -5, "fractional": 2.5, "huge": 10**100}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def first_legal(request):
    decision, legal = request["decision"], request["legal"]
    if decision == "play":
        return {"action": "play", "card": legal["cards"][0]}
    if decision == "hidden_bid":
        return {"action": "bid", "amount": 0}
    if decision == "price":
        return {"action": "price", "amount": legal["min"]}
    return {"action": "pass"}


def not_held(hand, artist_of):
    return next(c for c in range(len(artist_of) + 1) if c not in hand)


def answer(kind, request, artist_of):
    """The bad answer for this kind of fault if it applies to the decision, else a legal one."""
    decision, legal, view = request["decision"], request["legal"], request["view"]
    hand = view["hand"]
    if decision in AMOUNT_ACTION:
        amount = BAD_AMOUNT.get(kind)
        if kind == "over_money":
            amount = legal["max"] + 1
        elif kind == "not_above_high" and decision == "bid":
            amount = legal["min"] - 1
        if amount is not None:
            return {"action": AMOUNT_ACTION[decision], "amount": amount}
    if kind == "card_not_held" and decision == "play":
        return {"action": "play", "card": not_held(hand, artist_of)}
    if kind in BAD_CARD and decision == "play":
        return {"action": "play", "card": BAD_CARD[kind]}
    if kind == "wrong_artist_second" and decision == "offer":
        artist = artist_of[view["double"]["card"]]
        wrong = [c for c in hand if artist_of[c] != artist]
        wrong += [c for c in hand if c not in legal["cards"]]
        return {"action": "offer", "card": wrong[0] if wrong else not_held(hand, artist_of)}
    return first_legal(request)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kind", choices=KINDS, required=True)
    kind = parser.parse_args().kind
    artist_of = {}  # card id -> artist index, from new_game
    for line in sys.stdin.buffer:
        message = json.loads(line)
        mtype = message.get("type")
        if mtype == "hello":
            send({"type": "hello", "name": f"illegal-{kind}", "protocol": 1})
        elif mtype == "new_game":
            artist_of = {c["id"]: c["artist"] for c in message["edition"]["cards"]}
        elif mtype == "request":
            send({"id": message["id"], **answer(kind, message, artist_of)})
        elif mtype == "goodbye":
            return


if __name__ == "__main__":
    main()
