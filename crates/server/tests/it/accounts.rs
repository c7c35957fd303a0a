//! Accounts over real sockets, on SQLite and PostgreSQL (issue 24): register, sign in,
//! play as the account and find the game on the profile; failed sign-ins throttled with
//! one answer for unknown names and wrong passwords; the cookie's flags; a password
//! change ending the other sessions (and their WebSockets); API tokens in `hello` until
//! revoked; the Origin rule; guests kept off registered names; a ban closing live
//! connections; a deleted account's games still readable.
//!
//! Hashing is made cheap here (`--argon2-memory-kib 256 --argon2-iterations 1`): what is
//! tested is the behaviour, not the cost, which `dominion-server hash-cost` measures.

use crate::common::{Client, config, start};
use crate::process::{Backend, TestStore, on_both_backends};
use dominion_server::Config;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

on_both_backends!(
    a_registered_player_plays_as_the_account_and_the_game_is_on_the_profile,
    failed_sign_ins_are_throttled_and_unknown_names_answer_as_wrong_passwords,
    a_password_change_ends_every_other_session_and_its_websocket,
    a_token_signs_hello_in_until_it_is_revoked,
    a_guest_cannot_sit_under_a_registered_name,
    a_banned_account_is_disconnected_and_cannot_sign_in,
    a_deleted_accounts_games_stay_readable,
    a_reported_chat_line_is_kept_for_operators,
    blocking_an_account_hides_its_chat,
    a_bot_accounts_seat_is_marked_as_a_bot_also_after_a_restart,
);

/// A server on `store` with cheap hashing and `adjust` applied.
/// Flags for a server process whose password hashing is cheap: the tests that start
/// processes test something else.
pub(crate) const CHEAP: [&str; 4] = ["--argon2-memory-kib", "256", "--argon2-iterations", "1"];

/// A cluster of two nodes, `n0` and `n1`, with cheap hashing and `extra` flags.
pub(crate) async fn two_nodes(
    extra: &[&str],
) -> (
    crate::cluster::Backends,
    crate::process::ServerProcess,
    crate::process::ServerProcess,
) {
    let mut env = crate::cluster::Backends::start();
    let flags = [CHEAP.as_slice(), extra].concat();
    let n0 = env.node_with("n0", &flags).await;
    let n1 = env.node_with("n1", &flags).await;
    (env, n0, n1)
}

/// A server on `store`, with cheap password hashing (hashing is not what is tested).
pub(crate) async fn server(store: &TestStore, adjust: impl FnOnce(&mut Config)) -> SocketAddr {
    let mut c = config();
    c.data_dir = store.dir().to_path_buf();
    c.database = store.url().map(String::from);
    c.argon2_memory_kib = 256;
    c.argon2_iterations = 1;
    adjust(&mut c);
    start(c).await
}

/// An HTTP answer: status, headers (names lowercased), body.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {:?}", self.body))
    }
    /// The session cookie's value from `Set-Cookie`.
    pub(crate) fn cookie(&self) -> String {
        let set = self.header("set-cookie").expect("set-cookie");
        let value = set.split(';').next().unwrap();
        value.strip_prefix("dominion_session=").unwrap().to_string()
    }
}

/// One HTTP/1.1 request. `origin`: the server's own unless `Some(other)`; `None` sends
/// none.
pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, String)],
    body: Option<Value>,
) -> Answer {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !body.is_empty() {
        req.push_str("Content-Type: application/json\r\n");
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut buf))
        .await
        .expect("an answer within 60 s")
        .unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, _) = text.split_once("\r\n\r\n").expect("a head");
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let (status, body) = crate::process::parse_response(&buf).unwrap();
    Answer {
        status,
        headers,
        body,
    }
}

fn own(addr: SocketAddr) -> (&'static str, String) {
    ("Origin", format!("http://{addr}"))
}

pub(crate) fn with_cookie(addr: SocketAddr, cookie: &str) -> Vec<(&'static str, String)> {
    vec![own(addr), ("Cookie", format!("dominion_session={cookie}"))]
}

pub(crate) async fn register(addr: SocketAddr, name: &str, password: &str) -> Answer {
    request(
        addr,
        "POST",
        "/api/accounts",
        &[own(addr)],
        Some(json!({"name": name, "password": password})),
    )
    .await
}

async fn sign_in(addr: SocketAddr, name: &str, password: &str) -> Answer {
    request(
        addr,
        "POST",
        "/api/session",
        &[own(addr)],
        Some(json!({"name": name, "password": password})),
    )
    .await
}

