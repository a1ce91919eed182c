"""One game: the rules engine and one `Player` per seat (a bot process or an in-process
policy); a bot's faults become recorded outcomes, a referee failure voids the game.  It
produces a game record, and re-checks one (`replay.py`)."""
