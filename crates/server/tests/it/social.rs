//! What players do around the game: chat (its limits, who reads it, the recent lines on
//! arrival), the host's seats, the rooms' names, and the whole history for late comers.

use crate::common::{Client, config, start};
use crate::process::ServerProcess;
use serde_json::{Value, json};

fn chat_line(v: &Value) -> Option<&Value> {
    (v["type"] == "chat").then_some(v)
}

#[tokio::test]
async fn chat_reaches_the_room_as_sent_and_is_bounded_and_limited_without_closing() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;

    // Markup is just text: the server passes it on as written (trimmed).
    let text = "  <b>hi</b> & welcome 🙂 ";
    let ack = ann.ask(json!({"type": "chat", "text": text})).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    for c in [&mut ann, &mut bob] {
        let line = c.until(|v| chat_line(v).is_some()).await;
        assert_eq!(
            line["from"],
            json!({"type": "seat", "seat": 0, "name": "Ann"})
        );
        assert_eq!(line["text"], "<b>hi</b> & welcome 🙂");
        assert!(line["at"].as_u64().unwrap() > 1_700_000_000_000, "{line}");
    }

    // Too long in characters, in bytes; hidden or reordering characters; a newline.
    for (bad, why) in [
        ("x".repeat(301), "301 characters"),
        ("😀".repeat(260), "1040 bytes"),
        ("Ann\u{202E}nimda".to_string(), "U+202E"),
        ("two\nlines".to_string(), "U+000A"),
        ("   ".to_string(), "empty"),
    ] {
        let e = bob.ask(json!({"type": "chat", "text": bad})).await;
        assert_eq!(e["code"], "invalid_chat", "{e}");
        assert!(e["message"].as_str().unwrap().contains(why), "{e}");
    }
    // Refused lines spend nothing (issue 23): Bob still has his seat's five lines per
    // 10 s; the sixth is refused as too fast, and the connection stays open.
    for i in 0..5 {
        let ack = bob
            .ask(json!({"type": "chat", "text": format!("bob {i}")}))
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    let e = bob.ask(json!({"type": "chat", "text": "one more"})).await;
    assert_eq!(e["code"], "chat_too_fast", "{e}");
    assert_eq!(bob.ask(json!({"type": "ping"})).await["type"], "pong");
    // Ann has four more.
    for i in 0..4 {
        let ack = ann
            .ask(json!({"type": "chat", "text": format!("line {i}")}))
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    let e = ann.ask(json!({"type": "chat", "text": "too many"})).await;
    assert_eq!(e["code"], "chat_too_fast", "{e}");
    // The welcome states the limits.
    let c = Client::connect_raw(addr, "Dan").await;
    let mut c = c;
    c.send(json!({"type": "hello", "protocol": 1})).await;
    let welcome = c.recv().await;
    assert_eq!(welcome["limits"]["chat_max_chars"], 300);
    assert_eq!(welcome["limits"]["chat_max_bytes"], 1000);
    assert_eq!(welcome["limits"]["chat_messages"], 5);
    assert_eq!(welcome["limits"]["chat_window_ms"], 10000);
    // Outside a room there is nobody to talk to.
    let e = c.ask(json!({"type": "chat", "text": "hello?"})).await;
    assert_eq!(e["code"], "not_in_room", "{e}");
}

#[tokio::test]
async fn spectators_read_and_write_chat_only_where_the_room_allows_it() {
    let addr = start(config()).await;
    for allowed in [false, true] {
        let mut ann = Client::connect(addr, "Ann").await;
        let room = ann
            .create_room_with(json!({
                "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
                "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
                "spectator_chat": allowed,
            }))
            .await;
        ann.take_seat(&room).await;
        ann.ask(json!({"type": "chat", "text": "before anyone watches"}))
            .await;
        let mut cleo = Client::connect(addr, "Cleo").await;
        let watching = cleo
            .ask(json!({"type": "spectate", "room": room, "name": "Cleo"}))
            .await;
        assert_eq!(watching["type"], "spectating", "{watching}");
        let said = cleo.ask(json!({"type": "chat", "text": "hi all"})).await;
        let ann_says = ann.ask(json!({"type": "chat", "text": "after"})).await;
        assert_eq!(ann_says["type"], "ack");
        // A ping marks the end of what Cleo was sent.
        cleo.ask(json!({"type": "ping"})).await;
        let got: Vec<&str> = cleo
            .frames
            .iter()
            .filter_map(|f| serde_json::from_str::<Value>(f).ok())
            .filter_map(|v| match v["type"].as_str() {
                Some("chat_log") => Some("log"),
                Some("chat") => Some("line"),
                _ => None,
            })
            .collect();
        if allowed {
            assert_eq!(said["type"], "ack", "{said}");
            assert_eq!(
                got,
                ["log", "line", "line"],
                "the recent chat, then each line"
            );
            let log: Value = cleo
                .frames
                .iter()
                .map(|f| serde_json::from_str::<Value>(f).unwrap())
                .find(|v| v["type"] == "chat_log")
                .unwrap();
            assert_eq!(log["lines"][0]["text"], "before anyone watches");
            let mine = ann
                .until(|v| v["type"] == "chat" && v["text"] == "hi all")
                .await;
            assert_eq!(mine["from"], json!({"type": "spectator", "name": "Cleo"}));
        } else {
            assert_eq!(said["code"], "chat_not_allowed", "{said}");
            assert!(got.is_empty(), "a spectator reads no chat here: {got:?}");
        }
    }
    // A spectator's name follows the rule of names; without one it is "Spectator".
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
            "spectator_chat": true,
        }))
        .await;
    ann.take_seat(&room).await;
    let mut x = Client::connect(addr, "X").await;
    let e = x
        .ask(json!({"type": "spectate", "room": room, "name": "a\u{200B}b"}))
        .await;
    assert_eq!(e["code"], "invalid_name", "{e}");
    x.ask(json!({"type": "spectate", "room": room})).await;
    x.ask(json!({"type": "chat", "text": "hello"})).await;
    let line = ann.until(|v| v["type"] == "chat").await;
    assert_eq!(
        line["from"],
        json!({"type": "spectator", "name": "Spectator"})
    );
}

