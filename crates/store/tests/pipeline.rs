//! Batches whose statements PostgreSQL gets pipelined (issue 28): a batch where every
//! write stands commits in one pipelined transaction; one with a write that does not
//! stand in the middle (a reply out of order, a stale fence, a statement PostgreSQL
//! itself refuses) is rolled back and run again a savepoint per write, so only that write
//! is refused and every other one is stored. Run on both backends: SQLite must give the
//! same results; on PostgreSQL the store's batch counts say which path each batch took.

use dominion_store::{BatchCounts, Fence, RoomStatus, SeatRow, Store, StoreError, Write};

#[macro_use]
mod both;
use both::Db;
mod fixtures;
use fixtures::{V, anna, fenced, reply, room};

on_both!(
    a_batch_where_every_write_stands_commits_pipelined_in_one_go,
    a_refused_reply_and_a_stale_fence_mid_batch_fail_alone,
    a_statement_postgres_refuses_mid_batch_fails_only_its_write,
    runs_of_replies_of_several_rooms_are_stored_as_one_by_one,
);

fn open(db: &Db) -> Store {
    Store::open_database(&db.database()).unwrap_or_else(|e| panic!("open the store: {e}"))
}

fn seats() -> Vec<SeatRow> {
    vec![anna()]
}

fn start(id: &str) -> Write {
    Write::StartGame {
        room_id: id.into(),
        setup: "{}".into(),
        version: V,
        seed: 1,
        hash: "h0".into(),
        now: 1,
        command: None,
    }
}

/// The counts since `before` (`None` on SQLite, which has no pipeline).
fn counts_since(s: &Store, before: Option<BatchCounts>) -> Option<BatchCounts> {
    let (now, before) = (s.batch_counts()?, before?);
    Some(BatchCounts {
        pipelined: now.pipelined - before.pipelined,
        rerun: now.rerun - before.rerun,
        sequential: now.sequential - before.sequential,
    })
}

fn is_postgres(db: &Db) -> bool {
    matches!(db, Db::Postgres(_))
}

/// Every write of the batch stood, and on PostgreSQL the batch went pipelined, once,
/// without being run again.
fn stood_pipelined(
    db: &Db,
    s: &Store,
    before: Option<BatchCounts>,
    results: &[Result<(), StoreError>],
) {
    assert!(results.iter().all(|r| r.is_ok()), "{results:?}");
    if is_postgres(db) {
        assert_eq!(
            counts_since(s, before),
            Some(BatchCounts {
                pipelined: 1,
                rerun: 0,
                sequential: 0
            })
        );
    }
}

/// Claims, saves, starts, replies (with a command id), finishes, ends another game and
/// takes back a reply of a third, all in one batch: every write stands, nothing is run
/// twice.
fn a_batch_where_every_write_stands_commits_pipelined_in_one_go(db: &Db) {
    let mut s = open(db);
    s.save_room(&room("old"), &seats()).unwrap();
    s.write(start("old")).unwrap();
    for seq in 0..3 {
        s.write(reply("old", seq, None)).unwrap();
    }
    let before = s.batch_counts();
    let n = |token| {
        Some(Fence {
            node: "n1".into(),
            token,
        })
    };
    let results = s
        .write_batch(&[
            (
                None,
                Write::Claim {
                    room_id: "r".into(),
                    node: "n1".into(),
                    token: 4,
                    now: 1,
                },
            ),
            (
                n(4),
                Write::SaveRoom {
                    room: room("r"),
                    seats: seats(),
                },
            ),
            (n(4), start("r")),
            (n(4), reply("r", 0, Some(7))),
            (n(4), reply("r", 1, Some(8))),
            (
                n(4),
                Write::FinishGame {
                    room_id: "r".into(),
                    scores: "[1]".into(),
                    now: 9,
                    rated: None,
                },
            ),
            (
                None,
                Write::TruncateReplies {
                    room_id: "old".into(),
                    keep: 2,
                    hash: "d1:0000000000000001".into(),
                },
            ),
            (
                None,
                Write::SetStatus {
                    id: "old".into(),
                    status: RoomStatus::Broken,
                    reason: Some("test".into()),
                },
            ),
        ])
        .unwrap();
    stood_pipelined(db, &s, before, &results);
    let r = s.reader();
    let (stored, seats) = r.room("r").unwrap().unwrap();
    assert_eq!(
        (stored.status, seats[0].last_command),
        (RoomStatus::Finished, 8)
    );
    let game = r.game("r").unwrap().unwrap();
    assert_eq!(
        (game.replies.len(), game.scores.as_deref()),
        (2, Some("[1]"))
    );
    assert_eq!(
        r.fence("r").unwrap(),
        Some(Fence {
            node: "n1".into(),
            token: 4
        })
    );
    let old = r.game("old").unwrap().unwrap();
    assert_eq!(
        (old.replies.len(), old.last_hash.as_str()),
        (2, "d1:0000000000000001")
    );
    assert_eq!(r.room("old").unwrap().unwrap().0.status, RoomStatus::Broken);
}

