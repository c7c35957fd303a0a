//! End-to-end checks of the `dominion-sim` binary: output format, determinism, errors.

use serde_json::Value;
use std::process::{Command, Output};

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dominion-sim"))
        .args(args)
        .output()
        .expect("run dominion-sim")
}

/// Runs with `--json` and returns the single JSON object printed on stdout.
fn sim_json(args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = sim(&all);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8 stdout");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not one JSON object ({e}): {stdout}"))
}

/// (wins per bot, ties, mean rounds): everything that must not vary between runs.
fn outcome(v: &Value) -> (Vec<u64>, u64, f64) {
    let wins = v["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["wins"].as_u64().unwrap())
        .collect();
    (
        wins,
        v["ties"].as_u64().unwrap(),
        v["mean_rounds"].as_f64().unwrap(),
    )
}

#[test]
fn json_output_has_the_documented_shape() {
    let v = sim_json(&[
        "--games",
        "200",
        "--bots",
        "big_money,big_money",
        "--seed",
        "1",
    ]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for key in [
        "games",
        "bots",
        "ties",
        "tie_rate",
        "mean_rounds",
        "games_per_sec",
    ] {
        assert!(keys.contains(&key), "missing {key} in {v}");
    }
    assert_eq!(v["games"], 200);
    let bots = v["bots"].as_array().unwrap();
    assert_eq!(bots.len(), 2);
    let mut wins = 0;
    for b in bots {
        assert_eq!(b["name"], "big_money");
        wins += b["wins"].as_u64().unwrap();
        let rate = b["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "win_rate {rate}");
    }
    let ties = v["ties"].as_u64().unwrap();
    assert_eq!(wins + ties, 200, "every game is a win or a tie");
    let tie_rate = v["tie_rate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&tie_rate));
    assert!(v["mean_rounds"].as_f64().unwrap() > 5.0);
    assert!(v["games_per_sec"].as_f64().unwrap() > 0.0);
}

#[test]
fn same_seed_gives_same_results_on_any_thread_count() {
    let args = |threads| {
        sim_json(&[
            "--games",
            "200",
            "--bots",
            "big_money,smithy",
            "--seed",
            "1",
            "--threads",
            threads,
        ])
    };
    let a = outcome(&args("1"));
    assert_eq!(a, outcome(&args("1")), "same seed, same threads");
    assert_eq!(a, outcome(&args("2")), "same seed, different threads");
    assert_eq!(a, outcome(&args("3")), "more threads than cores");
    let other = outcome(&sim_json(&[
        "--games",
        "200",
        "--bots",
        "big_money,smithy",
        "--seed",
        "2",
    ]));
    assert_ne!(a, other, "a different seed should give different games");
}

#[test]
fn unknown_bot_is_refused_with_the_valid_names() {
    let out = sim(&["--bots", "big_money,nope"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nope"), "{stderr}");
    assert!(
        stderr.contains("big_money") && stderr.contains("smithy") && stderr.contains("witch"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn wrong_bot_count_is_refused() {
    for bots in [
        "big_money",
        "big_money,big_money,big_money,big_money,big_money,big_money,big_money",
    ] {
        let out = sim(&["--bots", bots, "--games", "1"]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 6"));
    }
}

#[test]
fn list_cards_prints_card_ids() {
    let out = sim(&["--list-cards"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.contains(&"throne_room"), "{stdout}");
    assert!(lines.contains(&"smithy"));
}

#[test]
fn list_bots_prints_every_bot_name() {
    let out = sim(&["--list-bots"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, dominion_engine::bots::NAMES, "{stdout}");
}

#[test]
fn base_recommended_kingdoms_of_both_editions_play() {
    for (kingdom, bots) in [
        (
            "base_1e/big_money",
            "moneylender,chancellor,adventurer,bureaucrat",
        ),
        ("base_2e/deck_top", "moneylender,bureaucrat,random"),
    ] {
        let v = sim_json(&["--games", "20", "--bots", bots, "--kingdom", kingdom]);
        assert_eq!(v["games"], 20, "{kingdom}");
    }
}

#[test]
fn intrigue_reference_bots_play_against_big_money_in_their_kingdoms() {
    // Each bot with its card(s) and cards neither bot buys; the 1E-only cards in 1E.
    let filler = "cellar,chapel,moat,village,remodel,smithy,market,laboratory";
    for bot in [
        "courtyard",
        "baron",
        "nobles",
        "great_hall",
        "shanty_town",
        "duke",
        "bridge",
        "coppersmith",
        "masquerade",
        "minion",
        "saboteur",
        "torturer",
        "workshop_gardens",
    ] {
        let kingdom = match bot {
            "workshop_gardens" => format!("workshop,gardens,{filler}"),
            _ => format!("{bot},festival,{filler}"),
        };
        let edition = match bot {
            "great_hall" | "coppersmith" | "saboteur" => "1e",
            _ => "2e",
        };
        let bots = format!("{bot},big_money");
        let v = sim_json(&[
            "--games",
            "20",
            "--bots",
            &bots,
            "--kingdom",
            &kingdom,
            "--edition",
            edition,
        ]);
        assert_eq!(v["games"], 20, "{bot}");
        assert_eq!(v["bots"][0]["name"], bot);
    }
}

#[test]
fn random_kingdoms_from_both_pools() {
    let v = sim_json(&[
        "--games",
        "20",
        "--bots",
        "random,big_money",
        "--pool",
        "both",
    ]);
    assert_eq!(v["games"], 20);
    let out = sim(&[
        "--bots",
        "smithy,witch",
        "--kingdom",
        "bots",
        "--pool",
        "1e",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pool"));
}

#[test]
fn random_kingdoms_from_chosen_sets() {
    let run = |extra: &[&str]| {
        let mut args = vec!["--games", "30", "--bots", "random,random", "--seed", "5"];
        args.extend_from_slice(extra);
        let v = sim_json(&args);
        assert_eq!(v["games"], 30, "{extra:?}");
        outcome(&v)
    };
    // Naming every set draws exactly the kingdoms of the pool alone.
    assert_eq!(
        run(&["--sets", "base,intrigue", "--pool", "both"]),
        run(&["--pool", "both"])
    );
    assert_eq!(
        run(&["--kingdom", "random", "--sets", "intrigue,base"]),
        run(&["--kingdom", "random"])
    );
    // One set draws other kingdoms (the same ones on every run).
    let intrigue = run(&["--sets", "intrigue", "--pool", "1e", "--edition", "1e"]);
    assert_eq!(
        intrigue,
        run(&["--sets", "intrigue", "--pool", "1e", "--edition", "1e"])
    );
    assert_ne!(
        intrigue,
        run(&["--sets", "base", "--pool", "1e", "--edition", "1e"])
    );

    let fails = |args: &[&str], says: &str| {
        let out = sim(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    fails(
        &["--bots", "random,random", "--sets", "base,seaside"],
        r#"unknown set "seaside"; sets: base, intrigue"#,
    );
    fails(
        &["--bots", "random,random", "--sets", "intrigue,intrigue"],
        "the set Intrigue is named twice",
    );
    fails(
        &[
            "--bots",
            "random,random",
            "--kingdom",
            "bots",
            "--sets",
            "base",
        ],
        "--sets apply only to --kingdom random",
    );
}

#[test]
fn table_and_other_kingdoms() {
    let out = sim(&[
        "--games",
        "20",
        "--bots",
        "witch,militia,moat",
        "--kingdom",
        "first_game",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("witch") && stdout.contains("ties") && stdout.contains("games/s"),
        "{stdout}"
    );

    let v = sim_json(&[
        "--games",
        "10",
        "--bots",
        "random,big_money",
        "--kingdom",
        "random",
        "--edition",
        "1e",
    ]);
    assert_eq!(v["games"], 10);

    let out = sim(&["--bots", "smithy,witch", "--kingdom", "smithy,witch"]);
    assert!(!out.status.success());
}

#[test]
fn bench_prints_the_headline() {
    let out = sim(&["--bench", "--bots", "big_money,big_money", "--games", "50"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bench:")).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("bench: unrecorded "), "{stdout}");
    assert!(
        lines[0].ends_with("games/s CPU (single thread, big_money vs big_money, 50 games)"),
        "{stdout}"
    );
    assert!(lines[1].starts_with("bench: recorded "), "{stdout}");
    assert!(lines[1].ends_with("games/s CPU"), "{stdout}");
    assert!(
        lines[2].starts_with("bench: recorded/unrecorded time ") && lines[2].ends_with(" (CPU)"),
        "{stdout}"
    );
}

/// A small tournament: two kingdoms, few games, JSON.
fn tournament_json(extra: &[&str]) -> Value {
    let mut args = vec![
        "tournament",
        "--json",
        "--bots",
        "smithy,big_money",
        "--kingdoms",
        "base_2e/first_game,base_1e/big_money",
        "--games",
        "12",
        "--seed",
        "9",
    ];
    args.extend_from_slice(extra);
    let out = sim(&args);
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn tournament_json_has_both_seat_orders_and_intervals() {
    let v = tournament_json(&["--threads", "1"]);
    assert_eq!(v["games_per_kingdom"], 12);
    assert_eq!(v["ties_count_as"], "half");
    let kingdoms = v["kingdoms"].as_array().unwrap();
    let ids: Vec<&str> = kingdoms.iter().map(|k| k["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["base_2e/first_game", "base_1e/big_money"]);
    assert_eq!(kingdoms[0]["edition"], "2e");
    assert_eq!(kingdoms[1]["edition"], "1e");
    for k in kingdoms {
        let p = &k["pairings"][0];
        assert_eq!(
            (p["bot"].as_str(), p["opponent"].as_str()),
            (Some("smithy"), Some("big_money"))
        );
        let r = &p["record"];
        let n = |v: &Value| v.as_u64().unwrap();
        assert_eq!(n(&r["games"]), 12);
        assert_eq!(n(&r["wins"]) + n(&r["losses"]) + n(&r["ties"]), 12);
        // Both seat orders, half the games each, adding up to the whole.
        assert_eq!(n(&r["first_seat"]["games"]), 6);
        assert_eq!(n(&r["second_seat"]["games"]), 6);
        assert_eq!(
            n(&r["first_seat"]["wins"]) + n(&r["second_seat"]["wins"]),
            n(&r["wins"])
        );
        let rate = r["win_rate"].as_f64().unwrap();
        let want = (n(&r["wins"]) as f64 + n(&r["ties"]) as f64 / 2.0) / 12.0;
        assert_eq!(rate, want, "ties count as half a win");
        let (lo, hi) = (
            r["ci_low"].as_f64().unwrap(),
            r["ci_high"].as_f64().unwrap(),
        );
        assert!(
            0.0 <= lo && lo < rate && rate < hi && hi <= 1.0,
            "{lo} {rate} {hi}"
        );
    }
    let overall = &v["overall"][0];
    assert_eq!(overall["kingdoms"], 2);
    let mean = (kingdoms[0]["pairings"][0]["record"]["win_rate"]
        .as_f64()
        .unwrap()
        + kingdoms[1]["pairings"][0]["record"]["win_rate"]
            .as_f64()
            .unwrap())
        / 2.0;
    assert!((overall["mean_win_rate"].as_f64().unwrap() - mean).abs() < 1e-12);
    let strong = kingdoms
        .iter()
        .filter(|k| k["pairings"][0]["record"]["win_rate"].as_f64().unwrap() >= 0.6)
        .count() as u64;
    assert_eq!(overall["kingdoms_at_least_60"].as_u64(), Some(strong));
}

#[test]
fn tournament_is_reproducible_on_any_thread_count() {
    let one = tournament_json(&["--threads", "1", "--playouts", "5"]);
    let two = tournament_json(&["--threads", "2", "--playouts", "5"]);
    assert_eq!(one, two);
}

#[test]
fn tournament_table_names_the_best_reference_bot() {
    let out = sim(&[
        "tournament",
        "--bots",
        "big_money",
        "--vs",
        "best-reference",
        "--kingdoms",
        "base_2e/first_game",
        "--games",
        "4",
        "--pre-run-games",
        "200",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("95% interval"), "{text}");
    // First Game's candidates are smithy, militia and moat.
    assert!(
        ["smithy", "militia", "moat"]
            .iter()
            .any(|b| text.contains(&format!("big_money vs {b} (best ref.)"))),
        "{text}"
    );
    assert!(
        text.contains("overall  big_money vs best-reference"),
        "{text}"
    );
}

#[test]
fn tournament_refuses_unknown_kingdoms_and_bots() {
    let out = sim(&["tournament", "--bots", "a,b"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown bot"));
    let out = sim(&["tournament", "--bots", "smithy,witch", "--kingdoms", "x/y"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no recommended kingdom \"x/y\""));
    let out = sim(&["tournament", "--bots", "smithy"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least one pairing"));
}

#[test]
fn tournament_help_has_examples() {
    let out = sim(&["tournament", "--help"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("dominion-sim tournament --bots standard,big_money --games 200"));
    assert!(text.contains("Wilson"));
    assert!(text.contains("base_2e/first_game"));
}

#[test]
fn tournament_plays_card_lists_and_seeded_random_kingdoms() {
    let run = |kingdoms: &str| {
        let out = sim(&[
            "tournament",
            "--json",
            "--bots",
            "standard",
            "--vs",
            "big_money",
            "--kingdoms",
            kingdoms,
            "--games",
            "4",
            "--threads",
            "1",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).expect("one JSON object")
    };
    let v = run(
        "cards:1e:chapel,witch,village,smithy,market,moat,cellar,mine,festival,library,random:3:7:2e",
    );
    let kingdoms = v["kingdoms"].as_array().unwrap();
    assert_eq!(kingdoms.len(), 4);
    assert_eq!(
        kingdoms[0]["id"],
        "cards:1e:chapel,witch,village,smithy,market,moat,cellar,mine,festival,library"
    );
    assert_eq!(kingdoms[0]["edition"], "1e");
    let ids: Vec<&str> = kingdoms[1..]
        .iter()
        .map(|k| k["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["random:3:7:2e#1", "random:3:7:2e#2", "random:3:7:2e#3"]
    );
    for k in kingdoms {
        assert_eq!(k["pairings"][0]["record"]["games"], 4);
    }
    // The same seed draws the same kingdoms and plays the same games; another seed
    // draws others.
    let again = run("random:3:7:2e");
    assert_eq!(again["kingdoms"].as_array().unwrap()[..], kingdoms[1..]);
    let other = run("random:3:8");
    assert_ne!(other["kingdoms"][0]["name"], kingdoms[1]["name"]);
    // A recommended kingdom given with others keeps its games.
    let alone = run("base_2e/first_game");
    let mixed = run("random:1:1,base_2e/first_game");
    assert_eq!(alone["kingdoms"][0], mixed["kingdoms"][1]);
}

#[test]
fn tournament_refuses_bad_card_lists_and_random_specs() {
    for (kingdoms, said) in [
        ("cards:chapel,witch", "exactly 10"),
        (
            "cards:chapel,witch,village,smithy,market,moat,cellar,mine,festival,chapel",
            "twice",
        ),
        (
            "cards:chapel,witch,village,smithy,market,moat,cellar,mine,festival,gold",
            "basic card",
        ),
        (
            "cards:nope,witch,village,smithy,market,moat,cellar,mine,festival,library",
            "unknown card id",
        ),
        (
            "cards:3e:chapel,witch,village,smithy,market,moat,cellar,mine,festival,library",
            "1e or 2e",
        ),
        ("random:0:7", "N must be"),
        ("random:24", "random:N:SEED"),
        ("random:24:x", "random:N:SEED"),
    ] {
        let out = sim(&[
            "tournament",
            "--bots",
            "smithy,witch",
            "--kingdoms",
            kingdoms,
        ]);
        assert_eq!(out.status.code(), Some(2), "{kingdoms}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{kingdoms}: {err}");
    }
}

#[test]
fn tournament_tables_of_three_and_four_seat_copies_of_the_opponent() {
    for players in ["3", "4"] {
        let out = sim(&[
            "tournament",
            "--json",
            "--bots",
            "smithy",
            "--vs",
            "big_money",
            "--kingdoms",
            "base_2e/first_game",
            "--games",
            "12",
            "--threads",
            "1",
            "--players",
            players,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let n: u64 = players.parse().unwrap();
        assert_eq!(v["players"], n);
        let r = &v["kingdoms"][0]["pairings"][0]["record"];
        assert_eq!(r["games"], 12);
        // Seats rotate: the bot sits first in one game of every `players`.
        assert_eq!(r["first_seat"]["games"], 12 / n);
        assert_eq!(r["second_seat"]["games"], 12 - 12 / n);
    }
    let out = sim(&["tournament", "--bots", "smithy,witch", "--players", "5"]);
    assert_eq!(out.status.code(), Some(2));
}
