//! The committed JSON Schema must match the types. Regenerate it with
//! `cargo run -p dominion-protocol --bin gen-schema` (or run this test with
//! `UPDATE_SCHEMA=1`).

use std::path::PathBuf;

fn committed_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/protocol.schema.json")
}

#[test]
fn committed_schema_matches_the_types() {
    let generated = dominion_protocol::json_schema_text();
    let path = committed_path();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("write schema");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date with the protocol types.\n\
         Regenerate it: cargo run -p dominion-protocol --bin gen-schema\n\
         (or: UPDATE_SCHEMA=1 cargo test -p dominion-protocol --test schema)",
        path.display()
    );
}

#[test]
fn schema_describes_both_directions() {
    let schema = dominion_protocol::json_schema();
    let defs = schema["$defs"].as_object().expect("$defs");
    for name in [
        "ClientMessage",
        "ServerMessage",
        "Reply",
        "Prompt",
        "GameEvent",
        "ErrorCode",
    ] {
        assert!(defs.contains_key(name), "schema lacks {name}");
    }
}
