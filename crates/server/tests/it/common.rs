//! A real server on 127.0.0.1 port 0 and a small raw-protocol client, as a third-party
//! author would write one: JSON text frames over tokio-tungstenite, no server types.
#![allow(dead_code)]

use dominion_engine::{CardId, Edition, Game, Kingdom, Mode, PlayerId, Reply, Setup};
use dominion_server::Config;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Longest wait for any one frame: generous, so a slow CI machine never fails a test
/// that is merely slow.
pub const FRAME_TIMEOUT: Duration = Duration::from_secs(60);

/// Test settings: bots move at once, data in a fresh temporary directory (one per
/// server, so servers in one test process never reopen each other's rooms).
pub fn config() -> Config {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Config {
        bot_delay: Duration::ZERO,
        // Test clients answer at machine speed; the budget itself is tested in `limits`.
        rate_messages: 10_000,
        rate_window: Duration::from_secs(1),
        // Every test client is 127.0.0.1; the room limits are tested in `limits`.
        rooms_per_connection: 10_000,
        rooms_per_address: 10_000,
        live_rooms_per_address: 10_000,
        search_rooms_per_address: 10_000,
        // The connection cap per address is tested in `connections`.
        connections_per_address: 10_000,
        // Likewise for chat: its limit per address is tested in `chat_limits`.
        chat_per_address: 10_000,
        data_dir: std::env::temp_dir()
            .join(format!("dominion-server-test-{}-{n}", std::process::id())),
        ..Config::default()
    }
}

/// Starts a server on an OS-chosen port and returns its address.
pub async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    start_on(config, listener).await
}

/// Starts a server on `listener`.
pub async fn start_on(config: Config, listener: tokio::net::TcpListener) -> SocketAddr {
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(async move {
        dominion_server::serve(config, listener, std::future::pending())
            .await
            .expect("server");
    });
    addr
}

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What ended a connection, as the client saw it.
#[derive(Debug, PartialEq, Eq)]
pub enum Closed {
    /// A close frame with this code.
    Code(u16),
    /// The stream ended (or failed) without a close frame.
    Dropped,
}

pub struct Client {
    pub name: String,
    pub ws: Socket,
    next_id: u64,
    /// Every text frame received, in order, as sent.
    pub frames: Vec<String>,
    pub seat: Option<u64>,
    pub token: Option<String>,
    pub room: Option<String>,
    /// The number of the last game event received.
    pub last_event: Option<u64>,
    /// Frames read while looking for an answer, not yet handed out.
    backlog: std::collections::VecDeque<Value>,
}

impl Client {
    /// Connects and completes the handshake.
    pub async fn connect(addr: SocketAddr, name: &str) -> Client {
        let mut c = Client::connect_raw(addr, name).await;
        c.send(json!({"type": "hello", "protocol": 1, "client": "test"}))
            .await;
        let welcome = c.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        c
    }

