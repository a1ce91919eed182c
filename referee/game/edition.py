"""Editions (R1): an edition is data, a list of artists in board order and their card counts.

Cards are small integers.  An edition numbers its cards artist by artist in board order and,
within an artist, by auction type in the order of `AuctionType`; that numbering is also the
canonical card order used for default actions.
"""

from __future__ import annotations

import enum
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from referee.toml_files import TomlFileError, parse_toml
from referee.validation import meant_key


class AuctionType(enum.IntEnum):
    """The symbol on a card (R4)."""

    OPEN = 0
    ONCE_AROUND = 1
    HIDDEN = 2
    FIXED_PRICE = 3
    DOUBLE = 4

    @property
    def label(self) -> str:
        return AUCTION_LABELS[self]


AUCTION_LABELS: tuple[str, ...] = ("open", "once-around", "hidden", "fixed-price", "double")


class EditionError(ValueError):
    """A user's edition file is not valid; the message names the bad field."""


@dataclass(frozen=True)
class Edition:
    """Artists in board order (left first) and, per artist, its card count per auction type."""

    name: str
    artists: tuple[str, ...]
    counts: tuple[tuple[int, int, int, int, int], ...]
    card_artist: tuple[int, ...] = field(init=False, repr=False, compare=False)
    card_type: tuple[AuctionType, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        artist: list[int] = []
        kind: list[AuctionType] = []
        for a, per_type in enumerate(self.counts):
            for t, n in enumerate(per_type):
                artist.extend([a] * n)
                kind.extend([AuctionType(t)] * n)
        object.__setattr__(self, "card_artist", tuple(artist))
        object.__setattr__(self, "card_type", tuple(kind))

    @property
    def n_cards(self) -> int:
        return len(self.card_artist)

    @property
    def n_artists(self) -> int:
        return len(self.artists)

    def card_label(self, card: int) -> str:
        return f"{self.artists[self.card_artist[card]]} ({self.card_type[card].label})"

    def cards_of(self, artist: int | str, kind: AuctionType | None = None) -> list[int]:
        """All card ids of an artist (by index or name), optionally of one auction type."""
        a = self.artists.index(artist) if isinstance(artist, str) else artist
        return [
            c
            for c in range(self.n_cards)
            if self.card_artist[c] == a and (kind is None or self.card_type[c] == kind)
        ]

    def to_data(self) -> dict[str, Any]:
        """The edition in its file format (see `parse_edition`)."""
        return {
            "name": self.name,
            "artists": [
                {"name": name, **{AUCTION_LABELS[t]: n for t, n in enumerate(per_type)}}
                for name, per_type in zip(self.artists, self.counts, strict=True)
            ],
        }


MAX_CARDS = 1000  # the protocol's card ids are 0-999 (protocol.messages.CardId)


def _shown_name(name: str) -> str:
    """A name as transcripts and pages show it: printable, without spaces around it (a
    newline in one would split a transcript line; ' A' beside 'A' reads as a duplicate)."""
    if any(not c.isprintable() for c in name):
        raise ValueError(f"name {name!r} holds a control character")
    if name != name.strip() or not name:
        raise ValueError(f"name {name!r} is blank or starts or ends with spaces")
    return name


ShownName = Annotated[str, Field(min_length=1, max_length=60), AfterValidator(_shown_name)]


class _ArtistModel(BaseModel):
    # strict: a count written true, "3" or 3.0 is a mistake, not 1 or 3
    # defer_build: built when an edition file is first read, not at import (every command)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True,
                              defer_build=True)

    name: ShownName
    open: int = Field(ge=0, le=40)
    once_around: int = Field(ge=0, le=40, alias="once-around")
    hidden: int = Field(ge=0, le=40)
    fixed_price: int = Field(ge=0, le=40, alias="fixed-price")
    double: int = Field(ge=0, le=40)


