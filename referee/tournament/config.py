"""The tournament file (`tournaments/*.toml`): one file describes a whole contest.

Validated by pydantic; every error names the key as the file's writer counts
(`bots #3 (alice): give its command (what runs the bot) or its dir ...`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from referee.bots.limits import parse_address_space
from referee.bots.manifest import command_line
from referee.edition_files import load_edition
from referee.game import BUILTIN_EDITIONS, MAX_SEED, Edition
from referee.game.config import VARIANTS
from referee.toml_files import TomlFileError, read_toml
from referee.validation import first_errors

from .folder_entries import fill_from_folders
from .grading_table import Grading
from .limits_table import Limits, Size


class TournamentError(ValueError):
    """A tournament file that cannot be used; the message names the key or the file."""


NAME = re.compile(r"[A-Za-z0-9_.+-]+")  # an entrant's name


class BotEntry(BaseModel):
    """One entrant: its name, the command that runs it, how to build it, where it runs."""

    # defer_build (every model here): built when a tournament file is first read, not at
    # import, which `leaderboard`, `report` and each error line pay for nothing
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    name: str = Field(min_length=1, max_length=64)
    command: str = Field(min_length=1)
    build: str | None = None  # run once, in `dir`, before the first game
    dir: str | None = None  # working directory, relative to the tournament file
    # Overrides limits.address_space for this bot ("8G", "off"): the JVM and V8 reserve more.
    address_space: Size | None = None
    read_only: list[str] = []  # more paths the sandbox shows, relative to the tournament file
    # Why an entry given by its `dir` alone has no bot there (`folder_entries.py`): a run
    # leaves it out, as one whose build fails.  Not a key of the file.
    _unusable: str | None = PrivateAttr(default=None)

    @property
    def unusable(self) -> str | None:
        return self._unusable

    @model_validator(mode="before")
    @classmethod
    def _command_or_dir(cls, data: object) -> object:
        """An entry runs its `command`, or the bot its `dir` holds (`folder_entries.py`);
        an unknown key (a typo of either) is named instead, by the fields' validation."""
        if isinstance(data, dict) and "command" not in data and "dir" not in data and \
                set(data) <= set(cls.model_fields):
            raise ValueError("give its command (what runs the bot) or its dir (a folder "
                             "holding the bot)")
        if isinstance(data, dict) and "command" in data and "name" not in data:
            # only an entry of a dir alone is named by its folder (`folder_entries.py`)
            raise ValueError("name: give one: an entry with its own command is not named "
                             "by its folder or bot.toml, as an entry of a dir alone is")
        return data

    @field_validator("address_space")
    @classmethod
    def _size(cls, value: str | int | None) -> str | int | None:
        parse_address_space(value)
        return value

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        """A name names the bot's files and rows: letters, digits and _.+- only."""
        if not NAME.fullmatch(value):
            raise ValueError(f"{value!r}: a name may hold only letters, digits and _ . + -")
        return value

    @field_validator("command", "build", "dir", "read_only")
    @classmethod
    def _no_nul(cls, value: str | list[str] | None) -> str | list[str] | None:
        """A NUL cannot reach the OS (Python refuses it in arguments and paths)."""
        texts = value if isinstance(value, list) else [value]
        if any(t is not None and "\0" in t for t in texts):
            raise ValueError("contains a NUL character")
        return value

    @field_validator("command", "build")
    @classmethod
    def _words(cls, value: str | None) -> str | None:
        return command_line(value)


