//! The store against real SQLite files in temporary directories.

use dominion_store::{
    Durability, Reader, RecordVersion, RoomRow, RoomStatus, SeatRow, Store, StoreError, Write,
};

/// The record version the store keeps for each game (it never interprets it).
const V: RecordVersion = RecordVersion {
    format: 2,
    rules: 1,
};

fn room(id: &str) -> RoomRow {
    RoomRow {
        id: id.into(),
        settings: r#"{"seats":2}"#.into(),
        status: RoomStatus::Open,
        broken_reason: None,
        created_at: 100,
        host: None,
    }
}

fn seats() -> Vec<SeatRow> {
    vec![
        SeatRow {
            seat: 0,
            name: "Anna".into(),
            token_hash: Some(vec![1; 32]),
            bot: None,
            last_command: 3,
        },
        SeatRow {
            seat: 1,
            name: "Bot".into(),
            token_hash: None,
            bot: Some("big_money".into()),
            last_command: 0,
        },
    ]
}

#[test]
fn a_game_survives_reopening_with_every_reply_in_order() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut s = Store::open(dir.path(), Durability::Full).unwrap();
        s.save_room(&room("r1"), &seats()).unwrap();
        s.start_game("r1", r#"{"players":2}"#, V, u64::MAX, "h0", 101)
            .unwrap();
        for i in 0..50u64 {
            s.append_reply(
                "r1",
                i,
                (i % 2) as u8,
                &format!(r#"{{"n":{i}}}"#),
                &format!("h{}", i + 1),
                102,
            )
            .unwrap();
        }
    }
    let s = Store::open(dir.path(), Durability::Full).unwrap();
    let live = s.reader().live_rooms().unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].0.status, RoomStatus::Playing);
    assert_eq!(live[0].1, seats());
    let g = s.reader().game("r1").unwrap().unwrap();
    assert_eq!(g.seed, u64::MAX, "full u64 seeds survive");
    assert_eq!(g.replies.len(), 50);
    assert_eq!(g.replies[7], (1, r#"{"n":7}"#.to_string()));
    assert_eq!(g.last_hash, "h50");
    assert_eq!(g.version, V, "the record version is kept as written");
    assert_eq!(s.reader().integrity_check().unwrap(), "ok");
}

#[test]
fn gaps_and_repeats_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Normal).unwrap();
    s.save_room(&room("r"), &seats()).unwrap();
    s.start_game("r", "{}", V, 1, "h0", 1).unwrap();
    s.append_reply("r", 0, 0, "a", "h1", 1).unwrap();
    assert!(matches!(
        s.append_reply("r", 0, 0, "a", "hx", 1),
        Err(StoreError::OutOfOrder {
            expected: 1,
            got: 0,
            ..
        })
    ));
    assert!(matches!(
        s.append_reply("r", 2, 0, "c", "hx", 1),
        Err(StoreError::OutOfOrder {
            expected: 1,
            got: 2,
            ..
        })
    ));
    let g = s.reader().game("r").unwrap().unwrap();
    assert_eq!((g.replies.len(), g.last_hash.as_str()), (1, "h1"));
    assert!(matches!(
        s.append_reply("nope", 0, 0, "a", "h", 1),
        Err(StoreError::Sqlite(_)) | Err(StoreError::NoGame(_))
    ));
}

#[test]
fn finished_games_are_listed_newest_first_and_leave_the_live_set() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        s.save_room(&room(id), &seats()).unwrap();
        s.start_game(id, "{}", V, 7, "h", 1).unwrap();
        if i < 2 {
            s.finish_game(id, r#"[{"vp":3}]"#, 10 + i as i64).unwrap();
        }
    }
    let done = s.reader().finished_games(10).unwrap();
    assert_eq!(
        done.iter().map(|g| g.room_id.as_str()).collect::<Vec<_>>(),
        vec!["b", "a"]
    );
    let live: Vec<String> = s
        .reader()
        .live_rooms()
        .unwrap()
        .into_iter()
        .map(|(r, _)| r.id)
        .collect();
    assert_eq!(live, vec!["c"]);
    s.set_status("c", RoomStatus::Broken, Some("replay diverged at reply 3"))
        .unwrap();
    assert!(s.reader().live_rooms().unwrap().is_empty());
    assert_eq!(
        s.reader().broken_rooms(10).unwrap(),
        vec![("c".to_string(), "replay diverged at reply 3".to_string())]
    );
    let (r, _) = s.reader().room("c").unwrap().unwrap();
    assert_eq!(
        r.broken_reason.as_deref(),
        Some("replay diverged at reply 3")
    );
}

