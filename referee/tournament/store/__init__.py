"""The results store: one SQLite file per tournament, and the only code of the referee that
speaks SQL.

- `store.py`: `Store`, opened with `Store.for_writing` (a run; one at a time) or
  `Store.for_reading` (every other command): games, voids, the field of its last run
  (`record_field`, `versions`, `entrants`), the digests of the entrants' last builds
  (`builds`, `record_builds`) and the games superseded when a bot changed (`supersede`).
- `bound_file.py`: what `Store` builds on: the connection, its errors in one line
  (`failing`), and the tournament file the store is bound to (`bind`, `tournament_config`,
  `follow`).
- `schema.py`: the tables, and the check that a file holds them.
- `games.py`: a finished game's row (and a void's) written and read back, and the results
  that count, each row checked.
- `entrants.py`: the field of the last run (`Entrant`: version, status, reason), the runs
  counted and the run in which each entrant first played (`joined`, in meta), and the
  entrants' last builds (`builds`, in meta).
- `superseded.py`: the games moved out of the leaderboard when a bot changed or a new
  schedule seats them otherwise.
- `draws.py`, `rounds.py`: the tables a sample drew, the rounds an adaptive schedule chose.
- `files.py`: the file and its opening (not a file, the writer's lock, a -wal file, errors).
- `errors.py`: `StoreError`, `StoreFailed`, `DamagedStore`, `DamagedRecord`.
"""

from .entrants import Entrant
from .errors import DamagedRecord, DamagedStore, StoreError, StoreFailed
from .files import not_a_file
from .schema import LEFT_OUT, PLAYING, WITHDRAWN, Status
from .store import Store, open_store, read_stored_record

__all__ = ["LEFT_OUT", "PLAYING", "WITHDRAWN", "DamagedRecord", "DamagedStore", "Entrant",
           "Status", "Store", "StoreError", "StoreFailed", "not_a_file", "open_store",
           "read_stored_record"]
