//! The server's structured logs: JSON with `--log-format json`, and never a seat token or
//! the contents of a message, even at debug level; no colour codes unless a person
//! watches at a terminal.

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