#[test]
fn a_newer_schema_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path(), Durability::Full).unwrap());
    let conn = rusqlite_raw(dir.path());
    conn.execute_batch("PRAGMA user_version = 99").unwrap();
    drop(conn);
    assert!(matches!(
        Store::open(dir.path(), Durability::Full),
        Err(StoreError::SchemaTooNew { found: 99, .. })
    ));
}

fn reply(room: &str, seq: u64, command: Option<u64>) -> Write {
    Write::AppendReply {
        room_id: room.into(),
        seq,
        player: 0,
        reply: format!("r{seq}"),
        hash: format!("d1:{seq:016x}"),
        now: 5,
        command,
    }
}

#[test]
fn a_batch_commits_every_write_but_the_refused_one_which_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    for id in ["a", "b", "c"] {
        s.save_room(&room(id), &seats()).unwrap();
        s.start_game(id, "{}", V, 1, "h0", 1).unwrap();
    }
    s.append_reply("b", 0, 0, "r0", "h1", 1).unwrap();
    let results = s
        .write_batch(&[
            reply("a", 0, Some(7)),
            // "b" has reply 0 already: a repeat, refused.
            reply("b", 0, Some(9)),
            reply("c", 0, None),
            reply("a", 1, Some(8)),
            Write::FinishGame {
                room_id: "c".into(),
                scores: "[]".into(),
                now: 6,
            },
        ])
        .unwrap();
    assert!(results[0].is_ok() && results[2].is_ok() && results[3].is_ok() && results[4].is_ok());
    assert!(
        matches!(
            results[1],
            Err(StoreError::OutOfOrder {
                expected: 1,
                got: 0,
                ..
            })
        ),
        "{results:?}"
    );
    let r = s.reader();
    let a = r.game("a").unwrap().unwrap();
    assert_eq!(
        (a.replies.len(), a.last_hash.as_str()),
        (2, "d1:0000000000000001")
    );
    let b = r.game("b").unwrap().unwrap();
    assert_eq!(
        (b.replies, b.last_hash.as_str()),
        (vec![(0, "r0".to_string())], "h1")
    );
    assert_eq!(
        r.room("b").unwrap().unwrap().1[0].last_command,
        3,
        "the refused write's command id is not kept"
    );
    assert_eq!(r.room("a").unwrap().unwrap().1[0].last_command, 8);
    assert_eq!(r.room("c").unwrap().unwrap().0.status, RoomStatus::Finished);
}

#[test]
fn a_seats_last_command_only_grows_and_survives_reopening() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut s = Store::open(dir.path(), Durability::Full).unwrap();
        s.save_room(&room("r"), &seats()).unwrap();
        s.write(Write::StartGame {
            room_id: "r".into(),
            setup: "{}".into(),
            version: V,
            seed: 1,
            hash: "h".into(),
            now: 1,
            command: Some((0, 10)),
        })
        .unwrap();
        s.write(reply("r", 0, Some(12))).unwrap();
        // A server answer for the seat carries no command; an older id never lowers it.
        s.write(reply("r", 1, None)).unwrap();
        s.write(reply("r", 2, Some(11))).unwrap();
    }
    let s = Store::open(dir.path(), Durability::Full).unwrap();
    let (_, seats) = s.reader().room("r").unwrap().unwrap();
    assert_eq!(
        seats.iter().map(|s| s.last_command).collect::<Vec<_>>(),
        vec![12, 0]
    );
}

