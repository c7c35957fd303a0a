//! docs/protocol.md is the guide third-party authors write clients from, so its
//! examples must be real messages and it must cover the whole protocol: every ```json
//! block is a client or server message that survives a round trip through the types (and
//! every inline event is a real event), every message type and prompt kind has an
//! example, every field of a decision is shown in one, and every error code, event type,
//! purpose and random-kingdom pool and set is described.

use dominion_protocol::{ClientMessage, GameEvent, ServerMessage, json_schema};
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
    let mut fields = BTreeSet::new();
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
        if value["type"] == "decision" {
            fields.extend(value.as_object().unwrap().keys().cloned());
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
    let decision = schema["$defs"]["DecisionRequest"]["properties"]
        .as_object()
        .expect("DecisionRequest properties");
    for f in decision.keys() {
        assert!(
            fields.contains(f),
            "docs/protocol.md has no decision example showing `{f}`"
        );
    }
}

/// Inline code that is a JSON event or list of events (`{"type": "drew", …}`) must be a
/// real event too.
#[test]
fn every_inline_event_is_a_real_event() {
    let text = guide();
    let schema = json_schema();
    let events = variants(&schema, "GameEvent", "type");
    let mut checked = 0;
    for span in text.split('`').skip(1).step_by(2) {
        let Ok(value) = serde_json::from_str::<Value>(span) else {
            continue;
        };
        let items = match &value {
            Value::Array(items) => items.clone(),
            other => vec![other.clone()],
        };
        for item in items {
            if !item["type"].as_str().is_some_and(|t| events.contains(t)) {
                continue;
            }
            let event: GameEvent = serde_json::from_value(item.clone())
                .unwrap_or_else(|e| panic!("inline event is not an event ({e}): {item}"));
            let back = serde_json::to_value(event).unwrap();
            assert!(
                contained(&item, &back),
                "inline event does not match the types: {item}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "inline events checked: {checked}");
}

#[test]
fn every_error_code_event_type_purpose_pool_and_set_is_described() {
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
    // Each purpose has a row in the table of purposes.
    let rows: Vec<&str> = text
        .split("| purpose | what happens to what you choose |")
        .nth(1)
        .expect("docs/protocol.md has a table of purposes")
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let purposes = constants(&schema, "Purpose");
    assert!(purposes.len() > 10, "{purposes:?}");
    for p in purposes {
        assert!(
            rows.iter().any(|r| r
                .split('|')
                .nth(1)
                .is_some_and(|c| c.contains(&format!("`{p}`")))),
            "docs/protocol.md's table of purposes has no row for `{p}`"
        );
    }
    // Each random-kingdom pool is named where pools are explained.
    for pool in constants(&schema, "CardPool") {
        assert!(
            text.lines()
                .any(|l| l.contains("pool") && l.contains(&format!("\"{pool}\""))),
            "docs/protocol.md does not explain the random pool \"{pool}\""
        );
    }
    // Each set a random kingdom may draw from is named where sets are explained.
    let sets = constants(&schema, "CardSet");
    assert!(sets.len() >= 2, "{sets:?}");
    for set in sets {
        assert!(
            text.lines()
                .any(|l| l.contains("sets") && l.contains(&format!("\"{set}\""))),
            "docs/protocol.md does not explain the random kingdom set \"{set}\""
        );
    }
}

/// The values of a string enum in the schema's definitions (`enum`, or `oneOf` of
/// documented `const`s).
fn constants(schema: &Value, def: &str) -> Vec<String> {
    let def = &schema["$defs"][def];
    let strings = |v: &Value| v.as_str().map(String::from);
    match def["enum"].as_array() {
        Some(values) => values.iter().filter_map(strings).collect(),
        None => def["oneOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{def} is not a string enum"))
            .iter()
            .flat_map(|v| {
                v["const"].as_str().map(String::from).into_iter().chain(
                    v["enum"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(strings),
                )
            })
            .collect(),
    }
}

/// The guide's ```json record blocks are real game records (`GET /api/games/{id}`):
/// they parse as [`GameRecord`] with no field lost, and there is one.
#[test]
fn every_record_example_is_a_real_record() {
    let text = guide();
    let mut found = 0;
    let mut rest = text.as_str();
    while let Some(start) = rest.find("```json record\n") {
        let body = &rest[start + 15..];
        let end = body.find("```").expect("unclosed code block");
        let example: Value = serde_json::from_str(&body[..end])
            .unwrap_or_else(|e| panic!("record example is not JSON ({e}): {}", &body[..end]));
        let record: dominion_protocol::GameRecord = serde_json::from_value(example.clone())
            .unwrap_or_else(|e| panic!("record example is not a GameRecord ({e}): {example}"));
        assert_eq!(record.format, dominion_protocol::GAME_RECORD_FORMAT);
        let back = serde_json::to_value(&record).unwrap();
        assert!(
            contained(&example, &back) && contained(&back, &example),
            "the record example loses or adds fields in a round trip: {example}"
        );
        found += 1;
        rest = &body[end + 3..];
    }
    assert!(found > 0, "docs/protocol.md has no ```json record example");
}

/// The guide's ```json step blocks are real replay steps
/// (`GET /api/games/{id}/steps/{n}`): they parse as [`ReplayStep`] with no field lost or
/// added, their event numbers add up, and there is one showing every hand.
#[test]
fn every_replay_step_example_is_a_real_step() {
    let text = guide();
    let mut found = 0;
    let mut rest = text.as_str();
    while let Some(start) = rest.find("```json step\n") {
        let body = &rest[start + 13..];
        let end = body.find("```").expect("unclosed code block");
        let example: Value = serde_json::from_str(&body[..end])
            .unwrap_or_else(|e| panic!("step example is not JSON ({e}): {}", &body[..end]));
        let step: dominion_protocol::ReplayStep = serde_json::from_value(example.clone())
            .unwrap_or_else(|e| panic!("step example is not a ReplayStep ({e}): {example}"));
        let back = serde_json::to_value(&step).unwrap();
        assert!(
            contained(&example, &back) && contained(&back, &example),
            "the step example loses or adds fields in a round trip: {example}"
        );
        assert!(step.step <= step.steps, "{example}");
        assert_eq!(step.reply.is_some(), step.step > 0, "{example}");
        assert_eq!(
            step.first + step.events.len() as u64,
            step.next_event,
            "events run from `first` to `next_event`: {example}"
        );
        if let Some(hands) = &step.hands {
            assert_eq!(hands.len(), step.view.seats.len(), "every seat's hand");
            for (h, s) in hands.iter().zip(&step.view.seats) {
                assert_eq!(h.seat, s.seat);
                assert_eq!(h.cards.len() as u32, s.hand_count, "{example}");
            }
            found += 1;
        }
        rest = &body[end + 3..];
    }
    assert!(
        found > 0,
        "docs/protocol.md has no ```json step example showing every hand"
    );
}

/// The blocks of the guide tagged ```json TAG, parsed.
fn tagged_blocks(text: &str, tag: &str) -> Vec<Value> {
    let opening = format!("```json {tag}\n");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&opening) {
        let body = &rest[start + opening.len()..];
        let end = body.find("```").expect("unclosed code block");
        out.push(
            serde_json::from_str(&body[..end])
                .unwrap_or_else(|e| panic!("{tag} example is not JSON ({e}): {}", &body[..end])),
        );
        rest = &body[end + 3..];
    }
    out
}

/// The guide's ```json analysis and ```json progress blocks are real bodies of
/// `GET /api/games/{id}/analysis` (200 and 202), with no field lost or added, and
/// both progress states are shown.
#[test]
fn every_analysis_example_is_a_real_analysis() {
    let text = guide();
    let analyses = tagged_blocks(&text, "analysis");
    assert!(
        !analyses.is_empty(),
        "docs/protocol.md has no ```json analysis example"
    );
    for example in analyses {
        let a: dominion_protocol::GameAnalysis = serde_json::from_value(example.clone())
            .unwrap_or_else(|e| panic!("not a GameAnalysis ({e}): {example}"));
        assert_eq!(a.format, dominion_protocol::GAME_ANALYSIS_FORMAT);
        let back = serde_json::to_value(&a).unwrap();
        assert!(
            contained(&example, &back) && contained(&back, &example),
            "the analysis example loses or adds fields: {example}"
        );
        assert!(
            a.decisions.iter().any(|d| d.mark.is_some()),
            "a marked decision"
        );
    }
    let mut states = BTreeSet::new();
    for example in tagged_blocks(&text, "progress") {
        let p: dominion_protocol::AnalysisProgress = serde_json::from_value(example.clone())
            .unwrap_or_else(|e| panic!("not an AnalysisProgress ({e}): {example}"));
        assert_eq!(serde_json::to_value(&p).unwrap(), example);
        states.insert(example["status"].as_str().unwrap().to_string());
    }
    assert_eq!(states.len(), 2, "both `queued` and `running` are shown");
}
