//! The server's structured logs: JSON with `--log-format json`, and never a seat token, a
//! password, a session cookie, an API token or the contents of a message, even at debug
//! level; no colour codes unless a person watches at a terminal.

use crate::common::Client;
use crate::process::{BIN, ServerProcess};
use serde_json::{Value, json};
use std::process::{Command, Stdio};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_hold_no_tokens_and_no_message_contents() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server =
        ServerProcess::start_with(dir.path(), &["--log-format", "json", "--log", "debug"]).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "militia"}]))
        .await;
    ann.take_seat(&room).await;
    let token = ann.token.clone().expect("a seat token");
    ann.start().await;
    ann.play_decisions(10).await;
    drop(ann);
    let output = server.output_tail(400);
    let lines: Vec<&str> = output.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(lines.len() >= 3, "too few log lines:\n{output}");
    for line in &lines {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(
            v.get("level").is_some() && v.get("timestamp").is_some(),
            "{line}"
        );
    }
    assert!(
        !output.contains(&token),
        "a seat token reached the logs:\n{output}"
    );
    for content in [
        "\"take_seat\"",
        "\"end_phase\"",
        "play_all_treasures",
        "\"Ann\"",
    ] {
        assert!(
            !output.contains(content),
            "message contents ({content}) reached the logs:\n{output}"
        );
    }
}

/// Runs `command` (the server for `seconds`, then SIGTERM) and returns what it printed.
fn run_for_a_while(mut command: Command) -> String {
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DOMINION_") {
            command.env_remove(key);
        }
    }
    let out = command
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .output()
        .expect("run the server");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Logs read through a pipe (`docker compose logs`, journald, a file) hold no ANSI
/// colour codes, even without NO_COLOR and with a colour terminal in TERM; at a
/// terminal (a pseudo-terminal from `script`) they still have colour, so the check is
/// the terminal, not a colour switch that is simply off.
#[test]
fn logs_have_colour_codes_only_at_a_terminal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = |dir: &std::path::Path| {
        format!(
            "timeout -s TERM 3 {BIN} --addr 127.0.0.1:0 --log info --data-dir {}",
            dir.display()
        )
    };
    let mut piped = Command::new("sh");
    piped.args(["-c", &server(dir.path())]);
    let text = run_for_a_while(piped);
    assert!(text.contains("listening on http://"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "colour codes in piped logs:\n{text:?}"
    );

    // util-linux `script` (Debian's bsdutils, always installed) gives the server a
    // terminal as stdout and copies what it shows to our pipe.
    let dir = tempfile::tempdir().expect("tempdir");
    let mut at_terminal = Command::new("script");
    at_terminal.args(["-qec", &server(dir.path()), "/dev/null"]);
    let text = run_for_a_while(at_terminal);
    assert!(text.contains("listening on"), "{text}");
    assert!(
        text.contains("\u{1b}["),
        "no colour at a terminal (is the check inverted?):\n{text:?}"
    );
}

/// Accounts at debug level (issue 24): no password (right or wrong, old or new), session
/// cookie or API token reaches the logs, whichever path it took — registration, a
/// failed and a good sign-in, a token made and used in `hello`, a password change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_hold_no_password_cookie_or_api_token() {
    use crate::accounts::{register, request, with_cookie};
    let dir = tempfile::tempdir().expect("tempdir");
    let server = ServerProcess::start_with(
        dir.path(),
        &[
            "--log",
            "debug",
            "--argon2-memory-kib",
            "256",
            "--argon2-iterations",
            "1",
        ],
    )
    .await;
    let addr = server.addr;
    let origin = || ("Origin", format!("http://{addr}"));
    let first = "first-Secret-passw0rd";
    let wrong = "wrong-Secret-passw0rd";
    let second = "second-Secret-passw0rd";
    let created = register(addr, "Logan", first).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let failed = request(
        addr,
        "POST",
        "/api/session",
        &[origin()],
        Some(json!({"name": "Logan", "password": wrong})),
    )
    .await;
    assert_eq!(failed.status, 401, "{}", failed.body);
    let signed_in = request(
        addr,
        "POST",
        "/api/session",
        &[origin()],
        Some(json!({"name": "Logan", "password": first})),
    )
    .await;
    assert_eq!(signed_in.status, 200, "{}", signed_in.body);
    let cookie = signed_in.cookie();
    let made = request(
        addr,
        "POST",
        "/api/me/tokens",
        &with_cookie(addr, &cookie),
        Some(json!({"label": "log test"})),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let token = made.json()["token"].as_str().expect("a token").to_string();
    let mut bot = Client::connect_raw(addr, "bot").await;
    bot.send(json!({"type": "hello", "protocol": 1, "token": token}))
        .await;
    let welcome = bot.recv().await;
    assert_eq!(welcome["account"]["name"], "Logan", "{welcome}");
    let changed = request(
        addr,
        "PUT",
        "/api/me/password",
        &with_cookie(addr, &cookie),
        Some(json!({"old": first, "new": second})),
    )
    .await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    drop(bot);
    let output = server.output_tail(2000);
    // The requests themselves are logged (so a secret in them would show).
    assert!(
        output.contains("/api/session") && output.contains("/api/me/password"),
        "the account requests are not in the logs:\n{output}"
    );
    for (what, secret) in [
        ("the first password", first),
        ("a wrong password", wrong),
        ("the new password", second),
        ("the session cookie", cookie.as_str()),
        ("the API token", token.as_str()),
    ] {
        assert!(
            !output.contains(secret),
            "{what} reached the logs:\n{output}"
        );
    }
}