/// The upgrade request of a WebSocket carrying the session cookie (same origin, as a
/// browser's).
pub(crate) fn cookie_request(
    addr: SocketAddr,
    cookie: &str,
) -> tokio_tungstenite::tungstenite::handshake::client::Request {
    let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
    let h = req.headers_mut();
    h.insert(
        "Origin",
        HeaderValue::from_str(&format!("http://{addr}")).unwrap(),
    );
    h.insert(
        "Cookie",
        HeaderValue::from_str(&format!("dominion_session={cookie}")).unwrap(),
    );
    req
}

/// A WebSocket whose upgrade carries the session cookie (`cookie_request`).
async fn connect_with_cookie(addr: SocketAddr, cookie: &str) -> (Client, Value) {
    let (ws, _) = tokio_tungstenite::connect_async(cookie_request(addr, cookie))
        .await
        .expect("upgrade");
    let mut c = Client::over(ws, "browser");
    c.send(json!({"type": "hello", "protocol": 1})).await;
    let welcome = c.recv().await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    (c, welcome)
}

/// As [`connect_with_cookie`], for the account `name`: the client, named so, once its
/// `welcome` says it is signed in as `name`.
pub(crate) async fn signed_in(addr: SocketAddr, cookie: &str, name: &str) -> Client {
    let (mut c, welcome) = connect_with_cookie(addr, cookie).await;
    assert_eq!(welcome["account"]["name"], name, "{welcome}");
    c.name = name.to_string();
    c
}

/// A WebSocket whose `hello` carries the API token `token`: the client and its first
/// answer.
pub(crate) async fn connect_with_token(addr: SocketAddr, token: &str) -> (Client, Value) {
    let mut c = Client::connect_raw(addr, "bot").await;
    c.send(json!({"type": "hello", "protocol": 1, "token": token}))
        .await;
    let first = c.recv().await;
    (c, first)
}

