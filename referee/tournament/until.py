"""Runs that stop when their question is settled (`until` in the tournament file).

The schedule stays that of all `deals` deals, so every game keeps its id and seed wherever a
run stops.  It is played in stages ending at the looks of `sequential.looks(deals)`; after
each, the games of the deals played so far are judged (`unsettled`, as `sequential.settled`
judges a field) at the error each look is given, and the run stops once the question is
settled.  A look reads only the
games of its deals, from the store, so a resumed run takes the same looks on the same games
and stops where an uninterrupted run would.

A gauntlet's question is about its candidates: its looks judge them alone (the leader among
the candidates, every candidate's place among them), the baselines, at every table, being
the yardstick rather than contenders.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from contextlib import suppress
from dataclasses import dataclass

from referee.leaderboard import sequential
from referee.leaderboard.pairs import ALPHA as ALPHA  # (design_warnings.too_few_deals says it)
from referee.leaderboard.pairs import EXACT_DEALS
from referee.leaderboard.resolution import minimum_exact_deals
from referee.leaderboard.stats import Games, order, verdicts
from referee.leaderboard.unstarted import never_started

from .config import TournamentConfig
from .schedule import Schedule
from .store import Store


@dataclass(frozen=True)
class Stage:
    """The deals played before one look (or, without `until`, the whole schedule)."""

    start: int  # the first deal of the stage
    deals: int  # the deals played once this stage is: its look
    next: int | None  # the following look's deals; None for the last stage

    @property
    def range(self) -> range:
        """The deals since the previous look."""
        return range(self.start, self.deals)


def stages(config: TournamentConfig) -> list[Stage]:
    """The schedule's deals in stages ending at the looks; one stage without `until`."""
    ends = sequential.looks(config.deals) if config.until else [config.deals]
    starts = [0, *ends[:-1]]
    return [Stage(start, end, ends[i + 1] if i + 1 < len(ends) else None)
            for i, (start, end) in enumerate(zip(starts, ends, strict=True))]


def exact_deals_needed(entrants: int, deals: int) -> int | None:
    """None when the leaderboard's exact test over `deals` deals can separate a pair of
    `entrants` (familywise error ALPHA: a one-look `sequential.Reach` of Holm's first step),
    else the fewest deals on which it can: what a gauntlet, or one table, needs
    (`design_warnings.too_few_deals`).  Past EXACT_DEALS Student's t can, whatever the field."""
    if sequential.Reach(deals, ALPHA, sequential.tests_per_look("ranked", entrants)).possible:
        return None
    return min(minimum_exact_deals(entrants, ALPHA), EXACT_DEALS + 1)


def judged(config: TournamentConfig, names: list[str]) -> list[str]:
    """Of `names`, those a look judges: a gauntlet's candidates, or every entrant."""
    if config.format != "gauntlet":
        return names
    return [n for n in names if n not in config.baselines]


def contenders(config: TournamentConfig) -> str:
    """What a look calls those it judges."""
    return "candidate" if config.format == "gauntlet" else "entrant"


def design(config: TournamentConfig) -> tuple[int, bool]:
    """What a look's error is spread over: the entrants it judges, and whether the field is
    complete (a gauntlet, or one table: every deal holds every entrant, compared by the exact
    test up to EXACT_DEALS deals)."""
    one_table = config.format == "gauntlet" or len(config.bots) <= config.table_size
    return len(judged(config, [b.name for b in config.bots])), one_table


def look_errors(config: TournamentConfig) -> list[float]:
    """The error each look spends (`sequential.spending`), fixed by the file alone."""
    assert config.until is not None
    field, exact = design(config)
    return sequential.spending(config.deals, config.until, field, exact)


def question(config: TournamentConfig) -> str:
    """The question a run with `until` plays until it is settled, as a clause."""
    return (f"the leader is found stronger than every other {contenders(config)}"
            if config.until == "separated" else
            f"the top {config.top} {contenders(config)}s are known"
            if config.until == "top" else
            f"every {contenders(config)}'s place is settled")