class TournamentConfig(BaseModel):
    """What a tournament file may say; see tournaments/demo.toml for an example."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    name: str = Field(min_length=1, max_length=100)
    seed: StrictInt = Field(1, ge=0, le=MAX_SEED)  # as `referee play --seed`
    bots: list[BotEntry] = Field(min_length=1)
    table_size: Literal[3, 4, 5] = 4
    format: Literal["round-robin", "gauntlet"] = "round-robin"
    deals: StrictInt = Field(1, ge=1, le=10_000,
                             description="deals per table (with until: the most)")
    # Stop once the leader is separated from every other entrant, every place is known, or
    # the `top` entrants are known (a qualifier's cut); `max_deals` is another name for
    # `deals` then (see `_max_deals`, and README).
    until: Literal["separated", "ranked", "top"] | None = None
    top: StrictInt | None = Field(None, ge=1, description='until = "top": how many qualify')
    seat_orders: Literal["all", "rotations", "balanced"] = "all"
    tables: StrictInt | None = Field(None, ge=1,
                                     description="sample this many tables (large fields)")
    # "fixed": every table is known before any game (all of a round robin's, or a sample of
    # `tables`); "adaptive": rounds of tables chosen from the games stored so far, up to a
    # budget of `tables`, `rounds` or `max_games` (tournament/adaptive.py).
    schedule: Literal["fixed", "adaptive"] = "fixed"
    rounds: StrictInt | None = Field(None, ge=1, description="adaptive: the most rounds")
    # The store holds at most this many games of the schedule: a run stops there, every
    # entrant within about one table of every other (tournament/budget.py).
    max_games: StrictInt | None = Field(None, ge=1)
    baselines: list[str] = []  # gauntlet: names of the fixed opponents among `bots`
    edition: str = Field("cmon", min_length=1)
    variants: list[str] = []
    limits: Limits = Limits()
    primary_metric: Literal["placement", "win_share", "money", "rating"] = "placement"
    sandbox: Literal["none", "bwrap"] = "none"  # bwrap: see README, Untrusted bots
    # Live bot processes per worker, at most; None: sized to the referee's descriptor limit
    # and memory (executors/bot_pool.py).  Not in the fingerprint: it changes no game.
    max_bot_processes: int | None = Field(None, ge=1)
    grading: Grading = Grading()

    def edition_file(self) -> str | None:
        """The edition's file as the tournament file names it; None for a built-in edition
        (`tournament_edition` reads either)."""
        return None if self.edition in BUILTIN_EDITIONS else self.edition

    @model_validator(mode="before")
    @classmethod
    def _max_deals(cls, data: object) -> object:
        """`max_deals` (what a run with `until` plays at most) is another name for `deals`:
        one number, so that the schedule, its game ids and the store do not depend on which
        name the file uses."""
        if not isinstance(data, dict) or "max_deals" not in data:
            return data
        if "deals" in data:
            raise ValueError("max_deals: another name for deals (the most deals a run with "
                             "until plays); give only one of them")
        if data.get("until") is None:
            raise ValueError('max_deals: goes with until = "separated", "ranked" or "top"; '
                             "without until, a run plays every one of its deals: name them "
                             "deals")
        return {("deals" if k == "max_deals" else k): v for k, v in data.items()}

    @field_validator("variants")
    @classmethod
    def _known_variants(cls, variants: list[str]) -> list[str]:
        for v in variants:
            if v not in VARIANTS:
                raise ValueError(f"unknown variant {v!r}; known: {', '.join(VARIANTS)}")
        return variants

    @model_validator(mode="after")
    def _top_cut(self) -> TournamentConfig:
        """`top = N` is the cut of `until = "top"`, and a cut must leave some out."""
        if self.until == "top" and self.top is None:
            raise ValueError('until = "top": give the cut, top = N (the N best qualify)')
        if self.top is not None and self.until != "top":
            raise ValueError('top: goes with until = "top" (a run that stops once the top '
                             "N are known)")
        if self.top is not None:
            judged = len(self.bots) - (len(self.baselines) if self.format == "gauntlet" else 0)
            if self.top >= judged:
                whom = "candidates" if self.format == "gauntlet" else "entrants"
                raise ValueError(f"top: {self.top} of {judged} {whom} leaves nobody out: "
                                 f'give fewer, or until = "ranked"')
        return self

    @model_validator(mode="after")
    def _consistent(self) -> TournamentConfig:
        names = [b.name for b in self.bots]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"bots: the name {name!r} is used twice: " + " and ".join(
                    f"#{i + 1} ({_entry_source(b)})" for i, b in enumerate(self.bots)
                    if b.name == name) + " (an entry with a dir and no name is named by its "
                    "folder's bot.toml, else after the folder)")
        if self.format == "gauntlet":
            if not self.baselines:
                raise ValueError("baselines: a gauntlet needs at least one baseline")
            if self.tables is not None:
                raise ValueError("tables: a gauntlet plays every entrant's table against the "
                                 "baselines; tables samples a round robin's only")
            for b in self.baselines:
                if self.baselines.count(b) > 1:
                    raise ValueError(f"baselines: {b!r} is listed twice")
                if b not in names:
                    raise ValueError(f"baselines: {b!r} is not one of the bots "
                                     f"({', '.join(names)})")
            if len(self.baselines) != self.table_size - 1:
                raise ValueError(f"baselines: a gauntlet at tables of {self.table_size} needs "
                                 f"{self.table_size - 1} baselines, got {len(self.baselines)}")
            if self.until is not None and len(names) - len(self.baselines) == 1:
                raise ValueError("until: a gauntlet's looks compare its candidates, and it has "
                                 "one: there is nothing to settle; remove until")
        elif self.baselines:
            raise ValueError('baselines: go with format = "gauntlet" (a round robin plays '
                             "every entrant alike): set it, or remove baselines")
        elif len(names) < self.table_size:
            raise ValueError(f"bots: {len(names)} bots cannot fill a table of "
                             f"{self.table_size}")
        self._adaptive_budget()
        if self.max_bot_processes is not None and self.max_bot_processes < self.table_size:
            raise ValueError(f"max_bot_processes: a table of {self.table_size} needs "
                             f"{self.table_size} bot processes at once, not "
                             f"{self.max_bot_processes}")
        if ("mystery" in self.variants or "mystery-winner" in self.variants) \
                and self.table_size != 3:
            raise ValueError("variants: mystery is for tables of 3 (R7)")
        return self

    def _adaptive_budget(self) -> None:
        """An adaptive schedule plays round after round until its budget: it needs one, and
        it is a round robin's that stops where its budget does, not where `until` would."""
        if self.schedule != "adaptive":
            if self.rounds is not None:
                raise ValueError('rounds: goes with schedule = "adaptive" (a fixed schedule '
                                 "has no rounds to count)")
            return
        if self.format == "gauntlet":
            raise ValueError('schedule: a gauntlet plays every candidate against the '
                             'baselines; "adaptive" chooses the tables of a round robin')
        if self.until is not None:
            raise ValueError('until: goes with a fixed schedule; an adaptive one stops at its '
                             "budget (tables, rounds or max_games)")
        if self.tables is None and self.rounds is None and self.max_games is None:
            raise ValueError('schedule = "adaptive": give its budget, tables = N (tables in '
                             "all), rounds = N or max_games = N; it plays round after round "
                             "until then")

    @model_validator(mode="after")
    def _rules_beat_baselines(self) -> TournamentConfig:
        """A grading rule can only name the gauntlet's baselines: any other name (a typo, a
        case slip) would make it a rule nobody can ever meet, or everybody."""
        if self.format == "gauntlet":
            for i, rule in enumerate(self.grading.rules):
                for key, names in (("beats", rule.beats), ("level_with", rule.level_with)):
                    for b in names:
                        if b not in self.baselines:
                            raise ValueError(f"grading.rules #{i + 1} {key}: {b!r} is not one of "
                                             f"the baselines ({', '.join(self.baselines)})")
        return self


