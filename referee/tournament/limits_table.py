"""The `[limits]` table of a tournament file: what each bot process may use, and what
`referee grade` gives one submission."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    ValidationInfo,
    field_validator,
)

from referee.bots.limits import (
    DEFAULT_ADDRESS_SPACE,
    DEFAULT_BUILD_TIME,
    DEFAULT_CPU_PER_GAME,
    DEFAULT_CPU_TIME,
    DEFAULT_FILE_SIZE,
    DEFAULT_MAX_FAULTS,
    DEFAULT_MOVE_TIME,
    DEFAULT_OPEN_FILES,
    DEFAULT_PROCESSES,
    DEFAULT_SCRATCH,
    DEFAULT_STARTUP_TIME,
    DEFAULT_TIME_BANK,
    MAX_FAULTS,
    BotLimits,
    parse_address_space,
    parse_amount,
    parse_size,
)


def _not_a_boolean(value: object) -> object:
    """`open_files = true` is a mistake, not 1: pydantic's lax mode takes a boolean for a
    number (fields of one type are strict instead: StrictInt, StrictFloat)."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number (or a text such as \"off\"), got "
                         f"{str(value).lower()}")
    return value


_NOT_BOOL = BeforeValidator(_not_a_boolean)
Size = Annotated[str | int, _NOT_BOOL]  # "2G", bytes, or "off" (`parse_size`)
Amount = Annotated[int | float | str, _NOT_BOOL]  # a number or "off" (`parse_amount`)
Seconds = Annotated[float | str, _NOT_BOOL]  # seconds, or "off"


@dataclass(frozen=True)
class SizeLimits:
    """What a submission to `referee grade` may hold to be copied: bytes (None: no limit)
    and files, folders and links."""

    bytes: int | None = None
    entries: int | None = 100_000


# `referee grade`: seconds for one submission's build, check and games together; generous,
# so that only a bot far slower than its move time runs out.
DEFAULT_SUBMISSION_TIME = 900.0


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, defer_build=True)

    move_time: StrictFloat = Field(DEFAULT_MOVE_TIME, gt=0, description="seconds per decision")
    time_bank: StrictFloat = Field(DEFAULT_TIME_BANK, ge=0,
                                   description="seconds per game absorbing overruns")
    startup_time: StrictFloat = Field(DEFAULT_STARTUP_TIME, gt=0)
    build_time: StrictFloat = Field(DEFAULT_BUILD_TIME, gt=0,
                                    description="seconds for a bot's build command")
    max_faults: StrictInt = Field(DEFAULT_MAX_FAULTS, ge=1, le=MAX_FAULTS,
                                  description="faults in one game before retirement")
    # What each bot process may use (README, Untrusted bots): a size ("2G", "512M"), a
    # number, or "off".
    address_space: Size = DEFAULT_ADDRESS_SPACE  # auto: 2 GiB, 8 GiB for java
    cpu_per_game: Seconds = DEFAULT_CPU_PER_GAME  # CPU seconds of all its processes a game
    cpu_time: Amount = DEFAULT_CPU_TIME  # CPU seconds per process in its life
    file_size: Size = DEFAULT_FILE_SIZE
    open_files: Amount = DEFAULT_OPEN_FILES
    processes: Amount = DEFAULT_PROCESSES
    scratch: Size = DEFAULT_SCRATCH  # the sandbox's private /tmp
    # `referee grade`: what a submission may hold to be copied (a sparse file counts in full),
    # in bytes and in files, folders and links.
    submission_size: Size = "256M"
    submission_files: Amount = 100_000
    submission_time: StrictFloat = Field(DEFAULT_SUBMISSION_TIME, gt=0,
                                         description="seconds for one submission's build, "
                                                     "check and games in `referee grade`")

    @field_validator("address_space")
    @classmethod
    def _address(cls, value: str | int) -> str | int:
        parse_address_space(value)
        return value

    @field_validator("file_size", "scratch", "submission_size")
    @classmethod
    def _sizes(cls, value: str | int, info: ValidationInfo) -> str | int:
        if parse_size(value) is None and info.field_name == "scratch":
            raise ValueError("the scratch space cannot be off")
        return value

    @field_validator("cpu_per_game", "cpu_time", "open_files", "processes", "submission_files")
    @classmethod
    def _amounts(cls, value: float | str, info: ValidationInfo) -> float | str:
        amount = parse_amount(value)
        if amount is not None and info.field_name != "cpu_per_game" and amount != int(amount):
            raise ValueError(f"expected a whole number or 'off', got {value!r}")
        return value

    def size_limits(self) -> SizeLimits:
        """What a submission to `referee grade` may hold."""
        files = parse_amount(self.submission_files)
        return SizeLimits(parse_size(self.submission_size), None if files is None else int(files))

    def bot_limits(self, address_space: str | int | None = None) -> BotLimits:
        """The limits of one bot (with its own address space, if it has one)."""

        def whole(value: float | str) -> int | None:
            amount = parse_amount(value)
            return None if amount is None else int(amount)

        scratch = parse_size(self.scratch)
        assert scratch is not None
        return BotLimits(
            address_space=parse_address_space(self.address_space if address_space is None
                                              else address_space),
            cpu_per_game=parse_amount(self.cpu_per_game),
            cpu_time=whole(self.cpu_time),
            file_size=parse_size(self.file_size),
            open_files=whole(self.open_files),
            processes=whole(self.processes),
            scratch=scratch,
        )
