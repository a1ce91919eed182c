"""The schedule: which bots play which games, in which seats, with which deck.

`Schedule(config, drawn)` is a pure function of the tournament file and, for a sample, of the
tables its store drew before (`drawn`): no I/O, no clock, no global randomness (hashes and
integer arithmetic only), so running a tournament again, on any machine, yields the same games
with the same ids and seeds, and the store can resume it.

Tables (the sets of entrants that play together):

* round-robin: every combination of `table_size` bots, played round by round
  (`play_order.py`), or with `tables = N` (N smaller than the number of combinations) a
  sample of at least N distinct tables drawn one at a time, fewest tables first, so that
  every bot plays as equally many tables and every pair of bots meets about equally often,
  and a sample grows with `tables` and with the field (see `sampling.py`).  N at least the
  number of combinations means every combination.
* gauntlet: one table per candidate (the bots not in `baselines`, in file order): the candidate
  and all the baselines.  `tables` does not apply to a gauntlet.
* adaptive (`schedule = "adaptive"`): round-robin tables chosen round by round from the
  games stored before each round (`adaptive.py`); the schedule holds the rounds the store
  has kept (`rounds`), and the run chooses the next (`rounds.py`).  A table chosen again in
  a later round plays its next deals: its m-th choice plays deals m*deals to (m+1)*deals - 1.

Each table plays `deals` deals, each deal in each of the table's seat orders:

* `all`: every permutation of the table's entrants (k!, `itertools.permutations` order).
* `rotations`: the k cyclic rotations of one cyclic order of the entrants (each entrant in
  each seat once), the cyclic order changing from deal to deal (`CYCLES`): deal 0 takes the
  table's order, deal 1 its reverse, and so on through all (k-1)! cyclic orders, each followed
  by its reverse.  In one fixed cyclic order each entrant always sits after the same
  neighbour, and that favours some entrants over others (docs/tournaments.md); over every two
  deals each neighbour sits once before and once after, and over (k-1)! deals every entrant
  sits right after every other equally often, as in `all`.  An adaptive table starts that
  sequence at a cyclic order drawn by a hash of the seed and its entrants (`spin`), not at
  its order by name: its tables mostly play one deal, and by name a bot would sit right after
  the same neighbour at every table of theirs; drawn, it does so at 1/(k-1) of them.
* `balanced`: a smallest set of seat orders in which every entrant sits in every seat equally
  often and, for every ordered pair (a, b), a sits immediately before b in turn order (b in
  a's seat + 1, cyclically) equally often.  A set of m orders of k entrants needs m = r*k for
  the seats and m*k = lam*k*(k-1) for the adjacencies, so m is a multiple of k*(k-1):
  k = 3: 6 orders (= 3!, every order); k = 4: 12 of 24 (an exhaustive search finds 48 such sets;
  we use the first in lexicographic order, which also has every entrant seated before every
  other -- seat number -- in 6 of the 12); k = 5: 20 of 120, seat j = (s + j*m) mod 5 for
  m = 1..4, s = 0..4, which balances not only the neighbour but every cyclic distance: a sits
  d seats before b exactly 5 times for each d = 1..4 (and before b by seat number 10 times).

A round robin's table holds its entrants sorted by name, and its seat orders are taken over
that order, so nothing of a game depends on where its entrants stand in the file or on who else
is in it.  A gauntlet's table holds its baselines sorted by name, then its candidate, so that
seat order k seats the baselines the same way around the candidate whatever its name: every
candidate plays the same games against the baselines, in the same seats.

Every seat order of one table and deal gets the same deck (duplicate format): a game's seed
depends on the master seed, the table's entrants (as a sorted set) and the deal only, so the
same table in another tournament file with the same seed gets the same decks.  In a gauntlet
the seed depends on the baselines instead of the whole table, so that every candidate is dealt
the same decks.

Each seat is also given a seed for its own randomness (`new_game`'s `seed`), derived from the
deck's seed, the seat order's index and the seat (`referee.match.spec.seat_seed`): in a
gauntlet a baseline gets the same seed in the same game of every candidate, so a baseline that
seeds its randomness from it plays every candidate the same way (common random numbers).

Game ids ("t5f0c9a1b27e4-d02-o05": the table's key, deal, seat order) depend on the table's
entrants, the deal and the seat order only: adding deals, or entrants, or removing one, keeps
the ids and seeds of every game whose table is still in the schedule, so a grown field plays
only its new tables.  The key is 48 bits of a hash of the entrants' names; a sample or a
gauntlet in which two tables share one (astronomically unlikely) is refused.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from referee.game import Edition
from referee.match.spec import GameSpec

from .config import TournamentConfig
from .play_order import round_robin
from .sampling import Sample, Table, grow

# Part of the fingerprint: bump when the schedule of an unchanged file changes, so that a store
# begun under the old schedule is refused rather than mixed.  2: gauntlet decks ignore the
# candidate; sampled tables keep table counts within 1.  3: game ids from the table's entrants.
SCHEDULE_VERSION = 3
# The same for gauntlets, whose schedule changed alone: 4: seat orders over the baselines, then
# the candidate (not over the names sorted), and the seat order's index kept in each spec.
GAUNTLET_SCHEDULE_VERSION = 4
# The same for adaptive schedules: bump when the same stored games choose another round.
ADAPTIVE_VERSION = 1
# The same for `seat_orders = "rotations"`: 1: the cyclic order changes from deal to deal;
# 2 (adaptive schedules only): each table's first cyclic order drawn (`spin`).
ROTATIONS_VERSION = 1
ADAPTIVE_ROTATIONS_VERSION = 2

# Balanced seat orders as index patterns into the table's entrants (see the module docstring).
BALANCED_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {
    3: tuple(itertools.permutations(range(3))),
    4: (
        (0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3), (1, 0, 2, 3), (1, 0, 3, 2), (1, 3, 0, 2),
        (2, 0, 3, 1), (2, 3, 0, 1), (2, 3, 1, 0), (3, 1, 2, 0), (3, 2, 0, 1), (3, 2, 1, 0),
    ),
    5: tuple(tuple((s + j * m) % 5 for j in range(5)) for m in range(1, 5) for s in range(5)),
}


def _cycles(k: int) -> tuple[tuple[int, ...], ...]:
    """The (k-1)! cyclic orders of k entrants as index patterns starting at 0, each followed
    by its reverse, the table's own order first."""
    cycles: list[tuple[int, ...]] = []
    for rest in itertools.permutations(range(1, k)):
        if rest < rest[::-1]:
            cycles += [(0, *rest), (0, *rest[::-1])]
    return tuple(cycles)


