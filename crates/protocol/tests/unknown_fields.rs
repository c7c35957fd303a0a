//! Every object a client sends refuses a field it does not know, naming it — including
//! the variants that have no other field (`end_phase`, `play_all_treasures`, an `open`
//! seat, the `wait` policy), which serde would otherwise accept with anything in them.
//!
//! The examples below cover every client message, reply, kingdom choice, seat setting and
//! abandon policy the schema lists: a new variant without an example fails
//! `every_variant_of_the_schema_has_an_example`.

use dominion_protocol::ClientMessage;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const EXTRA: &str = "zz_extra";

fn room_settings(kingdom: Value, seat: Value, abandoned: Value) -> Value {
    json!({"name": "R", "kingdom": kingdom, "edition": "2e", "seats": [seat, {"type": "open"}],
           "decision_seconds": 30, "abandoned": abandoned, "spectator_chat": true})
}

fn messages() -> Vec<Value> {
    let open = json!({"type": "open"});
    let wait = json!({"type": "wait"});
    let recommended = json!({"type": "recommended", "id": "base_2e/first_game"});
    vec![
        json!({"type": "hello", "protocol": 1, "client": "t"}),
        json!({"type": "ping", "id": 1}),
        json!({"type": "list_rooms", "id": 1}),
        json!({"type": "create_room", "id": 1, "settings": room_settings(recommended.clone(), open.clone(), wait.clone())}),
        json!({"type": "create_room", "id": 1, "settings": room_settings(
            json!({"type": "cards", "cards": ["cellar", "market", "militia", "mine", "moat", "remodel", "smithy", "village", "workshop", "witch"]}),
            json!({"type": "bot", "bot": "big_money"}),
            json!({"type": "bot_after", "seconds": 60, "bot": "big_money"}))}),
        json!({"type": "create_room", "id": 1, "settings": room_settings(
            json!({"type": "random", "pool": "both", "sets": ["base"]}), open.clone(), wait.clone())}),
        json!({"type": "take_seat", "id": 1, "room": "r", "seat": 0, "name": "Ann"}),
        json!({"type": "resume", "id": 1, "room": "r", "token": "t", "last_event": 3}),
        json!({"type": "spectate", "id": 1, "room": "r", "name": "Cleo"}),
        json!({"type": "leave", "id": 1}),
        json!({"type": "start", "id": 1}),
        json!({"type": "undo", "id": 1}),
        json!({"type": "undo_answer", "id": 1, "accept": false}),
        json!({"type": "chat", "id": 1, "text": "hi"}),
        json!({"type": "set_seat", "id": 1, "seat": 1, "occupant": {"type": "bot", "bot": "big_money"}}),
        json!({"type": "set_seat", "id": 1, "seat": 1, "occupant": open.clone()}),
        json!({"type": "history", "id": 1, "from": 0, "to": 10}),
        json!({"type": "chat_history", "id": 1, "from": 0, "to": 10}),
        json!({"type": "report_chat", "id": 1, "line": 3, "reason": "insults"}),
        json!({"type": "rematch", "id": 1, "room": "k3v9q2mf"}),
        json!({"type": "remove", "id": 1, "who": {"type": "seat", "seat": 1}}),
        json!({"type": "remove", "id": 1, "who": {"type": "spectator", "name": "Eve"}}),
        json!({"type": "invite", "id": 1, "room": "k3v9q2mf", "name": "Bob"}),
        json!({"type": "find_match", "id": 1, "pool": "2p", "edition": "2e", "sets": ["base"]}),
        json!({"type": "cancel_match", "id": 1}),
        json!({"type": "accept_match", "id": 1, "match": "m1"}),
        json!({"type": "decline_match", "id": 1, "match": "m1"}),
        json!({"type": "hint", "id": 1}),
    ]
    .into_iter()
    .chain(replies().into_iter().map(|r| json!({"type": "reply", "id": 1, "decision": 2, "reply": r})))
    .collect()
}

fn replies() -> Vec<Value> {
    vec![
        json!({"type": "play", "card": "copper"}),
        json!({"type": "play_all_treasures"}),
        json!({"type": "buy", "card": "gold"}),
        json!({"type": "end_phase"}),
        json!({"type": "cards", "cards": ["copper"]}),
        json!({"type": "pile", "card": "silver"}),
        json!({"type": "modes", "modes": ["plus_card"]}),
        json!({"type": "yes_no", "yes": true}),
        json!({"type": "name", "card": "copper"}),
        json!({"type": "number", "number": 1}),
    ]
}

/// Every object inside `v` (and `v` itself), as paths of keys.
fn object_paths(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(map) => {
            out.push(path.clone());
            for (k, child) in map {
                path.push(k.clone());
                object_paths(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(i.to_string());
                object_paths(child, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |v, k| match v {
        Value::Array(items) => &mut items[k.parse::<usize>().unwrap()],
        other => &mut other[k.as_str()],
    })
}

#[test]
fn every_example_is_valid_as_it_is() {
    for m in messages() {
        serde_json::from_value::<ClientMessage>(m.clone())
            .unwrap_or_else(|e| panic!("{m} should be valid: {e}"));
    }
}

#[test]
fn an_unknown_field_in_any_object_a_client_sends_is_refused_by_name() {
    let mut checked = 0;
    for m in messages() {
        let mut paths = Vec::new();
        object_paths(&m, &mut Vec::new(), &mut paths);
        for path in paths {
            let mut bad = m.clone();
            at(&mut bad, &path)[EXTRA] = json!(1);
            let text = bad.to_string();
            match serde_json::from_str::<ClientMessage>(&text) {
                Ok(parsed) => panic!("accepted {text} as {parsed:?}"),
                Err(e) => assert!(
                    e.to_string().contains(&format!("unknown field `{EXTRA}`")),
                    "{text}: the error does not name the field: {e}"
                ),
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} objects checked");
}

/// The `type` constants of a `oneOf` definition in the committed schema.
fn variants(schema: &Value, def: &str) -> BTreeSet<String> {
    schema["$defs"][def]["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{def} has no oneOf"))
        .iter()
        .map(|v| {
            let t = &v["properties"]["type"];
            t["const"]
                .as_str()
                .or_else(|| t["enum"][0].as_str())
                .unwrap_or_else(|| panic!("{def}: a variant without a type: {v}"))
                .to_string()
        })
        .collect()
}

#[test]
fn every_variant_of_the_schema_has_an_example() {
    let schema = dominion_protocol::json_schema();
    let all = messages();
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    for m in &all {
        seen.insert(("ClientMessage".into(), m["type"].as_str().unwrap().into()));
        if let Some(r) = m.get("reply") {
            seen.insert(("Reply".into(), r["type"].as_str().unwrap().into()));
        }
        if let Some(s) = m.get("settings") {
            seen.insert((
                "KingdomChoice".into(),
                s["kingdom"]["type"].as_str().unwrap().into(),
            ));
            seen.insert((
                "AbandonPolicy".into(),
                s["abandoned"]["type"].as_str().unwrap().into(),
            ));
            for seat in s["seats"].as_array().unwrap() {
                seen.insert(("SeatSetting".into(), seat["type"].as_str().unwrap().into()));
            }
        }
    }
    for def in [
        "ClientMessage",
        "Reply",
        "KingdomChoice",
        "SeatSetting",
        "AbandonPolicy",
    ] {
        for v in variants(&schema, def) {
            assert!(
                seen.contains(&(def.to_string(), v.clone())),
                "no example of {def} `{v}`: add one to messages() so its unknown fields are checked"
            );
        }
    }
}