#[tokio::test]
async fn arriving_and_resuming_players_get_the_last_hundred_lines() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
            "spectator_chat": true,
        }))
        .await;
    ann.take_seat(&room).await;
    let token = ann.token.clone().unwrap();
    // 105 lines from 21 spectators (five each, their limit).
    for s in 0..21 {
        let mut c = Client::connect(addr, "S").await;
        c.ask(json!({"type": "spectate", "room": room, "name": format!("S{s}")}))
            .await;
        for i in 0..5 {
            let ack = c
                .ask(json!({"type": "chat", "text": format!("{}", s * 5 + i)}))
                .await;
            assert_eq!(ack["type"], "ack", "{ack}");
        }
    }
    // A player who sits down now gets the last 100, oldest first.
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    let log = bob.until(|v| v["type"] == "chat_log").await;
    let texts: Vec<String> = log["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(texts, (5..105).map(|i| i.to_string()).collect::<Vec<_>>());
    assert_eq!(
        log["lines"][0]["from"],
        json!({"type": "spectator", "name": "S1"})
    );
    // A reloaded page resumes and gets them too, after the room.
    drop(ann);
    let mut again = Client::connect(addr, "Ann").await;
    let seated = again
        .ask(json!({"type": "resume", "room": room, "token": token}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    assert_eq!(again.recv().await["type"], "room");
    let log = again.recv().await;
    assert_eq!(log["type"], "chat_log", "{log}");
    assert_eq!(log["lines"].as_array().unwrap().len(), 100);
    // The game goes on with the same chat.
    bob.ask(json!({"type": "chat", "text": "ready?"})).await;
    let line = again.until(|v| v["type"] == "chat").await;
    assert_eq!(
        line["from"],
        json!({"type": "seat", "seat": 1, "name": "Bob"})
    );
}

#[tokio::test]
async fn the_host_puts_bots_in_open_seats_and_nobody_else_can() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "open"}]))
        .await;
    // Bob sits down before the creator: the creator is host all the same.
    let mut bob = Client::connect(addr, "Bob").await;
    let seated = bob
        .ask(json!({"type": "take_seat", "room": room, "name": "Bob", "seat": 1}))
        .await;
    assert_eq!(seated["type"], "seated");
    ann.take_seat(&room).await;
    let summary = ann.until(|v| v["type"] == "room").await;
    assert_eq!(summary["room"]["host"], 0, "{summary}");

    let set = |seat: u64, occupant: Value| json!({"type": "set_seat", "seat": seat, "occupant": occupant});
    let bot = |b: &str| json!({"type": "bot", "bot": b});
    // Only the host.
    let e = bob.ask(set(2, bot("big_money"))).await;
    assert_eq!(e["code"], "not_host", "{e}");
    // Not a player's seat, not a seat that does not exist, not an unknown bot.
    assert_eq!(
        ann.ask(set(1, bot("big_money"))).await["code"],
        "seat_unavailable"
    );
    assert_eq!(
        ann.ask(set(0, json!({"type": "open"}))).await["code"],
        "seat_unavailable"
    );
    assert_eq!(
        ann.ask(set(7, bot("big_money"))).await["code"],
        "seat_unavailable"
    );
    assert_eq!(ann.ask(set(2, bot("nobody"))).await["code"], "unknown_bot");
    // Unknown fields are refused as everywhere.
    let e = ann
        .ask(json!({"type": "set_seat", "seat": 2, "occupant": {"type": "open"}, "x": 1}))
        .await;
    assert_eq!(e["code"], "bad_message", "{e}");
    // A bot in, out, and in again; everyone sees the room change.
    assert_eq!(ann.ask(set(2, bot("militia"))).await["type"], "ack");
    let seen = bob
        .until(|v| v["type"] == "room" && v["room"]["seats"][2]["occupant"]["type"] == "bot")
        .await;
    assert_eq!(
        seen["room"]["seats"][2]["occupant"],
        json!({"type": "bot", "bot": "militia"})
    );
    assert_eq!(seen["room"]["settings"]["seats"][2], bot("militia"));
    assert_eq!(
        ann.ask(set(2, json!({"type": "open"}))).await["type"],
        "ack"
    );
    bob.until(|v| v["type"] == "room" && v["room"]["seats"][2]["occupant"]["type"] == "empty")
        .await;
    assert_eq!(ann.ask(set(2, bot("smithy"))).await["type"], "ack");
    // The host leaves before the start: the first seated player is host now.
    ann.ask(json!({"type": "leave"})).await;
    let summary = bob
        .until(|v| v["type"] == "room" && v["room"]["seats"][0]["occupant"]["type"] == "empty")
        .await;
    assert_eq!(summary["room"]["host"], 1, "{summary}");
    assert_eq!(bob.ask(set(0, bot("big_money"))).await["type"], "ack");
    // After the start nothing changes.
    bob.start().await;
    let e = bob.ask(set(2, json!({"type": "open"}))).await;
    assert_eq!(e["code"], "game_already_started", "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_is_kept_across_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = ServerProcess::start(dir.path()).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "open"}]))
        .await;
    ann.take_seat(&room).await;
    let token = ann.token.clone().unwrap();
    let mut bob = Client::connect(server.addr, "Bob").await;
    bob.take_seat(&room).await;
    server.kill();
    let server = ServerProcess::start(dir.path()).await;
    let mut bob = Client::connect(server.addr, "Bob").await;
    let rooms = server.get_json("/api/rooms").await;
    assert_eq!(rooms[0]["host"], 0, "{rooms}");
    // Bob is still not host; Ann, back with her token, still is.
    let mut ann = Client::connect(server.addr, "Ann").await;
    let seated = ann
        .ask(json!({"type": "resume", "room": room, "token": token}))
        .await;
    assert_eq!(seated["type"], "seated");
    ann.number_from(seated["last_command"].as_u64().unwrap());
    let e = bob.ask(json!({"type": "spectate", "room": room})).await;
    assert_eq!(e["type"], "spectating");
    let ok = ann
        .ask(
            json!({"type": "set_seat", "seat": 2, "occupant": {"type": "bot", "bot": "big_money"}}),
        )
        .await;
    assert_eq!(ok["type"], "ack", "{ok}");
}

