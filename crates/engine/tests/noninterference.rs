//! Non-interference: every frame a viewer receives is a function of what that viewer may
//! know.
//!
//! A *game* (one seed) is random: 2–6 players, either edition, 10 of all the kingdom
//! cards (a third of the kingdoms hold at least one of [`INTERESTING`]), every seat a
//! `random`, a `standard` or a [`Declining`] bot. It is played to the start of a random
//! turn T, and the state there is taken. A *case* is that game and one variation: a seat
//! S whose hidden cards are dealt again, as many to hand and deck as before (see
//! [`Deal`]: only their order, one card swapped between hand and deck, or all
//! reshuffled; about half the deals change what the hand holds). Every seat is S in
//! some cases of each game, the current player in four, every other seat in two. World
//! A is the state as it was, world B the one dealt again; both are played from there by
//! fresh bots with the same seeds, for `TURNS_AFTER` turns or to the game's end. World
//! A is played once and compared with every case's world B.
//!
//! Every other viewer W (each other seat and a spectator) cannot tell the two worlds
//! apart until S does something W sees. W's *stream* is what a server would send it:
//! after the start and after every accepted reply the test asks [`shown`] what W is
//! shown now and, when that changed, appends a frame: the newly shown events as W may see
//! them ([`Event::for_viewer`]), W's view ([`Game::view`]), and the decision number when
//! the pending question is W's own. W's streams in A and B must be the same up to the
//! first frame that shows an event the other world does not have there (S did something
//! W sees; a different Action- or Buy-phase move counts too, as moves are public). A
//! first difference in the view or the decision number only, in where a frame ends
//! while the events read across frames agree (one world stopped for a question the other
//! did not ask), or in the number of frames is a leak: W learnt something of S's hidden
//! cards (see [`compare`]).
//!
//! Running it:
//! - `cargo test -p dominion-engine --test noninterference` runs `CASES` cases (the
//!   games of seeds 0, 1, 2, … until there are that many) and fails on the first game
//!   with a leak, naming the case as `seed/S<seat>/<deal>`.
//! - `NONINTERFERENCE_CASES=n` runs at least n cases instead.
//! - `NONINTERFERENCE_REPORT=1` runs them all, counts the leaks by family (which question
//!   was pending or asked in one world and not the other, which fields of the view
//!   differed), names the first case of each, and fails only at the end;
//!   `NONINTERFERENCE_EXAMPLES=1` adds one example of each family.
//! - `NONINTERFERENCE_CASE=seed` runs the game of that seed with all its variations and
//!   prints every leak; with `NONINTERFERENCE_DUMP=1` also each leaking viewer's frames
//!   in both worlds (events, whose turn it is, the decision number) up to the first
//!   difference.
//!
//! Many cases run quickly in the release profile:
//! `NONINTERFERENCE_CASES=200000 NONINTERFERENCE_REPORT=1 cargo test -p dominion-engine
//! --release --test noninterference`.

use dominion_engine::setup::{CardPool, pool_cards};
use dominion_engine::state::State;
use dominion_engine::{
    Agent, CardId, Edition, Event, Game, Kingdom, Observation, PlayerId, PlayerView, Prompt,
    Purpose, Reply, Request, Setup, Viewer, bots,
};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Cases run by default, at least (`NONINTERFERENCE_CASES` changes it): about 2,000
/// games, some 20 s in the debug profile on two cores.
const CASES: u64 = 20_000;
/// Turns each world is played for after the re-deal (unless the game ends first).
const TURNS_AFTER: u32 = 3;
/// The variations start at a turn from the third round to this one (or at the game's
/// last turn, if it ends sooner).
const MAX_ROUNDS: u32 = 16;
/// A bound on the replies of one game, so a bot that never ends a turn fails loudly.
const MAX_REPLIES: usize = 50_000;

/// Cards whose questions depend on what a hand holds; a third of the kingdoms get one.
const INTERESTING: [CardId; 12] = dominion_engine::testing::SECRET_PRONE;