class _EditionModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, defer_build=True)

    name: ShownName
    artists: list[_ArtistModel] = Field(min_length=3, max_length=10)

    @field_validator("artists")
    @classmethod
    def _distinct_names(cls, artists: list[_ArtistModel]) -> list[_ArtistModel]:
        seen: dict[str, str] = {}
        for a in artists:
            key = unicodedata.normalize("NFKC", a.name).casefold()  # width and case aside
            if key in seen:
                raise ValueError(f"artist names {seen[key]!r} and {a.name!r} are the same name"
                                 if seen[key] != a.name else
                                 f"artist name {a.name!r} appears twice")
            seen[key] = a.name
        cards = sum(a.open + a.once_around + a.hidden + a.fixed_price + a.double for a in artists)
        if cards < 1:
            raise ValueError("the edition has no cards")
        if cards > MAX_CARDS:
            raise ValueError(f"the edition has {cards} cards, more than {MAX_CARDS}: card ids "
                             f"run from 0 to {MAX_CARDS - 1} in the bot protocol")
        return artists


def edition_from_data(data: Any) -> Edition:
    """Validate parsed edition data; errors name the field, e.g. `artists.2.hidden`."""
    if not isinstance(data, dict):
        raise EditionError("an edition is a table with a name and its artists, not "
                           f"{type(data).__name__ if data is not None else 'null'}")
    try:
        model = _EditionModel.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()  # a mistyped key first: the key then missing is the one meant
        err = next((e for e in errors if meant_key(e, _EditionModel)), errors[0])
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        meant = meant_key(err, _EditionModel)
        raise EditionError(f"edition field {where}: "
                           f"{err['msg'].removeprefix('Value error, ')}"
                           + (f" (did you mean {meant!r}?)" if meant else "")) from None
    return Edition(
        name=model.name,
        artists=tuple(a.name for a in model.artists),
        counts=tuple(
            (a.open, a.once_around, a.hidden, a.fixed_price, a.double) for a in model.artists
        ),
    )


def parse_edition(text: str, fmt: str) -> Edition:
    """Parse an edition file's text; `fmt` is "toml" or "json".

    The format: a `name` and a list `artists` (board order), each with `name` and a count for
    each of `open`, `once-around`, `hidden`, `fixed-price` and `double`.
    """
    try:
        data: Any = (parse_toml(text) if fmt == "toml" else
                     json.loads(text, object_pairs_hook=_without_repeated_keys))
    except TomlFileError as exc:
        raise EditionError(f"edition file {exc}") from None
    except json.JSONDecodeError as exc:
        raise EditionError(f"edition file is not valid JSON: {exc}") from None
    except RecursionError:
        raise EditionError("edition file is not valid JSON: nested too deeply") from None
    return edition_from_data(data)


def _without_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice is an error (JSON would keep the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise EditionError(f"edition file is not valid JSON: the key {key!r} appears twice "
                               "in one object")
        out[key] = value
    return out


CMON = Edition(
    name="cmon",
    artists=(
        "Manuel Carvalho",
        "Sigrid Thaler",
        "Daniel Melim",
        "Ramon Martins",
        "Rafael Silveira",
    ),
    # Totals 12/13/15/15/15 are the rulebook's; the per-type split follows the classic deck
    # position by position (no public source gives CMON's own split), see RULES.md R1.
    counts=((3, 3, 2, 2, 2), (3, 2, 3, 3, 2), (3, 3, 3, 3, 3), (3, 3, 3, 3, 3), (3, 3, 3, 3, 3)),
)

CLASSIC = Edition(
    name="classic",
    artists=("Lite Metal", "Yoko", "Christin P.", "Karl Gitter", "Krypto"),
    counts=((3, 3, 2, 2, 2), (3, 2, 3, 3, 2), (3, 3, 3, 3, 2), (3, 3, 3, 3, 3), (4, 3, 3, 3, 3)),
)

BUILTIN_EDITIONS: dict[str, Edition] = {"cmon": CMON, "classic": CLASSIC}
