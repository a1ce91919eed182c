"""The results store on its own, in real SQLite files: it belongs to one tournament, keeps
finished and void games as they were given, tells a resumed run which games are stored, lets a
reader in while a run writes, names a damaged game, and removes itself only when empty."""

from __future__ import annotations

import re
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest
import trio

from referee.match.game import play_game
from referee.match.policy_player import random_player
from referee.match.record import GameRecord
from referee.match.result import StoredResult
from referee.match.spec import GameSpec
from referee.tournament.store import DamagedRecord, Store, StoreError, StoreFailed, open_store

from ..leaderboard.support import a_tournament

EARLIER_STORE = Path(__file__).resolve().parents[1] / "data" / "records" / "tournament.db"
NAMES = ["ann", "ben", "cal"]
CONFIG = a_tournament()


def played(game_id: str, seed: int) -> tuple[GameRecord, StoredResult]:
    """A game of three in-process random players, and its result as a run stores it."""
    players = [random_player(n, seed=i) for i, n in enumerate(NAMES)]
    record = trio.run(play_game, GameSpec.make(game_id, seed, NAMES), players)
    histograms = [{"40": seat + 1, "44": 2} for seat in range(len(NAMES))]
    return record, StoredResult.of(record.result, histograms)


def save(store: Store, record: GameRecord, result: StoredResult, attempts: int = 1) -> bool:
    return store.save(record.spec.game_id, list(record.spec.names), record.spec.seed, result,
                      record.to_jsonl(), seconds=0.5, attempts=attempts,
                      versions=["v1"] * len(record.spec.names))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "results.db"


@pytest.fixture
def games() -> list[tuple[GameRecord, StoredResult]]:
    return [played(f"t0000-d0{d}-o00", seed=10 + d) for d in range(3)]


def test_a_new_store_takes_the_tournaments_fingerprint_and_keeps_it(db: Path) -> None:
    store = open_store(db)
    store.bind(CONFIG, "fp-1")
    store.close()
    store = open_store(db)
    try:
        store.bind(CONFIG, "fp-1")  # the same tournament again: resumed
        assert (store.meta("name"), store.meta("fingerprint")) == ("t", "fp-1")
        assert store.tournament_config() == CONFIG
    finally:
        store.close()


def test_a_store_refuses_a_tournament_with_another_schedule(db: Path) -> None:
    store = open_store(db)
    try:
        store.bind(CONFIG, "fp-1")
        with pytest.raises(StoreError, match=r"holds the games of tournament 't' and this "
                                             r"file.*changes the games: give another --db"):
            store.bind(CONFIG, "fp-2")
        assert store.meta("fingerprint") == "fp-1"
    finally:
        store.close()


def test_a_store_of_an_earlier_version_is_read_but_not_written(tmp_path: Path) -> None:
    """A store made before bot versions (other game ids) still gives its results, and a
    run that would write to it is refused with a line that says why and what to do."""
    db = Path(shutil.copy(EARLIER_STORE, tmp_path / "earlier.db"))
    reader = open_store(db, read_only=True)
    try:
        assert len(list(reader.results())) == reader.count() > 0
    finally:
        reader.close()
    with pytest.raises(StoreError, match=r"earlier version of the referee.*another --db"):
        open_store(db)


def test_a_store_refuses_another_shards_games(db: Path) -> None:
    store = open_store(db)
    try:
        store.bind_shard("1/2")
        store.bind_shard("1/2")
        with pytest.raises(StoreError, match=r"holds shard 1/2, not 2/2; use another --db"):
            store.bind_shard("2/2")
    finally:
        store.close()


def test_a_finished_game_reads_back_as_it_was_stored(
        db: Path, games: list[tuple[GameRecord, StoredResult]]) -> None:
    record, result = games[0]
    store = open_store(db)
    try:
        assert save(store, record, result)
        assert list(store.results()) == [result]
        assert store.record(record.spec.game_id) == record
        assert store.seeds() == {record.spec.game_id: record.spec.seed}
        assert store.record("t9999-d99-o99") is None
    finally:
        store.close()
    store = open_store(db, read_only=True)
    try:
        (again,) = store.results()
        assert again == result and isinstance(again, StoredResult)
        assert again.response_us == result.response_us
        assert store.record(record.spec.game_id) == record
    finally:
        store.close()