#[tokio::test]
async fn rooms_without_a_name_are_named_by_host_and_kingdom() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Anna").await;
    let created = ann
        .ask(json!({"type": "create_room", "settings": {
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        }}))
        .await;
    assert_eq!(created["room"]["name"], "First Game", "nobody is host yet");
    let room = created["room"]["id"].as_str().unwrap().to_string();
    ann.take_seat(&room).await;
    let summary = ann.until(|v| v["type"] == "room").await;
    assert_eq!(summary["room"]["name"], "Anna — First Game");
    assert!(summary["room"]["settings"].get("name").is_none());

    // Explicit cards: the first three and an ellipsis.
    let created = ann
        .ask(json!({"type": "create_room", "settings": {
            "kingdom": {"type": "cards", "cards": ["cellar", "moat", "village", "smithy", "militia", "market", "mine", "remodel", "workshop", "merchant"]},
            "seats": [{"type": "open"}, {"type": "open"}],
        }}))
        .await;
    assert_eq!(created["room"]["name"], "Cellar, Moat, Village, …");

    // A random kingdom is named once drawn; a name given is kept as given.
    let mut zed = Client::connect(addr, "Zed").await;
    let created = zed
        .ask(json!({"type": "create_room", "settings": {
            "kingdom": {"type": "random"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        }}))
        .await;
    let id = created["room"]["id"].as_str().unwrap().to_string();
    let mut zed2 = Client::connect(addr, "Zed").await;
    zed2.take_seat(&id).await;
    let before = zed2.until(|v| v["type"] == "room").await;
    assert_eq!(before["room"]["name"], "Zed — Random kingdom");
    zed2.start().await;
    let after = zed2
        .until(|v| v["type"] == "room" && v["room"]["status"] == "playing")
        .await;
    let name = after["room"]["name"].as_str().unwrap();
    assert!(
        name.starts_with("Zed — ") && name.ends_with(", …") && name.matches(", ").count() == 3,
        "{name}"
    );
    let named = zed
        .create_room_with(json!({
            "name": "Zed's table",
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
        }))
        .await;
    let rooms = zed.ask(json!({"type": "list_rooms"})).await;
    let listed = rooms["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == named)
        .unwrap()
        .clone();
    assert_eq!(listed["name"], "Zed's table");
}

/// A spectator who arrives mid-game pages through the whole game so far and gets exactly
/// what a spectator there from the start was sent; a player's history carries its own
/// draws and nobody else's. (secrets.rs checks every history page against the truth.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_spectator_gets_the_whole_game_in_pages() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "militia"}]))
        .await;
    ann.take_seat(&room).await;
    let mut early = Client::connect(addr, "Early").await;
    early.ask(json!({"type": "spectate", "room": room})).await;
    // Before the start there is no history.
    let e = early.ask(json!({"type": "history", "from": 0})).await;
    assert_eq!(e["code"], "game_not_started", "{e}");
    ann.start().await;
    ann.play_to_end(std::time::Duration::ZERO).await;
    let mut late = Client::connect(addr, "Late").await;
    late.ask(json!({"type": "spectate", "room": room})).await;
    let snapshot = late.until(|v| v["type"] == "snapshot").await;
    let next = snapshot["next_event"].as_u64().unwrap();
    // A window, then everything in pages of at most 500.
    let window = late
        .ask(json!({"type": "history", "from": 10, "to": 20}))
        .await;
    assert_eq!(window["first"], 10);
    assert_eq!(window["events"].as_array().unwrap().len(), 10);
    let mut pages = Vec::new();
    let mut from = 0;
    while from < next {
        let page = late
            .ask(json!({"type": "history", "from": from, "to": next}))
            .await;
        assert_eq!(page["type"], "history", "{page}");
        assert_eq!(page["first"], from);
        let n = page["events"].as_array().unwrap().len() as u64;
        assert_eq!(n, (next - from).min(500), "full pages of 500");
        pages.extend(page["events"].as_array().unwrap().iter().cloned());
        from += n;
    }
    assert_eq!(pages.len() as u64, next);
    // What the early spectator got in `events` frames, event for event.
    let mut seen = Vec::new();
    while (seen.len() as u64) < next {
        let v = early.recv().await;
        if v["type"] == "events" {
            assert_eq!(v["first"].as_u64().unwrap(), seen.len() as u64);
            seen.extend(v["events"].as_array().unwrap().iter().cloned());
        }
    }
    assert_eq!(&pages[..], &seen[..next as usize]);
    for e in &pages {
        if e["type"] == "drew" || e["type"] == "looked_at" {
            assert!(
                e.get("cards").is_none(),
                "a spectator sees no drawn cards: {e}"
            );
        }
        if (e["type"] == "discarded" || e["type"] == "top_decked") && e["private"] == true {
            assert!(e.get("cards").is_none(), "{e}");
        }
    }
    // Ann's own history: her draws with their cards, the bot's without.
    let page = ann
        .ask(json!({"type": "history", "from": 0, "to": 100}))
        .await;
    let events = page["events"].as_array().unwrap();
    assert_eq!(events.len(), 100);
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "drew" && e["seat"] == 0 && e.get("cards").is_some())
    );
    assert!(
        events
            .iter()
            .filter(|e| e["type"] == "drew" && e["seat"] == 1)
            .all(|e| e.get("cards").is_none())
    );
    // Past the end: an empty page at the end.
    let page = ann.ask(json!({"type": "history", "from": 1_000_000})).await;
    assert_eq!(page["events"], json!([]));
}

