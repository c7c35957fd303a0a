//! The search bot: it knows only what its player knows, its samples agree with that
//! knowledge, and it answers every decision legally in games of any size.

use super::{SearchBot, determinize};
use crate::agent::Agent;
use crate::bots::{RandomBot, Thinking, by_name_thinking};
use crate::card::CardId::{self, *};
use crate::cards::testkit::*;
use crate::decision::{Purpose, Reply};
use crate::game::Game;
use crate::setup::{Kingdom, Setup};
use crate::state::PlayerId;
use crate::view::Observation;
use crate::{Edition, Prompt};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One position, in one of three versions that differ only in what P0 cannot see: its
/// own deck order, and P1's hand, deck and the discard pile under its top card (P1
/// owns the same cards in each). P0 is in its Action phase.
pub(super) fn hidden_variant(v: usize) -> Game {
    hidden_variant_with(v, &[Village, Smithy, Copper, Copper, Silver])
}

/// [`hidden_variant`] with `p0_hand` as P0's hand.
pub(super) fn hidden_variant_with(v: usize, p0_hand: &[CardId]) -> Game {
    let (p0_deck, p1_hand, p1_deck, p1_discard): (&[CardId], &[CardId], &[CardId], &[CardId]) =
        match v {
            0 => (
                &[Gold, Estate, Copper, Province],
                &[Copper, Copper, Estate, Silver, Militia],
                &[Gold, Copper],
                &[Estate, Curse],
            ),
            1 => (
                &[Province, Copper, Estate, Gold],
                &[Gold, Copper, Militia, Copper, Estate],
                &[Silver, Estate],
                &[Copper, Curse],
            ),
            _ => (
                &[Copper, Province, Gold, Estate],
                &[Estate, Estate, Silver, Copper, Copper],
                &[Militia, Copper],
                &[Gold, Curse],
            ),
        };
    table(2)
        .hand(P0, p0_hand)
        .deck(P0, p0_deck)
        .discard(P0, &[Estate, Copper])
        .hand(P1, p1_hand)
        .deck(P1, p1_deck)
        .discard(P1, p1_discard)
        .supply(Province, 5)
        .start()
}

fn ask(bot: &mut SearchBot, g: &Game) -> Reply {
    let req = g.pending().expect("a decision").clone();
    let r = bot.decide(&Observation::for_player(g, req.player), &req);
    assert_eq!(req.prompt.validate(&r), Ok(()), "{r:?} answers {req:?}");
    r
}

#[test]
fn knowledge_holds_no_hand_or_deck_order_of_others_nor_its_own_deck_order() {
    let k: Vec<_> = (0..3)
        .map(|v| Observation::for_player(&hidden_variant(v), P0).knowledge())
        .collect();
    assert_eq!(k[0], k[1]);
    assert_eq!(k[0], k[2]);
    // What it does hold: its own hand and discard pile, its deck as a sorted multiset,
    // and P1's cards outside play and the discard top as a sorted multiset.
    let me = &k[0].seats[0];
    assert_eq!(me.hand, Some(vec![Village, Smithy, Copper, Copper, Silver]));
    assert_eq!(me.discard, Some(vec![Estate, Copper]));
    assert_eq!(me.unplaced, sorted(&[Copper, Estate, Gold, Province]));
    let p1 = &k[0].seats[1];
    assert_eq!((p1.hand.clone(), p1.discard.clone()), (None, None));
    assert_eq!(
        (
            p1.hand_count,
            p1.deck_count,
            p1.discard_count,
            p1.discard_top
        ),
        (5, 2, 2, Some(Curse))
    );
    assert_eq!(
        p1.unplaced,
        sorted(&[
            Copper, Copper, Copper, Estate, Estate, Silver, Gold, Militia
        ])
    );
}

