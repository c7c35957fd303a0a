//! A Buy or Play all Treasures answered at the Action-phase decision (the reference bots
//! answer so whenever they end that phase; `crate::combined` in the engine) is exactly
//! the moves it stands for: every reference bot, on kingdoms with the cards that change
//! what Treasures bring or what cards cost (Merchant, Coppersmith, Bridge, Harem, Baron),
//! plays the same game — the same events, the same final state — as when each of its
//! combined moves is split into ending the phase and the Buy-phase moves after it. The
//! coins a combined Buy is checked with are compared with what the Treasures brought at
//! every such move (a debug assertion in the engine), so these games check that too.

use dominion_engine::{
    Agent, Edition, Event, Game, Kingdom, Observation, Prompt, Reply, Request, Setup, bots,
    is_combined_move,
};

/// Answers as `inner`, but ends the Action phase where `inner` answers a Buy-phase move
/// there: its later Buy-phase answers are the rest of that move.
struct OneAtATime {
    inner: Box<dyn Agent + Send>,
}

impl Agent for OneAtATime {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match self.inner.decide(obs, req) {
            r if is_combined_move(&req.prompt, &r) => Reply::EndPhase,
            r => r,
        }
    }
}

/// A money player of the cards that change what Treasures bring (no reference bot buys
/// Merchant, and none plays Coppersmith with an Action left): plays Festival, then
/// Merchant, then Coppersmith when it can; buys Province at $8, Gold at $6, Festival at
/// $5 and Coppersmith at $4 while it has fewer than three, Merchant at $3 while it has
/// fewer than two, else Silver at $3 — answered at the Action phase as one move, with the
/// coins the Treasures will bring (Festival's +Buy then asks the second Buy).
struct BonusMoney;

impl BonusMoney {
    fn buy(obs: &Observation, coins: u32) -> Option<dominion_engine::CardId> {
        use dominion_engine::CardId::*;
        let owned = |c| obs.count_owned(c);
        let wants = [
            (Province, 8, usize::MAX),
            (Gold, 6, usize::MAX),
            (Festival, 5, 3),
            (Coppersmith, 4, 3),
            (Merchant, 3, 2),
            (Silver, 3, usize::MAX),
        ];
        wants
            .into_iter()
            .filter(|(c, _, most)| owned(*c) < *most)
            .find(|(c, at, _)| coins >= *at && obs.supply_count(*c) > 0 && obs.cost(*c) <= coins)
            .map(|(c, _, _)| c)
    }
}

impl Agent for BonusMoney {
    fn name(&self) -> &str {
        "bonus_money"
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        use dominion_engine::CardId::*;
        match &req.prompt {
            Prompt::ActionPhase { playable } => {
                if let Some(c) = [Festival, Merchant, Coppersmith]
                    .into_iter()
                    .find(|c| playable.contains(c))
                {
                    return Reply::Play(c);
                }
                match Self::buy(obs, obs.coins_after_treasures()) {
                    Some(c) => Reply::Buy(c),
                    None if obs.hand().iter().any(|c| c.is_treasure()) => Reply::PlayAllTreasures,
                    None => Reply::EndPhase,
                }
            }
            Prompt::BuyPhase { treasures, .. } if !treasures.is_empty() => Reply::PlayAllTreasures,
            Prompt::BuyPhase { .. } => {
                Self::buy(obs, obs.coins()).map_or(Reply::EndPhase, Reply::Buy)
            }
            _ => bots::by_name("big_money", 0)
                .expect("a bot")
                .decide(obs, req),
        }
    }
}

/// Plays `seed` through `Game::answer` (the server's path); returns the final state
/// hash, the events, and how many replies were given.
fn play(setup: &Setup, names: &[&str], seed: u64, split: bool) -> (u64, Vec<Event>, usize) {
    let mut agents: Vec<Box<dyn Agent + Send>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let inner = match *n {
                "bonus_money" => Box::new(BonusMoney) as Box<dyn Agent + Send>,
                n => bots::by_name(n, seed ^ (i as u64 + 1)).expect("a bot"),
            };
            if split {
                Box::new(OneAtATime { inner }) as Box<dyn Agent + Send>
            } else {
                inner
            }
        })
        .collect();
    let mut g = Game::new(setup, seed).expect("setup");
    while let Some(req) = g.pending().cloned() {
        let p = req.player;
        let r = agents[p.idx()].decide(&Observation::for_player(&g, p), &req);
        g.answer(p, r.clone())
            .unwrap_or_else(|e| panic!("{names:?} seed {seed}: {r:?} to {req:?} refused: {e}"));
    }
    (g.state_hash(), g.events().to_vec(), g.replies().len())
}

#[test]
fn every_reference_bot_plays_the_same_game_with_its_moves_combined_or_split() {
    let bonus_cards = [
        "merchant",
        "coppersmith",
        "bridge",
        "harem",
        "baron",
        "smithy",
        "militia",
        "festival",
        "moneylender",
        "throne_room",
    ];
    let kingdoms = [
        Kingdom::Cards(
            bonus_cards
                .iter()
                .map(|c| c.parse().expect("a card"))
                .collect(),
        ),
        Kingdom::Recommended("base_2e/first_game".into()),
        Kingdom::Random,
    ];
    let mut reference: Vec<&str> = bots::NAMES
        .iter()
        .copied()
        .filter(|n| !bots::LEVELS.contains(n) && *n != "random")
        .collect();
    reference.extend(["bonus_money"; 4]);
    assert!(reference.len() > 20, "{reference:?}");
    let (mut games, mut combined, mut split) = (0, 0, 0);
    for (k, kingdom) in kingdoms.into_iter().enumerate() {
        for players in [2u8, 3] {
            let setup = Setup {
                players,
                kingdom: kingdom.clone(),
                edition: if k % 2 == 0 {
                    Edition::Second
                } else {
                    Edition::First
                },
            };
            for (i, name) in reference.iter().enumerate() {
                let other = if i % 3 == 0 {
                    "bonus_money"
                } else {
                    reference[(i + 7) % reference.len()]
                };
                let names: Vec<&str> = [*name, other, "big_money"][..players as usize].to_vec();
                let seed = (k * 100 + i) as u64;
                let one = play(&setup, &names, seed, false);
                let three = play(&setup, &names, seed, true);
                assert_eq!(one.0, three.0, "{names:?} seed {seed}: another final state");
                assert_eq!(one.1, three.1, "{names:?} seed {seed}: other events");
                games += 1;
                combined += one.2;
                split += three.2;
            }
        }
    }
    eprintln!("{games} games: {combined} replies with combined moves, {split} split");
    // The combined moves were made: about a reply a turn instead of three.
    assert!(
        combined * 2 < split,
        "{games} games: {combined} replies combined, {split} split"
    );
}