# The cyclic orders of rotations, taken in turn from deal to deal (`order_patterns`): without
# a `spin`, deal d takes CYCLES[k][d % (k-1)!].
CYCLES: dict[int, tuple[tuple[int, ...], ...]] = {k: _cycles(k) for k in (3, 4, 5)}


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule."""

    game_id: str  # "t5f0c9a1b27e4-d02-o05": table key, deal, seat order; unique and stable
    # index of the table (the set of entrants) in this schedule, which another file's
    # schedule may number otherwise: not part of the game's identity
    table: int = field(compare=False)
    deal: int  # 0..deals-1
    order: int  # index of this seat order among the table's seat orders
    seats: tuple[str, ...]  # bot names by seat, seat 0 first
    seed: int  # the deck: master seed, the table's entrants (as a set; a gauntlet: its
    # baselines) and the deal only, so every seat order of a table and deal gets the same deck


def table_key(entrants: Sequence[str]) -> str:
    """The table's part of its game ids: 48 bits of a hash of its entrants' sorted names."""
    text = json.dumps(["table", sorted(entrants)], separators=(",", ":"))
    return "t" + hashlib.sha256(text.encode()).hexdigest()[:12]


def game_id(key: str, deal: int, order: int) -> str:
    return f"{key}-d{deal:02d}-o{order:02d}"


GAME_ID = re.compile(r"(t[0-9a-f]{12})-d(\d+)-o(\d+)")  # `game_id`'s: key, deal, order


def deal_seed(master: int, entrants: Sequence[str], deal: int) -> int:
    """The shuffle seed of one deal at one table, the same for every seat order: non-negative
    and below 2**63."""
    text = json.dumps(["deal", master, sorted(entrants), deal], separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def order_patterns(k: int, how: str, deal: int, spin: int = 0) -> list[tuple[int, ...]]:
    """The seat orders of a table of k in deal `deal`, as index patterns into its entrants:
    `all`, `rotations` or `balanced` (module docstring).  Rotations take the cyclic orders
    of `CYCLES` in turn from the `spin`-th, each deal of a pair the reverse of the other."""
    if how == "rotations":
        cycles = CYCLES[k]
        pairs = len(cycles) // 2
        cycle = cycles[2 * ((spin // 2 + deal // 2) % pairs) + (spin + deal) % 2]
        return [cycle[r:] + cycle[:r] for r in range(k)]
    if how == "balanced":
        return list(BALANCED_ORDERS[k])
    return list(itertools.permutations(range(k)))


def seat_orders(entrants: tuple[str, ...], how: str, deal: int,
                spin: int = 0) -> list[tuple[str, ...]]:
    """The table's seat orders in deal `deal` (`order_patterns`), as bot names by seat."""
    return [tuple(entrants[i] for i in pattern)
            for pattern in order_patterns(len(entrants), how, deal, spin)]