#[test]
fn its_choices_are_the_same_whatever_the_hidden_cards_are() {
    let thinking = Thinking::playouts(120);
    let answers: Vec<(Reply, Option<super::SearchStats>)> = (0..3)
        .map(|v| {
            let mut bot = SearchBot::new(7, thinking.clone());
            let r = ask(&mut bot, &hidden_variant(v));
            (r, bot.last_search())
        })
        .collect();
    let stats = answers[0].1.expect("the Action phase was searched");
    assert_eq!(stats.candidates, 3, "Village, Smithy, or end the phase");
    assert_eq!(stats.playouts, 120);
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0], answers[2]);

    // A buy with $8, after the Treasures (played unsearched): the same again.
    let buys: Vec<(Reply, Option<super::SearchStats>)> = (0..3)
        .map(|v| {
            let mut g = hidden_variant(v);
            g.ok(P0, Reply::EndPhase);
            let mut bot = SearchBot::new(7, thinking.clone());
            assert_eq!(ask(&mut bot, &g), Reply::PlayAllTreasures);
            assert_eq!(bot.last_search(), None, "playing Treasures is not searched");
            g.ok(P0, Reply::PlayAllTreasures);
            assert_eq!(g.coins(), 4);
            let r = ask(&mut bot, &g);
            (r, bot.last_search())
        })
        .collect();
    assert!(buys[0].1.is_some_and(|s| s.candidates > 2), "{buys:?}");
    assert_eq!(buys[0], buys[1]);
    assert_eq!(buys[0], buys[2]);
}

#[test]
fn secret_masquerade_passes_are_undone_in_what_others_know() {
    let mut g = table(3)
        .hand(P0, &[Masquerade, Copper])
        .deck(P0, &[Estate, Gold, Silver])
        .hand(P1, &[Duchy, Silver])
        .hand(P2, &[Curse, Moat])
        .start();
    g.play(Masquerade);
    g.choose(P0, &[Estate]); // to P1
    g.choose(P1, &[Duchy]); // to P2, unseen by P0
    g.choose(P2, &[Curse]); // to P0
    g.choose(P0, &[]);
    assert_eq!(g.hand(P1), vec![Silver, Estate]);
    assert_eq!(g.hand(P2), vec![Duchy, Moat]);
    let k = Observation::for_player(&g, P0).knowledge();
    // P0 gave P1 the Estate (it knows), but P1's Duchy going to P2 it never saw: as far
    // as P0 knows, P1 still has it and P2 never got it.
    assert_eq!(k.seats[1].unplaced, sorted(&[Estate, Silver, Duchy]));
    assert_eq!(k.seats[2].unplaced, [Moat]);
    // P1 saw its own pass and the Estate it got; P2's Curse to P0 it did not see.
    let k1 = Observation::for_player(&g, P1).knowledge();
    assert_eq!(k1.seats[2].unplaced, sorted(&[Curse, Duchy, Moat]));
    assert_eq!(
        k1.seats[0].unplaced,
        sorted(&[Copper, Gold, Silver]),
        "the Estate seen passed"
    );
    // A sample still deals the public sizes.
    let st = determinize(&k, &mut ChaCha8Rng::seed_from_u64(3));
    assert_eq!(st.players[1].hand.len(), 2);
    assert_eq!(st.players[2].hand.len(), 2);
}