/// What `viewer` is shown now: how many of `game.events()` it may see, and its view.
///
/// This is the test's whole frame model, kept to one function so that it follows the
/// engine: `Game::visible` says how far the viewer may see (while another player's
/// private question is pending, only up to the last public decision) and `Game::view`
/// what it sees there. The server sends frames by the same two calls (its
/// `room/shown.rs` and `projection`).
fn shown(game: &Game, viewer: Viewer) -> (usize, PlayerView) {
    (game.visible(viewer).events, game.view(viewer))
}

/// One frame sent to one viewer.
///
/// Frames are compared as the JSON a client would receive. `Event` and `PlayerView`
/// leave no field out of their JSON, so two values are equal exactly when their JSON is:
/// the test compares the values (serializing every view would take most of its time)
/// and checks, at the first difference, that the JSON differs too.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Frame {
    /// The events shown since the previous frame, each as this viewer may see it.
    events: Vec<Event>,
    view: PlayerView,
    /// The pending decision's number, when the question is this viewer's.
    number: Option<u64>,
}

impl Frame {
    fn json(&self) -> String {
        let events: Vec<String> = self.events.iter().map(json).collect();
        format!(
            "{{\"events\":[{}],\"view\":{},\"number\":{:?}}}",
            events.join(","),
            json(&self.view),
            self.number
        )
    }
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("serializes")
}

/// A frame and, for classifying a leak, what was pending when it was sent.
#[derive(Clone, Debug)]
struct Sent {
    frame: Frame,
    pending: Option<Request>,
    turn: u32,
    /// How many questions had been answered.
    asked: usize,
}

/// One random game and the turn its variations start at, all drawn from `seed`.
#[derive(Debug)]
struct Case {
    seed: u64,
    setup: Setup,
    game_seed: u64,
    /// Each seat's bot: name and seed.
    bots: Vec<(&'static str, u64)>,
    /// The turn (`State::turn_count`) the variations start at.
    turn: u32,
    /// The seed of the re-deals.
    deal_seed: u64,
}

impl Case {
    fn new(seed: u64) -> Case {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6e6f_6e69_6e74_6572);
        let players: u8 = rng.random_range(2..=6);
        let edition = if rng.random_bool(0.5) {
            Edition::First
        } else {
            Edition::Second
        };
        let mut pool = pool_cards(CardPool::Both);
        pool.shuffle(&mut rng);
        let mut kingdom: Vec<CardId> = pool[..10].to_vec();
        if rng.random_ratio(1, 3) && !kingdom.iter().any(|c| INTERESTING.contains(c)) {
            kingdom[0] = *INTERESTING.choose(&mut rng).unwrap();
        }
        let bots = (0..players)
            .map(|_| {
                let name = *["random", "standard", "declining"]
                    .choose(&mut rng)
                    .unwrap();
                (name, rng.random::<u64>())
            })
            .collect();
        Case {
            seed,
            setup: Setup {
                players,
                kingdom: Kingdom::Cards(kingdom),
                edition,
            },
            game_seed: rng.random(),
            bots,
            // From the third round on: before, decks hold little but Coppers and Estates.
            turn: rng.random_range(2 * players as u32 + 1..=MAX_ROUNDS * players as u32),
            deal_seed: rng.random(),
        }
    }

    /// The variations of this game: every seat as S, the current player dealt again
    /// four times (two deals that only reorder, a swap and a reshuffle), every other
    /// seat twice (one that reorders, a swap or a reshuffle).
    fn variations(&self) -> usize {
        2 * self.setup.players as usize + 2
    }

    fn agents(&self) -> Vec<Box<dyn Agent + Send>> {
        self.bots
            .iter()
            .map(|&(name, seed)| match name {
                "declining" => Box::new(Declining(bots::by_name("random", seed).unwrap())),
                _ => bots::by_name(name, seed).expect("bot"),
            })
            .collect()
    }
}

use dominion_engine::testing::Declining;