def table_of(config: TournamentConfig, seats: Sequence[str]) -> Table:
    """The table, as the schedule holds it, of a game seated `seats`: its entrants by name (a
    gauntlet's: its baselines by name, then its candidate)."""
    if config.format == "gauntlet":
        return (*sorted(config.baselines), *(s for s in seats if s not in config.baselines))
    return tuple(sorted(seats))


def seats_of(config: TournamentConfig, table: Table, deal: int, order: int) -> tuple[str, ...]:
    """The seats of seat order `order` of deal `deal` at `table`, as the schedule makes them."""
    turn = spin(config.seed, table) if config.schedule == "adaptive" else 0
    return seat_orders(table, config.seat_orders, deal, turn)[order]


def spin(master: int, entrants: Sequence[str]) -> int:
    """The cyclic order an adaptive table of rotations starts at (an index into `CYCLES`):
    drawn by a hash of the seed and its entrants, each order as likely."""
    text = json.dumps(["spin", master, sorted(entrants)], separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") % len(CYCLES[len(entrants)])


def tables(config: TournamentConfig, drawn: Sequence[Table] = ()) -> list[Table]:
    """The schedule's tables in the order they are played, each one's entrants sorted by
    name (a gauntlet's: its baselines sorted by name, then its candidate); `drawn`: the
    tables the store drew before, for a sample."""
    return list(Schedule(config, drawn).tables())


def schedule(config: TournamentConfig, drawn: Sequence[Table] = ()) -> list[ScheduledGame]:
    """Every game of the tournament, in the order they are played (`Schedule.games`)."""
    return list(Schedule(config, drawn).games())


class Schedule:
    """The games of a tournament file, given the tables its store drew before (`drawn`, for
    a sample; `sampling.py`): what they are, how many, and the order they are played in.

    The games come deal by deal, each deal table by table in play order, each table seat
    order by seat order (a table's seat orders together, so that its bot processes are
    reused).  A round robin's tables come round by round (`play_order.py`), a sample's in
    the order drawn (fewest tables first), a gauntlet's candidates in file order: so every
    deal, and every stretch of one, gives each entrant about as many tables as every other.
    Lazy: a full round robin is counted by formula and its games made as they are played."""

    def __init__(self, config: TournamentConfig, drawn: Sequence[Table] = (),
                 rounds: Sequence[Sequence[Table]] = ()) -> None:
        self.config = config
        self.names = [b.name for b in config.bots]
        self.k = config.table_size
        self.kind = _kind(config)
        self.sample: Sample | None = None
        self._tables: list[Table] | None = None
        # adaptive: the rounds the store kept, and each table's first deal in its round
        self.rounds: list[list[Table]] = []
        self._first_deal: list[list[int]] = []
        self._playing: list[Table] = []  # their tables of entrants in the file
        if self.kind == "adaptive":
            self._tables = []
            for tables in rounds:
                self.add_round(tables)
        elif self.kind == "gauntlet":
            baselines = tuple(sorted(config.baselines))
            self._tables = [(*baselines, c) for c in self.names if c not in config.baselines]
        elif self.kind == "sample":
            assert config.tables is not None
            self.sample = grow(self.names, self.k, config.tables, config.seed, drawn)
            self._tables = self.sample.tables
        if self._tables is not None:
            keys = [table_key(t) for t in set(self._tables)]
            if len(set(keys)) < len(keys):
                raise ValueError("two tables of this schedule share a game id key; change "
                                 "`seed`")
        patterns = {"all": math.factorial(self.k), "rotations": self.k,
                    "balanced": len(BALANCED_ORDERS[self.k])}
        self.orders = patterns[config.seat_orders]

    def add_round(self, tables: Sequence[Table]) -> None:
        """Append an adaptive schedule's next round; its tables of entrants no longer in the
        file (withdrawn) are passed over."""
        assert self._tables is not None
        seen = Counter(self._tables)
        field = set(self.names)
        kept: list[Table] = []
        firsts: list[int] = []
        for table in tables:
            table = tuple(table)
            firsts.append(seen[table] * self.config.deals)
            seen[table] += 1
            self._tables.append(table)  # a withdrawn entrant's too: it numbers the deals
            if field.issuperset(table):
                kept.append(table)
            else:
                firsts[-1] = -1
        self.rounds.append([tuple(t) for t in tables])
        self._first_deal.append(firsts)
        self._playing += kept

    def round_games(self, number: int) -> Iterator[ScheduledGame]:
        """An adaptive schedule's games of round `number`, table by table, each table's
        deals and seat orders together (its bot processes reused)."""
        config = self.config
        offset = sum(len(r) for r in self.rounds[:number])
        for index, (entrants, first) in enumerate(zip(self.rounds[number],
                                                      self._first_deal[number], strict=True)):
            if first < 0:
                continue
            seed_of = {d: deal_seed(config.seed, entrants, d)
                       for d in range(first, first + config.deals)}
            key = table_key(entrants)
            turn = spin(config.seed, entrants)
            for deal, seed in seed_of.items():
                for order, seats in enumerate(seat_orders(entrants, config.seat_orders, deal,
                                                          turn)):
                    yield ScheduledGame(game_id(key, deal, order), offset + index, deal, order,
                                        seats, seed)

    @property
    def table_count(self) -> int:
        if self._tables is None:
            return math.comb(len(self.names), self.k)
        return len(self._playing if self.kind == "adaptive" else self._tables)

    def __len__(self) -> int:
        """The number of games (adaptive: of the rounds chosen so far)."""
        return self.table_count * self.orders * self.config.deals

    def tables(self, ordered: bool = True) -> Iterator[Table]:
        """The tables in the order they are played (not `ordered`: in any order, faster)."""
        if self._tables is None:
            if not ordered:
                return itertools.combinations(sorted(self.names), self.k)
            return round_robin(self.names, self.k)
        if self.kind == "adaptive":
            return iter(self._playing)
        return iter(self._tables)

    def tables_by_entrant(self) -> dict[str, int]:
        """How many tables each entrant of the file sits at."""
        if self._tables is None:
            return dict.fromkeys(self.names, math.comb(len(self.names) - 1, self.k - 1))
        counts = Counter(name for t in self.tables() for name in t)
        return {name: counts[name] for name in self.names}

    def drawn(self) -> list[Table]:
        """The tables of a sample drawn now, after those the store held (none otherwise)."""
        return [] if self.sample is None else self.sample.drawn

    def games(self, deals: range | None = None) -> Iterator[ScheduledGame]:
        """The games of `deals` (default: all), in the order they are played (adaptive:
        of every round chosen so far, round by round; `deals` does not apply)."""
        config = self.config
        if self.kind == "adaptive":
            for number in range(len(self.rounds)):
                yield from self.round_games(number)
            return
        for deal in deals if deals is not None else range(config.deals):
            for index, entrants in enumerate(self.tables()):
                # A gauntlet deals every candidate the same cards: its seed ignores the
                # candidate.
                dealt_to = config.baselines if self.kind == "gauntlet" else entrants
                seed = deal_seed(config.seed, dealt_to, deal)
                key = table_key(entrants)
                for order, seats in enumerate(seat_orders(entrants, config.seat_orders, deal)):
                    yield ScheduledGame(game_id(key, deal, order), index, deal, order, seats,
                                        seed)


def _kind(config: TournamentConfig) -> str:
    """"gauntlet", "adaptive", "sample" (`tables` fewer than all the round robin's), or
    "all"."""
    if config.format == "gauntlet":
        return "gauntlet"
    if config.schedule == "adaptive":
        return "adaptive"
    if config.tables is not None and config.tables < math.comb(len(config.bots),
                                                               config.table_size):
        return "sample"
    return "all"


def game_spec(config: TournamentConfig, game: ScheduledGame, edition: Edition) -> GameSpec:
    """The spec the referee plays for one scheduled game."""
    limits = config.limits
    return GameSpec.make(game.game_id, game.seed, list(game.seats), edition, config.variants,
                         order=game.order, move_time=limits.move_time, time_bank=limits.time_bank,
                         max_faults=limits.max_faults)


def game_settings(config: TournamentConfig) -> dict[str, object]:
    """The settings of a tournament file that change its games (`fingerprint`)."""
    limits = config.limits
    return {
        "seed": config.seed,
        "table_size": config.table_size,
        "format": config.format,
        "seat_orders": config.seat_orders,
        "baselines": config.baselines,
        "edition": config.edition,
        "variants": config.variants,
        "limits": [limits.move_time, limits.time_bank, limits.max_faults],
    }


def fingerprint(config: TournamentConfig, edition: Edition | None = None,
                sampled: int | None = None, rotations: int | None = None) -> str:
    """A hex digest of everything that changes the games; not of the entrants (a game's id
    and seed depend on its own table only, and each game records its bots' versions), the
    name, the builds, the directories, the startup and build times or the primary metric, nor
    of the number of deals, `tables`, `max_games` or `until`: so a store can be extended by
    more deals, tables or entrants, or taken over by a run that stops early (runner,
    stages).  Given the loaded `edition`, its contents count too, so an edited edition file
    is noticed.  `sampled`: the fingerprint the referee gave a store of `tables = sampled`
    before samples grew (a store it takes over, `session.bind`).  `rotations`: the version of
    rotations' seat orders (0: before they changed from deal to deal; None: this
    referee's, `rotations_version`)."""
    data: dict[str, object] = {
        "schedule": (GAUNTLET_SCHEDULE_VERSION if config.format == "gauntlet"
                     else SCHEDULE_VERSION),
        "tables": sampled,  # None since samples grow: the store keeps the tables drawn
        **game_settings(config),
    }
    if config.schedule == "adaptive":  # only then: a fixed schedule's stores keep theirs
        data["adaptive"] = ADAPTIVE_VERSION
    if rotations is None:
        rotations = rotations_version(config)
    if config.seat_orders == "rotations" and rotations:  # only then, as adaptive
        data["rotations"] = rotations
    if edition is not None:
        data["edition_data"] = edition.to_data()
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def rotations_version(config: TournamentConfig) -> int:
    """The version of rotations' seat orders this referee plays for `config`."""
    return ADAPTIVE_ROTATIONS_VERSION if config.schedule == "adaptive" else ROTATIONS_VERSION
