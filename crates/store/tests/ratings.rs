//! Ratings (schema 8) on both backends: a game is rated in the transaction that stores
//! its end, once however often that end is written, never under a stale fence; the
//! ratings recomputed from the stored changes equal the ones kept incrementally; the
//! leaderboard ranks, filters and pages; profiles read histories.

use dominion_rating::{Pool, Rating, rate_game};
use dominion_store::{
    Accounts, Created, Durability, Fence, RatedOutcome, RecordVersion, RoomRow, RoomStatus,
    SeatRow, Store, StoreError, Write,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

#[macro_use]
mod both;
use both::Db;

on_both!(
    recomputed_ratings_equal_the_incremental_ones,
    a_finish_written_again_does_not_rate_twice,
    a_fenced_out_finish_writes_no_rating,
    an_abandoned_game_is_rated_and_a_bad_outcome_refused,
    only_games_of_accounts_are_rated,
    the_leaderboard_ranks_filters_and_pages,
    a_deleted_account_takes_its_ratings_and_leaves_games_unrated,
    games_rated_within_one_second_recompute_in_the_order_rated,
);

fn open(db: &Db) -> (Store, Accounts) {
    let database = db.database_with(Durability::Normal);
    let store = Store::open_database(&database).expect("store");
    let accounts = Accounts::open(&database).expect("accounts");
    (store, accounts)
}

fn account(a: &mut Accounts, name: &str, bot: bool) -> i64 {
    match a
        .create_account(name, &name.to_lowercase(), "h", bot, 1)
        .unwrap()
    {
        Created::Account(row) => row.id,
        Created::NameTaken => panic!("{name} taken"),
    }
}

/// Room `id` with a started game of `players` seats.
fn game_writes(id: &str, players: usize) -> [Write; 2] {
    let room = RoomRow {
        id: id.into(),
        settings: "{}".into(),
        status: RoomStatus::Open,
        broken_reason: None,
        created_at: 1,
        host: None,
    };
    let seats = (0..players)
        .map(|s| SeatRow {
            seat: s as u8,
            name: format!("p{s}"),
            token_hash: None,
            bot: None,
            last_command: 0,
            account: None,
        })
        .collect();
    [
        Write::SaveRoom { room, seats },
        Write::StartGame {
            room_id: id.into(),
            setup: "{}".into(),
            version: RecordVersion {
                format: 2,
                rules: 1,
            },
            seed: 1,
            hash: "h0".into(),
            now: 1,
            command: None,
        },
    ]
}

/// Room `id` with a started game whose seat `i` is `accounts[i]`'s.
fn start(store: &mut Store, a: &mut Accounts, id: &str, accounts: &[i64]) {
    let [save, begin] = game_writes(id, accounts.len());
    store.write(save).unwrap();
    for (seat, account) in accounts.iter().enumerate() {
        a.link_seat(id, seat as u8, *account, &format!("p{seat}"))
            .unwrap();
    }
    store.write(begin).unwrap();
}

/// The end of `id` with seat `i` in `places[i]`, to be rated.
fn finish(id: &str, now: i64, places: &[u32]) -> Write {
    Write::FinishGame {
        room_id: id.into(),
        scores: "[]".into(),
        now,
        rated: Some(outcome(places)),
    }
}

fn outcome(places: &[u32]) -> RatedOutcome {
    RatedOutcome {
        places: places
            .iter()
            .enumerate()
            .map(|(seat, place)| (seat as u8, *place))
            .collect(),
    }
}

fn close(a: Rating, b: Rating) -> bool {
    let c = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(1.0);
    c(a.rating, b.rating) && c(a.deviation, b.deviation) && c(a.volatility, b.volatility)
}

/// 300 random games of 2 to 4 players between 12 accounts (4 of them bot accounts, who
/// play each other in pool `bots`), with ties, some abandoned, several ended in one
/// batch: what the store keeps equals an in-memory replay with `dominion-rating`, and the
/// recompute from `rating_changes` equals both.
fn recomputed_ratings_equal_the_incremental_ones(db: &Db) {
    let (mut store, mut a) = open(db);
    let ids: Vec<i64> = (0..12)
        .map(|i| account(&mut a, &format!("P{i}"), i >= 8))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let mut expected: HashMap<(i64, Pool), (Rating, u64, i64)> = HashMap::new();
    let mut game = 0;
    while game < 300 {
        // A batch of 1 to 4 games ending together: the rooms are started first, then
        // their ends committed in one transaction (in order, so a player in two of them
        // is rated by the first, then the second).
        let batch = rng.random_range(1..=4);
        let mut ends = Vec::new();
        for _ in 0..batch {
            let id = format!("g{game}");
            let bots = rng.random_bool(0.25);
            let (n, pool, from) = if bots {
                (2, Pool::Bots, &ids[8..])
            } else {
                let n = rng.random_range(2..=4usize);
                (n, Pool::for_players(n).unwrap(), &ids[..8])
            };
            let mut seats: Vec<i64> = Vec::new();
            while seats.len() < n {
                let p = from[rng.random_range(0..from.len())];
                if !seats.contains(&p) {
                    seats.push(p);
                }
            }
            let places: Vec<u32> = (0..n).map(|_| rng.random_range(1..=n as u32)).collect();
            start(&mut store, &mut a, &id, &seats);
            let now = 1_000 + game as i64;
            let input: Vec<(Rating, u32)> = seats
                .iter()
                .zip(&places)
                .map(|(p, place)| {
                    let r = expected.get(&(*p, pool)).map_or(Rating::DEFAULT, |e| e.0);
                    (r, *place)
                })
                .collect();
            for (p, r) in seats.iter().zip(rate_game(pool, &input).unwrap()) {
                let e = expected
                    .entry((*p, pool))
                    .or_insert((Rating::DEFAULT, 0, 0));
                *e = (r, e.1 + 1, now);
            }
            ends.push(if rng.random_bool(0.2) {
                Write::AbandonGame {
                    room_id: id,
                    now,
                    rated: Some(outcome(&places)),
                }
            } else {
                finish(&id, now, &places)
            });
            game += 1;
        }
        for r in store.write_batch(&ends).unwrap() {
            r.unwrap();
        }
    }

    let stored = a.all_ratings().unwrap();
    assert_eq!(stored.len(), expected.len());
    assert!(stored.iter().any(|r| r.pool == Pool::Bots));
    assert!(stored.iter().any(|r| r.pool == Pool::Multiplayer));
    for row in &stored {
        let (r, games, last) = expected[&(row.account_id, row.pool)];
        assert!(close(row.rating, r), "{row:?} vs {r:?}");
        assert_eq!((row.games, row.last_game_at), (games, last), "{row:?}");
        assert_eq!(a.rating(row.account_id, row.pool).unwrap(), *row);
    }
    let recomputed = a.recompute_ratings().unwrap();
    assert!(
        recomputed.unexplained.is_empty(),
        "{:?}",
        recomputed.unexplained
    );
    assert_eq!(recomputed.ratings.len(), stored.len());
    for (re, st) in recomputed.ratings.iter().zip(&stored) {
        assert_eq!(
            (re.account_id, re.pool, re.games, re.last_game_at),
            (st.account_id, st.pool, st.games, st.last_game_at)
        );
        assert!(close(re.rating, st.rating), "{re:?} vs {st:?}");
    }
    // Each game rated every player once, and the games' reader finds them by seat.
    let changes = store.reader().room_rating_changes("g7").unwrap();
    assert!((2..=4).contains(&changes.len()));
    assert_eq!(
        changes.iter().map(|(s, _)| *s as usize).collect::<Vec<_>>(),
        (0..changes.len()).collect::<Vec<_>>()
    );
}

fn a_finish_written_again_does_not_rate_twice(db: &Db) {
    let (mut store, mut a) = open(db);
    let (ann, bob) = (account(&mut a, "Ann", false), account(&mut a, "Bob", false));
    start(&mut store, &mut a, "r", &[ann, bob]);
    store.write(finish("r", 10, &[1, 2])).unwrap();
    let once = a.all_ratings().unwrap();
    assert_eq!(once.len(), 2);
    assert_eq!(once[0].pool, Pool::TwoPlayer);
    assert!(once[0].rating.rating > 1500.0 && once[1].rating.rating < 1500.0);
    // Written again (a restart re-sends it), even with another outcome: nothing moves.
    store.write(finish("r", 11, &[2, 1])).unwrap();
    assert_eq!(a.all_ratings().unwrap(), once);
    let changes = a.room_rating_changes("r").unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0].account_id, ann);
    assert_eq!(changes[0].before, Rating::DEFAULT);
    assert_eq!(changes[0].after, once[0].rating);
    assert_eq!(
        a.rating_history(ann, Pool::TwoPlayer, 10).unwrap(),
        [changes[0].clone()]
    );
    assert!(
        a.rating_history(ann, Pool::Multiplayer, 10)
            .unwrap()
            .is_empty()
    );
    let by_seat = store.reader().room_rating_changes("r").unwrap();
    assert_eq!(by_seat, [(0, changes[0].clone()), (1, changes[1].clone())]);
}

