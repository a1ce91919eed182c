"""Why a plan warns that a tournament file's design cannot tell its entrants apart, whatever
its bots do: too few deals for any pair to be separated, and rotations over an odd number of
deals.  `plan` and the start of `run` say them (`preview.Plan`)."""

from __future__ import annotations

from referee.text import counted

from .config import TournamentConfig
from .schedule import Schedule


def too_few_deals(config: TournamentConfig, games: Schedule) -> str | None:
    """Why no pair can be separated at the file's deals, whatever the games, or None.  In a
    complete design (a gauntlet, or one table) every deal holds every entrant, so pairs are
    compared deal by deal, and the exact test can reach the level of Holm's first step only on
    `until.exact_deals_needed` deals (as a run's looks are judged), over the pairs the board
    places: a gauntlet's candidates' alone (`until.design`; one candidate has no pair).
    Elsewhere (several tables, sampled or not) the block model judges, and it cannot bound a
    pair with an entrant seen in one deal of one table (that deal fits it exactly: no residual
    shows its noise), so fewer than two entrants at more than that separate nothing."""
    from .until import ALPHA, contenders, design, exact_deals_needed  # numpy: only here

    placed, complete = design(config)
    if complete:
        need = exact_deals_needed(placed, config.deals) if placed >= 2 else None
        if need is None:
            return None
        return (f"with {counted(config.deals, 'deal')} the leaderboard can separate no pair: "
                "every deal is at every table, so entrants are compared deal by deal (the "
                f"exact test), and {placed} {contenders(config)}s need at least {need} deals "
                f"(familywise error {ALPHA:g}); give deals = {need} or more")
    seen = sum(t * config.deals >= 2 for t in games.tables_by_entrant().values())
    if seen >= 2:
        return split_field(config, games)
    return (f"with {counted(config.deals, 'deal')} the leaderboard can separate no pair: "
            f"{'every entrant' if not seen else 'all but one entrant'} plays one deal of one "
            "table, which fits its strength exactly and leaves no residual to show its noise "
            "(the block model's tests are over deals); give deals = 2 or more")


def split_field(config: TournamentConfig, games: Schedule) -> str | None:
    """Why a sample whose tables fall into groups that share no entrant (a final that seats
    each entrant at one table) can name no winner, whatever its deals, or None.  Two
    entrants are compared only through a chain of tables linking them: across groups there is
    none (the board's pairs there are "apart"), so no entrant is placed 1 by test.
    Names the fewest tables of the same sample (whose first tables are these: `sampling.py`)
    that link every entrant, up to twice the file's."""
    if games.sample is None or config.schedule == "adaptive":
        return None  # a full round robin is linked; adaptive rounds are drawn later
    tables = list(games.tables())
    groups = _Groups()
    for table in tables:
        groups.add(table)
    split = groups.count
    if split < 2:
        return None
    from .sampling import grow

    linked = None
    longer = grow(games.names, config.table_size, 2 * len(tables), config.seed,
                  games.sample.tables).tables
    for count, table in enumerate(longer[len(tables):], len(tables) + 1):
        groups.add(table)
        if groups.count == 1:
            linked = count
            break
    give = (f"give tables = {linked} or more" if linked is not None else
            "give more tables")
    return (f"with {counted(len(tables), 'table')} the leaderboard can name no winner: "
            f"its tables split the entrants into {split} groups that share no "
            "table, and no game links a pair across groups: none is compared, however many "
            f"deals are played; {give}, so that every entrant is linked to every other")


class _Groups:
    """The groups of entrants that tables link (two entrants at one table are linked), as
    tables are added: a union-find, so that a sample of 10,000 tables is counted in linear
    time, and each table more in about constant time."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.count = 0

    def root(self, name: str) -> str:
        parent = self.parent
        if name not in parent:
            parent[name] = name
            self.count += 1
        while parent[name] != name:
            parent[name] = parent[parent[name]]  # halve the path (two statements: a chained
            name = parent[name]  # assignment would set the grandparent's own parent)
        return name

    def add(self, table: tuple[str, ...]) -> None:
        first = self.root(table[0])
        for name in table[1:]:
            other = self.root(name)
            if other != first:
                self.parent[other] = first
                self.count -= 1


# Why a plan warns of rotations over an odd number of deals (schedule.py's docstring;
# docs/tournaments.md, "rotations"; benchmarks/README.md).
ROTATIONS = ('seat_orders = "rotations" with an odd number of deals: a deal seats each table '
             "in one cyclic order, which favours some bots over others, and only the next deal "
             "reverses it, so two copies of one bot can come out apart; give an even number of "
             'deals, or seat_orders = "balanced"')


def unpaired_rotations(config: TournamentConfig) -> bool:
    """Whether the file plays rotations over an odd number of deals (`ROTATIONS`) in a
    fixed schedule (an adaptive one draws each table's cyclic order, `schedule.spin`)."""
    return config.seat_orders == "rotations" and config.deals % 2 == 1 and \
        config.schedule != "adaptive"
