//! The server's structured logs: JSON with `--log-format json`, and never a seat token or
//! the contents of a message, even at debug level.

use crate::common::Client;
use crate::process::ServerProcess;
use serde_json::{Value, json};

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