/// Plays `case`'s game to the start of its turn (or of the last turn, if the game ends
/// sooner) and returns the state there.
fn turn_start(case: &Case) -> State {
    let mut game = Game::new(&case.setup, case.game_seed).expect("setup");
    let mut agents = case.agents();
    let mut start: Option<State> = None;
    let mut seen = 0;
    let mut replies = 0;
    while !game.is_over() {
        let st = game.state();
        if st.turn_count != seen {
            // The first question of a turn: nothing has happened in it yet.
            seen = st.turn_count;
            assert!(
                st.player(st.current).in_play.is_empty() && st.turn.actions_played == 0,
                "case seed {}: not a turn's start",
                case.seed
            );
            start = Some(st.clone());
            if seen >= case.turn {
                break;
            }
        }
        bot_step(&mut game, &mut agents, case.seed);
        replies += 1;
        assert!(replies < MAX_REPLIES, "case seed {}: no end", case.seed);
    }
    start.expect("a turn started")
}

/// How S's hidden cards are dealt again in world B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deal {
    /// The same cards in hand, hand and deck in another order.
    Reorder,
    /// Hand and deck pooled, shuffled and dealt back, as many to each as before (tried
    /// until the hand holds other cards, where it can).
    Reshuffle,
    /// One card of the hand and a different one of the deck change places, both other
    /// than Actions where the cards allow; all else stays put. The smallest change to
    /// the hand: S then often plays the same Actions in both worlds, so that what
    /// differs only in the questions they ask shows.
    Swap,
}

/// Deals `s`'s hand and deck again as `deal` says: the same cards, as many to each as
/// before. Returns whether the hand's cards changed.
fn redeal(st: &mut State, s: PlayerId, deal: Deal, rng: &mut ChaCha8Rng) -> bool {
    let pl = st.player_mut(s);
    let sorted = |v: &[CardId]| {
        let mut v = v.to_vec();
        v.sort();
        v
    };
    let before = sorted(&pl.hand);
    let swaps: Vec<(usize, usize)> = (0..pl.hand.len())
        .flat_map(|i| (0..pl.deck.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| pl.hand[i] != pl.deck[j])
        .collect();
    let quiet: Vec<(usize, usize)> = swaps
        .iter()
        .copied()
        .filter(|&(i, j)| !pl.hand[i].is_action() && !pl.deck[j].is_action())
        .collect();
    let swap = quiet.choose(rng).or_else(|| swaps.choose(rng));
    match (deal, swap) {
        (Deal::Reorder, _) => {
            pl.hand.shuffle(rng);
            pl.deck.shuffle(rng);
        }
        (Deal::Swap, Some(&(i, j))) => std::mem::swap(&mut pl.hand[i], &mut pl.deck[j]),
        // With no card to swap, no deal changes the hand: reshuffle all the same.
        (Deal::Reshuffle, _) | (Deal::Swap, None) => {
            let n = pl.hand.len();
            let mut pool: Vec<CardId> = pl.hand.iter().chain(&pl.deck).copied().collect();
            for _ in 0..32 {
                pool.shuffle(rng);
                if sorted(&pool[..n]) != before {
                    break;
                }
            }
            pl.deck = pool.split_off(n);
            pl.hand = pool;
        }
    }
    sorted(&pl.hand) != before
}

/// Sends `viewer` a frame if what it is shown changed since the last one.
struct Stream {
    viewer: Viewer,
    /// Events shown so far, and the last view and number sent.
    shown: usize,
    last: Option<(PlayerView, Option<u64>)>,
    frames: Vec<Sent>,
}

impl Stream {
    fn new(viewer: Viewer) -> Stream {
        Stream {
            viewer,
            shown: 0,
            last: None,
            frames: Vec::new(),
        }
    }

    fn update(&mut self, game: &Game, asked: usize) {
        let (n, view) = shown(game, self.viewer);
        let number = view.pending.as_ref().and(game.decision_number());
        // As the server does: a frame when there are events the viewer may now see, or
        // a decision of its own that it has not been sent.
        let own_new = number.is_some() && self.last.as_ref().map(|l| l.1) != Some(number);
        // A viewer that answered a private question of its own was shown events past the
        // last public decision; while another's is pending it is shown no fewer (the
        // server keeps a count per viewer and sends only what is new).
        if n <= self.shown && !own_new {
            return;
        }
        let n = n.max(self.shown);
        let now = (view, number);
        let events = game.events()[self.shown..n]
            .iter()
            .map(|e| e.for_viewer(self.viewer))
            .collect();
        self.frames.push(Sent {
            frame: Frame {
                events,
                view: now.0.clone(),
                number: now.1,
            },
            pending: game.pending().cloned(),
            turn: game.state().turn_count,
            asked,
        });
        self.shown = n;
        self.last = Some(now);
    }
}

/// What one world sent, and what it asked.
struct World {
    /// Each viewer's stream.
    streams: Vec<Vec<Sent>>,
    /// Every question answered and its answer, in order (to name what one world asked
    /// and the other did not, and to tell a different public move).
    asked: Vec<(Request, Reply)>,
}

/// The agent of the seat asked answers the pending question; returns both.
fn bot_step(game: &mut Game, agents: &mut [Box<dyn Agent + Send>], seed: u64) -> (Request, Reply) {
    let req = game
        .pending()
        .cloned()
        .expect("a game not over asks something");
    let reply = agents[req.player.idx()].decide(&Observation::for_player(game, req.player), &req);
    game.answer(req.player, reply.clone())
        .unwrap_or_else(|e| panic!("case seed {seed}: {reply:?} refused: {e}"));
    (req, reply)
}

/// Plays a world from `state` and returns each viewer's stream.
fn play_world(case: &Case, state: State, viewers: &[Viewer]) -> World {
    let stop = state.turn_count + TURNS_AFTER;
    let mut game = Game::from_state_for_tests(&case.setup, state);
    let mut agents = case.agents();
    let mut streams: Vec<Stream> = viewers.iter().map(|w| Stream::new(*w)).collect();
    streams.iter_mut().for_each(|s| s.update(&game, 0));
    let mut asked = Vec::new();
    while !game.is_over() && game.state().turn_count < stop {
        asked.push(bot_step(&mut game, &mut agents, case.seed));
        streams
            .iter_mut()
            .for_each(|s| s.update(&game, asked.len()));
        assert!(asked.len() < MAX_REPLIES, "case seed {}: no end", case.seed);
    }
    World {
        streams: streams.into_iter().map(|s| s.frames).collect(),
        asked,
    }
}

/// A leak found in one viewer's streams.
#[derive(Debug)]
struct Leak {
    family: String,
    detail: String,
}

/// How one viewer's streams in the two worlds compare.
enum Outcome {
    /// Identical throughout.
    Same,
    /// They first differ in a frame that shows an event the other world's stream does
    /// not have there: S did something this viewer sees. `early` names the question one
    /// world stopped at when that frame ended sooner there but what came next differed
    /// visibly (the stop told the viewer a little sooner what it then saw anyway; not
    /// counted as a leak, reported apart).
    Visible {
        early: Option<String>,
    },
    Leak(Leak),
}

/// Every event of a stream, read across frame boundaries.
fn flat(stream: &[Sent]) -> impl Iterator<Item = &Event> {
    stream.iter().flat_map(|f| &f.frame.events)
}

fn events(frame: Option<&Sent>) -> &[Event] {
    frame.map_or(&[], |f| &f.frame.events)
}

/// Names a seat by its part in the case: S (re-dealt), W (the viewer) or X (another).
fn role(p: PlayerId, s: PlayerId, w: Viewer) -> &'static str {
    if p == s {
        "S"
    } else if w.is(p) {
        "W"
    } else {
        "X"
    }
}

