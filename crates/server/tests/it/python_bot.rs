//! The example third-party client (examples/python-bot, written only from
//! docs/protocol.md) plays a whole game against a live server.

use crate::common::{config, start};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_python),
    ignore = "needs Python (.venv) — run scripts/setup-test-deps.sh"
)]
async fn the_python_example_plays_a_full_game() {
    let addr = start(config()).await;
    let url = format!("ws://{addr}/ws");
    let stdout = run_bot(&["--url", &url], &[], Duration::from_secs(120)).await;
    println!("{stdout}");
    assert!(stdout.contains("Game over after"), "{stdout}");
    assert!(stdout.contains("Result: "), "{stdout}");
}

/// Runs examples/python-bot/bot.py with `args` (and `env`), within `limit` (a hang
/// stop): its standard output, once it has exited successfully.
async fn run_bot(args: &[&str], env: &[(&str, &str)], limit: Duration) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/python-bot/bot.py");
    let python = crate::python::require(&["websockets"]);
    let child = tokio::process::Command::new(&python)
        .arg(&script)
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
    let out = tokio::time::timeout(limit, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("bot.py finishes within {limit:?}"))
        .expect("the Python example's output");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "bot.py failed: {}\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// With an account's API token (`--token`), the example plays as that account: `hello`
/// carries the token, the seat takes the account's name, and the game is on its profile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_python),
    ignore = "needs Python (.venv) — run scripts/setup-test-deps.sh"
)]
async fn the_python_example_plays_as_an_account_with_a_token() {
    use crate::accounts::{register, request, with_cookie};
    let mut c = config();
    c.argon2_memory_kib = 256;
    c.argon2_iterations = 1;
    let addr = start(c).await;
    let cookie = register(addr, "Py Account", "a python password")
        .await
        .cookie();
    let made = request(
        addr,
        "POST",
        "/api/me/tokens",
        &with_cookie(addr, &cookie),
        Some(serde_json::json!({"label": "python bot"})),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let token = made.json()["token"].as_str().unwrap().to_string();
    let url = format!("ws://{addr}/ws");
    let stdout = run_bot(
        &["--url", &url, "--quiet"],
        &[("DOMINION_TOKEN", &token)],
        Duration::from_secs(120),
    )
    .await;
    assert!(stdout.contains("Result: "), "{stdout}");
    let profile = request(addr, "GET", "/api/players/py%20account", &[], None).await;
    assert_eq!(profile.json()["games"], 1, "{}", profile.body);
    assert_eq!(profile.json()["recent"][0]["players"][0], "Py Account");
}

/// The rated bot ladder, unattended (issue 25): a bot account runs
/// `bot.py --ladder 20 --token …` against a server whose house bots come after a short
/// wait and whose searching bot thinks a small fixed number of playouts. Every one of
/// the 20 games ends rated in pool `bots` against a house bot, exactly once: two rating
/// changes per room, each account's changes a chain (each game starts from the rating
/// the previous one left) ending at its stored rating, and recomputing every rating from
/// the changes gives the same. The ladder's table (`GET /api/leaderboard?pool=bots`) is
/// printed at the end (`--nocapture` shows it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_python),
    ignore = "needs Python (.venv) — run scripts/setup-test-deps.sh"
)]
async fn the_python_example_plays_20_games_on_the_bot_ladder() {
    use crate::accounts::{request, server};
    use crate::process::{Backend, TestStore};
    const GAMES: usize = 20;
    let store = TestStore::new(Backend::Sqlite);
    let addr = server(&store, |c| {
        c.ladder_house_wait = Duration::from_millis(200);
        c.ladder_search_playouts = 5;
    })
    .await;
    let token = crate::ladder::bot_account(addr, "PyLadder").await;
    let url = format!("ws://{addr}/ws");
    let games = GAMES.to_string();
    let stdout = run_bot(
        &[
            "--url", &url, "--quiet", "--ladder", &games, "--token", &token,
        ],
        &[],
        Duration::from_secs(900),
    )
    .await;
    println!("{stdout}");
    // "game n/20 in room R vs house-…: won; bots level a -> b", in the order played.
    let games: Vec<(String, String)> = stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| {
            let room = l
                .split(" in room ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            let vs = l.split(" vs ").nth(1).unwrap().split(':').next().unwrap();
            (room.to_string(), vs.to_string())
        })
        .collect();
    assert_eq!(games.len(), GAMES, "{stdout}");
    assert!(stdout.contains("Ladder: "), "{stdout}");
    for (_, vs) in &games {
        assert!(
            ["easy (bot)", "standard (bot)", "search (bot)"].contains(&vs.as_str()),
            "a house bot: {vs}"
        );
        assert!(stdout.contains("; bots level "), "{stdout}");
    }

    let rooms: Vec<String> = games.iter().map(|(r, _)| r.clone()).collect();
    let database = store.database();
    let summary = std::thread::spawn(move || check_ladder(&database, &rooms))
        .join()
        .unwrap();
    println!("{summary}");

    // The ladder's table, as anyone reads it.
    let board = request(addr, "GET", "/api/leaderboard?pool=bots", &[], None).await;
    assert_eq!(board.status, 200, "{}", board.body);
    let b = board.json();
    let rows = b["rows"].as_array().unwrap();
    println!("The bot ladder after {GAMES} games (GET /api/leaderboard?pool=bots):");
    println!("| rank | name | level | rating | deviation | games | bot |");
    println!("| ---: | --- | ---: | ---: | ---: | ---: | --- |");
    for r in rows {
        println!(
            "| {} | {} | {:.2} | {:.1} | {:.1} | {} | {} |",
            r["rank"],
            r["name"].as_str().unwrap(),
            r["level"].as_f64().unwrap(),
            r["rating"].as_f64().unwrap(),
            r["deviation"].as_f64().unwrap(),
            r["games"],
            r["bot"]
        );
        assert_eq!(r["bot"], true, "{r}");
    }
    let games_of = |name: &str| -> u64 {
        rows.iter()
            .find(|r| r["name"] == name)
            .map_or(0, |r| r["games"].as_u64().unwrap())
    };
    assert_eq!(games_of("PyLadder"), GAMES as u64, "{b}");
    let house: u64 = ["house-easy", "house-standard", "house-search"]
        .iter()
        .map(|n| games_of(n))
        .sum();
    assert_eq!(house, GAMES as u64, "{b}");
    crate::ladder::no_one_rated_in_the_players_pools(addr).await;
}