    /// Connects from the loopback address `local` (127.x.y.z: the per-address limits see
    /// another client) and says hello.
    pub async fn connect_from(server: SocketAddr, local: std::net::IpAddr, name: &str) -> Client {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::new(local, 0))
            .unwrap_or_else(|e| panic!("bind {local}: {e}"));
        let tcp = socket
            .connect(server)
            .await
            .unwrap_or_else(|e| panic!("connect from {local}: {e}"));
        let (ws, _) = tokio_tungstenite::client_async(
            format!("ws://{server}/ws"),
            MaybeTlsStream::Plain(tcp),
        )
        .await
        .expect("websocket handshake");
        let mut c = Client::over(ws, name);
        c.send(json!({"type": "hello", "protocol": 1, "client": "test"}))
            .await;
        let welcome = c.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        c
    }

    /// Connects without the handshake.
    pub async fn connect_raw(addr: SocketAddr, name: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
            .await
            .expect("websocket connect");
        Client::over(ws, name)
    }

    pub fn over(ws: Socket, name: &str) -> Client {
        Client {
            name: name.to_string(),
            ws,
            next_id: 0,
            frames: Vec::new(),
            seat: None,
            token: None,
            room: None,
            last_event: None,
            backlog: Default::default(),
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::text(text))
            .await
            .unwrap_or_else(|e| panic!("{}: send failed: {e}", self.name));
    }

    /// Drops the connection the way a lost network does (no close frame): shuts the
    /// sending half of the TCP stream. The returned socket must be kept until the server
    /// has noticed (dropping it with unread data would reset the connection instead).
    pub async fn cut(mut self) -> Socket {
        use tokio::io::AsyncWriteExt;
        if let MaybeTlsStream::Plain(tcp) = self.ws.get_mut() {
            tcp.shutdown().await.expect("shutdown");
        }
        self.ws
    }

    /// Sends a command with the next id; returns the id.
    pub async fn command(&mut self, mut v: Value) -> u64 {
        self.next_id += 1;
        v["id"] = json!(self.next_id);
        self.send(v).await;
        self.next_id
    }

    /// Continues numbering above `last` (after a resume reports `last_command`).
    pub fn number_from(&mut self, last: u64) {
        self.next_id = self.next_id.max(last);
    }

    pub fn last_id(&self) -> u64 {
        self.next_id
    }

    /// The next text frame, parsed (first those set aside by [`Client::answer`]).
    /// Panics on a close or after [`FRAME_TIMEOUT`].
    pub async fn recv(&mut self) -> Value {
        if let Some(v) = self.backlog.pop_front() {
            return v;
        }
        match self.recv_or_close().await {
            Ok(v) => v,
            Err(closed) => panic!(
                "{}: connection closed ({closed:?}) while waiting for a frame",
                self.name
            ),
        }
    }

    /// As [`Client::recv`], but a close is returned instead of a panic.
    pub async fn recv_or_closed(&mut self) -> Result<Value, Closed> {
        match self.backlog.pop_front() {
            Some(v) => Ok(v),
            None => self.recv_or_close().await,
        }
    }

    /// The next frame off the socket (frames set aside by [`Client::answer`] are not
    /// seen: see [`Client::recv_or_closed`]).
    pub async fn recv_or_close(&mut self) -> Result<Value, Closed> {
        let deadline = tokio::time::Instant::now() + FRAME_TIMEOUT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no frame within {FRAME_TIMEOUT:?}", self.name));
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let v: Value = serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("server sent non-JSON {text}: {e}"));
                    self.frames.push(text.to_string());
                    self.track(&v);
                    return Ok(v);
                }
                Some(Ok(Message::Close(frame))) => {
                    return Err(frame.map_or(Closed::Dropped, |f| Closed::Code(u16::from(f.code))));
                }
                Some(Ok(_)) => continue, // pings, pongs
                Some(Err(_)) | None => return Err(Closed::Dropped),
            }
        }
    }

    fn track(&mut self, v: &Value) {
        match v["type"].as_str() {
            Some("events") => {
                let n = v["events"].as_array().map_or(0, Vec::len) as u64;
                if n > 0 {
                    self.last_event = Some(v["first"].as_u64().unwrap() + n - 1);
                }
            }
            Some("snapshot") => {
                let next = v["next_event"].as_u64().unwrap();
                self.last_event = next.checked_sub(1);
            }
            Some("seated") => {
                self.seat = v["seat"].as_u64();
                self.token = v["token"].as_str().map(String::from);
                self.room = v["room"].as_str().map(String::from);
            }
            _ => {}
        }
    }

    /// Reads until a frame satisfies `pred`; returns it.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.recv().await;
            if pred(&v) {
                return v;
            }
        }
    }

    /// Puts a frame back, to be the next one [`Client::recv`] returns.
    pub fn backlog_push(&mut self, v: Value) {
        self.backlog.push_front(v);
    }

    /// Reads until the direct answer to command `id` (a result, ack, pong or error);
    /// frames before it are kept for the next [`Client::recv`].
    pub async fn answer(&mut self, id: u64) -> Value {
        let mut skipped = Vec::new();
        let found = loop {
            let v = self.recv().await;
            if v["re"].as_u64() == Some(id) {
                break v;
            }
            skipped.push(v);
        };
        for v in skipped.into_iter().rev() {
            self.backlog.push_front(v);
        }
        found
    }

    /// Sends a command and waits for its answer.
    pub async fn ask(&mut self, v: Value) -> Value {
        let id = self.command(v).await;
        self.answer(id).await
    }

    /// Reads until the connection closes; returns how.
    pub async fn closed(&mut self) -> Closed {
        loop {
            if let Err(c) = self.recv_or_close().await {
                return c;
            }
        }
    }

    pub async fn create_room(&mut self, seats: Value) -> String {
        let created = self
            .ask(json!({"type": "create_room", "settings": {
                "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
                "seats": seats,
            }}))
            .await;
        assert_eq!(created["type"], "room_created", "{created}");
        created["room"]["id"].as_str().unwrap().to_string()
    }

    /// `name` connected, seated against `big_money` in a new First Game room, the game
    /// started: the client and the room's id.
    pub async fn against_big_money(addr: SocketAddr, name: &str) -> (Client, String) {
        let mut c = Client::connect(addr, name).await;
        let room = c
            .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
            .await;
        c.take_seat(&room).await;
        c.start().await;
        (c, room)
    }

    pub async fn create_room_with(&mut self, settings: Value) -> String {
        let created = self
            .ask(json!({"type": "create_room", "settings": settings}))
            .await;
        assert_eq!(created["type"], "room_created", "{created}");
        created["room"]["id"].as_str().unwrap().to_string()
    }

    pub async fn take_seat(&mut self, room: &str) -> u64 {
        let name = self.name.clone();
        let seated = self
            .ask(json!({"type": "take_seat", "room": room, "name": name}))
            .await;
        assert_eq!(seated["type"], "seated", "{seated}");
        seated["seat"].as_u64().unwrap()
    }

    pub async fn start(&mut self) {
        let id = self.command(json!({"type": "start"})).await;
        let ack = self.answer(id).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }

    /// Answers `decision` with `reply` (without waiting for the ack).
    pub async fn reply(&mut self, decision: u64, reply: Value) -> u64 {
        self.command(json!({"type": "reply", "decision": decision, "reply": reply}))
            .await
    }

    /// Plays with [`simple_reply`] until the game is over; returns the `game_over` frame.
    /// `pace` waits between replies (to stay well inside a tight message budget).
    pub async fn play_to_end(&mut self, pace: Duration) -> Value {
        loop {
            let v = self.recv().await;
            match v["type"].as_str() {
                Some("decision") => {
                    if !pace.is_zero() {
                        tokio::time::sleep(pace).await;
                    }
                    let d = v["decision"].as_u64().unwrap();
                    self.reply(d, simple_reply(&v)).await;
                }
                Some("game_over") => return v,
                Some("error") => panic!("{}: unexpected error {v}", self.name),
                _ => {}
            }
        }
    }

    /// Plays until `n` decisions of this client were answered; returns the last one's id.
    pub async fn play_decisions(&mut self, n: usize) -> u64 {
        let mut last = 0;
        for _ in 0..n {
            let v = self.until(|v| v["type"] == "decision").await;
            last = v["decision"].as_u64().unwrap();
            self.reply(last, simple_reply(&v)).await;
        }
        last
    }
}