/// "S Discard(baron)": who is asked what, by which card; for a Reaction, with which
/// ("S React(militia: moat)").
fn describe(req: Option<&Request>, s: PlayerId, w: Viewer) -> String {
    let Some(r) = req else {
        return "nothing".into();
    };
    let mut card = r.card.map_or(String::new(), |c| c.key().to_string());
    if let (Purpose::React, Prompt::ChooseCards { options, .. }) = (r.purpose, &r.prompt) {
        let mut with: Vec<&str> = options.iter().map(|c| c.key()).collect();
        with.dedup();
        card = format!("{card}: {}", with.join("+"));
    }
    format!("{} {:?}({card})", role(r.player, s, w), r.purpose)
}

/// The paths at which two JSON values differ, with each seat index named by its role.
fn diff_paths(a: &Value, b: &Value, path: &str, s: PlayerId, w: Viewer, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match y.get(k) {
                    Some(vb) => diff_paths(va, vb, &p, s, w, out),
                    None => out.push(p),
                }
            }
            out.extend(
                y.keys()
                    .filter(|k| !x.contains_key(*k))
                    .map(|k| format!("{path}.{k}")),
            );
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                let p = if path == "seats" {
                    format!("{path}[{}]", role(PlayerId(i as u8), s, w))
                } else {
                    format!("{path}[]")
                };
                diff_paths(va, vb, &p, s, w, out);
            }
        }
        _ if a != b => out.push(path.to_string()),
        _ => {}
    }
}