fn a_fenced_out_finish_writes_no_rating(db: &Db) {
    let (mut store, mut a) = open(db);
    let (ann, bob) = (account(&mut a, "Ann", false), account(&mut a, "Bob", false));
    let fence = |node: &str, token| Fence {
        node: node.into(),
        token,
    };
    store.claim("r", "node-a", 1, 1).unwrap();
    let [save, begin] = game_writes("r", 2);
    store.write_fenced(fence("node-a", 1), save).unwrap();
    a.link_seat("r", 0, ann, "p0").unwrap();
    a.link_seat("r", 1, bob, "p1").unwrap();
    store.write_fenced(fence("node-a", 1), begin).unwrap();
    store.claim("r", "node-b", 2, 2).unwrap();
    let stale = store.write_fenced(fence("node-a", 1), finish("r", 10, &[1, 2]));
    assert!(
        matches!(
            stale,
            Err(StoreError::Fenced {
                current: Some(2),
                ..
            })
        ),
        "{stale:?}"
    );
    assert!(a.all_ratings().unwrap().is_empty());
    assert!(a.room_rating_changes("r").unwrap().is_empty());
    assert_eq!(store.reader().game("r").unwrap().unwrap().finished_at, None);
    // The room's owner rates it, once; the old owner still cannot.
    store
        .write_fenced(fence("node-b", 2), finish("r", 11, &[1, 2]))
        .unwrap();
    assert_eq!(a.room_rating_changes("r").unwrap().len(), 2);
    assert!(
        store
            .write_fenced(fence("node-a", 1), finish("r", 12, &[2, 1]))
            .is_err()
    );
    assert_eq!(a.all_ratings().unwrap()[0].games, 1);
    assert!(a.all_ratings().unwrap()[0].rating.rating > 1500.0);
}

