//! Property tests: many games between `random` bots, 2–6 players, random kingdoms drawn
//! from every implemented card (both editions' printings, played with either edition's
//! texts), driven through `Game::reply` exactly as the server drives it.
//!
//! After every reply: the cards of every kind are conserved across all zones, the
//! pending request (if any) is addressed to a real player, its prompt's bounds are
//! satisfiable, and it has more than one legal answer (a forced question is never
//! asked). Every game ends, replaying its record reproduces the same state hash, and
//! the same bots playing it down the unrecorded path (`play_out`) reach it too.
//! Over all games every kingdom card is played at least once (Gardens, which cannot
//! be played, gained), so no card escapes these checks.
//!
//! Every game ends for a reason the rules give — Provinces gone, three empty piles (four
//! with 5–6 players), or the engine's own turn limit / nobody-can-act stop — and enough
//! 5–6 player games end on four piles that the four-pile ending is exercised too.

use dominion_engine::setup::CardPool;
use dominion_engine::state::State;
use dominion_engine::{
    Agent, CardId, Edition, Event, Game, Kingdom, Observation, Prompt, Setup, bots,
};
use std::collections::{BTreeMap, BTreeSet};

mod common;

const GAMES: u64 = 2000;
const MAX_REPLIES: usize = 200_000;

fn census(st: &State) -> BTreeMap<CardId, usize> {
    let mut m = BTreeMap::new();
    let mut add = |c: CardId| *m.entry(c).or_insert(0) += 1;
    for pl in &st.players {
        pl.all_cards().for_each(&mut add);
    }
    st.trash.iter().copied().for_each(&mut add);
    for pile in &st.supply {
        *m.entry(pile.card).or_insert(0) += pile.count as usize;
    }
    m
}

fn check_pending(g: &Game) {
    let Some(req) = g.pending() else {
        assert!(g.is_over(), "no pending decision but the game is not over");
        return;
    };
    assert!(req.player.idx() < g.num_players());
    // Only the phase moves are asked with a single legal answer (from rules 2: whether
    // they are asked is public); a card's question never is.
    assert!(
        req.prompt.forced().is_none() || dominion_engine::game::is_public(req),
        "asked a question with a single legal answer: {req:?}"
    );
    match &req.prompt {
        Prompt::ChooseCards {
            options, min, max, ..
        } => {
            assert!(
                min <= max && *max as usize <= options.len(),
                "unsatisfiable {req:?}"
            );
        }
        Prompt::ChooseModes { options, min, max } => {
            assert!(
                min <= max && *max as usize <= options.len(),
                "unsatisfiable {req:?}"
            );
        }
        Prompt::ChoosePile { options, optional } => assert!(*optional || !options.is_empty()),
        // From rules 2 the Action phase is asked even with nothing to play (whether it is
        // asked must not tell anyone whether the hand holds an Action): `end_phase` is
        // then the one answer, and every card offered is in the hand.
        Prompt::ActionPhase { playable } => {
            let hand = &g.state().player(req.player).hand;
            assert!(playable.iter().all(|c| c.is_action() && hand.contains(c)));
        }
        _ => {}
    }
}

/// Kingdom cards put into play (Actions, Treasures) or, for the others, gained.
fn exercised(events: &[Event], seen: &mut BTreeSet<CardId>) {
    for e in events {
        match e {
            Event::Played { card, .. } | Event::PlayedAgain { card, .. } => {
                seen.insert(*card);
            }
            Event::Gained { card, .. } if !card.is_action() && !card.is_treasure() => {
                seen.insert(*card);
            }
            _ => {}
        }
    }
}

/// Why a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ending {
    Provinces,
    /// With 5–6 players: four piles (and Provinces left).
    FourPiles,
    /// With 2–4 players: three piles (and Provinces left).
    ThreePiles,
    TurnLimit,
    Stuck,
}

fn ending(seed: u64, st: &State) -> Ending {
    let piles = st.empty_piles();
    let ending = if st.supply_count(CardId::Province) == 0 {
        Ending::Provinces
    } else if piles >= st.piles_to_end() {
        if st.num_players() >= 5 {
            Ending::FourPiles
        } else {
            Ending::ThreePiles
        }
    } else if st.turn_count >= State::TURN_LIMIT_PER_PLAYER * st.num_players() as u32 {
        Ending::TurnLimit
    } else {
        assert!(
            st.stuck(),
            "seed {seed}: ended with {piles} empty piles, Provinces left, nobody stuck"
        );
        Ending::Stuck
    };
    if st.num_players() >= 5 && ending != Ending::Provinces {
        // Three empty piles never end a 5–6 player game.
        assert!(
            piles >= 4 || matches!(ending, Ending::TurnLimit | Ending::Stuck),
            "seed {seed}: a {}-player game ended on {piles} piles",
            st.num_players()
        );
    }
    ending
}