/// Four rooms of one node's; in one batch, room b's reply is out of order and room c's
/// carries a token the room never had: those two are refused (each with its own error),
/// nothing of them is stored, and the replies of rooms a and d before and after them are.
fn a_refused_reply_and_a_stale_fence_mid_batch_fail_alone(db: &Db) {
    let mut s = open(db);
    for id in ["a", "b", "c", "d"] {
        let setup = s
            .write_batch(&[
                (
                    None,
                    Write::Claim {
                        room_id: id.into(),
                        node: "n1".into(),
                        token: 1,
                        now: 1,
                    },
                ),
                fenced(
                    "n1",
                    1,
                    Write::SaveRoom {
                        room: room(id),
                        seats: seats(),
                    },
                ),
                fenced("n1", 1, start(id)),
            ])
            .unwrap();
        assert!(setup.iter().all(|r| r.is_ok()), "{setup:?}");
    }
    let before = s.batch_counts();
    let results = s
        .write_batch(&[
            fenced("n1", 1, reply("a", 0, Some(10))),
            fenced("n1", 1, reply("b", 5, Some(11))),
            fenced("n1", 9, reply("c", 0, Some(12))),
            fenced("n1", 1, reply("d", 0, Some(13))),
            fenced("n1", 1, reply("a", 1, Some(14))),
        ])
        .unwrap();
    assert!(
        results[0].is_ok() && results[3].is_ok() && results[4].is_ok(),
        "{results:?}"
    );
    assert!(
        matches!(&results[1], Err(StoreError::OutOfOrder { room, expected: 0, got: 5 }) if room == "b"),
        "{results:?}"
    );
    assert!(
        matches!(&results[2], Err(StoreError::Fenced { room, token: 9, current: Some(1) }) if room == "c"),
        "{results:?}"
    );
    if is_postgres(db) {
        assert_eq!(
            counts_since(&s, before),
            Some(BatchCounts {
                pipelined: 0,
                rerun: 1,
                sequential: 0
            }),
            "sent pipelined, then run again a savepoint per write"
        );
    }
    let r = s.reader();
    let replies = |id: &str| r.game(id).unwrap().unwrap().replies.len();
    assert_eq!(
        [replies("a"), replies("b"), replies("c"), replies("d")],
        [2, 0, 0, 1]
    );
    let command = |id: &str| r.room(id).unwrap().unwrap().1[0].last_command;
    assert_eq!(
        [command("a"), command("b"), command("c"), command("d")],
        [14, 3, 3, 13],
        "a refused write's command id is not kept"
    );
    assert_eq!(
        r.game("a").unwrap().unwrap().last_hash,
        "d1:0000000000000001"
    );
    assert_eq!(r.game("b").unwrap().unwrap().last_hash, "h0");

    // The next batch, all of it standing, goes pipelined again.
    let before = s.batch_counts();
    let results = s
        .write_batch(&[
            fenced("n1", 1, reply("b", 0, None)),
            fenced("n1", 1, reply("c", 0, None)),
        ])
        .unwrap();
    assert!(results.iter().all(|r| r.is_ok()), "{results:?}");
    if is_postgres(db) {
        assert_eq!(counts_since(&s, before).map(|c| c.pipelined), Some(1));
    }
}

