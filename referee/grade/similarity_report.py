"""OUT/similarity.md, for the teacher only: the pairs of bots that look alike (similarity.py).
Nothing of it goes into a student's feedback, and no grade depends on it."""

from __future__ import annotations

from pathlib import Path

from .markdown import plain_or_code
from .similarity import Fingerprinted, Pair, Similarity, relation


def percent(share: float) -> str:
    """A share in whole percent, or to a tenth below 1% (so a little new code is not 0%)."""
    return f"{share:.1%}" if 0 < share < 0.01 else f"{share:.0%}"


def pair_line(pair: Pair, bots: dict[str, Fingerprinted]) -> str:
    """The pair's line: which looks derived from which (of two students, the one with more
    code of its own; a student from a sample bot), and how much of each the other holds."""
    first, second = plain_or_code(pair.first), plain_or_code(pair.second)
    kind = " (a sample bot or baseline)" if pair.reference else ""
    how = relation(bots[pair.first], bots[pair.second])
    derived, source = first, second
    if not pair.reference and not how.same:
        back = relation(bots[pair.second], bots[pair.first])
        if back.new > how.new:  # the second added to the first, not the reverse
            derived, source, how = second, first, back
    said = (f"the same as {second} apart from names, comments and layout" if how.same else
            f"{derived} derived from {source} or alike, with {percent(how.new)} of "
            f"{derived}'s code new (its values count)")
    return (f"- **{first}** and **{second}**{kind}: {said}; {second} holds "
            f"{percent(pair.first_in_second)} of {first}'s code, {first} "
            f"{percent(pair.second_in_first)} of {second}'s")


def files_line(bot: Fingerprinted) -> str:
    files = ", ".join(plain_or_code(f) for f in bot.files) or "none"
    return f"- {plain_or_code(bot.name)}: {files}"


def similarity_report(similarity: Similarity, threshold: float) -> str:
    flagged = [p for p in similarity.pairs if p.score >= threshold]
    bots = {b.name: b for b in [*similarity.students, *similarity.references]}
    lines = [
        "# Similar submissions", "",
        "For the teacher only: no feedback file mentions it, and no grade depends on it. "
        f"Each of the {len(similarity.students)} submissions was compared with every other "
        f"and with the {len(similarity.references)} sample bots and baselines, by winnowed "
        "fingerprints of their code, in which renaming, comments and layout make no "
        "difference (docs/grading.md, Copies found). Listed, the most similar first: each "
        f"pair in which one holds at least {percent(threshold)} of the other's code "
        "(`[grading] similarity_threshold`). A pair is a reason to look at both, not a proof: "
        "code both took from the same sample kit is listed too.", "",
        f"## Pairs at or above {percent(threshold)}", "",
        *([pair_line(p, bots) for p in flagged] or ["None."]), "",
    ]
    if similarity.too_little:
        lines += ["## Not compared", "",
                  "Too little code to compare (none, or a few lines): "
                  + ", ".join(plain_or_code(s) for s in similarity.too_little) + ".", ""]
    lines += ["## Files compared", "",
              *(files_line(b) for b in [*similarity.students, *similarity.references]), ""]
    return "\n".join(lines)


def write_similarity_report(path: Path, similarity: Similarity, threshold: float) -> None:
    path.write_text(similarity_report(similarity, threshold))
