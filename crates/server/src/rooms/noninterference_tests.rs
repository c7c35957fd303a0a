//! Non-interference on the server's own frames: what `projection::after_change` gives a
//! viewer — the very messages a room's `publish` sends — is a function of what that
//! viewer may know.
//!
//! The engine's test (`crates/engine/tests/noninterference.rs`) checks the engine's
//! views and events; this one checks the wire frames built from them, so a projection
//! that read a hidden card, or sent a frame the engine's `visible` did not call for,
//! would fail here. Random games (2–6 players, both editions, every kingdom card, a
//! third of the kingdoms holding one of the cards whose questions used to give hands
//! away) are played by `random` and `standard` bots to the start of a random turn;
//! then a seat S has its hand and deck dealt again (same sizes) and both worlds are
//! played on with the same bots for three turns. For every other viewer (each other
//! seat and a spectator) the two streams of frames, as JSON, must be identical up to
//! the first event that differs between them (S did something the viewer sees): a frame
//! boundary, a view or a decision number that differs before that is a leak.

use crate::rooms::projection;
use crate::rooms::state::RoomState;
use dominion_engine::setup::{CardPool, pool_cards};
use dominion_engine::state::State;
use dominion_engine::testing::Declining;
use dominion_engine::view::Observation;
use dominion_engine::{
    Agent, CardId, Edition, Game, Kingdom, PlayerId, Prompt, Reply, Request, Setup, Viewer, bots,
};
use dominion_protocol::ServerMessage;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Games played (each with one re-dealt seat): enough to meet every card's questions
/// many times, in a few seconds.
const GAMES: u64 = 300;
/// Turns each world is played after the re-deal.
const TURNS_AFTER: u32 = 3;

/// Cards whose questions (or their absence) once told others about hidden cards.
const INTERESTING: [CardId; 12] = dominion_engine::testing::SECRET_PRONE;

fn room(game: Game) -> RoomState {
    RoomState::playing(game, 1)
}

/// One frame as sent: its JSON and how many game events it carries.
struct Sent {
    json: String,
    events: Vec<String>,
}

/// Plays `room`'s game with `agents` for `turns` turns (or to its end), recording what
/// each of `viewers` is sent, as `publish` would.
fn play(
    mut room: RoomState,
    agents: &mut [Box<dyn Agent + Send>],
    viewers: &[Viewer],
    turns: u32,
) -> Vec<Vec<Sent>> {
    let now = tokio::time::Instant::now();
    let mut sent = vec![0u64; viewers.len()];
    let mut streams: Vec<Vec<Sent>> = viewers.iter().map(|_| Vec::new()).collect();
    let mut announced = None;
    let stop_at = room.game.as_ref().unwrap().state().turn_count + turns;
    loop {
        let game = room.game.as_ref().unwrap();
        let number = game.decision_number();
        let new_decision = number != announced;
        announced = number;
        for (i, v) in viewers.iter().enumerate() {
            for msg in projection::after_change(&room, *v, sent[i], new_decision, now) {
                let events = match &msg {
                    ServerMessage::Events { events, .. } => events
                        .iter()
                        .map(|e| serde_json::to_string(e).unwrap())
                        .collect(),
                    _ => Vec::new(),
                };
                streams[i].push(Sent {
                    json: serde_json::to_string(&msg).unwrap(),
                    events,
                });
            }
            sent[i] = sent[i].max(game.visible(*v).events as u64);
        }
        let game = room.game.as_mut().unwrap();
        let Some(req) = game.pending().cloned() else {
            break;
        };
        if game.state().turn_count >= stop_at {
            break;
        }
        let reply =
            agents[req.player.idx()].decide(&Observation::for_player(game, req.player), &req);
        game.answer(req.player, reply)
            .expect("a bot's reply is legal");
    }
    streams
}

/// Checks one viewer's two streams: frames must be the same until the first event
/// that differs (counting events across frames); a difference before it is a leak.
fn compare(a: &[Sent], b: &[Sent]) -> Result<(), String> {
    let flat = |s: &[Sent]| s.iter().flat_map(|f| f.events.clone()).collect::<Vec<_>>();
    let (ea, eb) = (flat(a), flat(b));
    let k = ea
        .iter()
        .zip(&eb)
        .position(|(x, y)| x != y)
        .unwrap_or(ea.len().min(eb.len()));
    let (mut end_a, mut end_b) = (0, 0);
    for (i, (fa, fb)) in a.iter().zip(b).enumerate() {
        end_a += fa.events.len();
        end_b += fb.events.len();
        if end_a > k || end_b > k {
            return Ok(());
        }
        if fa.json != fb.json {
            return Err(format!(
                "frame {i} differs before any event does:\n A: {}\n B: {}",
                fa.json, fb.json
            ));
        }
    }
    Ok(())
}