/// A game started twice is refused by PostgreSQL itself (the games row exists: a
/// unique violation, which aborts the pipelined transaction and every statement after
/// it): the writes around it still commit.
fn a_statement_postgres_refuses_mid_batch_fails_only_its_write(db: &Db) {
    let mut s = open(db);
    for id in ["a", "b"] {
        s.save_room(&room(id), &seats()).unwrap();
    }
    s.write(start("b")).unwrap();
    let before = s.batch_counts();
    let results = s
        .write_batch(&[
            start("a"),
            start("b"),
            reply("a", 0, None),
            reply("b", 0, None),
        ])
        .unwrap();
    assert!(
        results[0].is_ok() && results[2].is_ok() && results[3].is_ok(),
        "{results:?}"
    );
    assert!(results[1].is_err(), "{results:?}");
    if is_postgres(db) {
        assert_eq!(counts_since(&s, before).map(|c| c.rerun), Some(1));
    }
    let r = s.reader();
    assert_eq!(r.game("a").unwrap().unwrap().replies.len(), 1);
    assert_eq!(r.game("b").unwrap().unwrap().replies.len(), 1);
}

/// Replies of two rooms interleaved, several per room, as a busy node's batch holds them
/// (PostgreSQL sends each run of consecutive replies as one statement): every reply is
/// stored in order, each game's digest is its last reply's, each seat keeps its largest
/// command id (never a smaller one after a larger). Then a run with a gap in one room's
/// numbers and a reply to a room without a game: those two are refused, as one by one,
/// and the rest of the run is stored.
fn runs_of_replies_of_several_rooms_are_stored_as_one_by_one(db: &Db) {
    let mut s = open(db);
    for id in ["x", "y"] {
        s.save_room(&room(id), &seats()).unwrap();
        s.write(start(id)).unwrap();
    }
    s.save_room(&room("bare"), &seats()).unwrap();
    let before = s.batch_counts();
    let results = s
        .write_batch(&[
            (None, reply("x", 0, Some(5))),
            (None, reply("y", 0, Some(2))),
            (None, reply("x", 1, Some(6))),
            (None, reply("y", 1, None)),
            (None, reply("x", 2, Some(4))),
        ])
        .unwrap();
    stood_pipelined(db, &s, before, &results);
    {
        let r = s.reader();
        let x = r.game("x").unwrap().unwrap();
        let texts: Vec<&str> = x.replies.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts, ["r0", "r1", "r2"]);
        assert_eq!(x.last_hash, "d1:0000000000000002");
        assert_eq!(
            r.game("y").unwrap().unwrap().last_hash,
            "d1:0000000000000001"
        );
        let command = |id: &str| r.room(id).unwrap().unwrap().1[0].last_command;
        assert_eq!([command("x"), command("y")], [6, 3]);
    }

    let before = s.batch_counts();
    let results = s
        .write_batch(&[
            (None, reply("x", 3, Some(9))),
            (None, reply("x", 5, Some(10))),
            (None, reply("bare", 0, None)),
            (None, reply("y", 2, Some(8))),
        ])
        .unwrap();
    assert!(results[0].is_ok() && results[3].is_ok(), "{results:?}");
    assert!(
        matches!(&results[1], Err(StoreError::OutOfOrder { room, expected: 4, got: 5 }) if room == "x"),
        "{results:?}"
    );
    assert!(
        matches!(&results[2], Err(StoreError::NoGame(room)) if room == "bare"),
        "{results:?}"
    );
    if is_postgres(db) {
        assert_eq!(counts_since(&s, before).map(|c| c.rerun), Some(1));
    }
    let r = s.reader();
    let replies = |id: &str| r.game(id).unwrap().unwrap().replies.len();
    assert_eq!([replies("x"), replies("y")], [4, 3]);
    assert!(r.game("bare").unwrap().is_none());
    let command = |id: &str| r.room(id).unwrap().unwrap().1[0].last_command;
    assert_eq!([command("x"), command("y")], [9, 8]);
    assert_eq!(
        r.game("x").unwrap().unwrap().last_hash,
        "d1:0000000000000003"
    );
}