fn an_abandoned_game_is_rated_and_a_bad_outcome_refused(db: &Db) {
    let (mut store, mut a) = open(db);
    let ids: Vec<i64> = ["A", "B", "C"]
        .iter()
        .map(|n| account(&mut a, n, false))
        .collect();
    start(&mut store, &mut a, "left", &ids);
    // C left: last; A and B, still there, tie.
    store
        .write(Write::AbandonGame {
            room_id: "left".into(),
            now: 5,
            rated: Some(outcome(&[1, 1, 3])),
        })
        .unwrap();
    let after = rate_game(
        Pool::Multiplayer,
        &[
            (Rating::DEFAULT, 1),
            (Rating::DEFAULT, 1),
            (Rating::DEFAULT, 3),
        ],
    )
    .unwrap();
    for (id, r) in ids.iter().zip(&after) {
        assert!(close(a.rating(*id, Pool::Multiplayer).unwrap().rating, *r));
    }
    assert_eq!(
        store.reader().room("left").unwrap().unwrap().0.status,
        RoomStatus::Abandoned
    );

    // A seat twice, one player, a place past the players: refused, nothing written.
    start(&mut store, &mut a, "bad", &ids[..2]);
    for places in [
        vec![(0, 1), (0, 2)],
        vec![(0, 1)],
        vec![(0, 1), (1, 3)],
        vec![(0, 0), (1, 1)],
    ] {
        let r = store.write(Write::FinishGame {
            room_id: "bad".into(),
            scores: "[]".into(),
            now: 6,
            rated: Some(RatedOutcome {
                places: places.clone(),
            }),
        });
        assert!(
            matches!(r, Err(StoreError::Outcome { .. })),
            "{places:?}: {r:?}"
        );
        assert_eq!(
            store.reader().game("bad").unwrap().unwrap().finished_at,
            None
        );
    }
    assert!(a.room_rating_changes("bad").unwrap().is_empty());
}

