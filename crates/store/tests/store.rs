//! The store against real SQLite files in temporary directories.

use dominion_store::{Durability, RoomRow, RoomStatus, SeatRow, Store, StoreError};

fn room(id: &str) -> RoomRow {
    RoomRow {
        id: id.into(),
        settings: r#"{"seats":2}"#.into(),
        status: RoomStatus::Open,
        broken_reason: None,
        created_at: 100,
    }
}

fn seats() -> Vec<SeatRow> {
    vec![
        SeatRow {
            seat: 0,
            name: "Anna".into(),
            token_hash: Some(vec![1; 32]),
            bot: None,
        },
        SeatRow {
            seat: 1,
            name: "Bot".into(),
            token_hash: None,
            bot: Some("big_money".into()),
        },
    ]
}

#[test]
fn a_game_survives_reopening_with_every_reply_in_order() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut s = Store::open(dir.path(), Durability::Full).unwrap();
        s.save_room(&room("r1"), &seats()).unwrap();
        s.start_game("r1", r#"{"players":2}"#, u64::MAX, "h0", 101)
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
    let live = s.live_rooms().unwrap();
    assert_eq!(live.len(), 1);
    assert_eq!(live[0].0.status, RoomStatus::Playing);
    assert_eq!(live[0].1, seats());
    let g = s.game("r1").unwrap().unwrap();
    assert_eq!(g.seed, u64::MAX, "full u64 seeds survive");
    assert_eq!(g.replies.len(), 50);
    assert_eq!(g.replies[7], (1, r#"{"n":7}"#.to_string()));
    assert_eq!(g.last_hash, "h50");
    assert_eq!(s.integrity_check().unwrap(), "ok");
}

#[test]
fn gaps_and_repeats_are_refused_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Store::open(dir.path(), Durability::Normal).unwrap();
    s.save_room(&room("r"), &seats()).unwrap();
    s.start_game("r", "{}", 1, "h0", 1).unwrap();
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
    let g = s.game("r").unwrap().unwrap();
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
        s.start_game(id, "{}", 7, "h", 1).unwrap();
        if i < 2 {
            s.finish_game(id, r#"[{"vp":3}]"#, 10 + i as i64).unwrap();
        }
    }
    let done = s.finished_games(10).unwrap();
    assert_eq!(
        done.iter().map(|g| g.room_id.as_str()).collect::<Vec<_>>(),
        vec!["b", "a"]
    );
    let live: Vec<String> = s
        .live_rooms()
        .unwrap()
        .into_iter()
        .map(|(r, _)| r.id)
        .collect();
    assert_eq!(live, vec!["c"]);
    s.set_status("c", RoomStatus::Broken, Some("replay diverged at reply 3"))
        .unwrap();
    assert!(s.live_rooms().unwrap().is_empty());
    assert_eq!(
        s.broken_rooms(10).unwrap(),
        vec![("c".to_string(), "replay diverged at reply 3".to_string())]
    );
    let (r, _) = s.room("c").unwrap().unwrap();
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

fn rusqlite_raw(dir: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(dir.join(dominion_store::DB_FILE)).unwrap()
}