#[test]
fn an_abandoned_game_is_history_without_scores_and_is_not_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    for id in ["done", "gone", "live"] {
        s.save_room(&room(id), &seats()).unwrap();
        s.start_game(id, "{}", V, 7, "h", 1).unwrap();
    }
    s.finish_game("done", "[]", 10).unwrap();
    s.abandon_game("gone", 20).unwrap();
    assert!(
        matches!(s.abandon_game("done", 30), Err(StoreError::NoGame(_))),
        "a finished game cannot be abandoned after all"
    );
    let r = s.reader();
    let listed: Vec<(String, Option<String>, bool)> = r
        .finished_games(10)
        .unwrap()
        .into_iter()
        .map(|g| (g.room_id, g.scores, g.abandoned))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("gone".to_string(), None, true),
            ("done".to_string(), Some("[]".to_string()), false)
        ]
    );
    let gone = r.game("gone").unwrap().unwrap();
    assert_eq!((gone.finished_at, gone.abandoned), (Some(20), true));
    assert_eq!(
        r.room("gone").unwrap().unwrap().0.status,
        RoomStatus::Abandoned
    );
    let reopen: Vec<String> = r
        .rooms_to_reopen(0)
        .unwrap()
        .into_iter()
        .map(|(r, _)| r.id)
        .collect();
    assert_eq!(reopen, vec!["done", "live"]);
}

#[test]
fn a_reader_sees_what_the_writer_committed() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    let reader = Reader::open(dir.path()).unwrap();
    assert!(reader.view().room("r").unwrap().is_none());
    s.save_room(&room("r"), &seats()).unwrap();
    assert_eq!(reader.view().room("r").unwrap().unwrap().1, seats());
    // A closed room that never started is forgotten; one with a game is kept.
    s.delete_room("r").unwrap();
    assert!(reader.view().room("r").unwrap().is_none());
    s.save_room(&room("g"), &seats()).unwrap();
    s.start_game("g", "{}", V, 1, "h", 1).unwrap();
    s.delete_room("g").unwrap();
    assert!(reader.view().game("g").unwrap().is_some());
}

/// A database as the first release left it: schema 1, its rows, its JSON state hashes.
#[test]
fn a_first_release_database_is_migrated_and_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    {
        let conn = rusqlite_raw(dir.path());
        conn.execute_batch(dominion_store::schema_v1_sql()).unwrap();
        conn.execute_batch(
            "PRAGMA user_version = 1;
             INSERT INTO rooms VALUES ('old', '{\"seats\":2}', 'playing', NULL, 100);
             INSERT INTO rooms VALUES ('bad', '{}', 'broken', 'it broke', 101);
             INSERT INTO seats VALUES ('old', 0, 'Anna', x'0101010101010101010101010101010101010101010101010101010101010101', NULL);
             INSERT INTO seats VALUES ('old', 1, '', NULL, 'big_money');
             INSERT INTO games VALUES ('old', '{}', '18446744073709551615', '00000000000000ab', 101, NULL, NULL);
             INSERT INTO replies VALUES ('old', 0, 0, '{}', '00000000000000ab', 102);",
        )
        .unwrap();
    }
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    let version: i64 = rusqlite_raw(dir.path())
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, dominion_store::SCHEMA_VERSION);
    let r = s.reader();
    let live = r.live_rooms().unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].0.id, "old");
    assert_eq!(live[0].0.status, RoomStatus::Playing);
    assert_eq!(
        live[0]
            .1
            .iter()
            .map(|s| (s.seat, s.last_command))
            .collect::<Vec<_>>(),
        vec![(0, 0), (1, 0)],
        "seats of the first release had no command ids: 0"
    );
    let g = r.game("old").unwrap().unwrap();
    assert_eq!(
        (g.seed, g.last_hash.as_str(), g.replies.len()),
        (u64::MAX, "00000000000000ab", 1)
    );
    assert_eq!(
        g.version,
        RecordVersion {
            format: 1,
            rules: 1
        },
        "games stored before schema 3 are in record format 1 under rules version 1"
    );
    assert_eq!(
        r.broken_rooms(5).unwrap(),
        vec![("bad".to_string(), "it broke".to_string())]
    );
    assert_eq!(r.integrity_check().unwrap(), "ok");
    // The rebuilt table takes the new status and still guards its references.
    s.abandon_game("old", 200).unwrap();
    let orphan = rusqlite_raw(dir.path());
    orphan.pragma_update(None, "foreign_keys", "ON").unwrap();
    assert!(
        orphan
            .execute(
                "INSERT INTO seats (room_id, seat, name) VALUES ('nowhere', 0, 'x')",
                []
            )
            .is_err(),
        "seats still refer to rooms"
    );
}

