//! The accounts' tables (schema 7) on both backends, through their own connection beside
//! the games' writer: accounts with unique folded names, sessions and tokens found by
//! their hashes only, blocks, reports, the seats an account sat in, and deleting an
//! account leaving its games readable under a placeholder name.

use dominion_store::{
    Accounts, Created, RecordVersion, RoomRow, RoomStatus, SeatRow, Store, Write,
};

#[macro_use]
mod both;
use both::Db;

on_both!(
    a_folded_name_is_registered_once,
    sessions_and_tokens_are_found_by_hash_until_ended,
    blocks_and_reports_are_kept,
    an_accounts_games_are_listed_and_survive_its_deletion,
);

fn open(db: &Db) -> (Store, Accounts) {
    let database = db.database();
    let store = Store::open_database(&database).expect("store");
    let accounts = Accounts::open(&database).expect("accounts");
    (store, accounts)
}

fn created(c: Created) -> dominion_store::AccountRow {
    match c {
        Created::Account(a) => a,
        Created::NameTaken => panic!("name taken"),
    }
}

fn a_folded_name_is_registered_once(db: &Db) {
    let (_store, mut a) = open(db);
    let ann = created(
        a.create_account("Ann", "ann", "$argon2id$x", false, 10)
            .unwrap(),
    );
    assert_eq!(
        a.create_account("ANN", "ann", "$argon2id$y", false, 11)
            .unwrap(),
        Created::NameTaken
    );
    let found = a.account_by_folded("ann").unwrap().unwrap();
    assert_eq!(found, ann);
    assert_eq!(found.name, "Ann");
    assert!(!found.bot && found.banned_at.is_none());
    assert!(a.set_password(ann.id, "$argon2id$z").unwrap());
    assert!(a.set_bot(ann.id, true).unwrap());
    let found = a.account_by_id(ann.id).unwrap().unwrap();
    assert_eq!(
        (found.password_hash.as_str(), found.bot),
        ("$argon2id$z", true)
    );
    assert!(a.set_banned(ann.id, Some(20)).unwrap());
    assert_eq!(
        a.account_by_id(ann.id).unwrap().unwrap().banned_at,
        Some(20)
    );
    assert!(a.set_banned(ann.id, None).unwrap());
    assert_eq!(a.list_accounts(10).unwrap().len(), 1);
    assert_eq!(a.account_by_folded("bob").unwrap(), None);
}

fn sessions_and_tokens_are_found_by_hash_until_ended(db: &Db) {
    let (_store, mut a) = open(db);
    let ann = created(a.create_account("Ann", "ann", "h", false, 10).unwrap());
    let s1 = a.create_session(ann.id, &[1; 32], 100, 1000).unwrap();
    let s2 = a.create_session(ann.id, &[2; 32], 100, 1000).unwrap();
    let (session, account) = a.session(&[1; 32], 200).unwrap().unwrap();
    assert_eq!((session.id, account.id), (s1, ann.id));
    assert_eq!(
        session.last_used, 100,
        "the row read before its use is noted"
    );
    assert_eq!(a.session(&[1; 32], 230).unwrap().unwrap().0.last_used, 200);
    assert!(a.session(&[1; 32], 1000).unwrap().is_none(), "expired");
    assert!(a.session(&[3; 32], 200).unwrap().is_none());
    assert_eq!(a.sessions(ann.id, 200).unwrap().len(), 2);
    assert_eq!(a.delete_other_sessions(ann.id, Some(s2)).unwrap(), vec![s1]);
    assert!(a.session(&[1; 32], 200).unwrap().is_none());
    assert!(a.session(&[2; 32], 200).unwrap().is_some());
    assert!(a.delete_session(ann.id, s2).unwrap());
    assert!(!a.delete_session(ann.id, s2).unwrap());

    let t = a.create_token(ann.id, "my bot", &[9; 32], 100).unwrap();
    let (token, account) = a.token(&[9; 32], 150).unwrap().unwrap();
    assert_eq!(
        (token.id, token.label.as_str(), account.id),
        (t, "my bot", ann.id)
    );
    assert_eq!(a.tokens(ann.id).unwrap()[0].last_used, Some(150));
    assert!(a.revoke_token(ann.id, t, 160).unwrap());
    assert!(a.token(&[9; 32], 170).unwrap().is_none());
    assert!(a.tokens(ann.id).unwrap().is_empty());
    assert!(!a.revoke_token(ann.id, t, 170).unwrap());
    // A ban ends the sessions.
    a.create_session(ann.id, &[4; 32], 100, 1000).unwrap();
    a.set_banned(ann.id, Some(300)).unwrap();
    assert!(a.sessions(ann.id, 301).unwrap().is_empty());
}