/// Only games whose every seat is an account's are rated: a guest's seat, a seat taken
/// over under another name, an account in two seats or a bot account among people
/// leave the game unrated, and its end stored.
fn only_games_of_accounts_are_rated(db: &Db) {
    let (mut store, mut a) = open(db);
    let ann = account(&mut a, "Ann", false);
    let bob = account(&mut a, "Bob", false);
    let bot = account(&mut a, "Botty", true);
    let bot2 = account(&mut a, "Botter", true);
    // A guest in seat 1: nothing links it.
    let [save, begin] = game_writes("guest", 2);
    store.write(save).unwrap();
    a.link_seat("guest", 0, ann, "p0").unwrap();
    store.write(begin).unwrap();
    // Seat 1 linked under a name it no longer has (taken by someone else since).
    let [save, begin] = game_writes("renamed", 2);
    store.write(save).unwrap();
    a.link_seat("renamed", 0, ann, "p0").unwrap();
    a.link_seat("renamed", 1, bob, "Bob").unwrap();
    store.write(begin).unwrap();
    start(&mut store, &mut a, "twice", &[ann, ann]);
    start(&mut store, &mut a, "mixed", &[ann, bot]);
    for room in ["guest", "renamed", "twice", "mixed"] {
        store.write(finish(room, 10, &[1, 2])).unwrap();
        assert!(
            store
                .reader()
                .game(room)
                .unwrap()
                .unwrap()
                .finished_at
                .is_some()
        );
        assert!(a.room_rating_changes(room).unwrap().is_empty(), "{room}");
    }
    assert!(a.all_ratings().unwrap().is_empty());
    // Bot accounts together: the bots pool; people: 2p.
    start(&mut store, &mut a, "bots", &[bot, bot2]);
    store.write(finish("bots", 11, &[2, 1])).unwrap();
    start(&mut store, &mut a, "people", &[ann, bob]);
    store.write(finish("people", 12, &[1, 1])).unwrap();
    let pools: Vec<(i64, Pool)> = a
        .all_ratings()
        .unwrap()
        .iter()
        .map(|r| (r.account_id, r.pool))
        .collect();
    assert_eq!(
        pools,
        [
            (ann, Pool::TwoPlayer),
            (bob, Pool::TwoPlayer),
            (bot, Pool::Bots),
            (bot2, Pool::Bots)
        ]
    );
}