async fn a_registered_player_plays_as_the_account_and_the_game_is_on_the_profile(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let created = register(addr, "Ann Lee", "a long password").await;
    assert_eq!(created.status, 201, "{}", created.body);
    assert_eq!(created.json()["name"], "Ann Lee");
    let set = created.header("set-cookie").unwrap().to_string();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(set.contains(flag), "{set}");
    }
    assert!(!set.contains("Secure"), "not behind TLS: {set}");
    let weak = register(addr, "Bob", "short").await;
    assert_eq!(
        (weak.status, weak.json()["code"].clone()),
        (400, json!("weak_password"))
    );
    let taken = register(addr, "ANN  LEE", "another long one").await;
    assert_eq!(
        (taken.status, taken.json()["code"].clone()),
        (409, json!("name_taken"))
    );

    let signed = sign_in(addr, "ann lee", "a long password").await;
    assert_eq!(signed.status, 200, "{}", signed.body);
    let cookie = signed.cookie();
    let me = request(addr, "GET", "/api/me", &with_cookie(addr, &cookie), None).await;
    assert_eq!(
        (me.status, me.json()["name"].clone()),
        (200, json!("Ann Lee"))
    );
    let anonymous = request(addr, "GET", "/api/me", &[], None).await;
    assert_eq!(
        (anonymous.status, anonymous.json()["code"].clone()),
        (401, json!("not_signed_in"))
    );

    let (mut c, welcome) = connect_with_cookie(addr, &cookie).await;
    assert_eq!(welcome["account"], json!({"name": "Ann Lee", "bot": false}));
    let room = c
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "easy"}]))
        .await;
    // The name given is not the one used: a signed-in player sits as the account.
    let seated = c
        .ask(json!({"type": "take_seat", "room": room, "name": "Somebody Else"}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    c.start().await;
    let over = c.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");

    let profile = request(addr, "GET", "/api/players/ANN%20LEE", &[], None).await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    let p = profile.json();
    assert_eq!(
        (p["name"].clone(), p["games"].clone(), p["bot"].clone()),
        (json!("Ann Lee"), json!(1), json!(false))
    );
    let game = &p["recent"][0];
    assert_eq!(game["game"], json!(room));
    assert_eq!(game["replay"], json!(format!("/replay/{room}")));
    assert!(
        ["win", "loss", "tie"].contains(&game["result"].as_str().unwrap()),
        "{game}"
    );
    assert_eq!(game["players"][0], "Ann Lee");
    let easy = p["vs_bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["level"] == "easy")
        .unwrap();
    assert_eq!(easy["games"], 1);
    assert_eq!(easy["wins"], json!(u64::from(game["result"] == "win")));
    let unknown = request(addr, "GET", "/api/players/nobody", &[], None).await;
    assert_eq!(
        (unknown.status, unknown.json()["code"].clone()),
        (404, json!("unknown_player"))
    );

    // Data download: the account and its game, no secrets.
    let data = request(
        addr,
        "GET",
        "/api/me/data",
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(data.status, 200);
    assert!(
        data.header("content-disposition")
            .unwrap()
            .contains("dominion-Ann_Lee.json")
    );
    assert_eq!(data.json()["games"][0]["id"], json!(room));
    assert!(!data.body.contains("argon2") && !data.body.contains(&cookie));

    // Signing out ends the session.
    let out = request(
        addr,
        "DELETE",
        "/api/session",
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(out.status, 204);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    let me = request(addr, "GET", "/api/me", &with_cookie(addr, &cookie), None).await;
    assert_eq!(me.status, 401);
}

async fn failed_sign_ins_are_throttled_and_unknown_names_answer_as_wrong_passwords(
    backend: Backend,
) {
    let store = TestStore::new(backend);
    let addr = server(&store, |c| {
        c.sign_ins_per_account = 3;
        c.sign_ins_per_address = 5;
        c.behind_tls = true;
    })
    .await;
    let created = register(addr, "Cleo", "cleopatra's needle").await;
    assert_eq!(created.status, 201);
    assert!(created.header("set-cookie").unwrap().contains("; Secure"));
    let wrong = sign_in(addr, "Cleo", "not the password").await;
    let unknown = sign_in(addr, "Nobody At All", "not the password").await;
    assert_eq!((wrong.status, unknown.status), (401, 401));
    assert_eq!(wrong.body, unknown.body, "no enumeration");
    assert_eq!(wrong.json()["code"], "wrong_credentials");
    for _ in 0..2 {
        assert_eq!(sign_in(addr, "cleo", "still wrong!").await.status, 401);
    }
    // Three failures for the name: refused now, even with the right password.
    let throttled = sign_in(addr, "Cleo", "cleopatra's needle").await;
    assert_eq!(throttled.status, 429, "{}", throttled.body);
    assert_eq!(throttled.json()["code"], "too_many_sign_ins");
    let retry: u64 = throttled.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=900).contains(&retry));
    // The address has one failure left (4 of 5 used), then it is refused for any name.
    assert_eq!(sign_in(addr, "Someone", "wrong password").await.status, 401);
    let by_address = sign_in(addr, "Someone Else", "wrong password").await;
    assert_eq!(by_address.status, 429);
    // Bounded: no more than the counts were ever checked against a hash.
}

async fn a_password_change_ends_every_other_session_and_its_websocket(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    assert_eq!(register(addr, "Dora", "first password").await.status, 201);
    let here = sign_in(addr, "Dora", "first password").await.cookie();
    let there = sign_in(addr, "Dora", "first password").await.cookie();
    let (mut other_ws, _) = connect_with_cookie(addr, &there).await;
    let sessions = request(
        addr,
        "GET",
        "/api/me/sessions",
        &with_cookie(addr, &here),
        None,
    )
    .await;
    let list = sessions.json();
    assert_eq!(list.as_array().unwrap().len(), 3, "{list}");
    assert_eq!(
        list.as_array()
            .unwrap()
            .iter()
            .filter(|s| s["current"] == true)
            .count(),
        1
    );
    let bad = request(
        addr,
        "PUT",
        "/api/me/password",
        &with_cookie(addr, &here),
        Some(json!({"old": "not it at all", "new": "second password"})),
    )
    .await;
    assert_eq!(bad.status, 403, "{}", bad.body);
    let changed = request(
        addr,
        "PUT",
        "/api/me/password",
        &with_cookie(addr, &here),
        Some(json!({"old": "first password", "new": "second password"})),
    )
    .await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    assert_eq!(other_ws.closed().await, crate::common::Closed::Code(4005));
    let me = request(addr, "GET", "/api/me", &with_cookie(addr, &there), None).await;
    assert_eq!(me.status, 401);
    let me = request(addr, "GET", "/api/me", &with_cookie(addr, &here), None).await;
    assert_eq!(me.status, 200);
    assert_eq!(sign_in(addr, "Dora", "first password").await.status, 401);
    let third = sign_in(addr, "Dora", "second password").await;
    assert_eq!(third.status, 200);
    // One session ended from another: by its id in the list.
    let list = request(
        addr,
        "GET",
        "/api/me/sessions",
        &with_cookie(addr, &here),
        None,
    )
    .await;
    let other = list
        .json()
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == false)
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let ended = request(
        addr,
        "DELETE",
        &format!("/api/me/sessions/{other}"),
        &with_cookie(addr, &here),
        None,
    )
    .await;
    assert_eq!(ended.status, 204);
    let me = request(
        addr,
        "GET",
        "/api/me",
        &with_cookie(addr, &third.cookie()),
        None,
    )
    .await;
    assert_eq!(me.status, 401);
    let again = request(
        addr,
        "DELETE",
        &format!("/api/me/sessions/{other}"),
        &with_cookie(addr, &here),
        None,
    )
    .await;
    assert_eq!(
        (again.status, again.json()["code"].clone()),
        (404, json!("not_found"))
    );
}

async fn a_token_signs_hello_in_until_it_is_revoked(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let cookie = register(addr, "Eve", "eve's password").await.cookie();
    let created = request(
        addr,
        "POST",
        "/api/me/tokens",
        &with_cookie(addr, &cookie),
        Some(json!({"label": "my bot"})),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let token = created.json()["token"].as_str().unwrap().to_string();
    let id = created.json()["id"].as_i64().unwrap();
    assert!(token.starts_with("dmn_") && token.len() == 47, "{token}");
    let listed = request(
        addr,
        "GET",
        "/api/me/tokens",
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(listed.json()[0]["label"], "my bot");
    assert!(!listed.body.contains(&token), "the secret is shown once");
    // A token works without a cookie or an Origin, in hello and over HTTP.
    let (mut bot, welcome) = connect_with_token(addr, &token).await;
    assert_eq!(
        welcome["account"],
        json!({"name": "Eve", "bot": false}),
        "{welcome}"
    );
    let me = request(
        addr,
        "GET",
        "/api/me",
        &[("Authorization", format!("Bearer {token}"))],
        None,
    )
    .await;
    assert_eq!(me.json()["name"], "Eve");
    let revoked = request(
        addr,
        "DELETE",
        &format!("/api/me/tokens/{id}"),
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(revoked.status, 204);
    assert_eq!(bot.closed().await, crate::common::Closed::Code(4005));
    let (mut again, refused) = connect_with_token(addr, &token).await;
    assert_eq!(refused["code"], "bad_token", "{refused}");
    assert_eq!(again.closed().await, crate::common::Closed::Code(4001));

    // The Origin rule: a state change from another site, or with no Origin, is refused.
    for origin in [Some("http://evil.example"), None] {
        let mut headers = vec![("Cookie", format!("dominion_session={cookie}"))];
        if let Some(o) = origin {
            headers.push(("Origin", o.to_string()));
        }
        let r = request(
            addr,
            "POST",
            "/api/me/tokens",
            &headers,
            Some(json!({"label": "x"})),
        )
        .await;
        assert_eq!(
            (r.status, r.json()["code"].clone()),
            (403, json!("bad_origin")),
            "{origin:?}"
        );
        let r = request(
            addr,
            "POST",
            "/api/accounts",
            &headers[1..],
            Some(json!({"name": "Mallory", "password": "mallory's password"})),
        )
        .await;
        assert_eq!(r.status, 403, "{origin:?}");
    }
}

async fn a_guest_cannot_sit_under_a_registered_name(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |c| c.registrations_per_address = 2).await;
    assert_eq!(
        register(addr, "Alice", "alice's password").await.status,
        201
    );
    let mut guest = Client::connect(addr, "guest").await;
    let room = guest
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    for name in ["alice", "ALICE", "Аlice", "A1ice"] {
        let refused = guest
            .ask(json!({"type": "take_seat", "room": room, "name": name}))
            .await;
        assert_eq!(refused["code"], "name_taken", "{name}: {refused}");
    }
    let seated = guest
        .ask(json!({"type": "take_seat", "room": room, "name": "Alicia"}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    // A confusable registration is refused too; the address's registrations are limited.
    let r = register(addr, "ALlCE", "another password").await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (409, json!("name_taken"))
    );
    let second = register(addr, "Second", "second password").await.cookie();
    // An account that has not played may become a bot account: tokens only from then on.
    let bot = request(
        addr,
        "POST",
        "/api/me/bot",
        &with_cookie(addr, &second),
        None,
    )
    .await;
    assert_eq!(bot.status, 204, "{}", bot.body);
    let me = request(addr, "GET", "/api/me", &with_cookie(addr, &second), None).await;
    assert_eq!(me.status, 401, "its sessions ended");
    let refused = sign_in(addr, "Second", "second password").await;
    assert_eq!(
        (refused.status, refused.json()["code"].clone()),
        (403, json!("bot_account"))
    );
    let third = register(addr, "Third", "third password").await;
    assert_eq!(
        (third.status, third.json()["code"].clone()),
        (429, json!("too_many_registrations"))
    );
}

async fn a_banned_account_is_disconnected_and_cannot_sign_in(backend: Backend) {
    let store = TestStore::new(backend);
    let mut admin = config();
    admin.data_dir = store.dir().to_path_buf();
    admin.database = store.url().map(String::from);
    admin.argon2_memory_kib = 256;
    admin.argon2_iterations = 1;
    let addr = server(&store, |_| {}).await;
    let cookie = register(addr, "Finn", "finn's password").await.cookie();
    let (mut ws, _) = connect_with_cookie(addr, &cookie).await;
    let banning = admin.clone();
    let said = tokio::task::spawn_blocking(move || {
        dominion_server::accounts::admin::run(
            &banning,
            &dominion_server::config::Admin::Ban {
                name: "FINN".into(),
            },
        )
    })
    .await
    .unwrap()
    .unwrap();
    assert!(said.contains("Finn is banned"), "{said}");
    // Closed by the node's sweep, within a few seconds.
    assert_eq!(ws.closed().await, crate::common::Closed::Code(4005));
    let refused = sign_in(addr, "Finn", "finn's password").await;
    assert_eq!(
        (refused.status, refused.json()["code"].clone()),
        (403, json!("banned"))
    );
    let me = request(addr, "GET", "/api/me", &with_cookie(addr, &cookie), None).await;
    assert_eq!(me.status, 401);
    // Unbanned, with a password reset by the operator: the printed one works.
    let run = |command: dominion_server::config::Admin| {
        let admin = admin.clone();
        tokio::task::spawn_blocking(move || dominion_server::accounts::admin::run(&admin, &command))
    };
    run(dominion_server::config::Admin::Unban {
        name: "finn".into(),
    })
    .await
    .unwrap()
    .unwrap();
    let said = run(dominion_server::config::Admin::ResetPassword {
        name: "Finn".into(),
    })
    .await
    .unwrap()
    .unwrap();
    let code = said.trim().rsplit(' ').next().unwrap().to_string();
    assert_eq!(sign_in(addr, "Finn", "finn's password").await.status, 401);
    assert_eq!(sign_in(addr, "Finn", &code).await.status, 200, "{said}");
    let listed = run(dominion_server::config::Admin::Accounts { limit: 10 })
        .await
        .unwrap()
        .unwrap();
    assert!(
        listed.contains("Finn") && !listed.contains("banned"),
        "{listed}"
    );
    // A bot account, made by the operator, signs in with tokens only.
    run(dominion_server::config::Admin::BotAccount {
        name: "Finn".into(),
    })
    .await
    .unwrap()
    .unwrap();
    let refused = sign_in(addr, "Finn", &code).await;
    assert_eq!(
        (refused.status, refused.json()["code"].clone()),
        (403, json!("bot_account"))
    );
}

async fn a_deleted_accounts_games_stay_readable(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let cookie = register(addr, "Gus", "gus's password").await.cookie();
    let (mut c, _) = connect_with_cookie(addr, &cookie).await;
    let room = c
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    let seated = c.ask(json!({"type": "take_seat", "room": room})).await;
    assert_eq!(seated["type"], "seated", "{seated}");
    c.start().await;
    c.play_to_end(Duration::ZERO).await;
    let bot = request(
        addr,
        "POST",
        "/api/me/bot",
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(
        (bot.status, bot.json()["code"].clone()),
        (409, json!("has_played"))
    );
    let blocked = request(
        addr,
        "PUT",
        "/api/me/blocks/nobody",
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(blocked.status, 404);
    let wrong = request(
        addr,
        "DELETE",
        "/api/me",
        &with_cookie(addr, &cookie),
        Some(json!({"password": "not gus's password"})),
    )
    .await;
    assert_eq!(wrong.status, 403);
    let deleted = request(
        addr,
        "DELETE",
        "/api/me",
        &with_cookie(addr, &cookie),
        Some(json!({"password": "gus's password"})),
    )
    .await;
    assert_eq!(deleted.status, 204, "{}", deleted.body);
    assert_eq!(c.closed().await, crate::common::Closed::Code(4005));
    let gone = request(addr, "GET", "/api/players/gus", &[], None).await;
    assert_eq!(gone.status, 404);
    let (status, body) = crate::process::http_get(addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("deleted player"), "{body}");
    assert!(!body.contains("Gus"), "{body}");
    // The name is free again.
    assert_eq!(
        register(addr, "Gus", "gus's new password").await.status,
        201
    );
}

async fn a_reported_chat_line_is_kept_for_operators(backend: Backend) {
    let store = TestStore::new(backend);
    let mut admin = config();
    admin.data_dir = store.dir().to_path_buf();
    admin.database = store.url().map(String::from);
    let addr = server(&store, |_| {}).await;
    let cookie = register(addr, "Hana", "hana's password").await.cookie();
    let (mut hana, _) = connect_with_cookie(addr, &cookie).await;
    let room = hana
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    let seated = hana.ask(json!({"type": "take_seat", "room": room})).await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let mut rude = Client::connect(addr, "Rude").await;
    rude.take_seat(&room).await;
    let id = rude
        .command(json!({"type": "chat", "text": "something rude"}))
        .await;
    assert_eq!(rude.answer(id).await["type"], "ack");
    let headers = with_cookie(addr, &cookie);
    let report = |line: u64| {
        request(
            addr,
            "POST",
            "/api/reports",
            &headers,
            Some(json!({"room": room, "line": line, "reason": "rude"})),
        )
    };
    let kept = report(0).await;
    assert_eq!(kept.status, 201, "{}", kept.body);
    let missing = report(7).await;
    assert_eq!(
        (missing.status, missing.json()["code"].clone()),
        (404, json!("not_found"))
    );
    let listed = tokio::task::spawn_blocking(move || {
        dominion_server::accounts::admin::run(
            &admin,
            &dominion_server::config::Admin::Reports { limit: 10 },
        )
    })
    .await
    .unwrap()
    .unwrap();
    assert!(listed.contains("Rude: \"something rude\""), "{listed}");
    assert!(listed.contains("reported by Hana: \"rude\""), "{listed}");
    assert_eq!(listed.lines().count(), 1, "{listed}");
}

async fn blocking_an_account_hides_its_chat(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let ann_cookie = register(addr, "Ivy", "ivy's password").await.cookie();
    let bob_cookie = register(addr, "Jon", "jon's password").await.cookie();
    let (mut ivy, _) = connect_with_cookie(addr, &ann_cookie).await;
    let (mut jon, _) = connect_with_cookie(addr, &bob_cookie).await;
    let room = ivy
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "open"}]))
        .await;
    assert_eq!(
        ivy.ask(json!({"type": "take_seat", "room": room})).await["type"],
        "seated"
    );
    assert_eq!(
        jon.ask(json!({"type": "take_seat", "room": room})).await["type"],
        "seated"
    );
    let mut kim = Client::connect(addr, "Kim").await;
    kim.take_seat(&room).await;
    // A guest may not watch under a registered name either.
    let mut fake = Client::connect(addr, "fake").await;
    let refused = fake
        .ask(json!({"type": "spectate", "room": room, "name": "JON"}))
        .await;
    assert_eq!(refused["code"], "name_taken", "{refused}");

    let blocked = request(
        addr,
        "PUT",
        "/api/me/blocks/jon",
        &with_cookie(addr, &ann_cookie),
        None,
    )
    .await;
    assert_eq!(blocked.status, 204, "{}", blocked.body);
    let list = request(
        addr,
        "GET",
        "/api/me/blocks",
        &with_cookie(addr, &ann_cookie),
        None,
    )
    .await;
    assert_eq!(list.json(), json!(["Jon"]));
    let id = jon
        .command(json!({"type": "chat", "text": "from the blocked one"}))
        .await;
    assert_eq!(jon.answer(id).await["type"], "ack");
    let id = kim
        .command(json!({"type": "chat", "text": "from the watcher"}))
        .await;
    assert_eq!(kim.answer(id).await["type"], "ack");
    let line = ivy.until(|v| v["type"] == "chat").await;
    assert_eq!(line["text"], "from the watcher", "{line}");
    // Its number counts the hidden line, so Ivy can still report it by that number.
    assert_eq!(line["n"], 1, "{line}");
    assert!(
        !ivy.frames
            .iter()
            .any(|f| f.contains("from the blocked one")),
        "a blocked account's line reached its blocker"
    );
    // While blocking Jon, Ivy reports the watcher's line by its number.
    let reported = request(
        addr,
        "POST",
        "/api/reports",
        &with_cookie(addr, &ann_cookie),
        Some(json!({"room": room, "line": 1, "reason": "checking numbers"})),
    )
    .await;
    assert_eq!(reported.status, 201, "{}", reported.body);
    // Kim, who blocks nobody, hears both.
    let first = kim.until(|v| v["type"] == "chat").await;
    assert_eq!(first["text"], "from the blocked one");
    assert_eq!(first["n"], 0, "{first}");
    // Unblocked, Jon is heard again.
    let unblocked = request(
        addr,
        "DELETE",
        "/api/me/blocks/Jon",
        &with_cookie(addr, &ann_cookie),
        None,
    )
    .await;
    assert_eq!(unblocked.status, 204);
    let id = jon
        .command(json!({"type": "chat", "text": "heard again"}))
        .await;
    assert_eq!(jon.answer(id).await["type"], "ack");
    let line = ivy.until(|v| v["type"] == "chat").await;
    assert_eq!(line["text"], "heard again", "{line}");
    assert_eq!(line["n"], 2, "{line}");
}

/// Two nodes of a cluster: a player signed in at one node plays, as the account, in a
/// room the other node runs (the forwarding link carries the account, vouched for with
/// the cluster's key); the game is on the profile at either node; a ban closes the
/// account's connections at both nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn a_signed_in_player_plays_as_the_account_through_another_node_and_a_ban_reaches_both() {
    let (env, n0, n1) = two_nodes(&[]).await;
    let cookie = register(n1.addr, "Lia", "lia's password").await.cookie();
    // A room run by n0 …
    let mut host = Client::connect(n0.addr, "Host").await;
    let room = host
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    crate::cluster::wait_listed(n1.addr, &[&room]).await;
    // … played by Lia, signed in at n1.
    let (mut lia, welcome) = connect_with_cookie(n1.addr, &cookie).await;
    assert_eq!(welcome["account"]["name"], "Lia");
    let seated = lia
        .ask(json!({"type": "take_seat", "room": room, "name": "ignored"}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let mut watcher = Client::connect(n0.addr, "Lia2").await;
    let refused = watcher
        .ask(json!({"type": "take_seat", "room": room, "name": "LIA"}))
        .await;
    assert_eq!(refused["code"], "name_taken", "{refused}");
    lia.start().await;
    let over = lia.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    for node in [&n0, &n1] {
        let p = request(node.addr, "GET", "/api/players/lia", &[], None).await;
        assert_eq!(p.json()["games"], 1, "{}", p.body);
        assert_eq!(p.json()["recent"][0]["players"][0], "Lia");
    }
    // Connections at both nodes close when the account is banned.
    let (mut at0, _) = connect_with_cookie(n0.addr, &cookie).await;
    let (mut at1, _) = connect_with_cookie(n1.addr, &cookie).await;
    let mut admin = config();
    admin.database = Some(env.database.clone());
    tokio::task::spawn_blocking(move || {
        dominion_server::accounts::admin::run(
            &admin,
            &dominion_server::config::Admin::Ban { name: "lia".into() },
        )
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(at0.closed().await, crate::common::Closed::Code(4005));
    assert_eq!(at1.closed().await, crate::common::Closed::Code(4005));
}

/// A bot account's seat is marked as a bot in every room frame — and still after a
/// restart, when the room is rebuilt from the store (the seat's account is read back
/// from `seat_accounts`); a guest's seat carries no account, a person's says `player`.
async fn a_bot_accounts_seat_is_marked_as_a_bot_also_after_a_restart(backend: Backend) {
    let store = TestStore::new(backend);
    let mut first = store.start(&CHEAP).await;
    let addr = first.addr;
    let robo = register(addr, "Robo", "robo's password").await.cookie();
    let token = request(
        addr,
        "POST",
        "/api/me/tokens",
        &with_cookie(addr, &robo),
        Some(json!({"label": "engine"})),
    )
    .await
    .json()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let made = request(addr, "POST", "/api/me/bot", &with_cookie(addr, &robo), None).await;
    assert_eq!(made.status, 204, "{}", made.body);
    let pia = register(addr, "Pia", "pia's password").await.cookie();

    let (mut bot, welcome) = connect_with_token(addr, &token).await;
    assert_eq!(welcome["account"]["bot"], true, "{welcome}");
    let room = bot
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "open"}]))
        .await;
    assert_eq!(
        bot.ask(json!({"type": "take_seat", "room": room})).await["type"],
        "seated"
    );
    let (mut person, _) = connect_with_cookie(addr, &pia).await;
    assert_eq!(
        person.ask(json!({"type": "take_seat", "room": room})).await["type"],
        "seated"
    );
    let mut guest = Client::connect(addr, "Quin").await;
    let seated = guest
        .ask(json!({"type": "take_seat", "room": room, "name": "Quin"}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let marks = |frame: &Value| -> Vec<Value> {
        frame["room"]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["occupant"]["account"].clone())
            .collect()
    };
    let frame = guest
        .until(|v| v["type"] == "room" && v["room"]["seats"][2]["occupant"]["type"] == "human")
        .await;
    assert_eq!(
        marks(&frame),
        [json!("bot"), json!("player"), Value::Null],
        "{frame}"
    );

    // Killed and started again on the same store: the rebuilt room still knows.
    first.kill();
    drop((bot, person));
    let second = store.start(&CHEAP).await;
    let mut back = Client::connect(second.addr, "Quin").await;
    let resumed = back
        .ask(json!({"type": "resume", "room": room, "token": seated["token"]}))
        .await;
    assert_eq!(resumed["type"], "seated", "{resumed}");
    let frame = back.until(|v| v["type"] == "room").await;
    assert_eq!(
        marks(&frame),
        [json!("bot"), json!("player"), Value::Null],
        "{frame}"
    );
}

/// Failed sign-ins count across the cluster: three wrong passwords for one name at one
/// node, and the next try at the other node is refused too (the windows are shared in
/// Redis, not kept once per node); so are registrations from one address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn sign_in_and_registration_limits_hold_across_the_nodes_of_a_cluster() {
    let (_env, n0, n1) = two_nodes(&[
        "--sign-ins-per-account",
        "3",
        "--registrations-per-address",
        "2",
    ])
    .await;
    assert_eq!(register(n0.addr, "Max", "max's password").await.status, 201);
    for _ in 0..3 {
        assert_eq!(sign_in(n0.addr, "Max", "not max's one").await.status, 401);
    }
    let refused = sign_in(n1.addr, "max", "max's password").await;
    assert_eq!(
        (refused.status, refused.json()["code"].clone()),
        (429, json!("too_many_sign_ins")),
        "{}",
        refused.body
    );
    assert!(refused.header("retry-after").is_some());
    // One more registration from this address at n1 is the second and last.
    assert_eq!(register(n1.addr, "Nia", "nia's password").await.status, 201);
    let third = register(n0.addr, "Ola", "ola's password").await;
    assert_eq!(
        (third.status, third.json()["code"].clone()),
        (429, json!("too_many_registrations"))
    );
}

/// A chat line is reported on the game's connection (`report_chat`), which reaches the
/// node that runs the room: a player signed in at n1 reports a line of a room n0 runs,
/// and the report is kept with the line as n0's room quotes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn a_chat_line_is_reported_through_another_node() {
    let (env, n0, n1) = two_nodes(&[]).await;
    let cookie = register(n1.addr, "Uma", "uma's password").await.cookie();
    let mut zed = Client::connect(n0.addr, "Zed").await;
    let room = zed
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    zed.take_seat(&room).await;
    crate::cluster::wait_listed(n1.addr, &[&room]).await;
    let (mut uma, _) = connect_with_cookie(n1.addr, &cookie).await;
    let seated = uma.ask(json!({"type": "take_seat", "room": room})).await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let id = zed
        .command(json!({"type": "chat", "text": "something rude"}))
        .await;
    assert_eq!(zed.answer(id).await["type"], "ack");
    let line = uma.until(|v| v["type"] == "chat").await;
    assert_eq!(line["n"], 0, "{line}");
    // A guest may not report; a line the room does not have is refused.
    let id = zed.command(json!({"type": "report_chat", "line": 0})).await;
    assert_eq!(zed.answer(id).await["code"], "sign_in_required");
    let id = uma.command(json!({"type": "report_chat", "line": 7})).await;
    assert_eq!(uma.answer(id).await["code"], "invalid_chat");
    let id = uma
        .command(json!({"type": "report_chat", "line": 0, "reason": "rude"}))
        .await;
    let ack = uma.answer(id).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let mut admin = config();
    admin.database = Some(env.database.clone());
    let listed = tokio::task::spawn_blocking(move || {
        dominion_server::accounts::admin::run(
            &admin,
            &dominion_server::config::Admin::Reports { limit: 10 },
        )
    })
    .await
    .unwrap()
    .unwrap();
    assert!(listed.contains("Zed: \"something rude\""), "{listed}");
    assert!(listed.contains("reported by Uma: \"rude\""), "{listed}");
}
