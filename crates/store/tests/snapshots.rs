//! Game snapshots (schema 10) on both backends: stored with the reply they cover, read
//! back oldest first, refused for a reply the game does not hold or a finished game,
//! replaced when written again for the same reply, dropped with the replies an undo
//! takes back and with the game's end.

use dominion_store::{RecordVersion, RoomRow, RoomStatus, SeatRow, SnapshotRow, Store, Write};

#[macro_use]
mod both;
use both::Db;

on_both!(
    snapshots_are_kept_with_the_reply_they_cover,
    a_snapshot_of_a_missing_reply_or_a_finished_game_is_refused,
    an_undo_drops_the_snapshots_past_the_replies_kept,
    several_rooms_read_at_once_are_read_as_one_by_one,
);

const V: RecordVersion = RecordVersion {
    format: 2,
    rules: 2,
};

fn game(db: &Db, replies: u64) -> Store {
    let mut s = Store::open_database(&db.database()).expect("store");
    let room = RoomRow {
        id: "r".into(),
        settings: "{}".into(),
        status: RoomStatus::Open,
        broken_reason: None,
        created_at: 1,
        host: None,
    };
    s.save_room(&room, &[]).unwrap();
    s.start_game("r", "{}", V, 7, "d1:0", 1).unwrap();
    for i in 0..replies {
        s.append_reply("r", i, 0, "{}", &format!("d1:{i}"), 2)
            .unwrap();
    }
    s
}

fn snap(upto: u64, body: &str) -> SnapshotRow {
    SnapshotRow {
        upto,
        format: 1,
        rules: 2,
        digest: format!("d1:{upto:016x}"),
        body: body.into(),
    }
}

fn save(s: &mut Store, row: SnapshotRow) -> Result<(), dominion_store::StoreError> {
    let mut results = s.write_batch(&[Write::SaveSnapshot {
        room_id: "r".into(),
        snapshot: row,
        now: 3,
    }])?;
    results.pop().unwrap()
}

fn snapshots_are_kept_with_the_reply_they_cover(db: &Db) {
    let mut s = game(db, 120);
    save(&mut s, snap(100, "b")).unwrap();
    save(&mut s, snap(50, "a")).unwrap();
    // Written again for the same reply: replaced.
    save(&mut s, snap(100, "c")).unwrap();
    // In one batch after the reply it covers.
    let results = s
        .write_batch(&[
            Write::AppendReply {
                room_id: "r".into(),
                seq: 120,
                player: 1,
                reply: "{}".into(),
                hash: "d1:x".into(),
                now: 4,
                command: None,
            },
            Write::SaveSnapshot {
                room_id: "r".into(),
                snapshot: snap(121, "d"),
                now: 4,
            },
        ])
        .unwrap();
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    drop(s);
    let s = Store::open_database(&db.database()).unwrap();
    let rows = s.reader().snapshots("r").unwrap();
    assert_eq!(rows, [snap(50, "a"), snap(100, "c"), snap(121, "d")]);
    assert!(s.reader().snapshots("other").unwrap().is_empty());
}

fn a_snapshot_of_a_missing_reply_or_a_finished_game_is_refused(db: &Db) {
    let mut s = game(db, 10);
    assert!(save(&mut s, snap(11, "x")).is_err(), "beyond the log");
    assert!(save(&mut s, snap(0, "x")).is_err(), "before any reply");
    save(&mut s, snap(10, "x")).unwrap();
    assert_eq!(s.reader().snapshots("r").unwrap(), [snap(10, "x")]);
    // A game's end deletes its snapshots, and none is stored after it.
    s.finish_game("r", "[]", 5).unwrap();
    assert!(s.reader().snapshots("r").unwrap().is_empty());
    assert!(save(&mut s, snap(9, "y")).is_err(), "a finished game");
    assert!(s.reader().snapshots("r").unwrap().is_empty());
}

fn an_undo_drops_the_snapshots_past_the_replies_kept(db: &Db) {
    let mut s = game(db, 30);
    save(&mut s, snap(20, "a")).unwrap();
    save(&mut s, snap(28, "b")).unwrap();
    let results = s
        .write_batch(&[Write::TruncateReplies {
            room_id: "r".into(),
            keep: 25,
            hash: "d1:25".into(),
        }])
        .unwrap();
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(s.reader().snapshots("r").unwrap(), [snap(20, "a")]);
}

/// `ReadView::rooms`, `games` and `snapshots_of` (what a restart and a takeover read, for
/// many rooms in one go) answer what `room`, `game` and `snapshots` answer for each: a
/// room with seats, a started game with snapshots, a finished game, an open room without
/// a game, and a room that is not stored.
fn several_rooms_read_at_once_are_read_as_one_by_one(db: &Db) {
    let mut s = game(db, 60);
    save(&mut s, snap(20, "a")).unwrap();
    save(&mut s, snap(50, "b")).unwrap();
    let seat = |seat: u8, name: &str| SeatRow {
        seat,
        name: name.into(),
        token_hash: Some(vec![seat; 32]),
        bot: None,
        last_command: u64::from(seat) + 1,
        account: None,
    };
    let room = |id: &str, created_at: i64| RoomRow {
        id: id.into(),
        settings: format!("{{\"room\":\"{id}\"}}"),
        status: RoomStatus::Open,
        broken_reason: None,
        created_at,
        host: Some(1),
    };
    s.save_room(&room("done", 2), &[seat(1, "Bea"), seat(0, "Al")])
        .unwrap();
    s.start_game("done", "{}", V, 9, "d1:0", 1).unwrap();
    for i in 0..7 {
        s.append_reply(
            "done",
            i,
            (i % 2) as u8,
            &format!("{{\"n\":{i}}}"),
            "d1:x",
            2,
        )
        .unwrap();
    }
    s.finish_game("done", "[1,2]", 3).unwrap();
    s.save_room(&room("open", 3), &[seat(0, "Cy")]).unwrap();

    let v = s.reader();
    let ids = ["open", "missing", "r", "done"];
    let one_by_one: Vec<_> = ids.iter().filter_map(|id| v.room(id).unwrap()).collect();
    assert_eq!(one_by_one.len(), 3);
    assert_eq!(v.rooms(&ids).unwrap(), one_by_one);
    let games = v.games(&ids).unwrap();
    assert_eq!(games.len(), 2);
    for id in ids {
        assert_eq!(games.get(id), v.game(id).unwrap().as_ref(), "{id}");
    }
    assert_eq!(games["done"].replies.len(), 7);
    let snapshots = v.snapshots_of(&ids).unwrap();
    assert_eq!(snapshots.len(), 1);
    assert_eq!(snapshots["r"], v.snapshots("r").unwrap());
    assert_eq!(snapshots["r"], [snap(20, "a"), snap(50, "b")]);
    assert!(v.rooms(&[]).unwrap().is_empty());
}
