//! The store against the real thing: SQLite files in temporary directories, and a
//! PostgreSQL started for this test binary (`dominion-testkit`), a fresh database per
//! test. Every test that is about the store's behaviour runs against both backends
//! (`on_both!`); SQLite's own matters (backups, the upgrade of a first-release file)
//! and PostgreSQL's (nodes migrating at once, a database that is not ours) run on one.

use dominion_store::{
    ClaimRow, Durability, Fence, Reader, RecordVersion, ReplyWriter, RoomStatus, SeatRow, Store,
    StoreError, Write,
};
use dominion_testkit::TempPostgres;

mod fixtures;
use fixtures::{V, anna, fenced, reply, room};

/// One test's database, in one backend.
enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Db {
    fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    fn postgres() -> Db {
        Db::Postgres(TempPostgres::shared().fresh_database())
    }

    /// The writing store (SQLite with `durability`); may be called again to reopen.
    fn open_with(&self, durability: Durability) -> Store {
        match self {
            Db::Sqlite(dir) => Store::open(dir.path(), durability),
            Db::Postgres(url) => Store::connect(url),
        }
        .unwrap_or_else(|e| panic!("open the store: {e}"))
    }

    fn open(&self) -> Store {
        self.open_with(Durability::Full)
    }

    fn try_open(&self) -> Result<Store, StoreError> {
        match self {
            Db::Sqlite(dir) => Store::open(dir.path(), Durability::Full),
            Db::Postgres(url) => Store::connect(url),
        }
    }

    fn reader(&self) -> Result<Reader, StoreError> {
        match self {
            Db::Sqlite(dir) => Reader::open(dir.path()),
            Db::Postgres(url) => Reader::connect(url),
        }
    }

    /// The columns a node of the release before schema 11 reads, as stored:
    /// `games.last_hash` of `room` and each seat's `last_command`, by seat.
    fn legacy_columns(&self, room: &str) -> (String, Vec<i64>) {
        match self {
            Db::Sqlite(dir) => {
                let c = rusqlite_raw(dir.path());
                let hash = c
                    .query_row(
                        "SELECT last_hash FROM games WHERE room_id = ?1",
                        [room],
                        |r| r.get(0),
                    )
                    .unwrap();
                let mut st = c
                    .prepare("SELECT last_command FROM seats WHERE room_id = ?1 ORDER BY seat")
                    .unwrap();
                let commands = st
                    .query_map([room], |r| r.get(0))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                (hash, commands)
            }
            Db::Postgres(url) => {
                let mut c = ::postgres::Client::connect(url, ::postgres::NoTls).unwrap();
                let hash = c
                    .query_one("SELECT last_hash FROM games WHERE room_id = $1", &[&room])
                    .unwrap()
                    .get(0);
                let commands = c
                    .query(
                        "SELECT last_command FROM seats WHERE room_id = $1 ORDER BY seat",
                        &[&room],
                    )
                    .unwrap()
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                (hash, commands)
            }
        }
    }

    /// Writes a schema version behind the store's back (a database from a newer build).
    fn set_schema_version(&self, version: i64) {
        match self {
            Db::Sqlite(dir) => rusqlite_raw(dir.path())
                .execute_batch(&format!("PRAGMA user_version = {version}"))
                .unwrap(),
            Db::Postgres(url) => TempPostgres::shared().execute(
                url,
                &format!("UPDATE schema_version SET version = {version}"),
            ),
        }
    }
}

/// Runs each named test, `fn NAME(db: &Db)`, once per backend: `sqlite::NAME` and
/// `postgres::NAME`.
macro_rules! on_both {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $test() { super::$test(&super::Db::sqlite()) } )*
        }
        mod postgres {
            $(
                #[test]
                #[cfg_attr(not(have_postgres), ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh")]
                fn $test() { super::$test(&super::Db::postgres()) }
            )*
        }
    };
}