/// Straight from the database: every room rated once in pool `bots`, the ladder bot
/// against a house account; each account's changes chain up to its stored rating; the
/// recomputed ratings equal the stored ones. Returns a line for the output.
fn check_ladder(database: &dominion_store::Database, rooms: &[String]) -> String {
    use dominion_rating::{Pool, Rating};
    use std::collections::HashMap;
    let mut a = dominion_store::Accounts::open(database).unwrap();
    let me = a.account_by_folded("pyladder").unwrap().unwrap().id;
    let mut house = HashMap::new();
    for bot in ["easy", "standard", "search"] {
        let row = a
            .account_by_folded(&format!("house-{bot}"))
            .unwrap()
            .unwrap();
        assert!(row.bot, "{row:?}");
        house.insert(row.id, bot);
    }
    let same = |x: Rating, y: Rating| {
        (x.rating - y.rating).abs() < 1e-9
            && (x.deviation - y.deviation).abs() < 1e-9
            && (x.volatility - y.volatility).abs() < 1e-12
    };
    // The latest rating of each account as the games, in the order played, left it.
    let mut last: HashMap<i64, Rating> = HashMap::new();
    let mut met: HashMap<&str, u32> = HashMap::new();
    for room in rooms {
        let changes = a.room_rating_changes(room).unwrap();
        assert_eq!(changes.len(), 2, "{room}: rated exactly once, two players");
        let ids: Vec<i64> = changes.iter().map(|c| c.account_id).collect();
        assert!(ids.contains(&me), "{room}: {changes:?}");
        let other = ids.iter().find(|id| **id != me).unwrap();
        *met.entry(house[other]).or_default() += 1;
        for c in &changes {
            assert_eq!(c.pool, Pool::Bots, "{room}");
            let before = last.get(&c.account_id).copied().unwrap_or(Rating::DEFAULT);
            assert!(same(c.before, before), "{room}: {c:?} follows {before:?}");
            last.insert(c.account_id, c.after);
        }
    }
    let stored = a.all_ratings().unwrap();
    assert!(stored.iter().all(|r| r.pool == Pool::Bots), "{stored:?}");
    for r in &stored {
        assert!(same(r.rating, last[&r.account_id]), "{r:?}");
    }
    let recomputed = a.recompute_ratings().unwrap();
    assert!(recomputed.unexplained.is_empty(), "{recomputed:?}");
    assert_eq!(recomputed.ratings.len(), stored.len());
    for (x, y) in recomputed.ratings.iter().zip(&stored) {
        assert_eq!((x.account_id, x.games), (y.account_id, y.games));
        assert!(same(x.rating, y.rating), "{x:?} vs {y:?}");
    }
    let mut met: Vec<_> = met.into_iter().collect();
    met.sort();
    format!("rated once each, in pool bots; house bots met: {met:?}")
}
