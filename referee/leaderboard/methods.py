"""Which tests gave a leaderboard's verdicts, in words.

The test behind `separated` changes with the design and the deals (`pairs.compare`): in a
complete design the sign-flip test over deals, exact up to EXACT_DEALS deals and Student's t
beyond; elsewhere the block model; Welch's t for entrants that share no deal; none between
tables that share no entrant.  A board whose
places came from one of them says which, as the same store read after a few more deals can
change from one to the other."""

from __future__ import annotations

from collections.abc import Sequence

from .pairs import ALPHA, EXACT_DEALS, Pair


def _deals(counts: set[int]) -> str:
    low, high = min(counts), max(counts)
    span = f"{low}" if low == high else f"{low}-{high}"
    return f"{span} deal" + ("" if span == "1" else "s")


def tests_used(pairs: Sequence[Pair], short: bool = False) -> str:
    """The tests of `pairs`, as a phrase; `short`: without what each is."""
    exact = {p.test.deals for p in pairs if p.paired in ("table", "deal") and p.test.exact}
    t = {p.test.deals for p in pairs if p.paired in ("table", "deal") and not p.test.exact}
    parts = []
    if exact:
        parts.append(f"the exact sign-flip test over {_deals(exact)}"
                     + ("" if short else " (every pattern of signs)"))
    if t:
        parts.append(f"Student's t over {_deals(t)}"
                     + ("" if short else f" (the sign-flip test is exact up to {EXACT_DEALS})"))
    if any(p.paired == "model" for p in pairs):
        parts.append("the block model over every game"
                     + ("" if short else " (Student t, cluster-robust CR2 over deals; a model "
                        "pair's deals are those in which a or b played, each table's counted "
                        "apart, as each is dealt its own deck)"))
    if any(p.paired == "apart" for p in pairs):
        parts.append("none between tables that share no entrant"
                     + ("" if short else " (no game links them)"))
    if any(p.paired == "none" for p in pairs):
        parts.append("Welch's t on deal means" + ("" if short else " (no deal in common)"))
    return "; ".join(parts) if parts else "no test"


def place_note(pairs: Sequence[Pair]) -> str:
    """The line under a board that says what its places are, in words an entrant reads
    without the docs, and which test gave them."""
    tests = f"{tests_used(pairs, short=True)}; " if pairs else ""
    return ("place: the places a bot could hold, given which pairs are separated: which bots "
            f"the games show stronger than which, with at most a {ALPHA:.0%} chance of any "
            "false verdict on the board; a range such as 2-4 where they cannot yet tell it "
            f"from the bots beside it ({tests}familywise error {ALPHA:.0%}, Holm)")


def separated_note(pairs: Sequence[Pair]) -> str:
    """How `separated` was decided, under a table of the pairs."""
    return (f"separated: {tests_used(pairs)}; Holm over {len(pairs)} pairs, familywise error "
            f"{ALPHA:.0%}.")