/// A simple legal answer to any decision: play the first Action, play all Treasures, buy
/// Province / Gold / Silver when offered, otherwise the smallest legal choice.
pub fn simple_reply(decision: &Value) -> Value {
    let p = &decision["prompt"];
    let strs = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    match p["kind"].as_str().unwrap_or_default() {
        "action_phase" => match strs(&p["playable"]).first() {
            Some(card) => json!({"type": "play", "card": card}),
            None => json!({"type": "end_phase"}),
        },
        "buy_phase" => {
            if !strs(&p["treasures"]).is_empty() {
                return json!({"type": "play_all_treasures"});
            }
            let buyable = strs(&p["buyable"]);
            for want in ["province", "gold", "silver"] {
                if buyable.iter().any(|b| b == want) {
                    return json!({"type": "buy", "card": want});
                }
            }
            json!({"type": "end_phase"})
        }
        "choose_cards" => {
            let min = p["min"].as_u64().unwrap() as usize;
            let options = strs(&p["options"]);
            json!({"type": "cards", "cards": options[..min]})
        }
        "choose_pile" => {
            let options = strs(&p["options"]);
            json!({"type": "pile", "card": options.first()})
        }
        "choose_modes" => {
            let min = p["min"].as_u64().unwrap() as usize;
            json!({"type": "modes", "modes": p["options"].as_array().unwrap()[..min]})
        }
        "order_cards" => json!({"type": "cards", "cards": p["cards"]}),
        "yes_no" => json!({"type": "yes_no", "yes": true}),
        "name_card" => json!({"type": "name", "card": strs(&p["options"])[0]}),
        "choose_number" => json!({"type": "number", "number": p["min"]}),
        other => panic!("unknown prompt kind {other}"),
    }
}

