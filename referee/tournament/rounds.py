"""An adaptive run, round by round (`schedule = "adaptive"`): the size of a round, the budget
that ends the run, the next round chosen from the games the store holds (`adaptive.py`), and
what `plan` says of it.

A round has one table per `table_size` entrants of the file that can play (each about once,
were every one seated; the choice seats the places in doubt more often).  The run plays the rounds
the store kept first (their games not stored yet, as after a kill), then chooses the next
round from the games of every round before it, keeps it, and plays it: so a round is a pure
function of the file, the stored games and its number, and a resumed run plays the games an
uninterrupted one would.  It stops when the budget is spent: `tables` (in all rounds, the
last one smaller), `rounds`, or `max_games` and `--time-budget` (`budget.py`), which may stop
it inside a round.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from referee.match.result import GameResult
from referee.text import counted

from . import adaptive
from .config import TournamentConfig
from .sampling import Table
from .schedule import Schedule

HOW = ("each round's tables are chosen from the games stored before it: new entrants first, "
       "then the entrants whose places are in doubt (the top places first), each table beside "
       "the entrants it is nearest to being told apart from and one who has played least")


def playing(config: TournamentConfig, left_out: Collection[str] = ()) -> int:
    """The entrants of the file that can play (not `left_out`): fewer than `table_size`,
    and no round can be chosen."""
    return sum(1 for b in config.bots if b.name not in left_out)


def round_size(config: TournamentConfig, left_out: Collection[str] = ()) -> int:
    """Tables per round: one per `table_size` entrants of the file that can play (not
    `left_out`)."""
    return max(1, playing(config, left_out) // config.table_size)


def next_size(config: TournamentConfig, games: Schedule, left_out: Collection[str] = ()) -> int:
    """The tables of the next round within the budget of `tables` and `rounds`; 0 when it
    is spent."""
    if config.rounds is not None and len(games.rounds) >= config.rounds:
        return 0
    size = round_size(config, left_out)
    if config.tables is not None:
        drawn = sum(len(r) for r in games.rounds)
        size = min(size, config.tables - drawn)
    return max(0, size)


def next_round(config: TournamentConfig, games: Schedule, results: Iterable[GameResult],
               left_out: Collection[str]) -> list[Table]:
    """The next round's tables, chosen from the `results` of the games of the rounds before
    (those the store counts) over the entrants that can play; none when the budget is spent
    or fewer than `table_size` entrants can play."""
    size = next_size(config, games, left_out)
    wanted = {g.game_id for g in games.games()}
    finishes = [adaptive.Finish(tuple(r.names), tuple(r.ranks)) for r in results
                if r.game_id in wanted]
    field = [b.name for b in config.bots if b.name not in left_out]
    drawn = [t for tables in games.rounds for t in tables]
    return adaptive.choose_round(field, config.table_size, size, config.seed,
                                 len(games.rounds), drawn, finishes)


def budget_text(config: TournamentConfig) -> str:
    """The budget that ends an adaptive run, as `plan` and the run's last line name it."""
    parts = [f"{name} = {value:,}" for name, value in
             (("tables", config.tables), ("rounds", config.rounds),
              ("max_games", config.max_games)) if value is not None]
    return " and ".join(parts)


def more_rounds(config: TournamentConfig) -> str | None:
    """What plays more of an adaptive run, said by a board that separates nothing in place
    of a fixed schedule's deals of a table (each round deals a table once; more rounds are
    what an adaptive run plays); None for a fixed schedule."""
    if config.schedule != "adaptive":
        return None
    return (f"an adaptive run separates pairs by playing more rounds: raise its budget "
            f"({budget_text(config)}) to play on")


def finished(config: TournamentConfig, games: Schedule) -> str:
    """The line a run says when the budget of tables or rounds is spent."""
    return (f"played {counted(len(games.rounds), 'round')} "
            f"({counted(games.table_count, 'table')}): the budget, "
            f"{budget_text(config)}, is spent; raise it to play on")


def budget_left(config: TournamentConfig, games: Schedule, left_out: Collection[str] = (),
                skipped: int = 0) -> tuple[int, str] | None:
    """The games the budget leaves for the rounds not chosen yet, each sized as a round is now
    (without the `left_out`), and the bound that sets it: "rounds", "tables" or "max_games";
    None: no bound but the time.  `skipped`: games of the rounds chosen that will not be
    played (a left-out entrant's), which `max_games` does not count."""
    per_table = games.orders * config.deals
    drawn = sum(len(r) for r in games.rounds)
    left = []
    if config.rounds is not None:
        rounds = max(0, config.rounds - len(games.rounds))
        left.append((rounds * round_size(config, left_out) * per_table, "rounds"))
    if config.tables is not None:
        left.append((max(0, config.tables - drawn) * per_table, "tables"))
    if config.max_games is not None:
        left.append((max(0, config.max_games - (len(games) - skipped)), "max_games"))
    return min(left) if left else None


def budget_games(config: TournamentConfig, left_out: Collection[str] = ()) -> int | None:
    """The most games the budget allows (None: no bound but the time), its rounds sized
    without the `left_out`."""
    per_table = Schedule(config).orders * config.deals
    bounds = []
    if config.tables is not None:
        bounds.append(config.tables * per_table)
    if config.rounds is not None:
        bounds.append(config.rounds * round_size(config, left_out) * per_table)
    if config.max_games is not None:
        bounds.append(config.max_games)
    return min(bounds) if bounds else None

