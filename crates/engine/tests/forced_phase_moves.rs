//! An unrecorded game answers a phase move with one legal answer itself when the seat's
//! agent declares it is not moved on by such a move (`Agent::unmoved_by_forced_phase_moves`):
//! the agent is then not asked, and the game is exactly the one it would have been.

use dominion_engine::{
    Agent, Edition, Game, Kingdom, Observation, Prompt, Reply, Request, Setup, bots,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the phase moves without a choice it is asked, and says it is unmoved by them
/// when `unmoved` (whatever the bot inside would say).
struct Counting {
    inner: Box<dyn Agent + Send>,
    unmoved: bool,
    forced: Arc<AtomicUsize>,
}

impl Agent for Counting {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        if matches!(&req.prompt, Prompt::ActionPhase { playable } if playable.is_empty()) {
            self.forced.fetch_add(1, Ordering::Relaxed);
        }
        self.inner.decide(obs, req)
    }
    fn unmoved_by_forced_phase_moves(&self) -> bool {
        self.unmoved
    }
}

fn setup(kingdom: Kingdom) -> Setup {
    Setup {
        players: 2,
        kingdom,
        edition: Edition::Second,
    }
}

/// Plays game `seed` unrecorded between `names`, each wrapped; returns the final state
/// hash and how many forced phase moves the agents were asked.
fn play(setup: &Setup, names: &[&str], seed: u64, unmoved: bool) -> (u64, usize) {
    let forced = Arc::new(AtomicUsize::new(0));
    let mut agents: Vec<Box<dyn Agent + Send>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            Box::new(Counting {
                inner: bots::by_name(n, seed ^ i as u64).expect("a bot"),
                unmoved,
                forced: forced.clone(),
            }) as Box<dyn Agent + Send>
        })
        .collect();
    let mut game = Game::new_unrecorded(setup, seed).expect("setup");
    game.play_out(&mut agents);
    assert!(game.is_over());
    (game.state_hash(), forced.load(Ordering::Relaxed))
}

#[test]
fn an_unmoved_agent_is_not_asked_a_phase_move_without_a_choice_and_the_game_is_the_same() {
    let kingdoms = [
        Kingdom::Recommended("base_2e/first_game".into()),
        Kingdom::Random,
    ];
    let mut skipped = 0;
    for kingdom in kingdoms {
        let setup = setup(kingdom);
        for names in [["big_money", "big_money"], ["standard", "smithy"]] {
            for seed in 0..6 {
                let (asked_hash, asked) = play(&setup, &names, seed, false);
                let (skipped_hash, not_asked) = play(&setup, &names, seed, true);
                assert_eq!(skipped_hash, asked_hash, "{names:?} seed {seed}");
                assert_eq!(not_asked, 0, "{names:?} seed {seed}: asked a forced move");
                skipped += asked;
            }
        }
    }
    assert!(
        skipped > 100,
        "the games had forced moves to skip: {skipped}"
    );
}

#[test]
fn the_bots_that_declare_it_are_the_pure_ones() {
    let unmoved = |name: &str| {
        bots::by_name(name, 1)
            .expect("a bot")
            .unmoved_by_forced_phase_moves()
    };
    assert!(unmoved("big_money") && unmoved("smithy") && unmoved("standard"));
    // These count or sample per decision: they must be asked everything.
    assert!(!unmoved("search") && !unmoved("random") && !unmoved("easy"));
}

#[test]
fn a_recorded_game_asks_every_phase_move() {
    let setup = setup(Kingdom::Recommended("base_2e/first_game".into()));
    let mut game = Game::new(&setup, 3).expect("setup");
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..2)
        .map(|i| bots::by_name("big_money", i).expect("a bot"))
        .collect();
    let mut forced = 0;
    while let Some(req) = game.pending().cloned() {
        if matches!(&req.prompt, Prompt::ActionPhase { playable } if playable.is_empty()) {
            forced += 1;
        }
        let reply =
            agents[req.player.idx()].decide(&Observation::for_player(&game, req.player), &req);
        game.answer(req.player, reply).expect("valid");
    }
    assert!(
        forced > 20,
        "every Action phase of a money game is asked: {forced}"
    );
}
