"""What a run says of its pace: games a second and the time left."""

from __future__ import annotations

import io

import pytest

from referee.tournament import progress
from referee.tournament.progress import Progress, ProgressDisplay


def test_the_pace_leaves_out_the_bots_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose first game ends 10 s in (its bots starting) and whose next ones take a
    second each says a game a second and the time left at that pace, not a game in 6 s;
    before its second game it says it does not know the pace yet."""
    now = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    run = Progress(total=10)
    said = io.StringIO()
    display = ProgressDisplay(said)
    now[0] += 10
    run.stored(faults=2)
    display.update(run)
    assert said.getvalue() == "1/10 games, -- games/s, left --:--, faults 2\n"
    for _ in range(2):
        now[0] += 1
        run.stored(faults=0)
    assert run.rate == pytest.approx(1.0) and run.eta == pytest.approx(7.0)
    for _ in range(7):
        now[0] += 1
        run.stored(faults=0)
    display.update(run)
    assert said.getvalue().splitlines()[-1] == "10/10 games, 1.0 games/s, left 0:00:00, faults 2"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_stopped_runs_last_line_starts_under_its_bar() -> None:
    """On a terminal, a run stopped part way (Ctrl-C, an error) keeps its bar, how far it got,
    and what it says next starts a line of its own, not glued to the bar's `faults 0`; a bar
    already ended (the run finished, or a message said since) gets no empty line."""
    screen = Terminal()
    display = ProgressDisplay(screen)
    display.update(Progress(total=10, done=3))
    display.end()
    screen.write("error: interrupted\n")
    assert screen.getvalue().endswith("faults 0\nerror: interrupted\n"), screen.getvalue()
    for ended in (Progress(total=3, done=3), None):
        screen = Terminal()
        display = ProgressDisplay(screen)
        display.update(Progress(total=3, done=2))
        if ended is None:
            display.say("played 1 round")
        else:
            display.update(ended)
        display.end()
        assert screen.getvalue().endswith("faults 0\n" if ended else "played 1 round\n")
        assert "\n\n" not in screen.getvalue()