def test_a_game_is_stored_once(db: Path, games: list[tuple[GameRecord, StoredResult]]) -> None:
    """Saving a game id again changes nothing: the first game stored is the one kept."""
    (record, result), (_, other) = games[0], games[1]
    store = open_store(db)
    try:
        assert save(store, record, result)
        assert not save(store, record, other, attempts=2)
        assert store.count() == 1
        assert list(store.results()) == [result]
    finally:
        store.close()


def test_results_come_in_game_id_order(db: Path,
                                       games: list[tuple[GameRecord, StoredResult]]) -> None:
    store = open_store(db)
    try:
        for record, result in reversed(games):
            save(store, record, result)
        assert [r.game_id for r in store.results()] == sorted(r.game_id for _, r in games)
    finally:
        store.close()


def test_void_games_are_kept_in_order_and_are_not_done(
        db: Path, games: list[tuple[GameRecord, StoredResult]]) -> None:
    """A void game is noted with its reason, each attempt; it is not a stored game, so a
    resumed run plays it, and once it finishes it is done like any other."""
    record, result = games[0]
    game_id = record.spec.game_id
    store = open_store(db)
    try:
        store.save_void(game_id, 1, "the referee failed: disk full")
        store.save_void(game_id, 2, "the referee failed: disk full again")
        assert store.done() == set() and store.count() == 0
        assert list(store.results()) == []
        save(store, record, result, attempts=3)
        assert store.done() == {game_id}
    finally:
        store.close()
    store = open_store(db, read_only=True)
    try:
        assert store.voids() == [(game_id, 1, "the referee failed: disk full"),
                                 (game_id, 2, "the referee failed: disk full again")]
    finally:
        store.close()


def test_a_resumed_run_finds_the_games_stored_before(
        db: Path, games: list[tuple[GameRecord, StoredResult]]) -> None:
    store = open_store(db)
    store.bind(CONFIG, "fp-1")
    for record, result in games[:2]:
        save(store, record, result)
    store.close()
    store = open_store(db)
    try:
        store.bind(CONFIG, "fp-1")
        assert store.done() == {record.spec.game_id for record, _ in games[:2]}
        record, result = games[2]
        assert save(store, record, result)
        assert store.done() == {record.spec.game_id for record, _ in games}
    finally:
        store.close()


def test_a_reader_sees_each_game_as_a_run_stores_it(
        db: Path, games: list[tuple[GameRecord, StoredResult]]) -> None:
    """A leaderboard or report may read while a run writes: the run is not held up by a read
    in progress, the reader sees every game committed, and the last to close leaves the store
    as one file."""
    writer = open_store(db)
    reader: Store | None = None
    try:
        save(writer, *games[0])
        reader = open_store(db, read_only=True)
        assert reader.done() == {games[0][1].game_id}
        reading = reader.results()
        assert next(reading) == games[0][1]  # a read in progress while the run writes
        save(writer, *games[1])
        reading.close()
        assert [r.game_id for r in reader.results()] == [r.game_id for _, r in games[:2]]
        assert reader.record(games[1][0].spec.game_id) == games[1][0]
    finally:
        writer.close()
        if reader is not None:
            reader.close()
    assert sorted(p.name for p in db.parent.iterdir()) == [db.name]


def test_a_second_run_on_one_store_is_refused_while_the_first_writes(db: Path) -> None:
    first = open_store(db)
    try:
        with pytest.raises(StoreError, match=r"is being written by another run; wait for it to "
                                             r"end, or give another --db"):
            open_store(db)
        open_store(db, read_only=True).close()  # readers are let in
    finally:
        first.close()
    open_store(db).close()  # and a run is, once the first has ended


def test_a_damaged_record_names_its_game(db: Path,
                                         games: list[tuple[GameRecord, StoredResult]]) -> None:
    """A record that does not decompress, and one cut short, are each a DamagedRecord that
    names the store and the game; the other games still read."""
    store = open_store(db)
    try:
        for record, result in games[:2]:
            save(store, record, result)
    finally:
        store.close()
    bad, cut = (record.spec.game_id for record, _ in games[:2])
    lines = games[1][0].to_jsonl().splitlines(keepends=True)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET record = ? WHERE game_id = ?", (b"not zlib", bad))
        con.execute("UPDATE games SET record = ? WHERE game_id = ?",
                    (zlib.compress(b"".join(lines[:-1])), cut))
    con.close()
    named = f"^{re.escape(str(db))}: the stored record of game "
    store = open_store(db, read_only=True)
    try:
        with pytest.raises(DamagedRecord, match=rf"{named}{bad} cannot be read: "):
            store.record(bad)
        with pytest.raises(DamagedRecord, match=rf"{named}{cut} cannot be read: .*cut short"):
            store.record(cut)
        assert len(list(store.results())) == 2  # the results are still whole
    finally:
        store.close()