def _entry_source(bot: BotEntry) -> str:
    """Where an entry's bot comes from, as its file says: its dir, else its command."""
    return f"dir {bot.dir}" if bot.dir is not None else f"command {bot.command}"


def load_tournament(path: Path) -> TournamentConfig:
    """Read and check a tournament file; TournamentError names what is wrong and where."""
    try:
        data = read_toml(path)
    except TomlFileError as exc:
        beside = path.with_suffix(".toml")
        hint = (f": give the tournament file, {beside}?" if "SQLite" in str(exc) and
                beside != path and beside.is_file() else "")
        raise TournamentError(f"{path} {exc}{hint}") from None
    unusable = fill_from_folders(data, path.parent)
    try:
        config = TournamentConfig.model_validate(data)
    except ValidationError as exc:
        raise TournamentError(f"{path}: {first_errors(exc, model=TournamentConfig, data=data)}"
                              ) from None
    for index, why in unusable.items():
        config.bots[index]._unusable = why
    return config


def with_option(config: TournamentConfig, option: str, key: str,
                value: object) -> TournamentConfig:
    """`config` with `key` set to `value` by the command line's `option`, checked as the
    file's key would be (TournamentError names the option); its bots as they are."""
    try:
        TournamentConfig.model_validate(config.model_dump() | {key: value})
    except ValidationError as exc:
        raise TournamentError(f"{option}: " + first_errors(exc).removeprefix(f"{key}: ")
                              ) from None
    return config.model_copy(update={key: value})


def with_max_bot_processes(config: TournamentConfig, count: int) -> TournamentConfig:
    """`config` with `--max-bot-processes count`, checked as the file's key would be."""
    return with_option(config, f"--max-bot-processes {count}", "max_bot_processes", count)


def tournament_edition(config: TournamentConfig, config_path: Path) -> Edition:
    """The tournament's edition: a built-in name, or a file relative to the tournament file."""
    name = config.edition
    if name in BUILTIN_EDITIONS:
        return BUILTIN_EDITIONS[name]
    path = Path(name)
    if not path.is_absolute():
        path = config_path.resolve().parent / path
    return load_edition(str(path))