fn play_one(seed: u64, seen: &mut BTreeSet<CardId>) -> (usize, u32, Ending) {
    let players = 2 + (seed % 5) as u8;
    let edition = if seed.is_multiple_of(2) {
        Edition::Second
    } else {
        Edition::First
    };
    let setup = Setup {
        players,
        kingdom: Kingdom::RandomFrom(CardPool::Both),
        edition,
    };
    let mut g = Game::new(&setup, seed).expect("setup");
    let start = census(g.state());
    let agents_for = || -> Vec<Box<dyn Agent + Send>> {
        (0..players)
            .map(|i| bots::by_name("random", seed * 31 + i as u64).unwrap())
            .collect()
    };
    let mut agents = agents_for();
    let mut replies = 0;
    while let Some(req) = g.pending().cloned() {
        let reply = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.reply(req.player, reply.clone())
            .unwrap_or_else(|e| panic!("seed {seed}: legal reply {reply:?} refused: {e}"));
        replies += 1;
        assert_eq!(
            census(g.state()),
            start,
            "seed {seed}: cards not conserved after reply {replies}"
        );
        check_pending(&g);
        assert!(replies < MAX_REPLIES, "seed {seed}: game did not end");
    }
    assert!(g.is_over());
    let replay = Game::replay(&g.record()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert_eq!(
        replay.state_hash(),
        g.state_hash(),
        "seed {seed}: replay diverged"
    );
    assert_eq!(replay.digest(), g.digest(), "seed {seed}: digests differ");
    assert_eq!(
        replay.events(),
        g.events(),
        "seed {seed}: replay events differ"
    );
    // The simulator's path runs each turn straight through, with no snapshot and no
    // resume point: the same agents must reach the very same state by it.
    let mut direct = Game::new_unrecorded(&setup, seed).expect("setup");
    direct.play_out(&mut agents_for());
    assert_eq!(
        direct.state_hash(),
        g.state_hash(),
        "seed {seed}: the recorded and unrecorded paths diverged"
    );
    exercised(g.events(), seen);
    (replies, g.state().turn_count, ending(seed, g.state()))
}

/// What the games of one thread add up to: replies, the longest game's turns, the cards
/// played, and how many games ended each way.
#[derive(Default)]
struct Tally {
    replies: usize,
    max_turns: u32,
    seen: BTreeSet<CardId>,
    endings: BTreeMap<Ending, usize>,
}

#[test]
fn random_bot_games_conserve_cards_end_and_replay() {
    // Over every core (`common::on_every_core`); each thread's tally merged below.
    let tallies = common::on_every_core(GAMES, |seeds| {
        let mut t = Tally::default();
        for seed in seeds {
            let (r, turns, e) = play_one(seed, &mut t.seen);
            t.replies += r;
            t.max_turns = t.max_turns.max(turns);
            *t.endings.entry(e).or_default() += 1;
        }
        t
    });
    let mut total_replies = 0;
    let mut max_turns = 0;
    let mut seen = BTreeSet::new();
    let mut endings: BTreeMap<Ending, usize> = BTreeMap::new();
    for t in tallies {
        total_replies += t.replies;
        max_turns = max_turns.max(t.max_turns);
        seen.extend(t.seen);
        for (e, n) in t.endings {
            *endings.entry(e).or_default() += n;
        }
    }
    eprintln!("{GAMES} games, {total_replies} replies, longest {max_turns} turns, {endings:?}");
    // Random bots rarely afford Provinces: their games end on piles.
    for e in [Ending::FourPiles, Ending::ThreePiles] {
        assert!(
            endings.get(&e).copied().unwrap_or(0) >= 10,
            "too few games ended by {e:?}: {endings:?}"
        );
    }
    let missed: Vec<CardId> = CardId::all()
        .filter(|c| c.is_kingdom() && !seen.contains(c))
        .collect();
    assert!(missed.is_empty(), "never played (or gained): {missed:?}");
}