/// The view fields (and the decision number) in which two frames differ.
fn view_fields(a: &Frame, b: &Frame, s: PlayerId, w: Viewer) -> Vec<String> {
    let va = serde_json::to_value(&a.view).unwrap();
    let vb = serde_json::to_value(&b.view).unwrap();
    let mut out = Vec::new();
    diff_paths(&va, &vb, "", s, w, &mut out);
    if a.number != b.number {
        out.push("decision_number".into());
    }
    out.sort();
    out.dedup();
    out
}

/// The values at the differing paths, for a leak's detail (seats named by index here).
fn show_diff(a: &Frame, b: &Frame) -> String {
    let va = serde_json::to_value(&a.view).unwrap();
    let vb = serde_json::to_value(&b.view).unwrap();
    let mut out = String::new();
    for key in [
        "waiting_for",
        "phase",
        "current",
        "turn_count",
        "actions",
        "buys",
        "coins",
    ] {
        if va[key] != vb[key] {
            out += &format!("  {key}: A {} / B {}\n", va[key], vb[key]);
        }
    }
    if let (Some(x), Some(y)) = (va["seats"].as_array(), vb["seats"].as_array()) {
        for (i, (sa, sb)) in x.iter().zip(y).enumerate() {
            if sa != sb {
                out += &format!("  seats[{i}]: A {sa}\n            B {sb}\n");
            }
        }
    }
    if a.number != b.number {
        out += &format!("  decision_number: A {:?} / B {:?}\n", a.number, b.number);
    }
    out
}