/// The bot of `seat`: `standard`, `random`, or a random bot that declines whatever it
/// may decline (reveals no Reaction, discards no Estate to Baron…), so that whether a
/// question was asked is often the only difference between two worlds.
fn bot(seed: u64, seat: usize) -> Box<dyn Agent + Send> {
    let random = || bots::by_name("random", seed * 10 + seat as u64).unwrap();
    match (seed + seat as u64) % 3 {
        0 => bots::by_name("standard", seed * 10 + seat as u64).unwrap(),
        1 => random(),
        _ => Box::new(Declining(random())),
    }
}

/// A random setup: a third of the kingdoms hold one of `INTERESTING`.
fn setup(rng: &mut ChaCha8Rng) -> Setup {
    let edition = if rng.random_bool(0.5) {
        Edition::First
    } else {
        Edition::Second
    };
    let pool: Vec<CardId> = pool_cards(CardPool::Both);
    let mut kingdom: Vec<CardId> = Vec::new();
    if rng.random_bool(0.34) {
        kingdom.push(*INTERESTING.choose(rng).unwrap());
    }
    while kingdom.len() < 10 {
        let c = *pool.choose(rng).unwrap();
        if !kingdom.contains(&c) {
            kingdom.push(c);
        }
    }
    Setup {
        players: rng.random_range(2..=6),
        kingdom: Kingdom::Cards(kingdom),
        edition,
    }
}

