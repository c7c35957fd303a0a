//! Ratings (schema 8) on both backends: a game is rated in the transaction that stores
//! its end, once however often that end is written, never under a stale fence; the
//! ratings recomputed from the stored changes equal the ones kept incrementally; the
//! leaderboard ranks, filters and pages; profiles read histories.

use dominion_rating::{Pool, Rating, rate_game};
use dominion_store::{
    Accounts, Created, Database, Durability, Fence, RatedOutcome, RecordVersion, RoomRow,
    RoomStatus, SeatRow, Store, StoreError, Write,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Db {
    fn database(&self) -> Database {
        match self {
            Db::Sqlite(dir) => Database::Sqlite {
                dir: dir.path().to_path_buf(),
                durability: Durability::Normal,
            },
            Db::Postgres(url) => Database::Postgres { url: url.clone() },
        }
    }
}

macro_rules! on_both {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $test() { super::$test(&super::Db::Sqlite(tempfile::tempdir().unwrap())) } )*
        }
        mod postgres {
            $(
                #[test]
                #[cfg_attr(not(have_postgres), ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh")]
                fn $test() { super::$test(&super::Db::Postgres(dominion_testkit::TempPostgres::shared().fresh_database())) }
            )*
        }
    };
}

on_both!(
    recomputed_ratings_equal_the_incremental_ones,
    a_finish_written_again_does_not_rate_twice,
    a_fenced_out_finish_writes_no_rating,
    an_abandoned_game_is_rated_and_a_bad_outcome_refused,
    the_leaderboard_ranks_filters_and_pages,
    a_deleted_account_takes_its_ratings_and_leaves_games_unrated,
);

fn open(db: &Db) -> (Store, Accounts) {
    let database = db.database();
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

fn start(store: &mut Store, id: &str, players: usize) {
    for w in game_writes(id, players) {
        store.write(w).unwrap();
    }
}

fn finish(id: &str, now: i64, pool: Pool, players: &[(i64, u32)]) -> Write {
    Write::FinishGame {
        room_id: id.into(),
        scores: "[]".into(),
        now,
        rated: Some(RatedOutcome {
            pool,
            players: players.to_vec(),
        }),
    }
}

fn close(a: Rating, b: Rating) -> bool {
    let c = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(1.0);
    c(a.rating, b.rating) && c(a.deviation, b.deviation) && c(a.volatility, b.volatility)
}

/// 300 random games of 2 to 4 players between 12 accounts, in all three pools, with
/// ties, some abandoned, several ended in one batch: what the store keeps equals an
/// in-memory replay with `dominion-rating`, and the recompute from `rating_changes`
/// equals both.
fn recomputed_ratings_equal_the_incremental_ones(db: &Db) {
    let (mut store, mut a) = open(db);
    let ids: Vec<i64> = (0..12)
        .map(|i| account(&mut a, &format!("P{i}"), false))
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
            let n = rng.random_range(2..=4usize);
            let pool = match n {
                2 if rng.random_bool(0.3) => Pool::Bots,
                2 => Pool::TwoPlayer,
                _ => Pool::Multiplayer,
            };
            let mut seats: Vec<i64> = Vec::new();
            while seats.len() < n {
                let p = ids[rng.random_range(0..ids.len())];
                if !seats.contains(&p) {
                    seats.push(p);
                }
            }
            let players: Vec<(i64, u32)> = seats
                .iter()
                .map(|&p| (p, rng.random_range(1..=n as u32)))
                .collect();
            start(&mut store, &id, n);
            let now = 1_000 + game as i64;
            let input: Vec<(Rating, u32)> = players
                .iter()
                .map(|(p, place)| {
                    let r = expected.get(&(*p, pool)).map_or(Rating::DEFAULT, |e| e.0);
                    (r, *place)
                })
                .collect();
            for ((p, _), r) in players.iter().zip(rate_game(pool, &input).unwrap()) {
                let e = expected
                    .entry((*p, pool))
                    .or_insert((Rating::DEFAULT, 0, 0));
                *e = (r, e.1 + 1, now);
            }
            ends.push(if rng.random_bool(0.2) {
                Write::AbandonGame {
                    room_id: id,
                    now,
                    rated: Some(RatedOutcome { pool, players }),
                }
            } else {
                finish(&id, now, pool, &players)
            });
            game += 1;
        }
        for r in store.write_batch(&ends).unwrap() {
            r.unwrap();
        }
    }

    let stored = a.all_ratings().unwrap();
    assert_eq!(stored.len(), expected.len());
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
    // Each game rated every player once.
    let changes = a.room_rating_changes("g7").unwrap();
    assert!((2..=4).contains(&changes.len()));
}

