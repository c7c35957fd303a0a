//! Card preferences and friends over real sockets, on SQLite and PostgreSQL (issue 25):
//! the banned and disliked cards checked and replaced whole; following, the friends list
//! with who is online and at which open table; `invite` reaching each of the friend's
//! signed-in connections, refused for guests, strangers, the unfollowed, the offline
//! (and those who block the inviter, answered alike), and limited to 10 a minute.

use crate::accounts::{Answer, register, request, server, signed_in, with_cookie};
use crate::common::{Client, config};
use crate::process::{Backend, TestStore, on_both_backends};
use serde_json::{Value, json};
use std::net::SocketAddr;

on_both_backends!(
    card_preferences_are_checked_and_replaced_whole,
    an_automatch_draw_unites_its_players_lists,
    a_followed_friend_is_seen_online_at_its_table_and_invited,
    invitations_go_only_to_friends_and_are_limited,
);

async fn call(
    addr: SocketAddr,
    cookie: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Answer {
    request(addr, method, path, &with_cookie(addr, cookie), body).await
}

/// Creates a room, sits in it, and waits until the lobby shows the seat taken.
async fn sit_at_new_table(c: &mut Client) -> String {
    let room = c
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    let name = c.name.clone();
    let seated = c
        .ask(json!({"type": "take_seat", "room": room, "name": name}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    c.until(|v| {
        v["type"] == "room"
            && v["room"]["seats"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["occupant"]["name"] == name.as_str()))
    })
    .await;
    room
}

async fn card_preferences_are_checked_and_replaced_whole(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let ann = register(addr, "Ann", "ann's password").await.cookie();
    let got = call(addr, &ann, "GET", "/api/me/cards", None).await;
    assert_eq!(got.status, 200, "{}", got.body);
    assert_eq!(got.json(), json!({"bans": [], "dislikes": []}));

    let put = call(
        addr,
        &ann,
        "PUT",
        "/api/me/cards",
        Some(json!({"bans": ["witch", "chapel", "witch"], "dislikes": ["moat", "cellar"]})),
    )
    .await;
    assert_eq!(put.status, 200, "{}", put.body);
    let stored = json!({"bans": ["chapel", "witch"], "dislikes": ["cellar", "moat"]});
    assert_eq!(put.json(), stored);

    // Each refusal changes nothing.
    for (body, status, code) in [
        (
            json!({"bans": ["witch", "chapel", "mine", "moat"], "dislikes": []}),
            400,
            "too_many_bans",
        ),
        (
            json!({"bans": [], "dislikes": ["cellar", "moat", "village", "smithy", "market",
                "mine", "festival", "library", "laboratory", "bandit", "harbinger"]}),
            400,
            "too_many_dislikes",
        ),
        (json!({"bans": ["copper"]}), 400, "unknown_card"),
        (json!({"bans": ["no_such_card"]}), 400, "unknown_card"),
        (
            json!({"bans": ["moat"], "dislikes": ["moat"]}),
            400,
            "bad_request",
        ),
        (json!({"bans": "witch"}), 400, "bad_request"),
    ] {
        let a = call(addr, &ann, "PUT", "/api/me/cards", Some(body.clone())).await;
        assert_eq!(
            (a.status, a.json()["code"].clone()),
            (status, json!(code)),
            "{body}: {}",
            a.body
        );
        assert_eq!(
            call(addr, &ann, "GET", "/api/me/cards", None).await.json(),
            stored
        );
    }
    // The Origin rule, and signing in.
    let foreign = request(
        addr,
        "PUT",
        "/api/me/cards",
        &[
            ("Origin", "http://evil.example".to_string()),
            ("Cookie", format!("dominion_session={ann}")),
        ],
        Some(json!({"bans": []})),
    )
    .await;
    assert_eq!(
        (foreign.status, foreign.json()["code"].clone()),
        (403, json!("bad_origin"))
    );
    let anonymous = request(addr, "GET", "/api/me/cards", &[], None).await;
    assert_eq!(
        (anonymous.status, anonymous.json()["code"].clone()),
        (401, json!("not_signed_in"))
    );
    assert_eq!(
        call(addr, &ann, "GET", "/api/me/cards", None).await.json(),
        stored
    );

    // The data download has the lists and the follows.
    register(addr, "Bob", "bob's password").await;
    assert_eq!(
        call(addr, &ann, "PUT", "/api/me/follows/BOB", None)
            .await
            .status,
        204
    );
    let data = call(addr, &ann, "GET", "/api/me/data", None).await.json();
    assert_eq!(data["cards"], stored);
    assert_eq!(data["following"][0]["name"], "Bob", "{data}");
    // A list left out is emptied.
    let put = call(
        addr,
        &ann,
        "PUT",
        "/api/me/cards",
        Some(json!({"dislikes": ["village"]})),
    )
    .await;
    assert_eq!(put.json(), json!({"bans": [], "dislikes": ["village"]}));
}

/// What an automatch room is drawn with: every player's bans and dislikes together (a
/// card one bans and another dislikes counts as banned), and a kingdom drawn with them
/// holds none of the bans.
async fn an_automatch_draw_unites_its_players_lists(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let ann = register(addr, "Ann", "ann's password").await.cookie();
    let bob = register(addr, "Bob", "bob's password").await.cookie();
    register(addr, "Cy", "cy's password").await;
    let put = |cookie: String, body: Value| async move {
        let a = call(addr, &cookie, "PUT", "/api/me/cards", Some(body)).await;
        assert_eq!(a.status, 200, "{}", a.body);
    };
    put(
        ann,
        json!({"bans": ["witch", "chapel"], "dislikes": ["moat", "militia"]}),
    )
    .await;
    put(
        bob,
        json!({"bans": ["militia"], "dislikes": ["moat", "cellar"]}),
    )
    .await;

    let mut c = config();
    c.data_dir = store.dir().to_path_buf();
    c.database = store.url().map(String::from);
    c.argon2_memory_kib = 256;
    c.argon2_iterations = 1;
    let database = store.database();
    let accounts = tokio::task::spawn_blocking(move || {
        dominion_server::accounts::Accounts::open(std::sync::Arc::new(c), &database)
    })
    .await
    .unwrap()
    .expect("accounts");
    let mut ids = Vec::new();
    for name in ["ann", "BOB", "Cy"] {
        ids.push(accounts.registered(name).await.unwrap().expect(name).id);
    }
    let (bans, dislikes) = accounts.draw_prefs(ids).await.unwrap();
    let keys = |v: &[dominion_engine::CardId]| v.iter().map(|c| c.key()).collect::<Vec<_>>();
    assert_eq!(keys(&bans), ["chapel", "militia", "witch"]);
    assert_eq!(keys(&dislikes), ["cellar", "moat"]);
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..100 {
        let (kingdom, avoided) = dominion_server::convert::kingdom_prefs::draw_kingdom(
            dominion_engine::Edition::Second,
            &[dominion_engine::Set::Base],
            &bans,
            &dislikes,
            &mut rng,
        )
        .unwrap();
        assert!(
            kingdom
                .iter()
                .all(|c| !bans.contains(c) && !dislikes.contains(c))
        );
        assert_eq!((avoided.bans, avoided.dislikes), (3, 2));
    }
}

async fn a_followed_friend_is_seen_online_at_its_table_and_invited(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let ann = register(addr, "Ann", "ann's password").await.cookie();
    let bob = register(addr, "Bob", "bob's password").await.cookie();
    register(addr, "Cy", "cy's password").await;

    let no_one = call(addr, &ann, "PUT", "/api/me/follows/nobody", None).await;
    assert_eq!(
        (no_one.status, no_one.json()["code"].clone()),
        (404, json!("unknown_player"))
    );
    let me = call(addr, &ann, "PUT", "/api/me/follows/ann", None).await;
    assert_eq!(me.status, 400, "{}", me.body);
    for name in ["bob", "Cy", "Bob"] {
        let a = call(addr, &ann, "PUT", &format!("/api/me/follows/{name}"), None).await;
        assert_eq!(a.status, 204, "{}", a.body);
    }
    let list = call(addr, &ann, "GET", "/api/me/follows", None).await;
    assert_eq!(
        list.json(),
        json!([
            {"name": "Bob", "bot": false, "online": false, "tables": []},
            {"name": "Cy", "bot": false, "online": false, "tables": []},
        ])
    );
    assert_eq!(
        call(addr, &ann, "DELETE", "/api/me/follows/cy", None)
            .await
            .status,
        204
    );

    // Bob comes online in two tabs and sits at a table.
    let mut bob_table = signed_in(addr, &bob, "Bob").await;
    let mut bob_lobby = signed_in(addr, &bob, "Bob").await;
    let bobs_room = sit_at_new_table(&mut bob_table).await;
    let list = call(addr, &ann, "GET", "/api/me/follows", None)
        .await
        .json();
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");
    assert_eq!(list[0]["online"], true, "{list}");
    assert_eq!(list[0]["tables"][0]["room"], bobs_room.as_str(), "{list}");
    assert!(
        list[0]["tables"][0]["name"]
            .as_str()
            .is_some_and(|n| n.contains("Bob")),
        "{list}"
    );

    // Ann, at her own table, invites Bob: both of his connections hear of it.
    let mut ann_ws = signed_in(addr, &ann, "Ann").await;
    let anns_room = sit_at_new_table(&mut ann_ws).await;
    let ack = ann_ws
        .ask(json!({"type": "invite", "room": anns_room, "name": "bob"}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    for c in [&mut bob_table, &mut bob_lobby] {
        let invited = c.until(|v| v["type"] == "invited").await;
        assert_eq!(
            invited,
            json!({"type": "invited", "from": "Ann", "room": anns_room})
        );
    }
    // Bob accepts from the lobby tab: the link is the room.
    let seated = bob_lobby
        .ask(json!({"type": "take_seat", "room": anns_room}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");

    // Once the game has started, no more invitations to it.
    let started = ann_ws.ask(json!({"type": "start"})).await;
    assert_eq!(started["type"], "ack", "{started}");
    let late = ann_ws
        .ask(json!({"type": "invite", "room": anns_room, "name": "Bob"}))
        .await;
    assert_eq!(late["code"], "game_already_started", "{late}");

    // Bob blocks Ann: she sees him offline and at no table (and may not invite him).
    let list = call(addr, &ann, "GET", "/api/me/follows", None)
        .await
        .json();
    assert_eq!(list[0]["online"], true, "{list}");
    assert_eq!(list[0]["tables"][0]["room"], bobs_room.as_str(), "{list}");
    assert_eq!(
        call(addr, &bob, "PUT", "/api/me/blocks/Ann", None)
            .await
            .status,
        204
    );
    let list = call(addr, &ann, "GET", "/api/me/follows", None)
        .await
        .json();
    assert_eq!(
        (list[0]["online"].clone(), list[0]["tables"].clone()),
        (json!(false), json!([])),
        "{list}"
    );

    // Unfollowed, Bob is not listed.
    assert_eq!(
        call(addr, &ann, "DELETE", "/api/me/follows/Bob", None)
            .await
            .status,
        204
    );
    assert_eq!(
        call(addr, &ann, "GET", "/api/me/follows", None)
            .await
            .json(),
        json!([])
    );
}

async fn invitations_go_only_to_friends_and_are_limited(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let ann = register(addr, "Ann", "ann's password").await.cookie();
    let bob = register(addr, "Bob", "bob's password").await.cookie();
    register(addr, "Cy", "cy's password").await;
    let dee = register(addr, "Dee", "dee's password").await.cookie();

    // A guest may not invite.
    let mut guest = Client::connect(addr, "Guest").await;
    let guests_room = sit_at_new_table(&mut guest).await;
    let refused = guest
        .ask(json!({"type": "invite", "room": guests_room, "name": "Bob"}))
        .await;
    assert_eq!(refused["code"], "sign_in_required", "{refused}");

    let mut ann_ws = signed_in(addr, &ann, "Ann").await;
    let mut bob_ws = signed_in(addr, &bob, "Bob").await;
    // Not seated there (nor anywhere yet).
    let refused = ann_ws
        .ask(json!({"type": "invite", "room": guests_room, "name": "Bob"}))
        .await;
    assert_eq!(refused["code"], "not_seated", "{refused}");
    let room = sit_at_new_table(&mut ann_ws).await;
    let invite = |name: &str| json!({"type": "invite", "room": room, "name": name});
    // Not followed, unknown, offline.
    assert_eq!(ann_ws.ask(invite("Bob")).await["code"], "not_following");
    assert_eq!(ann_ws.ask(invite("Nobody")).await["code"], "unknown_player");
    call(addr, &ann, "PUT", "/api/me/follows/Cy", None).await;
    assert_eq!(ann_ws.ask(invite("Cy")).await["code"], "player_offline");
    // Followed but blocked by Bob: answered as offline, and nothing reaches Bob.
    call(addr, &ann, "PUT", "/api/me/follows/Bob", None).await;
    assert_eq!(
        call(addr, &bob, "PUT", "/api/me/blocks/Ann", None)
            .await
            .status,
        204
    );
    assert_eq!(ann_ws.ask(invite("Bob")).await["code"], "player_offline");
    let pong = bob_ws.ask(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong");
    assert!(
        !bob_ws.frames.iter().any(|f| f.contains("invited")),
        "a blocker was invited"
    );

    // Ten invitations a minute per account, counted whether they reached anyone or not:
    // Dee spends 10 on Bob, who hears each, and the 11th is refused.
    let mut dee_ws = signed_in(addr, &dee, "Dee").await;
    let dees_room = sit_at_new_table(&mut dee_ws).await;
    call(addr, &dee, "PUT", "/api/me/follows/Bob", None).await;
    for _ in 0..10 {
        let ack = dee_ws
            .ask(json!({"type": "invite", "room": dees_room, "name": "Bob"}))
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
        let invited = bob_ws.until(|v| v["type"] == "invited").await;
        assert_eq!(invited["from"], "Dee");
    }
    let limited = dee_ws
        .ask(json!({"type": "invite", "room": dees_room, "name": "Bob"}))
        .await;
    assert_eq!(limited["code"], "too_many_invites", "{limited}");
    // Nothing is closed; Ann, who spent 4 (the refusal for not being seated came
    // before the count), still has 6.
    assert_eq!(dee_ws.ask(json!({"type": "ping"})).await["type"], "pong");
    for _ in 0..6 {
        assert_eq!(ann_ws.ask(invite("Cy")).await["code"], "player_offline");
    }
    assert_eq!(ann_ws.ask(invite("Cy")).await["code"], "too_many_invites");
}