def plan(config: TournamentConfig, games: Schedule) -> str:
    """What a run with `until` will do, in one line."""
    ends = sequential.looks(config.deals)
    errors = look_errors(config)
    at = ", ".join(f"{n} ({e:.2%})" if e else f"{n} (none: too few deals to stop)"
                   for n, e in zip(ends, errors, strict=True))
    goal = question(config)
    return (f"until {goal}: looks after {at} deals (at most {len(games):,} games), the error "
            f"each may spend in brackets, {sum(errors):.0%} in all; the progress counts the "
            f"games up to the next look{reach(config)}")


def reach(config: TournamentConfig) -> str:
    """The clause of `plan` that says where the looks could first settle anything, when not
    at the first look: the exact test cannot reach a look's level on too few deals
    (`sequential.reaches`, as the run's looks are given their errors), so a run with too few
    deals cannot stop early, or settle anything at all; with how many deals would."""
    assert config.until is not None
    field, exact = design(config)
    ends = sequential.looks(config.deals)
    first = sequential.first_possible(config.deals, config.until, field, exact)
    looks = sequential.reaches(config.deals, config.until, field) if exact else []
    if first is None:
        settle = sequential.deals_to_settle(config.until, field, False, exact)
        before = ", nor at any look before" if len(looks) > 1 else ""
        return (f"; the run can settle nothing: {short(config, looks[-1])}{before}; "
                f"deals = {settle} or more would let it")
    if first == config.deals:
        early = sequential.deals_to_settle(config.until, field, True, exact)
        why = (f"one look, after the last deal, so it cannot stop the run early: the first "
               f"look comes after {sequential.looks(10 ** 6)[0]} deals" if len(ends) == 1 else
               f"the run cannot stop early: the first look that could settle anything is "
               f"the last, after {first} deals ({short(config, looks[0])})")
        return f"; {why}; deals = {early} or more let it stop early"
    if first != ends[0]:
        return (f"; the first look that could settle anything is after {first} deals: "
                f"{short(config, looks[0])}")
    return ""


def short(config: TournamentConfig, look: sequential.Reach) -> str:
    """Why the exact test can reject nothing at `look`: its smallest p-value against the
    level each test gets of the look's error."""
    assert config.until is not None
    field, _ = design(config)
    level = (f"Holm's first level there, {percent(look.error)} over {look.tests} one-sided tests "
             f"({field * (field - 1) // 2} pairs, both ways)" if config.until != "separated"
             else f"the level of each of the leader's tests there, {percent(look.error)} over "
                  f"{look.tests} {contenders(config)}s")
    deals = f"{look.deals} deal" + "s" * (look.deals != 1)
    return (f"at {deals} the exact sign-flip test's smallest p-value, 1/2^{look.deals} = "
            f"{percent(look.smallest)}, is above {level} = {percent(look.level)}")


def percent(x: float) -> str:
    """A small share in three significant figures: "0.391%", "0.0379%"."""
    return f"{x * 100:.3g}%"


@dataclass(frozen=True)
class Look:
    """A look's outcome: stop the run or play on, and the line that says why."""

    stop: bool
    text: str