fn the_leaderboard_ranks_filters_and_pages(db: &Db) {
    let (mut store, mut a) = open(db);
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus"];
    let ids: Vec<i64> = names
        .iter()
        .map(|n| account(&mut a, n, *n == "Fay" || *n == "Gus"))
        .collect();
    // Ann beats everyone, Bob everyone but Ann, and so on; Eve plays only the first
    // round, so her last game is old (before 200) when the others' are not.
    let mut g = 0;
    for round in 0..3 {
        for i in 0..5 {
            for j in i + 1..5 {
                if round > 0 && j == 4 {
                    continue;
                }
                let id = format!("g{g}");
                let now = 100 + 10 * g;
                g += 1;
                start(&mut store, &mut a, &id, &[ids[i], ids[j]]);
                store.write(finish(&id, now, &[1, 2])).unwrap();
            }
        }
    }
    // Fay and Gus (bot accounts) play one game in the bots pool.
    start(&mut store, &mut a, "bots", &[ids[5], ids[6]]);
    store.write(finish("bots", 2_000, &[1, 2])).unwrap();

    let (total, rows) = a.leaderboard(Pool::TwoPlayer, 0, 0, 100).unwrap();
    assert_eq!(total, 5);
    assert_eq!(
        rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        ["Ann", "Bob", "Cat", "Dan", "Eve"]
    );
    assert_eq!(
        rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    // Eve played last at 190: not active since 200.
    let (total, rows) = a.leaderboard(Pool::TwoPlayer, 200, 0, 100).unwrap();
    assert_eq!(total, 4);
    assert_eq!(rows.last().unwrap().name, "Dan");
    let levels: Vec<f64> = rows.iter().map(|r| r.row.rating.level()).collect();
    assert!(levels.windows(2).all(|w| w[0] >= w[1]), "{levels:?}");
    assert_eq!(a.leaderboard(Pool::TwoPlayer, 5_000, 0, 100).unwrap().0, 0);

    // Pages.
    let (total, page) = a.leaderboard(Pool::TwoPlayer, 200, 2, 2).unwrap();
    assert_eq!(total, 4);
    assert_eq!(
        page.iter()
            .map(|r| (r.rank, r.name.as_str()))
            .collect::<Vec<_>>(),
        [(3, "Cat"), (4, "Dan")]
    );
    // One's own row, with the same rank as on the page.
    let cat = a
        .leaderboard_row(ids[2], Pool::TwoPlayer, 200)
        .unwrap()
        .unwrap();
    assert_eq!(cat, page[0]);
    assert!(
        a.leaderboard_row(ids[5], Pool::TwoPlayer, 200)
            .unwrap()
            .is_none()
    );
    assert!(
        a.leaderboard_row(ids[4], Pool::TwoPlayer, 200)
            .unwrap()
            .is_none()
    );

    // A banned account leaves the board, and the ranks close up.
    assert!(a.set_banned(ids[0], Some(3_000)).unwrap());
    let (total, rows) = a.leaderboard(Pool::TwoPlayer, 200, 0, 100).unwrap();
    assert_eq!((total, rows[0].name.as_str(), rows[0].rank), (3, "Bob", 1));
    assert!(
        a.leaderboard_row(ids[0], Pool::TwoPlayer, 200)
            .unwrap()
            .is_none()
    );

    // The bots pool is its own.
    let (total, rows) = a.leaderboard(Pool::Bots, 0, 0, 100).unwrap();
    assert_eq!(total, 2);
    assert_eq!((rows[0].name.as_str(), rows[0].bot), ("Fay", true));
    assert_eq!(a.rating(ids[5], Pool::Bots).unwrap().games, 1);
    assert_eq!(a.rating(ids[3], Pool::TwoPlayer).unwrap().games, 10);
    // History: the last 5 of Ann's 10, oldest first.
    let history = a.rating_history(ids[0], Pool::TwoPlayer, 5).unwrap();
    assert_eq!(history.len(), 5);
    assert!(
        history
            .windows(2)
            .all(|w| w[0].at <= w[1].at && w[0].after == w[1].before)
    );
    assert_eq!(
        history.last().unwrap().after,
        a.rating(ids[0], Pool::TwoPlayer).unwrap().rating
    );
    // Someone who never played has the default.
    let new = account(&mut a, "New", false);
    let r = a.rating(new, Pool::Multiplayer).unwrap();
    assert_eq!((r.rating, r.games), (Rating::DEFAULT, 0));
}

fn a_deleted_account_takes_its_ratings_and_leaves_games_unrated(db: &Db) {
    let (mut store, mut a) = open(db);
    let (ann, bob) = (account(&mut a, "Ann", false), account(&mut a, "Bob", false));
    start(&mut store, &mut a, "one", &[ann, bob]);
    store.write(finish("one", 10, &[1, 2])).unwrap();
    start(&mut store, &mut a, "two", &[ann, bob]);
    assert!(a.delete_account(bob, "deleted player 1").unwrap());
    assert_eq!(a.all_ratings().unwrap().len(), 1);
    // A game ending after one of its players was deleted ends, unrated.
    store.write(finish("two", 20, &[2, 1])).unwrap();
    assert!(
        store
            .reader()
            .game("two")
            .unwrap()
            .unwrap()
            .finished_at
            .is_some()
    );
    assert!(a.room_rating_changes("two").unwrap().is_empty());
    assert_eq!(a.rating(ann, Pool::TwoPlayer).unwrap().games, 1);
    // Ann's game against the deleted account cannot be replayed any more.
    assert_eq!(a.recompute_ratings().unwrap().unexplained, ["one"]);
}

/// Bot ladder games can end several a second (`at` is in seconds): recomputing follows
/// the order they were rated in, not their room ids.
fn games_rated_within_one_second_recompute_in_the_order_rated(db: &Db) {
    let (mut store, mut a) = open(db);
    let (p, q) = (account(&mut a, "P", true), account(&mut a, "Q", true));
    // Rated in this order, all in second 5000; room ids sort the other way round.
    for (id, places) in [
        ("z9", [1, 2]),
        ("m5", [2, 1]),
        ("a1", [1, 2]),
        ("a0", [1, 1]),
    ] {
        start(&mut store, &mut a, id, &[p, q]);
        for r in store.write_batch(&[finish(id, 5_000, &places)]).unwrap() {
            r.unwrap();
        }
    }
    let stored = a.all_ratings().unwrap();
    let recomputed = a.recompute_ratings().unwrap();
    assert!(recomputed.unexplained.is_empty(), "{recomputed:?}");
    assert_eq!(recomputed.ratings.len(), 2);
    for (re, st) in recomputed.ratings.iter().zip(&stored) {
        assert_eq!((re.account_id, re.games), (st.account_id, 4));
        assert!(close(re.rating, st.rating), "{re:?} vs {st:?}");
    }
}

/// Two PostgreSQL transactions rating games with common players take the rows they share
/// in one order, however their batches list the games: another writer holds player 2's
/// rating while a batch rates game x (players 1 and 3) and then game y (2 and 4). The
/// batch locks its rows in account order, so it waits for 2 before it touches 3; the
/// other writer can then take 3 too, commit, and the batch goes on. Had the batch taken
/// x's rows first (1 and 3), each would wait for the other: a deadlock, which PostgreSQL
/// breaks by failing one of them.
#[test]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
fn batches_rating_games_with_common_players_lock_them_in_one_order() {
    let pg = dominion_testkit::TempPostgres::shared();
    let url = pg.fresh_database();
    // Were there a deadlock, the other writer would be the one to see it (it checks
    // after 50 ms, the store's sessions after an hour) and fail this test, rather than
    // the batch, which would roll back and apply its writes again one by one.
    let name = url.rsplit('/').next().unwrap();
    pg.execute(
        &url,
        &format!("ALTER DATABASE \"{name}\" SET deadlock_timeout = '1h'"),
    );
    let db = Db::Postgres(url.clone());
    let (mut store, mut a) = open(&db);
    let ids: Vec<i64> = (1..=4)
        .map(|i| account(&mut a, &format!("P{i}"), false))
        .collect();
    start(&mut store, &mut a, "x", &[ids[0], ids[2]]);
    start(&mut store, &mut a, "y", &[ids[1], ids[3]]);
    let mut other = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
    for id in &ids {
        other
            .execute(
                "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games,
                                      last_game_at)
                 VALUES ($1, '2p', 1500, 350, 0.06, 0, 1)",
                &[id],
            )
            .unwrap();
    }
    other
        .batch_execute("SET deadlock_timeout = '50ms'")
        .unwrap();
    let lock = "SELECT games FROM ratings WHERE account_id = $1 AND pool = '2p' FOR UPDATE";
    let mut held = other.transaction().unwrap();
    held.query(lock, &[&ids[1]]).unwrap();
    std::thread::scope(|scope| {
        let batch =
            scope.spawn(|| store.write_batch(&[finish("x", 5, &[1, 2]), finish("y", 5, &[2, 1])]));
        // Until the batch waits for player 2's row (polled: no time is asserted).
        let mut watch = ::postgres::Client::connect(&url, ::postgres::NoTls).unwrap();
        let since = std::time::Instant::now();
        loop {
            let waiting: i64 = watch
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity
                     WHERE datname = current_database() AND wait_event_type = 'Lock'",
                    &[],
                )
                .unwrap()
                .get(0);
            if waiting > 0 {
                break;
            }
            assert!(
                !batch.is_finished(),
                "the batch did not wait for player 2's row"
            );
            assert!(
                since.elapsed() < std::time::Duration::from_secs(120),
                "never waited"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        held.query(lock, &[&ids[2]])
            .expect("player 3's row is free: the batch waits for 2 before it takes 3");
        held.commit().unwrap();
        let results = batch.join().unwrap().expect("the batch commits");
        assert!(results.iter().all(Result::is_ok), "{results:?}");
    });
    for room in ["x", "y"] {
        let rated: i64 = other
            .query_one(
                "SELECT count(*) FROM rating_changes WHERE room_id = $1",
                &[&room],
            )
            .unwrap()
            .get(0);
        assert_eq!(rated, 2, "room {room} is rated");
    }
}