fn blocks_and_reports_are_kept(db: &Db) {
    let (_store, mut a) = open(db);
    let ann = created(a.create_account("Ann", "ann", "h", false, 10).unwrap());
    let bob = created(a.create_account("Bob", "bob", "h", false, 10).unwrap());
    a.block(ann.id, bob.id, 20).unwrap();
    a.block(ann.id, bob.id, 21).unwrap();
    assert_eq!(a.blocks(ann.id).unwrap(), vec!["Bob".to_string()]);
    assert!(a.unblock(ann.id, bob.id).unwrap());
    assert!(a.blocks(ann.id).unwrap().is_empty());
    a.add_report(
        "room1",
        3,
        "rude words",
        "Bob",
        Some(ann.id),
        Some("rude"),
        30,
    )
    .unwrap();
    let reports = a.reports(10).unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!(
        (
            reports[0].line,
            reports[0].speaker.as_str(),
            reports[0].reporter.as_deref()
        ),
        (3, "Bob", Some("Ann"))
    );
}

fn an_accounts_games_are_listed_and_survive_its_deletion(db: &Db) {
    let (mut store, mut a) = open(db);
    let ann = created(a.create_account("Ann", "ann", "h", false, 10).unwrap());
    let v = RecordVersion {
        format: 2,
        rules: 1,
    };
    for (id, finish) in [("g1", true), ("g2", true), ("g3", false)] {
        let room = room_row(id);
        let seats = vec![
            SeatRow {
                seat: 0,
                name: "Ann".into(),
                token_hash: Some(vec![1; 32]),
                bot: None,
                last_command: 0,
                account: None,
            },
            SeatRow {
                seat: 1,
                name: "easy".into(),
                token_hash: None,
                bot: Some("easy".into()),
                last_command: 0,
                account: None,
            },
        ];
        store.save_room(&room, &seats).unwrap();
        a.link_seat(id, 0, ann.id, "Ann").unwrap();
        store.start_game(id, "{}", v, 1, "h0", 5).unwrap();
        // Ann's reply under command 7: schema 11 keeps the id on the reply's row only.
        store
            .write(Write::AppendReply {
                room_id: id.into(),
                seq: 0,
                player: 0,
                reply: "\"end_phase\"".into(),
                hash: "h1".into(),
                now: 6,
                command: Some(7),
            })
            .unwrap();
        if finish {
            store
                .write(Write::FinishGame {
                    room_id: id.into(),
                    scores: "[]".into(),
                    now: if id == "g1" { 50 } else { 60 },
                    rated: None,
                })
                .unwrap();
        }
    }
    // A seat the account left, taken by a guest under another name, is not its game.
    a.link_seat("gone", 0, ann.id, "Ann").unwrap();
    assert_eq!(a.game_count(ann.id).unwrap(), 2);
    let games = a.games(ann.id, 10).unwrap();
    assert_eq!(
        games
            .iter()
            .map(|g| g.game.room_id.as_str())
            .collect::<Vec<_>>(),
        ["g2", "g1"]
    );
    assert_eq!(games[0].seat, 0);
    assert_eq!(games[0].game.seats.len(), 2);
    // Each seat's last command id as a room read back gives it: from the replies.
    assert_eq!(
        games[0]
            .game
            .seats
            .iter()
            .map(|s| s.last_command)
            .collect::<Vec<_>>(),
        [7, 0]
    );
    // A room read back knows the account in its seat (a restarted room marks a bot
    // account's seat from this), and nobody in the bot's seat.
    let (_, seats) = store.reader().room("g3").unwrap().unwrap();
    assert_eq!(
        seats.iter().map(|s| s.account).collect::<Vec<_>>(),
        [
            Some(dominion_store::LinkedAccount {
                id: ann.id,
                bot: false
            }),
            None
        ]
    );
    assert!(a.set_bot(ann.id, true).unwrap());
    let (_, seats) = store.reader().room("g3").unwrap().unwrap();
    assert_eq!(seats[0].account.map(|l| l.bot), Some(true));
    // Taken again under another name, the seat is no longer the account's.
    let mut retaken = seats.clone();
    retaken[0].name = "Guest".into();
    retaken[0].account = None;
    store.save_room(&room_row("g3"), &retaken).unwrap();
    let (_, seats) = store.reader().room("g3").unwrap().unwrap();
    assert_eq!(seats[0].account, None);
    assert!(a.delete_account(ann.id, "deleted player 1").unwrap());
    assert!(a.account_by_id(ann.id).unwrap().is_none());
    let (_, seats) = store.reader().room("g1").unwrap().unwrap();
    assert_eq!(seats[0].name, "deleted player 1");
    assert!(
        store.reader().game("g1").unwrap().is_some(),
        "the game stays"
    );
}

fn room_row(id: &str) -> RoomRow {
    RoomRow {
        id: id.into(),
        settings: "{}".into(),
        status: RoomStatus::Open,
        broken_reason: None,
        created_at: 1,
        host: None,
    }
}