def look(config: TournamentConfig, store: Store, games: Schedule, stage: Stage,
         remember: bool = False) -> Look:
    """Judge the stored games of the schedule `games` up to `stage`'s look.  The outcome is
    kept in the store when `remember` (the run's own look), and read back while the games
    and the question are the same: a leaderboard or report of the store, which asks whether
    the run would play on, is spared the verdicts a second time."""
    assert config.until is not None
    wanted = {g.game_id for g in games.games(range(stage.deals))}
    count, digest = store.results_digest(wanted)
    head = f"{stage.deals} deals ({count} games)"
    if count < len(wanted):
        return Look(True, f"stopped at the look after {stage.deals} deals: "
                          f"{len(wanted) - count} of its {len(wanted)} games could not "
                          "be played (left-out bots or void games); run again to play them")
    alpha = look_errors(config)[sequential.looks(config.deals).index(stage.deals)]
    key = f"look after {stage.deals} deals"
    mark = hashlib.sha256(repr((
        config.until, config.top, config.primary_metric, config.format,
        sorted(config.baselines), alpha, stage.next is None, digest)).encode()).hexdigest()
    kept = store.meta(key)
    with suppress(ValueError, KeyError, TypeError):  # a kept outcome not as written: judged
        data = json.loads(kept) if kept is not None else None
        if isinstance(data, dict) and data.get("mark") == mark:
            return Look(bool(data["stop"]), str(data["text"]))
    results = [r for r in store.results() if r.game_id in wanted]
    outcome = _judge(config, Games.load(results, store.seeds()), alpha, stage, head)
    if remember:
        store.remember(key, json.dumps({"mark": mark, "stop": outcome.stop,
                                        "text": outcome.text}))
    return outcome


def _judge(config: TournamentConfig, played: Games, alpha: float, stage: Stage,
           head: str) -> Look:
    assert config.until is not None
    primary = config.primary_metric
    names = judged(config, order(played, primary))
    why = unsettled(played, names, config.until, primary, alpha, config.top)
    if why is None:
        if config.until == "separated":
            return Look(True, f"stopped after {head}: the leader, {names[0]}, is found "
                              f"stronger than every other {contenders(config)}")
        if config.until == "top":
            assert config.top is not None
            if len(names) <= config.top:  # the others left out (a build failed, say)
                return Look(True, f"stopped after {head}: {len(names)} "
                                  f"{contenders(config)}s played, no more than the top "
                                  f"{config.top}: {', '.join(names)}")
            return Look(True, f"stopped after {head}: the top {config.top} are known: "
                              + ", ".join(names[:config.top]))
        return Look(True, f"stopped after {head}: every place is settled: "
                          + " > ".join(names))
    if stage.next is None:
        more = ("; if they differ, more deals (raise deals: the next run plays on) or a "
                "play-off of those across the cut would settle it (of equals, nothing would)"
                if config.until == "top" else "")
        return Look(True, f"played all {head}: {why}{more}")
    return Look(False, f"look after {head}: {why}; playing on to {stage.next} deals")


def unsettled(games: Games, names: list[str], until: sequential.Until, primary: str,
              alpha: float, top: int | None = None) -> str | None:
    """What keeps the question open among `names` at the look's error `alpha` (None: it is
    settled, as `sequential.settled` would say of a field of just them): who the leader,
    `names[0]` of the standings' order `names`, is not separated from, or which neighbours
    are not.  One look, one judgement:
    the verdicts are the look's costliest part."""
    if len(names) < 2:
        return "fewer than two entrants have played"
    if alpha <= 0:
        return "too few deals for this look to stop the run"
    if until == "separated":
        level = sequential.leader_open(games, names, primary, alpha)
        if not level:
            return None
        return f"the leader, {names[0]}, is not found stronger than {', '.join(level)}"
    pairs, places = verdicts(games, names, primary, alpha)
    if until == "top":
        assert top is not None
        open_ = sequential.across_cut(places, top)
        if not open_:
            return None
        return (f"the cut after place {top} is not settled: "
                + ", ".join(f"{n} {places[n][0]}-{places[n][1]}" for n in open_))
    if all(best == worst for best, worst in places.values()):
        return None
    above = {(p.a, p.b) if p.test.diff > 0 else (p.b, p.a) for p in pairs if p.separated}
    never = never_started(games.names, games.present, games.faults)  # by rule (D9)
    above |= {(a, b) for a in names if a not in never for b in names if b in never}
    close = [f"{a} and {b}" for a, b in itertools.pairwise(names)
             if (a, b) not in above]
    if close:
        return f"not separated: {', '.join(close)}"
    return "places not settled: " + ", ".join(  # neighbours apart, but not every pair
        f"{n} {best}-{worst}" for n, (best, worst) in places.items() if best != worst)