/// Compares viewer `w`'s streams in world A and world B.
///
/// They must be the same up to the first frame whose events differ. Frame boundaries
/// count too: a frame that ends sooner in one world (that world stopped for a question)
/// while the events of both streams, read on across the boundary, are still the same,
/// is a leak, as is a frame whose events are the same and whose view or decision number
/// is not, or a frame only one world sends.
fn compare(
    a: &[Sent],
    b: &[Sent],
    asked: [&[(Request, Reply)]; 2],
    s: PlayerId,
    w: Viewer,
) -> Outcome {
    let at = (0..a.len().max(b.len())).find(|&i| match (a.get(i), b.get(i)) {
        (Some(x), Some(y)) => x.frame != y.frame,
        _ => true,
    });
    let Some(i) = at else {
        return Outcome::Same;
    };
    let (x, y) = (a.get(i), b.get(i));
    let (ea, eb) = (events(x), events(y));
    // The frames before `i` are the same, so are their events; how far are all the
    // events the same, read across frame boundaries?
    let before: usize = a[..i].iter().map(|f| f.frame.events.len()).sum();
    let common = flat(a).zip(flat(b)).take_while(|(p, q)| p == q).count();
    let stopped = match ea.len().cmp(&eb.len()) {
        std::cmp::Ordering::Less => x,
        std::cmp::Ordering::Greater => y,
        std::cmp::Ordering::Equal => None,
    };
    let stop = || describe(stopped.and_then(|f| f.pending.as_ref()), s, w);
    if common < before + ea.len().max(eb.len()) {
        let prefix = ea.iter().zip(eb).all(|(p, q)| p == q);
        let early = (ea.len() != eb.len() && prefix && x.is_some() && y.is_some()).then(stop);
        return Outcome::Visible { early };
    }
    let key = |r: &Request| (r.player, r.purpose, r.card);
    let (qa, qb) = (
        &asked[0][..x.map_or(0, |f| f.asked)],
        &asked[1][..y.map_or(0, |f| f.asked)],
    );
    // A phase move is public: the same phase question answered otherwise is a difference
    // the viewer sees even where the events are the same (a Silver, then another, or
    // all Treasures at once). Only the phase moves are compared, in order: a private
    // question asked in one world only (which the viewer does not see) must not hide a
    // public move that differs after it — a random bot asked one more question draws
    // its later choices differently.
    let public = |q: &[(Request, Reply)]| -> Vec<_> {
        q.iter()
            .filter(|(r, _)| dominion_engine::game::is_public(r))
            .map(|(r, y)| (key(r), y.clone()))
            .collect()
    };
    let moved = public(qa).into_iter().zip(public(qb)).find(|(p, q)| p != q);
    if let Some((p, q)) = moved
        && p.0 == q.0
    {
        return Outcome::Visible { early: None };
    }
    let head = |f: &Sent| {
        format!(
            "turn {}, pending {}, {} events",
            f.turn,
            describe(f.pending.as_ref(), s, w),
            f.frame.events.len()
        )
    };
    // The first question answered in one world and not the other (or another one in
    // its place), before the first different frame: the cause, when there is one.
    let first = (0..qa.len().max(qb.len()))
        .find(|&k| qa.get(k).map(|q| key(&q.0)) != qb.get(k).map(|q| key(&q.0)))
        .map(|k| {
            let (p, q) = (
                describe(qa.get(k).map(|q| &q.0), s, w),
                describe(qb.get(k).map(|q| &q.0), s, w),
            );
            if p < q {
                format!("{p} / {q}")
            } else {
                format!("{q} / {p}")
            }
        });
    let (family, detail) = match (x, y) {
        (Some(x), Some(y)) => {
            assert_ne!(x.frame.json(), y.frame.json(), "unequal values, equal JSON");
            let detail = format!(
                "frame {i}: A {} / B {}; first different question: {first:?}\n{}",
                head(x),
                head(y),
                show_diff(&x.frame, &y.frame)
            );
            let kind = if stopped.is_some() {
                // One world stopped where the other went on.
                "extra stop".to_string()
            } else {
                format!(
                    "view [{}]",
                    view_fields(&x.frame, &y.frame, s, w).join(", ")
                )
            };
            let family = match &first {
                Some(first) => format!("{kind}; earlier asked {first}"),
                None if stopped.is_some() => format!("{kind} for {}", stop()),
                None => {
                    let (da, db) = (
                        describe(x.pending.as_ref(), s, w),
                        describe(y.pending.as_ref(), s, w),
                    );
                    if da == db {
                        format!("{kind}; both pending {da}")
                    } else if da < db {
                        format!("{kind}; pending {da} / {db}")
                    } else {
                        format!("{kind}; pending {db} / {da}")
                    }
                }
            };
            (family, detail)
        }
        (Some(f), None) | (None, Some(f)) => {
            let world = if x.is_some() { "A" } else { "B" };
            let cause = first.unwrap_or_else(|| describe(f.pending.as_ref(), s, w));
            (
                format!("extra frame; {cause}"),
                format!("frame {i} only in world {world}: {}", head(f)),
            )
        }
        (None, None) => unreachable!("a first difference"),
    };
    let detail = if std::env::var_os("NONINTERFERENCE_DUMP").is_some() {
        let dump = |v: &[Sent]| {
            v.iter()
                .take(i + 1)
                .enumerate()
                .map(|(k, f)| {
                    let events: Vec<String> = f.frame.events.iter().map(json).collect();
                    format!(
                        "    {k}: [{}] waiting for {:?}, number {:?}\n",
                        events.join(", "),
                        f.frame.view.waiting_for,
                        f.frame.number
                    )
                })
                .collect::<String>()
        };
        format!("{detail}  world A:\n{}  world B:\n{}", dump(a), dump(b))
    } else {
        detail
    };
    Outcome::Leak(Leak { family, detail })
}

/// What one case (a game and one variation of it) found.
struct CaseResult {
    seed: u64,
    s: PlayerId,
    deal: Deal,
    s_current: bool,
    hand_changed: bool,
    /// Per viewer: visible difference, identical, or a leak.
    visible: usize,
    same: usize,
    leaks: Vec<(Viewer, Leak)>,
    /// The questions a world stopped at early before a visible difference.
    early: Vec<String>,
    summary: String,
}

impl CaseResult {
    /// How to name the case: its game's seed, S and the deal.
    fn id(&self) -> String {
        format!("{}/S{}/{:?}", self.seed, self.s, self.deal)
    }
}

