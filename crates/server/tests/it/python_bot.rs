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
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/python-bot/bot.py");
    let python = crate::python::require(&["websockets"]);

    let addr = start(config()).await;
    let child = tokio::process::Command::new(&python)
        .arg(&script)
        .args(["--url", &format!("ws://{addr}/ws")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
    let out = tokio::time::timeout(Duration::from_secs(120), child.wait_with_output())
        .await
        .expect("the Python example finishes within 120 s")
        .expect("the Python example's output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "bot.py failed: {}\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("Game over after"), "{stdout}");
    assert!(stdout.contains("Result: "), "{stdout}");
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
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/python-bot/bot.py");
    let python = crate::python::require(&["websockets"]);
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
    let child = tokio::process::Command::new(&python)
        .arg(&script)
        .args(["--url", &format!("ws://{addr}/ws"), "--quiet"])
        .env("DOMINION_TOKEN", &token)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
    let out = tokio::time::timeout(Duration::from_secs(120), child.wait_with_output())
        .await
        .expect("the Python example finishes within 120 s")
        .expect("the Python example's output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "bot.py failed: {}\n{stdout}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("Result: "), "{stdout}");
    let profile = request(addr, "GET", "/api/players/py%20account", &[], None).await;
    assert_eq!(profile.json()["games"], 1, "{}", profile.body);
    assert_eq!(profile.json()["recent"][0]["players"][0], "Py Account");
}