fn a_finish_written_again_does_not_rate_twice(db: &Db) {
    let (mut store, mut a) = open(db);
    let (ann, bob) = (account(&mut a, "Ann", false), account(&mut a, "Bob", false));
    start(&mut store, "r", 2);
    store
        .write(finish("r", 10, Pool::TwoPlayer, &[(ann, 1), (bob, 2)]))
        .unwrap();
    let once = a.all_ratings().unwrap();
    assert_eq!(once.len(), 2);
    assert!(once[0].rating.rating > 1500.0 && once[1].rating.rating < 1500.0);
    // Written again (a restart re-sends it), even with another outcome: nothing moves.
    store
        .write(finish("r", 11, Pool::TwoPlayer, &[(ann, 2), (bob, 1)]))
        .unwrap();
    assert_eq!(a.all_ratings().unwrap(), once);
    assert_eq!(a.room_rating_changes("r").unwrap().len(), 2);
    let changes = a.room_rating_changes("r").unwrap();
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
}

fn a_fenced_out_finish_writes_no_rating(db: &Db) {
    let (mut store, mut a) = open(db);
    let (ann, bob) = (account(&mut a, "Ann", false), account(&mut a, "Bob", false));
    let fence = |node: &str, token| Fence {
        node: node.into(),
        token,
    };
    store.claim("r", "node-a", 1, 1).unwrap();
    for w in game_writes("r", 2) {
        store.write_fenced(fence("node-a", 1), w).unwrap();
    }
    store.claim("r", "node-b", 2, 2).unwrap();
    let outcome = [(ann, 1), (bob, 2)];
    let stale = store.write_fenced(
        fence("node-a", 1),
        finish("r", 10, Pool::TwoPlayer, &outcome),
    );
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
        .write_fenced(
            fence("node-b", 2),
            finish("r", 11, Pool::TwoPlayer, &outcome),
        )
        .unwrap();
    assert_eq!(a.room_rating_changes("r").unwrap().len(), 2);
    assert!(
        store
            .write_fenced(
                fence("node-a", 1),
                finish("r", 12, Pool::TwoPlayer, &outcome)
            )
            .is_err()
    );
    assert_eq!(a.all_ratings().unwrap()[0].games, 1);
}

fn an_abandoned_game_is_rated_and_a_bad_outcome_refused(db: &Db) {
    let (mut store, mut a) = open(db);
    let ids: Vec<i64> = ["A", "B", "C"]
        .iter()
        .map(|n| account(&mut a, n, false))
        .collect();
    start(&mut store, "left", 3);
    // C left: last; A and B, still there, tie.
    store
        .write(Write::AbandonGame {
            room_id: "left".into(),
            now: 5,
            rated: Some(RatedOutcome {
                pool: Pool::Multiplayer,
                players: vec![(ids[0], 1), (ids[1], 1), (ids[2], 3)],
            }),
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

    // An account twice, one player, a place past the players: refused, nothing written.
    start(&mut store, "bad", 2);
    for players in [
        vec![(ids[0], 1), (ids[0], 2)],
        vec![(ids[0], 1)],
        vec![(ids[0], 1), (ids[1], 3)],
        vec![(ids[0], 0), (ids[1], 1)],
    ] {
        let r = store.write(finish("bad", 6, Pool::TwoPlayer, &players));
        assert!(
            matches!(r, Err(StoreError::Outcome { .. })),
            "{players:?}: {r:?}"
        );
        assert_eq!(
            store.reader().game("bad").unwrap().unwrap().finished_at,
            None
        );
    }
    assert!(a.room_rating_changes("bad").unwrap().is_empty());
}

fn the_leaderboard_ranks_filters_and_pages(db: &Db) {
    let (mut store, mut a) = open(db);
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"];
    let ids: Vec<i64> = names
        .iter()
        .map(|n| account(&mut a, n, *n == "Fay"))
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
                start(&mut store, &id, 2);
                store
                    .write(finish(
                        &id,
                        now,
                        Pool::TwoPlayer,
                        &[(ids[i], 1), (ids[j], 2)],
                    ))
                    .unwrap();
            }
        }
    }
    // Fay (a bot account) plays one bots-pool game against Dan.
    start(&mut store, "bots", 2);
    store
        .write(finish(
            "bots",
            2_000,
            Pool::Bots,
            &[(ids[5], 1), (ids[3], 2)],
        ))
        .unwrap();

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
    assert_eq!(a.rating(ids[3], Pool::Bots).unwrap().games, 1);
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
    start(&mut store, "one", 2);
    store
        .write(finish("one", 10, Pool::TwoPlayer, &[(ann, 1), (bob, 2)]))
        .unwrap();
    assert!(a.delete_account(bob, "deleted player 1").unwrap());
    assert_eq!(a.all_ratings().unwrap().len(), 1);
    // A game ending after one of its players was deleted ends, unrated.
    start(&mut store, "two", 2);
    store
        .write(finish("two", 20, Pool::TwoPlayer, &[(ann, 2), (bob, 1)]))
        .unwrap();
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