#[test]
fn no_frame_a_viewer_is_sent_depends_on_another_seats_hidden_cards() {
    let mut checked = 0;
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let setup = setup(&mut rng);
        let n = setup.players as usize;
        // To the start of a random turn.
        let mut game = Game::new(&setup, seed).unwrap();
        let mut agents: Vec<_> = (0..n).map(|i| bot(seed, i)).collect();
        let turn = rng.random_range(2..=(6 * n as u32));
        while let Some(req) = game.pending().cloned() {
            if game.state().turn_count >= turn && is_turn_start(&game) {
                break;
            }
            let r =
                agents[req.player.idx()].decide(&Observation::for_player(&game, req.player), &req);
            game.answer(req.player, r).unwrap();
        }
        if game.is_over() {
            continue;
        }
        let a: State = game.state().clone();
        let everyone: Vec<Viewer> = (0..n as u8)
            .map(|p| Viewer::Player(PlayerId(p)))
            .chain([Viewer::Spectator])
            .collect();
        let world = |st: State| {
            let mut agents: Vec<_> = (0..n).map(|i| bot(seed + 1000, i)).collect();
            play(
                room(Game::from_state_for_tests(&setup, st)),
                &mut agents,
                &everyone,
                TURNS_AFTER,
            )
        };
        let wa = world(a.clone());
        // Every seat in turn has its hand and deck dealt again.
        for s in (0..n as u8).map(PlayerId) {
            let mut b = a.clone();
            let pl = &mut b.players[s.idx()];
            let hand_size = pl.hand.len();
            let mut pool: Vec<CardId> = pl.hand.drain(..).chain(pl.deck.drain(..)).collect();
            pool.shuffle(&mut rng);
            pl.hand = pool.split_off(pool.len() - hand_size);
            pl.deck = pool;
            let wb = world(b);
            for (i, v) in everyone.iter().enumerate() {
                if v.is(s) {
                    continue;
                }
                if let Err(e) = compare(&wa[i], &wb[i]) {
                    panic!("game {seed} ({setup:?}), seat {s} dealt again: {v:?} {e}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} streams compared");
}

/// Whether the game waits at the first decision of a turn (nothing played yet).
fn is_turn_start(game: &Game) -> bool {
    let st = game.state();
    st.turn.phase == dominion_engine::Phase::Action
        && st.player(st.current).in_play.is_empty()
        && st.turn.actions == 1
}

/// Plays `card` once if it can, then ends its phases, playing its Treasures; declines
/// whatever it may decline and answers the rest at random: a turn that is the same in
/// two worlds as far as its player's choices go.
struct Scripted {
    card: Option<CardId>,
    other: Declining,
}

impl Agent for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match &req.prompt {
            Prompt::ActionPhase { playable } => match self.card.take() {
                Some(c) if playable.contains(&c) => Reply::Play(c),
                _ => Reply::EndPhase,
            },
            Prompt::BuyPhase { treasures, .. } if !treasures.is_empty() => Reply::PlayAllTreasures,
            Prompt::BuyPhase { .. } => Reply::EndPhase,
            _ => self.other.decide(obs, req),
        }
    }
}

/// One exact position (kingdom `K`) in two worlds that differ only in `seat`'s hidden cards: the
/// current player (seat 0) plays `card`; every other viewer's frames must be the same.
fn same_frames_for_others(
    name: &str,
    players: u8,
    card: CardId,
    seat: PlayerId,
    a: (&[CardId], &[CardId]),
    b: (&[CardId], &[CardId]),
    others: &[CardId],
) {
    let cards = |k: &[&str]| k.iter().map(|c| c.parse::<CardId>().unwrap()).collect();
    let setup = Setup {
        players,
        kingdom: Kingdom::Cards(cards(&K)),
        edition: Edition::Second,
    };
    let base = Game::new(&setup, 1).unwrap().state().clone();
    let position = |(hand, deck): (&[CardId], &[CardId])| {
        let mut st = base.clone();
        st.current = PlayerId(0);
        for (i, pl) in st.players.iter_mut().enumerate() {
            pl.discard.clear();
            pl.hand = others.to_vec();
            pl.deck = vec![CardId::Copper; 5];
            if i == 0 {
                pl.hand.push(card);
            }
        }
        let pl = &mut st.players[seat.idx()];
        pl.hand = hand.to_vec();
        if seat.idx() == 0 {
            pl.hand.push(card);
        }
        pl.deck = deck.to_vec();
        st
    };
    let everyone: Vec<Viewer> = (0..players)
        .map(|p| Viewer::Player(PlayerId(p)))
        .chain([Viewer::Spectator])
        .collect();
    let world = |st: State| {
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
            .map(|i| {
                Box::new(Scripted {
                    card: (i == 0).then_some(card),
                    other: Declining(bots::by_name("random", u64::from(i)).unwrap()),
                }) as Box<dyn Agent + Send>
            })
            .collect();
        play(
            room(Game::from_state_for_tests(&setup, st)),
            &mut agents,
            &everyone,
            1,
        )
    };
    let (wa, wb) = (world(position(a)), world(position(b)));
    for (i, v) in everyone.iter().enumerate() {
        if v.is(seat) {
            continue;
        }
        assert!(wa[i].len() > 1, "{name}: {v:?} got no frames");
        if let Err(e) = compare(&wa[i], &wb[i]) {
            panic!("{name}: {v:?} {e}");
        }
    }
}

/// The kingdom of the exact positions below.
const K: [&str; 10] = [
    "moat",
    "witch",
    "militia",
    "baron",
    "library",
    "village",
    "sentry",
    "torturer",
    "courtyard",
    "masquerade",
];

// The leaks an outside review found, each from an exact position: whether a question
// was asked must not show in anyone else's frames.

/// A Moat not revealed against Witch (no other question follows).
#[test]
fn a_moat_not_revealed_does_not_show() {
    use CardId::*;
    same_frames_for_others(
        "moat",
        3,
        Witch,
        PlayerId(1),
        (&[Moat, Copper, Copper, Estate, Copper], &[Copper; 5]),
        (
            &[Copper, Copper, Copper, Estate, Copper],
            &[Moat, Copper, Copper, Copper, Copper],
        ),
        &[Copper, Copper, Copper, Estate, Estate],
    );
}

/// Baron with or without an Estate (not discarded).
#[test]
fn barons_question_does_not_show() {
    use CardId::*;
    same_frames_for_others(
        "baron",
        2,
        Baron,
        PlayerId(0),
        (&[Estate, Copper, Copper, Copper], &[Copper; 5]),
        (
            &[Copper, Copper, Copper, Copper],
            &[Estate, Copper, Copper, Copper, Copper],
        ),
        &[Copper; 5],
    );
}

/// Library drawing an Action (kept) or not.
#[test]
fn librarys_question_does_not_show() {
    use CardId::*;
    same_frames_for_others(
        "library",
        2,
        Library,
        PlayerId(0),
        (
            &[Copper, Copper, Copper, Copper],
            &[Copper, Village, Copper, Copper],
        ),
        (
            &[Copper, Copper, Copper, Village],
            &[Copper, Copper, Copper, Copper],
        ),
        &[Copper; 5],
    );
}

/// A Militia victim whose hand is one kind of card, or not (same discard top).
#[test]
fn a_militia_victims_question_does_not_show() {
    use CardId::*;
    same_frames_for_others(
        "militia",
        3,
        Militia,
        PlayerId(2),
        (&[Copper; 5], &[Estate, Copper, Copper, Copper, Copper]),
        (&[Copper, Copper, Copper, Copper, Estate], &[Copper; 5]),
        &[Copper, Copper, Copper],
    );
}