/// Runs the game of `seed` and all its variations. World A is the game as it was;
/// each variation plays its own world B.
fn run_game(seed: u64) -> Vec<CaseResult> {
    let case = Case::new(seed);
    let start = turn_start(&case);
    let players = case.setup.players;
    let viewers: Vec<Viewer> = (0..players)
        .map(|p| Viewer::Player(PlayerId(p)))
        .chain([Viewer::Spectator])
        .collect();
    let world_a = play_world(&case, start.clone(), &viewers);
    let game = format!(
        "case seed {seed}: {players} players, {:?}, kingdom {:?}, bots {:?}, turn {}, \
         current seat {}",
        case.setup.edition,
        match &case.setup.kingdom {
            Kingdom::Cards(c) => c.iter().map(|c| c.key()).collect::<Vec<_>>(),
            _ => unreachable!(),
        },
        case.bots.iter().map(|b| b.0).collect::<Vec<_>>(),
        start.turn_count,
        start.current,
    );
    let mut rng = ChaCha8Rng::seed_from_u64(case.deal_seed);
    let mut results = Vec::with_capacity(case.variations());
    for s in (0..players).map(PlayerId) {
        let deals = if s == start.current {
            vec![Deal::Reorder, Deal::Swap, Deal::Reorder, Deal::Reshuffle]
        } else if rng.random_bool(0.5) {
            vec![Deal::Reorder, Deal::Swap]
        } else {
            vec![Deal::Reorder, Deal::Reshuffle]
        };
        for deal in deals {
            let mut other = start.clone();
            let hand_changed = redeal(&mut other, s, deal, &mut rng);
            let summary = format!(
                "{game}; S = seat {s}, {deal:?}: hand {:?} -> {:?}",
                start.player(s).hand,
                other.player(s).hand,
            );
            let others: Vec<(usize, Viewer)> = viewers
                .iter()
                .copied()
                .enumerate()
                .filter(|(_, w)| !w.is(s))
                .collect();
            let ws: Vec<Viewer> = others.iter().map(|(_, w)| *w).collect();
            let world_b = play_world(&case, other, &ws);
            let mut result = CaseResult {
                seed,
                s,
                deal,
                s_current: s == start.current,
                hand_changed,
                visible: 0,
                same: 0,
                leaks: Vec::new(),
                early: Vec::new(),
                summary,
            };
            for ((k, w), b) in others.iter().zip(&world_b.streams) {
                let asked = [&world_a.asked[..], &world_b.asked[..]];
                match compare(&world_a.streams[*k], b, asked, s, *w) {
                    Outcome::Same => result.same += 1,
                    Outcome::Visible { early } => {
                        result.visible += 1;
                        result.early.extend(early);
                    }
                    Outcome::Leak(leak) => result.leaks.push((*w, leak)),
                }
            }
            results.push(result);
        }
    }
    results
}

/// Prints the seed of a case that panicked (an engine or bot failure, not a leak).
struct SeedOnPanic(u64);

impl Drop for SeedOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("case seed {} panicked", self.0);
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number"))
    })
}

/// Runs the games of `seeds` on up to two threads. Unless `all`, stops soon after a
/// leak.
fn run_cases(seeds: Vec<u64>, all: bool) -> Vec<CaseResult> {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let results = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(2));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                    if i >= seeds.len() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let _guard = SeedOnPanic(seeds[i]);
                    let r = run_game(seeds[i]);
                    if !all && r.iter().any(|r| !r.leaks.is_empty()) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    results.lock().unwrap().extend(r);
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| (r.seed, r.s, r.deal == Deal::Reorder));
    results
}

/// Per family: cases, (case, viewer) pairs, cases with S the current player, the first
/// case and one example.
#[derive(Default)]
struct Family {
    cases: usize,
    viewers: usize,
    s_current: usize,
    first: Option<String>,
    example: String,
}