/// A scripted player that buys one of each wanted card (in the order given) before
/// Gold and Silver, plays the Action it has played least often (a village first), and takes the optional
/// choices often enough that every kind of move happens: revealing Moat, putting a
/// card onto its deck (always: Harbinger), setting Library's Actions aside (always), discarding and trashing what
/// Sentry looks at, gaining what Thief trashed, putting Secret Passage's card on top or
/// at the bottom.
pub struct Curious {
    wants: Vec<String>,
    bought: BTreeSet<String>,
    /// How often it played each Action card.
    played: BTreeMap<String, u32>,
    /// Questions answered so far: the optional choices alternate with it. (Not the
    /// decision number, an opaque id: most are multiples of 1000, all Reaction
    /// questions' are not.)
    answered: u64,
}

impl Curious {
    pub fn new(wants: &[String]) -> Curious {
        Curious {
            wants: wants.to_vec(),
            bought: BTreeSet::new(),
            played: BTreeMap::new(),
            answered: 0,
        }
    }

    pub fn reply(&mut self, d: &Value) -> Value {
        let p = &d["prompt"];
        let n = self.answered;
        self.answered += 1;
        let strs = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        match p["kind"].as_str().unwrap() {
            "action_phase" => {
                let playable = strs(&p["playable"]);
                let times = |c: &String| self.played.get(c).copied().unwrap_or_default();
                let pick = playable
                    .iter()
                    .find(|c| *c == "village")
                    .or_else(|| playable.iter().min_by_key(|c| times(c)))
                    .cloned();
                match pick {
                    Some(card) => {
                        *self.played.entry(card.clone()).or_default() += 1;
                        json!({"type": "play", "card": card})
                    }
                    None => json!({"type": "end_phase"}),
                }
            }
            "buy_phase" if strs(&p["treasures"]).is_empty() => {
                let buyable = strs(&p["buyable"]);
                let can = |c: &str| buyable.iter().any(|b| b == c);
                let want = self
                    .wants
                    .iter()
                    .find(|w| !self.bought.contains(*w) && can(w))
                    .cloned();
                let pick = if can("province") {
                    Some("province".to_string())
                } else {
                    want.or_else(|| {
                        ["gold", "silver"]
                            .into_iter()
                            .find(|c| can(c))
                            .map(String::from)
                    })
                };
                match pick {
                    Some(card) => {
                        self.bought.insert(card.clone());
                        json!({"type": "buy", "card": card})
                    }
                    None => json!({"type": "end_phase"}),
                }
            }
            "choose_cards" => {
                let mut options = strs(&p["options"]);
                if d["purpose"] == "trash" {
                    // Trash the cards it did not buy to play first (Masquerade, Sentry):
                    // those it wants played stay in the game.
                    options.sort_by_key(|c| self.wants.contains(c));
                }
                let (min, max) = (
                    p["min"].as_u64().unwrap() as usize,
                    p["max"].as_u64().unwrap() as usize,
                );
                let often = n.is_multiple_of(2);
                let take = match d["purpose"].as_str().unwrap() {
                    "top_deck" | "set_aside" => 1,
                    "react" | "discard" if often => 1,
                    "trash" if n.is_multiple_of(3) => 1,
                    "gain" => max,
                    _ => min,
                };
                let take = take.clamp(min, max);
                json!({"type": "cards", "cards": options[..take]})
            }
            // Its own gain (Saboteur's victim): the card it wants most.
            "choose_pile" if d["purpose"] == "gain" && d.get("about").is_none() => {
                let options = strs(&p["options"]);
                match self.wants.iter().find(|w| options.contains(w)) {
                    Some(card) => json!({"type": "pile", "card": card}),
                    None => simple_reply(d),
                }
            }
            "yes_no" => json!({"type": "yes_no", "yes": n.is_multiple_of(2)}),
            // Secret Passage: on top, then at the bottom, in turn.
            "choose_number" => {
                let bound = if n.is_multiple_of(2) { "min" } else { "max" };
                json!({"type": "number", "number": p[bound]})
            }
            _ => simple_reply(d),
        }
    }
}