def test_a_damaged_result_names_its_game(db: Path,
                                         games: list[tuple[GameRecord, StoredResult]]) -> None:
    record, result = games[0]
    store = open_store(db)
    try:
        save(store, record, result)
    finally:
        store.close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET result = '{\"money\": 3}'")
    con.close()
    store = open_store(db, read_only=True)
    try:
        with pytest.raises(StoreFailed, match=rf"^{re.escape(str(db))}: the stored result of game "
                                              rf"{record.spec.game_id} is damaged: "):
            list(store.results())
    finally:
        store.close()


def test_another_programs_database_is_refused_unchanged(db: Path) -> None:
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE people (name TEXT)")
    con.close()
    before = db.read_bytes()
    for read_only in (False, True):
        with pytest.raises(StoreError, match=r"is not a results store \(it holds other tables\)"):
            open_store(db, read_only=read_only)
    assert db.read_bytes() == before


def test_reading_a_missing_store_does_not_make_one(db: Path) -> None:
    with pytest.raises(StoreError, match=rf"cannot open {re.escape(str(db))}"):
        open_store(db, read_only=True)
    assert not db.exists()


def test_an_empty_store_is_removed_with_its_side_files(db: Path) -> None:
    """A store made by a run that was then refused (bound, but no game played) is removed."""
    store = open_store(db)
    store.bind(CONFIG, "fp-1")
    assert store.close_and_remove_if_empty()
    assert list(db.parent.iterdir()) == []


def test_a_store_with_a_game_or_a_void_is_kept(
        tmp_path: Path, games: list[tuple[GameRecord, StoredResult]]) -> None:
    with_game, with_void = tmp_path / "game.db", tmp_path / "void.db"
    store = open_store(with_game)
    save(store, *games[0])
    assert not store.close_and_remove_if_empty()
    store = open_store(with_void)
    store.save_void("t0000-d00-o00", 1, "the referee failed")
    assert not store.close_and_remove_if_empty()
    for path, count, voids in ((with_game, 1, 0), (with_void, 0, 1)):
        store = open_store(path, read_only=True)
        try:
            assert (store.count(), len(store.voids())) == (count, voids)
        finally:
            store.close()


def test_an_empty_store_another_connection_has_open_is_kept(db: Path) -> None:
    store = open_store(db)
    store.bind(CONFIG, "fp-1")
    reader = open_store(db, read_only=True)
    try:
        assert reader.meta("name") == "t"
        assert not store.close_and_remove_if_empty()
        assert db.exists()
        assert reader.meta("name") == "t"
    finally:
        reader.close()


def test_a_store_follows_a_gauntlet_grown_to_more_candidates_and_until(db: Path) -> None:
    """A gauntlet qualifier begun with one candidate, then run with three and `until`: the
    store still knows its baselines (the leaderboard marks them) and its file, now with until
    and the latest deals, is valid: checked against the first run's one candidate, it was not,
    and the leaderboard lost the baselines and its note of an unfinished store."""
    from referee.tournament.config import TournamentConfig

    def gauntlet(candidates: list[str], **more: object) -> TournamentConfig:
        return TournamentConfig.model_validate({
            "name": "q", "format": "gauntlet", "table_size": 3, "baselines": ["b1", "b2"],
            "bots": [{"name": n, "command": "unused"} for n in ["b1", "b2", *candidates]],
            **more})

    store = open_store(db)
    try:
        store.bind(gauntlet(["c1"], deals=16), "fp-1")
        later = gauntlet(["c1", "c2", "c3"], deals=32, until="separated")
        store.follow(later)
        assert store.baselines() == ["b1", "b2"]
        followed = store.tournament_config()
        assert followed is not None
        assert (followed.deals, followed.until, [b.name for b in followed.bots]) == (
            32, "separated", ["b1", "b2", "c1", "c2", "c3"])
    finally:
        store.close()
