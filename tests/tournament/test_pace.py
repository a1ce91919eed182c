"""What `plan` says of the time of the games left at the stored games' pace, with the bots'
start-up counted apart."""

from __future__ import annotations

from referee.tournament.config import TournamentConfig
from referee.tournament.pace import stored_pace
from referee.tournament.preview import make_plan
from referee.tournament.schedule import Schedule


def test_the_pace_counts_start_up_once_per_worker_not_in_every_game() -> None:
    """A trial of one table's six seat orders on 2 workers, whose first two games (one per
    worker) wait 0.4 s for their bots to start and whose others take 0.1 s: `plan` says the
    other 42 games take 0.1 s each, and 0.4 s more in the 8 that start a worker's bots (the
    first two of each of the 4 tables, the trial's restarted too, and none after: each
    worker keeps its bots), not their mean of 0.23 s in every game."""
    config = TournamentConfig.model_validate({
        "name": "test", "seed": 5, "table_size": 3, "tables": 4, "deals": 2,
        "bots": [{"name": f"bot{i}", "command": f"./bot{i}"} for i in range(12)]})
    games = Schedule(config)
    trial = list(games.games())[:6]
    stored = [(g.seats, 0.5 if g.order < 2 else 0.1) for g in trial]
    pace = stored_pace(stored, workers=2)
    plan = make_plan(config, games, 2, {g.game_id for g in trial}, pace=pace)
    assert ("time at the pace of the games stored (0.10 s a game, 0.40 s more in each of the 8 "
            "that start a bot): about 4 s for the 42 to play") in plan.lines(), plan.lines()