/// A recorded game between random bots, stopped at its `stop`th decision.
fn random_position(setup: &Setup, seed: u64, stop: usize) -> Game {
    let mut g = Game::new(setup, seed).unwrap();
    let mut bots: Vec<RandomBot> = (0..setup.players)
        .map(|i| RandomBot::new(seed * 10 + u64::from(i)))
        .collect();
    for _ in 0..stop {
        let Some(req) = g.pending().cloned() else {
            break;
        };
        let r = bots[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.reply(req.player, r).unwrap();
    }
    g
}

#[test]
fn samples_deal_every_zone_at_its_size_and_every_card_its_owner_has() {
    for seed in 0..40 {
        let players = 2 + (seed % 5) as u8;
        let setup = Setup {
            players,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        let g = random_position(&setup, seed, 20 + 13 * seed as usize);
        let truth = g.state();
        for viewer in 0..players {
            let viewer = PlayerId(viewer);
            let k = Observation::for_player(&g, viewer).knowledge();
            let st = determinize(&k, &mut ChaCha8Rng::seed_from_u64(seed));
            assert_eq!(
                (&st.supply, &st.trash, st.current, &st.turn, st.turn_count),
                (
                    &truth.supply,
                    &truth.trash,
                    truth.current,
                    &truth.turn,
                    truth.turn_count
                )
            );
            for (i, (s, t)) in st.players.iter().zip(&truth.players).enumerate() {
                let sizes = |p: &crate::state::PlayerState| {
                    (p.hand.len(), p.deck.len(), p.discard.len(), p.turns)
                };
                assert_eq!(sizes(s), sizes(t), "seat {i}, seed {seed}");
                assert_eq!((&s.in_play, &s.aside), (&t.in_play, &t.aside));
                assert_eq!(s.discard.last(), t.discard.last(), "the top is public");
                // No Masquerade here: public knowledge of what each owns is exact.
                let all =
                    |p: &crate::state::PlayerState| sorted(&p.all_cards().collect::<Vec<_>>());
                assert_eq!(all(s), all(t), "seat {i}, seed {seed}");
                if i == viewer.idx() {
                    assert_eq!((&s.hand, &s.discard), (&t.hand, &t.discard));
                }
            }
        }
    }
}

#[test]
fn searched_decisions_get_legal_replies_in_random_positions() {
    // Random games of random kingdoms; at every fifth phase decision the search bot is
    // asked too (`ask` checks its reply against the request) before the game goes on.
    let mut searched = 0;
    for seed in 0..24u64 {
        let players = 2 + (seed % 3) as u8;
        let setup = Setup {
            players,
            kingdom: Kingdom::Random,
            edition: if seed % 2 == 0 {
                Edition::Second
            } else {
                Edition::First
            },
        };
        let mut g = Game::new(&setup, 1000 + seed).unwrap();
        let mut random = RandomBot::new(seed);
        let mut phase_moves = 0;
        while let Some(req) = g.pending().cloned() {
            if matches!(req.purpose, Purpose::ActionPhase | Purpose::BuyPhase) {
                phase_moves += 1;
                if phase_moves % 5 == 0 {
                    let mut bot = SearchBot::new(seed, Thinking::playouts(12));
                    ask(&mut bot, &g);
                    searched += usize::from(bot.last_search().is_some());
                }
            }
            let r = random.decide(&Observation::for_player(&g, req.player), &req);
            g.reply(req.player, r).unwrap();
        }
    }
    assert!(searched >= 100, "only {searched} positions were searched");
}

#[test]
fn plays_whole_games_with_two_to_six_players() {
    for players in 2..=6u8 {
        let setup = Setup {
            players,
            kingdom: Kingdom::Random,
            edition: Edition::Second,
        };
        let mut g = Game::new_unrecorded(&setup, u64::from(players)).unwrap();
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
            .map(|i| {
                let name = if i % 2 == 0 { "search" } else { "random" };
                by_name_thinking(name, u64::from(i), &Thinking::playouts(6)).unwrap()
            })
            .collect();
        g.play_out(&mut agents);
        assert!(g.is_over(), "{players} players");
    }
}

/// A server with no thinker free asks `decide_at_once`: it answers as a search with no
/// time at all would (the policy's choice), says which answers skipped a search, and
/// moves the bot on as `decide` would, so a game replays the same whichever of the two
/// answered each decision (the downgrades given).
#[test]
fn answering_at_once_is_searching_with_no_time_and_keeps_the_bot_in_step() {
    let setup = Setup {
        players: 3,
        kingdom: Kingdom::Random,
        edition: Edition::Second,
    };
    // P0 searches (40 playouts) every other decision; the others are answered at once,
    // or by `decide` with a budget of no playouts.
    let play = |at_once: bool| {
        let mut g = Game::new(&setup, 11).unwrap();
        let mut bot = SearchBot::new(5, Thinking::playouts(40));
        let mut others: Vec<Box<dyn Agent + Send>> = (1..3)
            .map(|i| by_name_thinking("standard", i, &Thinking::default()).unwrap())
            .collect();
        let (mut mine, mut skipped) = (Vec::new(), 0);
        while let Some(req) = g.pending().cloned() {
            assert!(mine.len() < 20_000, "the game ends");
            let obs = Observation::for_player(&g, req.player);
            let reply = if req.player != P0 {
                others[req.player.idx() - 1].decide(&obs, &req)
            } else if mine.len() % 2 == 1 {
                bot.decide(&obs, &req)
            } else if at_once {
                let (r, skip) = bot.decide_at_once(&obs, &req);
                skipped += usize::from(skip);
                r
            } else {
                bot.thinking = Thinking::playouts(0);
                let r = bot.decide(&obs, &req);
                bot.thinking = Thinking::playouts(40);
                skipped += usize::from(bot.last_search().is_some());
                r
            };
            if req.player == P0 {
                mine.push(reply.clone());
            }
            g.reply(req.player, reply).unwrap();
        }
        assert!(g.is_over());
        (mine, skipped)
    };
    let (at_once, skipped) = play(true);
    let (no_time, searched_with_no_time) = play(false);
    assert_eq!(at_once, no_time);
    assert_eq!(skipped, searched_with_no_time);
    assert!(skipped > 0, "some of the quick answers skipped a search");
    assert!(SearchBot::new(1, Thinking::default()).thinks());
    let mut standard = by_name_thinking("standard", 1, &Thinking::default()).unwrap();
    assert!(!standard.thinks());
    let g = hidden_variant(0);
    let req = g.pending().unwrap().clone();
    let obs = Observation::for_player(&g, req.player);
    assert_eq!(
        standard.decide_at_once(&obs, &req),
        (standard.decide(&obs, &req), false),
        "other bots answer at once anyway"
    );
}

#[test]
fn the_buy_phase_prompt_after_treasures_offers_what_is_searched() {
    // $8 and one Buy: Province, Gold and the rest are tried; Copper and Curse are not.
    let mut g = table(2)
        .hand(P0, &[Gold, Gold, Silver])
        .deck(P0, &[Copper; 5])
        .hand(P1, &[Copper; 5])
        .start();
    g.ok(P0, Reply::PlayAllTreasures);
    let Prompt::BuyPhase { treasures, buyable } = g.prompt().clone() else {
        panic!("{:?}", g.prompt())
    };
    assert!(treasures.is_empty());
    let k = Observation::for_player(&g, P0).knowledge();
    let super::Plan::Search { cands, resume } = super::plan(g.req(), &k, Reply::Buy(Province))
    else {
        panic!("searched")
    };
    assert_eq!(resume, super::Resume::Ask);
    assert_eq!(cands[0], Reply::Buy(Province), "the policy's choice first");
    assert!(cands.contains(&Reply::Buy(Gold)) && cands.contains(&Reply::EndPhase));
    assert!(!cands.contains(&Reply::Buy(Copper)) && !cands.contains(&Reply::Buy(Curse)));
    assert!(!cands.contains(&Reply::Buy(Estate)), "not yet near the end");
    let kingdom_buyable = buyable.iter().filter(|c| c.is_kingdom()).count();
    // Province (the policy's), Duchy, Gold, Silver, every kingdom card, nothing.
    assert_eq!(cands.len(), 4 + kingdom_buyable + 1);
}

#[test]
fn a_caller_clock_stops_the_search_once_the_budget_has_passed() {
    // A fake clock that moves 10 µs each time it is read: with a 100 µs budget the
    // search stops after its 10th reading past the start, far below the playout cap.
    let ticks = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let t = ticks.clone();
    let thinking = Thinking {
        max_playouts: 10_000,
        budget_us: 100,
        clock: Some(std::sync::Arc::new(move || {
            t.fetch_add(10, std::sync::atomic::Ordering::Relaxed) + 10
        })),
    };
    let mut bot = SearchBot::new(7, thinking);
    ask(&mut bot, &hidden_variant(0));
    let stats = bot.last_search().expect("searched");
    // One reading starts the clock; each playout is preceded by one reading, and the
    // 10th reading after the start finds 100 µs gone. One reading found the first
    // round's share of the time gone and started the next round instead of a playout.
    assert_eq!(stats.playouts, 8);
    assert_eq!(ticks.load(std::sync::atomic::Ordering::Relaxed), 110);
}

#[test]
fn a_workshop_gain_is_searched_and_played_out_from_the_action_phase_after_it() {
    let position = |hand: &[CardId]| {
        let mut g = table(2)
            .hand(P0, hand)
            .deck(P0, &[Copper; 5])
            .discard(P0, &[Estate])
            .hand(P1, &[Copper; 5])
            .start();
        if hand.contains(&ThroneRoom) {
            g.play(ThroneRoom).choose(P0, &[Workshop]);
        } else {
            g.play(Village).play(Workshop);
        }
        assert_eq!(
            (g.req().card, g.req().purpose),
            (Some(Workshop), Purpose::Gain)
        );
        g
    };
    let g = position(&[Village, Workshop, Smithy, Copper]);
    let k = Observation::for_player(&g, P0).knowledge();
    let super::Plan::Search { cands, resume } = super::plan(g.req(), &k, Reply::Pile(Some(Silver)))
    else {
        panic!("searched")
    };
    assert_eq!(
        resume,
        super::Resume::AfterGain(crate::Destination::Discard)
    );
    assert_eq!(cands[0], Reply::Pile(Some(Silver)));
    assert!(cands.contains(&Reply::Pile(Some(Village))));
    assert!(
        !cands.contains(&Reply::Pile(Some(Copper))) && !cands.contains(&Reply::Pile(Some(Estate)))
    );
    // A playout gains the card, then the turn goes on in the Action phase: P0 has one
    // Action left for the Smithy it holds, and the Silver is in its discard pile.
    let st = determinize(&k, &mut ChaCha8Rng::seed_from_u64(1));
    let mut after = st.clone();
    super::rollout::gain(&mut after, P0, Silver, crate::Destination::Discard);
    assert_eq!(after.players[0].discard, vec![Estate, Silver]);
    assert_eq!(after.supply_count(Silver), st.supply_count(Silver) - 1);
    // The first question the playout asks is P0's Action phase (Smithy, or end it).
    type Seen = std::sync::Arc<std::sync::Mutex<Option<crate::Request>>>;
    struct First(Seen, Box<dyn Agent + Send>);
    impl Agent for First {
        fn name(&self) -> &str {
            "first"
        }
        fn decide(&mut self, obs: &Observation, req: &crate::Request) -> Reply {
            self.0.lock().unwrap().get_or_insert_with(|| req.clone());
            self.1.decide(obs, req)
        }
    }
    let seen = Seen::default();
    let mut agents: Vec<Box<dyn Agent + Send>> = vec![
        Box::new(First(seen.clone(), super::rollout::policy(0))),
        super::rollout::policy(1),
    ];
    let mut playout = Game::from_sampled_state(after);
    playout.play_out(&mut agents);
    assert!(playout.is_over());
    let first = seen.lock().unwrap().clone().expect("P0 was asked");
    assert_eq!(
        (first.purpose, first.prompt),
        (
            Purpose::ActionPhase,
            Prompt::ActionPhase {
                playable: vec![Smithy]
            }
        )
    );
    let mut bot = SearchBot::new(3, Thinking::playouts(40));
    ask(&mut bot, &g);
    assert!(bot.last_search().is_some());
    // Under Throne Room a second resolution is still to come: left to the policy.
    let g = position(&[ThroneRoom, Workshop, Copper]);
    let k = Observation::for_player(&g, P0).knowledge();
    assert_eq!(
        super::plan(g.req(), &k, Reply::Pile(Some(Silver))),
        super::Plan::Answer(Reply::Pile(Some(Silver)))
    );
}
