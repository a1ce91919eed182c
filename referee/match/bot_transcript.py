"""A bot's transcript (`play --transcript-dir`, `check --transcript`): every line of the wire,
both ways, as JSON lines."""

from __future__ import annotations

from pathlib import Path

import orjson


class TranscriptWriter:
    """Appends each line, both ways, as `{"to_bot": ...}` or `{"from_bot": ...}`.  A write
    may end inside a line (a full pipe): the line is written when its rest comes, or as it is
    when the bot is stopped first (`close`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.partial = {"to_bot": b"", "from_bot": b""}

    def __call__(self, direction: str, data: bytes) -> None:
        data = self.partial[direction] + data
        cut = data.rfind(b"\n") + 1
        self.partial[direction] = data[cut:]
        self._write(direction, data[:cut].splitlines())

    def close(self) -> None:
        for direction, rest in self.partial.items():
            self.partial[direction] = b""
            self._write(direction, [rest] if rest else [])

    def _write(self, direction: str, lines: list[bytes]) -> None:
        if not lines:
            return
        with self.path.open("ab") as f:
            for line in lines:
                try:
                    message = orjson.loads(line)
                except orjson.JSONDecodeError:
                    message = line.decode("utf-8", "replace")[:200]
                f.write(orjson.dumps({direction: message}) + b"\n")