on_both!(
    a_game_survives_reopening_with_every_reply_in_order,
    gaps_and_repeats_are_refused_and_change_nothing,
    finished_games_are_listed_newest_first_and_leave_the_live_set,
    each_finished_game_is_listed_with_its_own_seats,
    a_newer_schema_is_refused,
    a_batch_commits_every_write_but_the_refused_one_which_changes_nothing,
    a_seats_last_command_only_grows_and_survives_reopening,
    a_reply_is_one_row_unless_an_earlier_release_may_read_the_columns,
    an_undo_keeps_the_command_ids_of_the_replies_it_takes_back,
    an_abandoned_game_is_history_without_scores_and_is_not_reopened,
    a_reader_sees_what_the_writer_committed,
    an_undo_takes_back_replies_and_a_rewrite_reencodes_the_log,
    a_stale_fence_is_refused_and_changes_nothing,
    a_claim_must_be_newer_than_the_rooms_token,
    the_reply_audit_shows_who_wrote_each_reply,
    a_node_that_lost_its_room_writes_nothing_after_the_claim,
    the_first_cluster_key_stored_is_the_one_everyone_reads,
);

/// The cluster's key: the first candidate is stored, every later caller (another node,
/// the same node restarted) reads that one and its own candidate is ignored (issue 23:
/// nodes must agree on it whatever Redis forgets).
fn the_first_cluster_key_stored_is_the_one_everyone_reads(db: &Db) {
    let database = match db {
        Db::Sqlite(dir) => dominion_store::Database::Sqlite {
            dir: dir.path().to_path_buf(),
            durability: Durability::Full,
        },
        Db::Postgres(url) => dominion_store::Database::Postgres { url: url.clone() },
    };
    let _store = db.open();
    let first = dominion_store::cluster_key(&database, "key-of-the-first-node").unwrap();
    assert_eq!(first, "key-of-the-first-node");
    for candidate in ["key-of-another-node", "key-after-a-restart"] {
        assert_eq!(
            dominion_store::cluster_key(&database, candidate).unwrap(),
            first
        );
    }
}

fn seats() -> Vec<SeatRow> {
    vec![
        anna(),
        SeatRow {
            seat: 1,
            name: "Bot".into(),
            token_hash: None,
            bot: Some("big_money".into()),
            last_command: 0,
            account: None,
        },
    ]
}

fn a_game_survives_reopening_with_every_reply_in_order(db: &Db) {
    {
        let mut s = db.open();
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
    let s = db.open();
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

fn gaps_and_repeats_are_refused_and_change_nothing(db: &Db) {
    let mut s = db.open_with(Durability::Normal);
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
        Err(StoreError::NoGame(_))
    ));
}