fn rusqlite_raw(dir: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(dominion_store::DB_FILE)).unwrap()
}

/// A backup taken while another thread keeps committing replies is one consistent
/// snapshot: its integrity check passes, it holds every reply committed before it began
/// and no gap, and it opens as a store of its own (a restore) with the game intact.
#[test]
fn a_backup_taken_while_replies_are_committed_is_a_consistent_copy() {
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    s.save_room(&room("r1"), &seats()).unwrap();
    s.start_game("r1", r#"{"players":2}"#, V, 7, "h0", 101)
        .unwrap();
    let committed = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (committed, stop) = (committed.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut i = 0u64;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) || i < 200 {
                s.append_reply("r1", i, (i % 2) as u8, &format!(r#"{{"n":{i}}}"#), "h", 102)
                    .unwrap();
                i += 1;
                committed.store(i, std::sync::atomic::Ordering::SeqCst);
            }
            i
        })
    };
    while committed.load(std::sync::atomic::Ordering::SeqCst) < 100 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let before = committed.load(std::sync::atomic::Ordering::SeqCst);
    let file = out.path().join("copy.sqlite3");
    let report = dominion_store::backup(dir.path(), &file, false).unwrap();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let total = writer.join().unwrap();
    assert!(
        report.replies >= before && report.replies <= total,
        "{report:?}: {before} replies were committed before the backup, {total} in all"
    );
    assert_eq!(
        (report.rooms, report.games, report.games_in_progress),
        (1, 1, 1)
    );
    assert_eq!(report.bytes, std::fs::metadata(&file).unwrap().len());
    assert_eq!(report.schema_version, dominion_store::SCHEMA_VERSION);
    // Nothing but the copy in the output directory: no partial file, no journal.
    let names: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["copy.sqlite3"]);
    // Restore: the copy as the database of a fresh data directory.
    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(&file, restored.path().join(dominion_store::DB_FILE)).unwrap();
    let s = Store::open(restored.path(), Durability::Full).unwrap();
    assert_eq!(s.reader().integrity_check().unwrap(), "ok");
    let g = s.reader().game("r1").unwrap().unwrap();
    assert_eq!(g.replies.len() as u64, report.replies);
    for (i, (_, reply)) in g.replies.iter().enumerate() {
        assert_eq!(
            reply,
            &format!(r#"{{"n":{i}}}"#),
            "reply {i} in order, no gap"
        );
    }
}

/// An existing file is not replaced without `replace`, and is replaced whole with it; a
/// data directory without a database is refused and left without one.
#[test]
fn a_backup_refuses_an_existing_file_and_a_missing_database() {
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("b.sqlite3");
    std::fs::write(&file, "keep me").unwrap();
    let empty = tempfile::tempdir().unwrap();
    match dominion_store::backup(empty.path(), &file, true) {
        Err(StoreError::NoDatabase(_)) => {}
        other => panic!("expected NoDatabase, got {other:?}"),
    }
    assert!(!empty.path().join(dominion_store::DB_FILE).exists());

    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    s.save_room(&room("r1"), &seats()).unwrap();
    match dominion_store::backup(dir.path(), &file, false) {
        Err(StoreError::BackupExists(p)) => assert_eq!(p, file),
        other => panic!("expected BackupExists, got {other:?}"),
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
    let report = dominion_store::backup(dir.path(), &file, true).unwrap();
    assert_eq!((report.rooms, report.games), (1, 0));
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 1);
    let conn = rusqlite::Connection::open(&file).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "delete", "the copy is one self-contained file");
}
