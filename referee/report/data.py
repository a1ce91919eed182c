"""What the report shows, taken from a results store: the leaderboard and its companions, each
bot's games and faults, and which games get a page of their own."""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.leaderboard.late import at_no_table, joined_late, late_line
from referee.leaderboard.notes import never_started_line
from referee.leaderboard.pairs import Pair
from referee.leaderboard.rows import HeadToHead, SeatRow, StandingRow
from referee.leaderboard.stats import Games, by_seat, head_to_head, rating_history, standings
from referee.match.player import Fault
from referee.match.result import StoredResult
from referee.tournament.field import shown_left_out
from referee.tournament.rounds import more_rounds
from referee.tournament.store import LEFT_OUT, PLAYING, Store
from referee.tournament.tally import unfinished_line, until_decision

HISTORY_POINTS = 200  # fits of the ratings chart, for a field of up to 100 entrants
HISTORY_FITS = 20_000  # points times entrants for a larger field (each fit grows with it)


@dataclass
class BotGame:
    """One entrant's part in one stored game."""

    game_id: str
    seat: int
    names: tuple[str, ...]
    rank: int
    money: int
    retired: bool
    faults: tuple[Fault, ...]


@dataclass
class Tournament:
    name: str
    primary: str
    results: list[StoredResult]
    rows: list[StandingRow]
    pairs: list[Pair]  # every pair of entrants, in standings order
    h2h: HeadToHead
    seats: list[SeatRow]
    ratings: dict[str, list[tuple[float, float]]]  # per entrant, (games so far, Elo)
    names: list[str]  # entrants in leaderboard order
    bot_games: dict[str, list[BotGame]] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)  # by the last run, with why
    superseded: list[tuple[str, str]] = field(default_factory=list)  # (game id, why)
    note: str | None = None  # why no pair is separated, when none is
    baselines: list[str] = field(default_factory=list)  # a gauntlet's
    no_games: list[str] = field(default_factory=list)  # of the last run's field, at no table
    file_field: list[str] = field(default_factory=list)  # the last run's file's entrants

    @property
    def placed(self) -> list[str]:
        """The entrants with a place, in order: all but a gauntlet's baselines, which the
        pairs leave out too."""
        return [r.name for r in self.rows if r.rank is not None]

    @property
    def faulty(self) -> list[str]:
        """Ids of the games in which any seat had a fault."""
        return [r.game_id for r in self.results if any(r.faults)]


def load(store: Store) -> Tournament:
    results = list(store.results())
    games = Games.load(results, store.seeds())
    primary = store.primary_metric()
    baselines = store.baselines()
    config = store.tournament_config()
    # An adaptive run's note says that more rounds separate pairs, as `referee leaderboard`'s
    # does, not the deals of a table a fixed schedule would need.
    board = standings(games, primary, baselines=baselines,
                      grow=None if config is None else more_rounds(config))
    left_out = shown_left_out(store)
    data = Tournament(
        name=store.name(),
        primary=primary,
        results=results,
        rows=board.rows,
        pairs=board.pairs,
        h2h=head_to_head(games, met_only=True),  # the pages show only those who met
        seats=by_seat(games),
        ratings=rating_series(games),
        names=[r.name for r in board.rows],
        left_out=left_out,
        superseded=store.superseded(),
        note=" ".join(_sentence(n) for n in (
            _unfinished(store), _decided(store),
            never_started_line(board.never_started, baselines) if board.never_started else None,
            _late(store, board.rows), board.note) if n) or None,
        baselines=baselines,
        no_games=at_no_table(list(store.entrants(PLAYING)), set(games.names), left_out),
        file_field=[*store.entrants(PLAYING), *store.entrants(LEFT_OUT)],
    )
    per_bot: dict[str, list[BotGame]] = {n: [] for n in data.names}
    for result in results:
        for s in result.seats():
            per_bot.setdefault(s.name, []).append(BotGame(
                result.game_id, s.seat, result.names, s.rank, s.money, s.retired, s.faults))
    data.bot_games = per_bot
    return data


def rating_series(games: Games) -> dict[str, list[tuple[float, float]]]:
    """Per entrant, (games so far, its Elo rating over those games) at evenly spaced moments
    from its first game on: HISTORY_POINTS of them, fewer in a field of hundreds (at least 20),
    where each fit takes longer and the chart is read for its top lines."""
    out: dict[str, list[tuple[float, float]]] = {n: [] for n in games.names}
    points = max(20, min(HISTORY_POINTS, HISTORY_FITS // max(1, len(games.names))))
    for done, values in rating_history(games, points):
        for name, value in zip(games.names, values, strict=True):
            if value is not None:
                out[name].append((float(done), value))
    return out


def select_games(data: Tournament, sample: int, all_games: bool) -> list[str]:
    """Game ids that get a page: all of them, or `sample` spread evenly over the games in id
    order plus every game with a fault; in game id order."""
    ids = [r.game_id for r in data.results]
    if all_games:
        return ids
    n = len(ids)
    k = min(max(0, sample), n)
    chosen = {ids[i * n // k] for i in range(k)} if k else set()
    chosen.update(data.faulty)
    return [gid for gid in ids if gid in chosen]


def _sentence(line: str) -> str:
    """A leaderboard's line as a sentence of the first page's note, which runs several
    together: capitalised and ended, so that none begins in lower case after a full stop."""
    line = line[0].upper() + line[1:]
    return line if line.endswith(".") else line + "."


def _unfinished(store: Store) -> str | None:
    """That the store holds part of its tournament, as a sentence of the first page: an
    organiser's site of a half-played stage read as final."""
    line = unfinished_line(store, store.path.name)
    return None if line is None else "the store " + line.removeprefix("note: ")


def _late(store: Store, rows: list[StandingRow]) -> str | None:
    """The entrants that joined late, as a sentence of the first page (`late.py`)."""
    late = joined_late(rows, *store.joined(), store.entrants(PLAYING))
    if not late:
        return None
    return late_line(late, str)


def _decided(store: Store) -> str | None:
    """What a run with `until` decided, as a sentence of the first page: who qualified (or
    that the cut stayed open), and why the run stopped."""
    return until_decision(store)