#[tokio::test]
async fn names_and_chat_lines_carry_at_most_four_combining_marks_per_character() {
    let addr = start(config()).await;
    let zalgo = |marks: usize| format!("Z{}", "\u{0301}".repeat(marks));
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    // A player's name: one letter and 31 marks.
    let e = ann
        .ask(json!({"type": "take_seat", "room": room, "name": zalgo(31)}))
        .await;
    assert_eq!(e["code"], "invalid_name", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("31 combining marks"),
        "{e}"
    );
    // A room's name.
    let e = ann
        .ask(json!({"type": "create_room", "settings": {
            "name": zalgo(63),
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
        }}))
        .await;
    assert_eq!(e["code"], "invalid_settings", "{e}");
    // Four marks on a letter are fine (Hebrew with points and a cantillation mark).
    let seated = ann
        .ask(json!({"type": "take_seat", "room": room, "name": zalgo(4)}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    // A chat line: one letter and 299 marks.
    let e = ann.ask(json!({"type": "chat", "text": zalgo(299)})).await;
    assert_eq!(e["code"], "invalid_chat", "{e}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("299 combining marks"),
        "{e}"
    );
    let ack = ann
        .ask(json!({"type": "chat", "text": "שָׁלוֹם and e\u{0301}te\u{0301}"}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    // A spectator's name.
    let mut cleo = Client::connect(addr, "Cleo").await;
    let e = cleo
        .ask(json!({"type": "spectate", "room": room, "name": zalgo(5)}))
        .await;
    assert_eq!(e["code"], "invalid_name", "{e}");
}

/// The host's `remove` on real sockets (issue 24): the removed player is told, is in no
/// room (it joins another at once, without `leave`), and cannot come back into the room
/// from its address, even under another name; a player from another address takes the
/// freed seat.
#[tokio::test]
async fn the_host_removes_a_player_who_is_kept_out_and_free_to_go_elsewhere() {
    use std::net::{IpAddr, Ipv4Addr};
    let addr = start(config()).await;
    let mut ann = Client::connect_from(addr, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1)), "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect_from(addr, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), "Bob").await;
    bob.take_seat(&room).await;

    let e = bob
        .ask(json!({"type": "remove", "who": {"type": "seat", "seat": 0}}))
        .await;
    assert_eq!(e["code"], "not_host", "{e}");
    let ack = ann
        .ask(json!({"type": "remove", "who": {"type": "seat", "seat": 1}}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let removed = bob.until(|v| v["type"] == "removed").await;
    assert_eq!(removed["room"], room.as_str());
    let summary = ann
        .until(|v| v["type"] == "room" && v["room"]["seats"][1]["occupant"]["type"] == "empty")
        .await;
    assert_eq!(summary["room"]["seats"][0]["occupant"]["name"], "Ann");

    // Bob is in no room: he may go elsewhere at once, but not back.
    let back = bob
        .ask(json!({"type": "take_seat", "room": room, "name": "Robert"}))
        .await;
    assert_eq!(back["code"], "removed_by_host", "{back}");
    let watch = bob.ask(json!({"type": "spectate", "room": room})).await;
    assert_eq!(watch["code"], "removed_by_host", "{watch}");
    let other = bob
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    bob.take_seat(&other).await;

    let mut cleo =
        Client::connect_from(addr, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3)), "Cleo").await;
    let seated = cleo
        .ask(json!({"type": "take_seat", "room": room, "name": "Cleo"}))
        .await;
    assert_eq!(seated["seat"], 1, "{seated}");
}