fn report(results: &[CaseResult]) -> String {
    let mut families: BTreeMap<&str, Family> = BTreeMap::new();
    for r in results {
        let mut seen: Vec<&str> = Vec::new();
        for (w, leak) in &r.leaks {
            let f = families.entry(&leak.family).or_default();
            f.viewers += 1;
            if !seen.contains(&leak.family.as_str()) {
                seen.push(&leak.family);
                f.cases += 1;
                f.s_current += usize::from(r.s_current);
                if f.first.is_none() {
                    f.first = Some(r.id());
                    f.example = format!("{}\n  viewer {w:?}, {}", r.summary, leak.detail);
                }
            }
        }
    }
    let count = |f: &dyn Fn(&CaseResult) -> usize| results.iter().map(f).sum::<usize>();
    let mut out = format!(
        "{} cases ({} with S the current player, {} with S's hand changed): {} leak; \
         (case, viewer) pairs: {} leak, {} see a visible difference first, {} see the \
         same stream\n",
        results.len(),
        count(&|r| usize::from(r.s_current)),
        count(&|r| usize::from(r.hand_changed)),
        count(&|r| usize::from(!r.leaks.is_empty())),
        count(&|r| r.leaks.len()),
        count(&|r| r.visible),
        count(&|r| r.same),
    );
    let mut sorted: Vec<_> = families.into_iter().collect();
    sorted.sort_by(|x, y| y.1.cases.cmp(&x.1.cases).then(x.0.cmp(y.0)));
    out += "cases  pairs  S=cur  first case              family\n";
    for (name, f) in &sorted {
        out += &format!(
            "{:5}  {:5}  {:5}  {:22}  {name}\n",
            f.cases,
            f.viewers,
            f.s_current,
            f.first.as_deref().unwrap_or("")
        );
    }
    let mut early: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    for r in results {
        for e in &r.early {
            early.entry(e).or_insert_with(|| (0, r.id())).0 += 1;
        }
    }
    out += "\nNot leaks: a world stopped sooner for a question, then what followed differed \
            visibly\npairs  first case              stopped for\n";
    for (name, (n, first)) in &early {
        out += &format!("{n:5}  {first:22}  {name}\n");
    }
    if std::env::var_os("NONINTERFERENCE_EXAMPLES").is_some() {
        for (name, f) in &sorted {
            out += &format!("\n== {name}\n{}\n", f.example);
        }
    }
    out
}

#[test]
fn no_frame_depends_on_another_players_hidden_cards() {
    if let Some(seed) = env_u64("NONINTERFERENCE_CASE") {
        let results = run_game(seed);
        for r in &results {
            eprintln!(
                "{}\n  {} viewers see a visible difference first, {} the same stream",
                r.summary, r.visible, r.same
            );
            for (w, leak) in &r.leaks {
                eprintln!("  LEAK to {w:?}: {}\n  {}", leak.family, leak.detail);
            }
        }
        assert!(
            results.iter().all(|r| r.leaks.is_empty()),
            "case seed {seed} leaks"
        );
        return;
    }
    let cases = env_u64("NONINTERFERENCE_CASES").unwrap_or(CASES) as usize;
    let all = std::env::var_os("NONINTERFERENCE_REPORT").is_some();
    // The games whose variations make up `cases` cases.
    let mut seeds = Vec::new();
    let mut planned = 0;
    while planned < cases {
        let seed = seeds.len() as u64;
        planned += Case::new(seed).variations();
        seeds.push(seed);
    }
    let started = std::time::Instant::now();
    let results = run_cases(seeds, all);
    eprintln!(
        "{:.1?} for {} cases ({} games)",
        started.elapsed(),
        results.len(),
        results.last().map_or(0, |r| r.seed + 1)
    );
    if all {
        eprintln!("{}", report(&results));
    }
    if let Some(r) = results.iter().find(|r| !r.leaks.is_empty()) {
        let (w, leak) = &r.leaks[0];
        panic!(
            "{}\nleaks to {w:?}: {}\n{}\n(case {}: rerun with NONINTERFERENCE_CASE={} for \
             every variation and viewer, NONINTERFERENCE_REPORT=1 for all cases)",
            r.summary,
            leak.family,
            leak.detail,
            r.id(),
            r.seed
        );
    }
    let visible = results.iter().map(|r| r.visible).sum::<usize>();
    assert!(
        visible > results.len() / 2,
        "only {visible} (case, viewer) pairs ever saw the worlds differ: the re-deal did \
         not matter"
    );
}
