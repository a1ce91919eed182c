"""The leaderboard's results as typed rows, which the tables, the JSON and the report read.

Each row's `as_dict` is its JSON form: the field order here is the key order of `referee
leaderboard --format json`, whose keys docs/leaderboard.md promises stable.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Interval:
    """A mean and its 95% interval."""

    mean: float
    low: float
    high: float

    @property
    def centre(self) -> float:
        return self.mean


@dataclass(frozen=True)
class Rating:
    """An Elo rating and its 95% interval."""

    elo: float
    low: float
    high: float

    @property
    def centre(self) -> float:
        return self.elo


@dataclass(frozen=True)
class FaultCounts:
    """An entrant's faults in groups a reader tells apart, and its retirements."""

    timeouts: int
    illegal_or_malformed: int
    crashes: int
    stderr_over_limit: int
    exits_between_games: int
    retirements: int

    def counts(self) -> dict[str, int]:
        """By group, in field order (the JSON keys)."""
        return asdict(self)

    @property
    def in_games(self) -> int:
        """The faults a bot made while playing: all but exits between games and
        retirements."""
        return self.timeouts + self.illegal_or_malformed + self.crashes + self.stderr_over_limit


@dataclass(frozen=True)
class ResponseTimes:
    """Milliseconds an entrant took to answer, from its histogram (None: no answers timed)."""

    median: float | None
    p99: float | None


@dataclass(frozen=True)
class Place:
    """The places an entrant could hold, given which pairs the paired tests separate."""

    best: int
    worst: int


@dataclass(frozen=True)
class StandingRow:
    """One entrant on the leaderboard."""

    name: str
    games: int
    placement: Interval
    win_share: Interval
    money: Interval
    rating: Rating
    faults: FaultCounts
    response_ms: ResponseTimes
    strength: float  # the primary metric adjusted for the opponents met (the block model)
    rank: int | None  # among the entrants placed; None: a gauntlet's baseline
    place: Place | None  # None: a gauntlet's baseline, the yardstick and not placed
    separated: bool  # first, or separated from the first by the paired tests
    baseline: bool = False  # a gauntlet's: its figures shown, without a place

    def metric(self, name: str) -> Interval | Rating:
        """The estimate of metric `name` (one of `METRICS`)."""
        by_name: dict[str, Interval | Rating] = {
            "placement": self.placement, "win_share": self.win_share, "money": self.money,
            "rating": self.rating}
        return by_name[name]

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class SeatRow:
    """Results by seat position over all entrants: the game's own seat bias."""

    seat: int
    games: int
    placement: float
    placement_low: float  # NaN with one game
    placement_high: float
    win_share: float
    money: float

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Meetings:
    """Games two entrants played at one table, by how the first finished against the
    second."""

    above: int
    below: int
    level: int

    @property
    def total(self) -> int:
        return self.above + self.below + self.level

    @property
    def share(self) -> float:
        """The first's share of the finishes, a level one counting half (needs a game)."""
        return (self.above + self.level / 2) / self.total

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


HeadToHead = dict[str, dict[str, Meetings]]  # [a][b]: a's meetings with b
