//! docs/protocol.md is the guide third-party authors write clients from, so its
//! examples must be real messages and it must cover the whole protocol: every ```json
//! block is a client or server message that survives a round trip through the types,
//! every message type and prompt kind has an example, every error code and event type
//! is described.

use dominion_protocol::{ClientMessage, ServerMessage, json_schema};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn guide() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/protocol.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn json_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```json\n") {
        let body = &rest[start + 8..];
        let end = body.find("```").expect("unclosed code block");
        blocks.push(body[..end].to_string());
        rest = &body[end + 3..];
    }
    blocks
}

/// Whether everything in `a` is also in `b` (objects may have more keys in `b`).
fn contained(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .all(|(k, v)| b.get(k).is_some_and(|w| contained(v, w))),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(v, w)| contained(v, w))
        }
        _ => a == b,
    }
}

/// The `type` (or `kind`) constants of a `oneOf` in the schema's definitions.
fn variants(schema: &Value, def: &str, tag: &str) -> BTreeSet<String> {
    let def = &schema["$defs"][def];
    def["oneOf"]
        .as_array()
        .or_else(|| def["anyOf"].as_array())
        .unwrap_or_else(|| panic!("{def} has no oneOf"))
        .iter()
        .filter_map(|v| v["properties"][tag]["const"].as_str().map(String::from))
        .collect()
}

#[test]
fn every_example_is_a_real_message_and_every_message_has_one() {
    let text = guide();
    let mut seen = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for block in json_blocks(&text) {
        let value: Value = serde_json::from_str(&block)
            .unwrap_or_else(|e| panic!("example is not JSON ({e}):\n{block}"));
        let round_trip = if let Ok(m) = serde_json::from_value::<ClientMessage>(value.clone()) {
            serde_json::to_value(m).unwrap()
        } else {
            let m: ServerMessage = serde_json::from_value(value.clone()).unwrap_or_else(|e| {
                panic!("example is neither a client nor a server message ({e}):\n{block}")
            });
            serde_json::to_value(m).unwrap()
        };
        // Parsing fills in defaults; apart from those the message must come back as written
        // (a field the types do not know would be lost).
        assert!(
            contained(&value, &round_trip),
            "example does not match the types:\n{block}\nreads as:\n{round_trip}"
        );
        seen.insert(value["type"].as_str().unwrap().to_string());
        if let Some(kind) = value["prompt"]["kind"].as_str() {
            kinds.insert(kind.to_string());
        }
    }
    let schema = json_schema();
    for t in variants(&schema, "ClientMessage", "type")
        .into_iter()
        .chain(variants(&schema, "ServerMessage", "type"))
    {
        assert!(
            seen.contains(&t),
            "docs/protocol.md has no example of `{t}`"
        );
    }
    for k in variants(&schema, "Prompt", "kind") {
        assert!(
            kinds.contains(&k),
            "docs/protocol.md has no decision example of `{k}`"
        );
    }
}

#[test]
fn every_error_code_and_event_type_is_described() {
    let text = guide();
    let schema = json_schema();
    let codes: Vec<String> = schema["$defs"]["ErrorCode"]["oneOf"]
        .as_array()
        .expect("ErrorCode oneOf")
        .iter()
        .filter_map(|v| v["const"].as_str().map(String::from))
        .collect();
    assert!(codes.len() > 20);
    for code in codes {
        assert!(
            text.contains(&format!("`{code}`")),
            "docs/protocol.md does not describe error `{code}`"
        );
    }
    for event in variants(&schema, "GameEvent", "type") {
        assert!(
            text.contains(&format!("`{event}`")),
            "docs/protocol.md does not describe event `{event}`"
        );
    }
}