/// The recent games list reads all its games' seats at once on PostgreSQL: each game
/// still gets exactly its own, in seat order.
fn each_finished_game_is_listed_with_its_own_seats(db: &Db) {
    let mut s = db.open();
    let mut only_anna = seats();
    only_anna.truncate(1);
    for (i, (id, seats)) in [("a", seats()), ("b", only_anna.clone())]
        .into_iter()
        .enumerate()
    {
        s.save_room(&room(id), &seats).unwrap();
        s.start_game(id, "{}", V, 7, "h", 1).unwrap();
        s.finish_game(id, r#"[{"vp":3}]"#, 10 + i as i64).unwrap();
    }
    let done = s.reader().finished_games(10).unwrap();
    let listed: Vec<(&str, &[SeatRow])> = done
        .iter()
        .map(|g| (g.room_id.as_str(), g.seats.as_slice()))
        .collect();
    assert_eq!(
        listed,
        [("b", only_anna.as_slice()), ("a", seats().as_slice())]
    );
}

fn finished_games_are_listed_newest_first_and_leave_the_live_set(db: &Db) {
    let mut s = db.open();
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

fn a_newer_schema_is_refused(db: &Db) {
    drop(db.open());
    db.set_schema_version(99);
    assert!(matches!(
        db.try_open(),
        Err(StoreError::SchemaTooNew { found: 99, .. })
    ));
    assert!(matches!(
        db.reader(),
        Err(StoreError::SchemaTooNew { found: 99, .. })
    ));
}

fn a_batch_commits_every_write_but_the_refused_one_which_changes_nothing(db: &Db) {
    let mut s = db.open();
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
                rated: None,
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

fn a_seats_last_command_only_grows_and_survives_reopening(db: &Db) {
    {
        let mut s = db.open();
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
    let s = db.open();
    let (_, seats) = s.reader().room("r").unwrap().unwrap();
    assert_eq!(
        seats.iter().map(|s| s.last_command).collect::<Vec<_>>(),
        vec![12, 0]
    );
}

/// Schema 11: a reply is one row. The game's digest and each seat's last command id are
/// read from the newest replies, so the copies in `games` and `seats` stay as they were
/// — until the switch is on: then every batch keeps them current, as a node of the
/// release before reads them during a rolling upgrade. Both ways, and a log written
/// partly each way, read back the same.
fn a_reply_is_one_row_unless_an_earlier_release_may_read_the_columns(db: &Db) {
    let legacy = dominion_store::LegacyColumns::new(false);
    let mut s = db.open();
    s.set_legacy_columns(legacy.clone());
    s.save_room(&room("r"), &seats()).unwrap();
    s.start_game("r", "{}", V, 1, "d1:start", 1).unwrap();
    s.write(reply("r", 0, Some(4))).unwrap();
    // Several replies of one room in one batch (PostgreSQL writes them as one statement).
    let two = |s: &mut Store, first: u64, command: u64| {
        let batch = [
            reply("r", first, Some(command)),
            reply("r", first + 1, None),
        ];
        for r in s.write_batch(&batch).unwrap() {
            r.unwrap();
        }
    };
    two(&mut s, 1, 5);
    assert_eq!(
        db.legacy_columns("r"),
        ("d1:start".to_string(), vec![3, 0]),
        "off: the replies wrote no other row (Anna's seat was saved at 3)"
    );
    let read = |s: &Store| {
        let g = s.reader().game("r").unwrap().unwrap();
        let (_, seats) = s.reader().room("r").unwrap().unwrap();
        (
            g.last_hash,
            seats.iter().map(|s| s.last_command).collect::<Vec<_>>(),
        )
    };
    assert_eq!(read(&s), ("d1:0000000000000002".to_string(), vec![5, 0]));

    legacy.set(true);
    s.write(reply("r", 3, Some(6))).unwrap();
    assert_eq!(
        db.legacy_columns("r"),
        ("d1:0000000000000003".to_string(), vec![6, 0])
    );
    two(&mut s, 4, 7);
    assert_eq!(
        db.legacy_columns("r"),
        ("d1:0000000000000005".to_string(), vec![7, 0]),
        "on: the copies follow every batch"
    );

    legacy.set(false);
    s.write(reply("r", 6, Some(9))).unwrap();
    assert_eq!(db.legacy_columns("r").1, vec![7, 0]);
    drop(s);
    let s = db.open();
    assert_eq!(read(&s), ("d1:0000000000000006".to_string(), vec![9, 0]));
    // A game without replies reads its own row's digest.
    let mut s = s;
    s.save_room(&room("fresh"), &seats()).unwrap();
    s.start_game("fresh", "{}", V, 1, "d1:fresh", 1).unwrap();
    assert_eq!(
        s.reader().game("fresh").unwrap().unwrap().last_hash,
        "d1:fresh"
    );
}

/// An undo takes replies back, and with them the newest command ids a seat's row does
/// not hold (schema 11): those stay known as applied, so a command re-sent after the
/// undo is still a duplicate. An undo back to the start reads the digest it wrote.
fn an_undo_keeps_the_command_ids_of_the_replies_it_takes_back(db: &Db) {
    let mut s = db.open();
    s.save_room(&room("r"), &seats()).unwrap();
    s.start_game("r", "{}", V, 1, "d1:start", 1).unwrap();
    for (i, command) in [Some(3), Some(8), None].into_iter().enumerate() {
        s.write(reply("r", i as u64, command)).unwrap();
    }
    s.write(Write::TruncateReplies {
        room_id: "r".into(),
        keep: 1,
        hash: "d1:0000000000000000".into(),
    })
    .unwrap();
    let (_, seats) = s.reader().room("r").unwrap().unwrap();
    assert_eq!(
        seats[0].last_command, 8,
        "the id of a reply taken back stays"
    );
    s.write(Write::TruncateReplies {
        room_id: "r".into(),
        keep: 0,
        hash: "d1:start".into(),
    })
    .unwrap();
    let g = s.reader().game("r").unwrap().unwrap();
    assert_eq!((g.replies.len(), g.last_hash.as_str()), (0, "d1:start"));
    assert_eq!(s.reader().room("r").unwrap().unwrap().1[0].last_command, 8);
}

fn an_abandoned_game_is_history_without_scores_and_is_not_reopened(db: &Db) {
    let mut s = db.open();
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

fn a_reader_sees_what_the_writer_committed(db: &Db) {
    let mut s = db.open();
    let reader = db.reader().unwrap();
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

/// An undo deletes the last replies and records the digest before them; it never
/// touches a finished game or more than 100 replies. A rewrite re-encodes every reply
/// and the setup at once, and only with the log's exact count.
fn an_undo_takes_back_replies_and_a_rewrite_reencodes_the_log(db: &Db) {
    let mut s = db.open();
    s.save_room(&room("r"), &seats()).unwrap();
    s.start_game("r", "{}", V, 1, "h0", 1).unwrap();
    for i in 0..5 {
        s.write(reply("r", i, None)).unwrap();
    }
    let undo = |keep, hash: &str| Write::TruncateReplies {
        room_id: "r".into(),
        keep,
        hash: hash.into(),
    };
    s.write(undo(3, "d1:0000000000000002")).unwrap();
    let g = s.reader().game("r").unwrap().unwrap();
    assert_eq!(
        (g.replies.len(), g.last_hash.as_str()),
        (3, "d1:0000000000000002")
    );
    assert!(
        matches!(s.write(undo(3, "x")), Err(StoreError::Rewrite { .. })),
        "nothing to take back after 3"
    );
    s.write(reply("r", 3, None)).unwrap();

    let rewrite = |replies: Vec<String>| Write::RewriteRecord {
        room_id: "r".into(),
        format: 9,
        setup: "{\"v\":9}".into(),
        replies,
        scores: None,
    };
    assert!(matches!(
        s.write(rewrite(vec!["only one".into()])),
        Err(StoreError::Rewrite { .. })
    ));
    s.write(rewrite((0..4).map(|i| format!("v9-{i}")).collect()))
        .unwrap();
    let g = s.reader().game("r").unwrap().unwrap();
    assert_eq!(g.version.format, 9);
    assert_eq!(g.setup, "{\"v\":9}");
    assert_eq!(g.replies[3], (0, "v9-3".to_string()));

    s.finish_game("r", "[]", 9).unwrap();
    assert!(
        matches!(s.write(undo(1, "x")), Err(StoreError::NoGame(_))),
        "a finished game keeps every reply"
    );
    assert_eq!(s.reader().game("r").unwrap().unwrap().replies.len(), 4);
}

/// Sets up room `r` with a game, claimed by `node` under `token`, every write fenced.
fn claimed_game(s: &mut Store, node: &str, token: i64) {
    s.claim("r", node, token, 1).unwrap();
    let fence = Fence {
        node: node.into(),
        token,
    };
    s.write_fenced(
        fence.clone(),
        Write::SaveRoom {
            room: room("r"),
            seats: seats(),
        },
    )
    .unwrap();
    s.write_fenced(
        fence,
        Write::StartGame {
            room_id: "r".into(),
            setup: "{}".into(),
            version: V,
            seed: 1,
            hash: "h0".into(),
            now: 1,
            command: None,
        },
    )
    .unwrap();
}

/// Once another node claimed the room, a write under the old token is refused, alone in
/// its batch, and leaves the room as it was; so is a write under a token the room never
/// had, or the right token from the wrong node.
fn a_stale_fence_is_refused_and_changes_nothing(db: &Db) {
    let mut s = db.open();
    claimed_game(&mut s, "node-a", 1);
    s.write_fenced(
        Fence {
            node: "node-a".into(),
            token: 1,
        },
        reply("r", 0, Some(4)),
    )
    .unwrap();
    s.claim("r", "node-b", 2, 2).unwrap();

    let before = s.reader().game("r").unwrap().unwrap();
    let results = s
        .write_batch(&[
            fenced("node-a", 1, reply("r", 1, Some(5))),
            fenced("node-b", 2, reply("r", 1, Some(6))),
            fenced("node-b", 1, reply("r", 2, None)),
            fenced("node-a", 7, reply("r", 2, None)),
            fenced(
                "node-a",
                1,
                Write::FinishGame {
                    room_id: "r".into(),
                    scores: "[]".into(),
                    now: 3,
                    rated: None,
                },
            ),
        ])
        .unwrap();
    assert!(
        matches!(
            &results[0],
            Err(StoreError::Fenced { room, token: 1, current: Some(2) }) if room == "r"
        ),
        "{results:?}"
    );
    assert!(results[1].is_ok(), "{results:?}");
    for r in &results[2..] {
        assert!(
            matches!(
                r,
                Err(StoreError::Fenced {
                    current: Some(2),
                    ..
                })
            ),
            "{results:?}"
        );
    }
    let after = s.reader().game("r").unwrap().unwrap();
    assert_eq!(
        after.replies.len(),
        before.replies.len() + 1,
        "only node-b's reply"
    );
    assert_eq!(after.finished_at, None, "the stale finish changed nothing");
    assert_eq!(
        s.reader().room("r").unwrap().unwrap().1[0].last_command,
        6,
        "node-a's refused command id is not kept"
    );
    // A room nobody claimed refuses every fenced write.
    s.save_room(&room("free"), &seats()).unwrap();
    assert!(matches!(
        s.write_fenced(
            Fence {
                node: "node-a".into(),
                token: 1
            },
            Write::CloseRoom { id: "free".into() }
        ),
        Err(StoreError::Fenced { current: None, .. })
    ));
    assert!(s.reader().room("free").unwrap().is_some());
}

/// Tokens only grow: a claim with a lower or equal token is refused and recorded nowhere.
fn a_claim_must_be_newer_than_the_rooms_token(db: &Db) {
    let mut s = db.open();
    // A room may be claimed before it is stored (a node claims, then creates it).
    s.claim("r", "node-a", 5, 10).unwrap();
    for (node, token) in [("node-b", 3), ("node-b", 5), ("node-a", 5)] {
        match s.claim("r", node, token, 11) {
            Err(StoreError::Fenced {
                room,
                token: t,
                current: Some(5),
            }) => assert_eq!((room.as_str(), t), ("r", token)),
            other => panic!("claim {token} by {node} after 5: {other:?}"),
        }
    }
    assert_eq!(
        s.reader().fence("r").unwrap(),
        Some(Fence {
            node: "node-a".into(),
            token: 5
        })
    );
    s.claim("r", "node-b", 6, 12).unwrap();
    assert_eq!(
        s.reader().claims("r").unwrap(),
        vec![
            ClaimRow {
                token: 5,
                node: "node-a".into(),
                at: 10
            },
            ClaimRow {
                token: 6,
                node: "node-b".into(),
                at: 12
            }
        ]
    );
    assert_eq!(s.reader().fence("nobody").unwrap(), None);
    assert!(s.reader().claims("nobody").unwrap().is_empty());
}

/// Each reply keeps the fence it was written under; unfenced writes (one server) none.
fn the_reply_audit_shows_who_wrote_each_reply(db: &Db) {
    let mut s = db.open();
    claimed_game(&mut s, "node-a", 1);
    let a = Fence {
        node: "node-a".into(),
        token: 1,
    };
    let b = Fence {
        node: "node-b".into(),
        token: 2,
    };
    s.write_fenced(a.clone(), reply("r", 0, None)).unwrap();
    s.write_fenced(a, reply("r", 1, None)).unwrap();
    s.claim("r", "node-b", 2, 5).unwrap();
    s.write_batch(&[
        fenced("node-b", 2, reply("r", 2, None)),
        fenced("node-b", 2, reply("r", 3, None)),
    ])
    .unwrap()
    .into_iter()
    .for_each(|r| r.unwrap());
    s.write(reply("r", 4, None)).unwrap();
    let writer = |seq, f: Option<&Fence>| ReplyWriter {
        seq,
        node: f.map(|f| f.node.clone()),
        token: f.map(|f| f.token),
    };
    let a = Fence {
        node: "node-a".into(),
        token: 1,
    };
    assert_eq!(
        s.reader().reply_writers("r").unwrap(),
        vec![
            writer(0, Some(&a)),
            writer(1, Some(&a)),
            writer(2, Some(&b)),
            writer(3, Some(&b)),
            writer(4, None)
        ]
    );
}

/// Two nodes, two connections, one room: node A appends replies under its token as fast
/// as it can while node B claims the room and goes on with it. A's first write after the
/// claim is refused, and the log shows A's replies, then B's, never A's after B's.
fn a_node_that_lost_its_room_writes_nothing_after_the_claim(db: &Db) {
    let mut a = db.open();
    claimed_game(&mut a, "node-a", 1);
    let written = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let node_a = {
        let written = written.clone();
        std::thread::spawn(move || {
            let fence = Fence {
                node: "node-a".into(),
                token: 1,
            };
            for seq in 0.. {
                match a.write_fenced(fence.clone(), reply("r", seq, None)) {
                    Ok(()) => written.store(seq + 1, std::sync::atomic::Ordering::SeqCst),
                    Err(e) => return (seq, e),
                }
                // SQLite's lock is not fair: without a pause, a writer in a loop keeps
                // node B from ever opening the file.
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            unreachable!()
        })
    };
    while written.load(std::sync::atomic::Ordering::SeqCst) < 20 {
        std::thread::yield_now();
    }
    let mut b = db.open();
    b.claim("r", "node-b", 2, 2).unwrap();
    let (stopped_at, error) = node_a.join().unwrap();
    assert!(
        matches!(
            error,
            StoreError::Fenced {
                token: 1,
                current: Some(2),
                ..
            }
        ),
        "node A stopped at reply {stopped_at} with {error}"
    );
    let next = b.reader().game("r").unwrap().unwrap().replies.len() as u64;
    assert_eq!(
        next, stopped_at,
        "every write of A before its refusal is in the log"
    );
    let bf = Fence {
        node: "node-b".into(),
        token: 2,
    };
    for seq in next..next + 5 {
        b.write_fenced(bf.clone(), reply("r", seq, None)).unwrap();
    }
    let tokens: Vec<Option<i64>> = b
        .reader()
        .reply_writers("r")
        .unwrap()
        .into_iter()
        .map(|w| w.token)
        .collect();
    let expected: Vec<Option<i64>> = (0..next)
        .map(|_| Some(1))
        .chain((0..5).map(|_| Some(2)))
        .collect();
    assert_eq!(tokens, expected);
    eprintln!("node A wrote {next} replies before node B's claim refused it");
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

/// A version-4 file (before fencing) gains the fence tables and keeps its replies, which
/// were written by no fence.
#[test]
fn a_version_4_file_gains_fencing_and_its_replies_no_writer() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut s = Store::open(dir.path(), Durability::Full).unwrap();
        s.save_room(&room("r"), &seats()).unwrap();
        s.start_game("r", "{}", V, 1, "h0", 1).unwrap();
        s.append_reply("r", 0, 0, "{}", "h1", 1).unwrap();
    }
    // Back to version 4, as that release left it.
    let raw = rusqlite_raw(dir.path());
    raw.execute_batch(
        "DROP TABLE snapshots; DROP TABLE analysis_decisions; DROP TABLE analyses;
         DROP TABLE follows; DROP TABLE card_prefs; DROP TABLE rating_changes; DROP TABLE ratings;
         DROP TABLE seat_accounts; DROP TABLE reports; DROP TABLE blocks;
         DROP TABLE api_tokens; DROP TABLE sessions; DROP TABLE accounts;
         DROP TABLE cluster_key;
         DROP TABLE room_fences; DROP TABLE room_claims;
         ALTER TABLE replies DROP COLUMN writer_node; ALTER TABLE replies DROP COLUMN writer_token;
         ALTER TABLE replies DROP COLUMN command;
         PRAGMA user_version = 4;",
    )
    .unwrap();
    drop(raw);
    let mut s = Store::open(dir.path(), Durability::Full).unwrap();
    assert_eq!(
        s.reader().reply_writers("r").unwrap(),
        vec![ReplyWriter {
            seq: 0,
            node: None,
            token: None
        }]
    );
    s.claim("r", "node-a", 1, 2).unwrap();
    s.write_fenced(
        Fence {
            node: "node-a".into(),
            token: 1,
        },
        reply("r", 1, None),
    )
    .unwrap();
    assert_eq!(s.reader().reply_writers("r").unwrap()[1].token, Some(1));
}

/// Nodes starting at once against one empty database: one creates the schema, the others
/// wait on the advisory lock and find it current; all of them work.
#[test]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
fn nodes_starting_together_create_the_schema_once() {
    let url = TempPostgres::shared().fresh_database();
    let stores: Vec<Store> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..6)
            .map(|_| scope.spawn(|| Store::connect(&url)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap().unwrap_or_else(|e| panic!("{e}")))
            .collect()
    });
    for (i, mut s) in stores.into_iter().enumerate() {
        s.save_room(&room(&format!("r{i}")), &seats()).unwrap();
    }
    let reader = Reader::connect(&url).unwrap();
    assert_eq!(reader.view().live_rooms().unwrap().len(), 6);
}

/// A database with tables of its own but no `schema_version` is not taken over; an
/// unreachable server and a URL that is not PostgreSQL's say so, without the password.
#[test]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
fn a_foreign_database_and_an_unreachable_server_are_refused_clearly() {
    let pg = TempPostgres::shared();
    let url = pg.fresh_database();
    pg.execute(&url, "CREATE TABLE rooms (x INT)");
    match Store::connect(&url) {
        Err(e @ StoreError::Migration { .. }) => {
            assert!(e.to_string().contains("not created by this server"), "{e}")
        }
        other => panic!("a foreign database: {:?}", other.err()),
    }
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let url = format!("postgres://dominion:hunter2@127.0.0.1:{port}/dominion");
    match Store::connect(&url) {
        Err(e @ StoreError::Connect { .. }) => {
            let text = e.to_string();
            assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
            assert!(text.contains("refused"), "{text}");
            assert!(!text.contains("hunter2"), "{text}");
        }
        other => panic!("nothing listens on {port}: {:?}", other.err()),
    }
    match Store::connect("mysql://root:hunter2@db/x") {
        Err(e @ StoreError::NotPostgresUrl { .. }) => assert!(!e.to_string().contains("hunter2")),
        other => panic!("{:?}", other.err()),
    }
}

/// PostgreSQL closes a connection (a restart, an administrator's `pg_terminate_backend`):
/// the batch that meets it fails whole, the next one runs on a new connection; a reader
/// reconnects as well.
#[test]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
fn a_connection_postgres_closed_is_replaced_before_the_next_batch() {
    let pg = TempPostgres::shared();
    let url = pg.fresh_database();
    let mut s = Store::connect(&url).unwrap();
    let reader = Reader::connect(&url).unwrap();
    s.save_room(&room("r"), &seats()).unwrap();
    s.start_game("r", "{}", V, 1, "h0", 1).unwrap();
    s.write(reply("r", 0, None)).unwrap();
    let database = url.rsplit('/').next().unwrap();
    pg.execute(
        "postgres",
        &format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = '{database}' AND pid <> pg_backend_pid()"
        ),
    );
    // The client learns that its connection is gone from the first use after it (here:
    // the batch fails whole with PostgreSQL's FATAL 57P01), unless its connection task
    // noticed first; either way the next batch runs on a new connection.
    let next = match s.write_batch(&[reply("r", 1, None)]) {
        Err(_) => 1,
        Ok(results) => {
            results.into_iter().for_each(|r| r.unwrap());
            2
        }
    };
    s.write(reply("r", next, None)).unwrap();
    // Likewise the reader: its first query may meet the closed connection.
    let _ = reader.view().game("r");
    let g = reader.view().game("r").unwrap().unwrap();
    assert_eq!(
        g.replies.len() as u64,
        next + 1,
        "every write that returned Ok is there"
    );
}
