"""OUT/similarity.md, for the teacher only: the students whose own code looks alike, and the
sample bot or baseline each one started from (similarity.py).  Nothing of it goes into a
student's feedback, and no grade depends on it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .markdown import plain_or_code
from .similarity import MIN_SHARED, Fingerprinted, K, Pair, Similarity

PAIRS_HEADING = "## Students alike beyond the kit"  # read back by `withdrawn.py`


@dataclass(frozen=True)
class Relation:
    """How a student's code stands to a bot it resembles: `same`, the same apart from names,
    comments and layout; else `new`, the share of its tokens (values kept) not found in
    order in the other's."""

    same: bool
    new: float


def relation(student: Fingerprinted, other: Fingerprinted) -> Relation:
    """`Relation` of the student to the other, by the longest common subsequence of their
    tokens: the most of the student's tokens that the other holds in the same order."""
    if student.literal == other.literal:
        return Relation(True, 0.0)
    matched = common_subsequence(student.literal, other.literal)
    return Relation(False, 1 - matched / max(1, len(student.literal)))


def common_subsequence(a: Sequence[int], b: Sequence[int]) -> int:
    """The length of the longest common subsequence of `a` and `b`, by the bit-parallel
    method of Allison and Dix (1986), in Hyyro's form: one pass over `a`, with each row of the
    table held as an int of len(b) bits.  A class's pairs take milliseconds each, where
    difflib's longest matching runs took near half a second for two sample bots."""
    where: dict[int, int] = {}
    for i, token in enumerate(b):
        where[token] = where.get(token, 0) | (1 << i)
    full = (1 << len(b)) - 1
    row = full  # a bit still set: that token of b is not yet matched
    for token in a:
        matches = row & where.get(token, 0)
        row = ((row + matches) | (row - matches)) & full
    return len(b) - row.bit_count()


def percent(share: float) -> str:
    """A share in whole percent, or to a tenth below 1%, or "<0.1%" below that (so a little
    new code is not 0%: one token added to the C sample's 3,000 read "0.0% new")."""
    if 0 < share < 0.0005:
        return "<0.1%"
    return f"{share:.1%}" if 0 < share < 0.01 else f"{share:.0%}"


def pair_line(pair: Pair, bots: dict[str, Fingerprinted]) -> str:
    """Two students' line, naming both on each side of what it says: that one is the same as
    the other, or which looks derived from which (the one with more code of its own), and
    how much of each one's code not from the kit the other holds."""
    first, second = plain_or_code(pair.first), plain_or_code(pair.second)
    how = relation(bots[pair.first], bots[pair.second])
    derived, source = first, second
    if not how.same:
        back = relation(bots[pair.second], bots[pair.first])
        if back.new > how.new:  # the second added to the first, not the reverse
            derived, source, how = second, first, back
    said = (f"{first} is the same as {second} apart from names, comments and layout"
            if how.same else
            f"alike in order but for {percent(how.new)} of {derived}'s code, not in "
            f"{source}'s (its values count)")
    return (f"- **{first}** and **{second}**: {said}; of their code not from the kit "
            f"({pair.shared} fingerprints in common), {second} holds "
            f"{percent(pair.first_in_second)} of {first}'s, {first} "
            f"{percent(pair.second_in_first)} of {second}'s")


def kit_line(reference: str, pairs: list[Pair], bots: dict[str, Fingerprinted],
             threshold: float) -> str:
    """The students who started from one sample bot or baseline, on one line: for each, the
    share of its code the sample holds and how much of it is new, or "as is"."""
    def one(pair: Pair) -> str:
        how = relation(bots[pair.first], bots[pair.second])
        said = "as is" if how.same else f"{percent(how.new)} new"
        return f"{plain_or_code(pair.first)} ({percent(pair.first_in_second)}, {said})"

    line = (f"- started from **{plain_or_code(reference)}**, holding at least "
            f"{percent(threshold)} of their code: " + ", ".join(one(p) for p in pairs))
    changed: dict[tuple[int, ...], list[str]] = {}  # alike changes of the kit, values too
    for p in pairs:
        if not relation(bots[p.first], bots[p.second]).same:
            changed.setdefault(tuple(bots[p.first].literal), []).append(p.first)
    twins = [names for names in changed.values() if len(names) > 1]
    if twins:
        line += ("; changed it alike, the same apart from names, comments and layout, its "
                 "values too: " + "; ".join(" and ".join(plain_or_code(n) for n in names)
                                             for names in twins))
    return line


def files_line(bot: Fingerprinted, own: dict[str, int]) -> str:
    files = ", ".join(plain_or_code(f) for f in bot.files) or "none"
    mine = (f" ({own[bot.name]} of its {len(bot.fingerprints)} fingerprints not from the kit)"
            if bot.name in own else "")
    return f"- {plain_or_code(bot.name)}: {files}{mine}"


def similarity_report(similarity: Similarity, threshold: float) -> str:
    flagged = [p for p in similarity.pairs if p.score >= threshold]
    bots = {b.name: b for b in [*similarity.students, *similarity.references]}
    started = similarity.started_from(threshold)
    lines = [
        "# Similar submissions", "",
        "For the teacher only: no feedback file mentions it, and no grade depends on it. "
        f"Each of the {len(similarity.students)} submissions was compared with every other "
        f"and with the {len(similarity.references)} sample bots and baselines (the kit), by "
        "winnowed fingerprints of their code, in which renaming, comments and layout make no "
        "difference (docs/grading.md, Copies found). Two students are compared on their own "
        "code only: what is found in the kit is left out of both, and they must have at "
        f"least {MIN_SHARED} fingerprints (some ten lines) of their own in common. A pair is "
        "a reason to look at both, not a proof.", "",
        f"{PAIRS_HEADING}, at or above {percent(threshold)}", "",
        f"Each pair in which one holds at least {percent(threshold)} of the other's code not "
        "from the kit (`[grading] similarity_threshold`), the most similar first:", "",
        *([pair_line(p, bots) for p in flagged] or ["None."]), "",
        "## Started from the kit", "",
        "Each student under the sample bot or baseline that holds the largest share of their "
        f"code, if at least {percent(threshold)}: that share (of its fingerprints), and the "
        "share of the student's tokens that are new, not in the sample in the same order (its "
        "values count), or \"as is\" when it is the same apart from names, comments and "
        "layout. Code left out of the sample adds no token: it counts under \"Files "
        "compared\", not here.", "",
        *([kit_line(name, pairs, bots, threshold) for name, pairs in started.items()]
          or ["None."]), "",
    ]
    if similarity.too_little:
        lines += ["## Not compared", "",
                  "Too little code to compare (none, or a few lines): "
                  + ", ".join(plain_or_code(s) for s in similarity.too_little) + ".", ""]
    lines += ["## Files compared", "",
              "Each bot's files read, and for each student how many of its fingerprints are "
              f"found nowhere in the kit. A fingerprint stands for a run of {K} tokens, so an "
              "edit that adds no token (a `;` or a line deleted) still gives the student two "
              "or three fingerprints of its own: a few such edits show as 0% new, or nearly, "
              "under the sample above, and as some dozens of fingerprints here.", "",
              *(files_line(b, similarity.own)
                for b in [*similarity.students, *similarity.references]), ""]
    return "\n".join(lines)


def write_similarity_report(path: Path, similarity: Similarity, threshold: float) -> None:
    path.write_text(similarity_report(similarity, threshold))