/// A card id from the wire.
pub fn card(v: &Value) -> CardId {
    v.as_str().unwrap().parse().unwrap()
}

/// The engine reply a wire reply stands for (written from the protocol guide).
pub fn engine_reply(r: &Value) -> Reply {
    let cards = |v: &Value| v.as_array().unwrap().iter().map(card).collect();
    match r["type"].as_str().unwrap() {
        "play" => Reply::Play(card(&r["card"])),
        "play_all_treasures" => Reply::PlayAllTreasures,
        "buy" => Reply::Buy(card(&r["card"])),
        "end_phase" => Reply::EndPhase,
        "cards" => Reply::Cards(cards(&r["cards"])),
        "pile" => Reply::Pile(r.get("card").filter(|c| !c.is_null()).map(card)),
        "modes" => Reply::Modes(
            r["modes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| serde_json::from_value::<Mode>(m.clone()).unwrap())
                .collect(),
        ),
        "yes_no" => Reply::YesNo(r["yes"].as_bool().unwrap()),
        "name" => Reply::Name(card(&r["card"])),
        "number" => Reply::Number(r["number"].as_u64().unwrap() as u32),
        other => panic!("unknown reply {other}"),
    }
}

/// Rebuilds a finished game from the record in its `game_over` message (setup, seed,
/// replies) with the engine, calling `each` on the game before the first reply and
/// after every one. Each reply in the record must name the number the engine gives the
/// decision it answers.
pub fn replay_record(result: &Value, mut each: impl FnMut(&Game)) -> Game {
    let setup = &result["setup"];
    assert_eq!(
        setup["kingdom"]["type"], "cards",
        "the record names the drawn cards: {setup}"
    );
    let setup = Setup {
        players: setup["players"].as_u64().unwrap() as u8,
        kingdom: Kingdom::Cards(
            setup["kingdom"]["cards"]
                .as_array()
                .unwrap()
                .iter()
                .map(card)
                .collect(),
        ),
        edition: serde_json::from_value::<Edition>(setup["edition"].clone()).unwrap(),
    };
    let seed: u64 = result["seed"].as_str().unwrap().parse().unwrap();
    let mut game = Game::new(&setup, seed).unwrap();
    each(&game);
    for (i, r) in result["replies"].as_array().unwrap().iter().enumerate() {
        assert_eq!(
            r["decision"].as_u64(),
            game.decision_number(),
            "reply {i} of the record names the decision it answered: {r}"
        );
        let seat = PlayerId(r["seat"].as_u64().unwrap() as u8);
        game.reply(seat, engine_reply(&r["reply"]))
            .expect("the record replays");
        each(&game);
    }
    assert!(game.is_over(), "the record replays to the end");
    game
}
