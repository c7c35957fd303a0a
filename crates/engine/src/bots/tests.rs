//! Pins the reference bots' rules (shared bots.md): each bot's buy list in chosen
//! situations, and the answers `PriorityBot` gives to card decisions. Requests are built
//! by hand in the shape the cards ask them, so these tests hold whatever a card does
//! around its question.

use super::by_name;
use crate::card::CardId::{self, *};
use crate::cards::testkit::*;
use crate::decision::Purpose::{self, *};
use crate::decision::{Mode, Prompt, Reply, Request, Zone};
use crate::game::Game;
use crate::state::PlayerId;
use crate::view::Observation;
use std::ops::RangeInclusive;

/// Asks `bot`, seated at `p` in `g`.
struct Q<'a> {
    bot: &'a str,
    g: &'a Game,
    p: PlayerId,
}

fn q<'a>(bot: &'a str, g: &'a Game, p: PlayerId) -> Q<'a> {
    Q { bot, g, p }
}

impl Q<'_> {
    /// The bot's answer, checked to be legal.
    fn answer(
        &self,
        card: Option<CardId>,
        about: Option<PlayerId>,
        purpose: Purpose,
        prompt: Prompt,
    ) -> Reply {
        let req = Request {
            player: self.p,
            card,
            about,
            purpose,
            prompt,
        };
        let reply = by_name(self.bot, 0)
            .unwrap()
            .decide(&Observation::for_player(self.g, self.p), &req);
        // As the game checks it: a Buy-phase move answered at the Action phase
        // (`crate::combined`) against the state, any other against the prompt.
        let afford = crate::afford::Affordable::new(&self.g.state().supply);
        if let Err(e) = crate::combined::validate(self.g.state(), &afford, &req, &reply) {
            panic!("{} answered {req:?} with {reply:?}: {e}", self.bot);
        }
        reply
    }

    /// The cards chosen among `options` (the bot's own, or `about` another player's).
    fn pick(
        &self,
        card: CardId,
        about: Option<PlayerId>,
        purpose: Purpose,
        zone: Zone,
        options: &[CardId],
        bounds: RangeInclusive<u8>,
    ) -> Vec<CardId> {
        let prompt = Prompt::ChooseCards {
            zone,
            options: options.to_vec(),
            min: *bounds.start(),
            max: *bounds.end(),
        };
        match self.answer(Some(card), about, purpose, prompt) {
            Reply::Cards(c) => c,
            r => panic!("{r:?}"),
        }
    }

    fn cards(
        &self,
        card: CardId,
        purpose: Purpose,
        zone: Zone,
        options: &[CardId],
        bounds: RangeInclusive<u8>,
    ) -> Vec<CardId> {
        self.pick(card, None, purpose, zone, options, bounds)
    }

    /// What it buys with `coins` and one Buy, Treasures already played.
    fn buys(&self, coins: u32) -> Option<CardId> {
        let st = self.g.state();
        let buyable = st
            .supply
            .iter()
            .filter(|pile| pile.count > 0 && st.cost(pile.card) <= coins)
            .map(|pile| pile.card)
            .collect();
        let prompt = Prompt::BuyPhase {
            treasures: vec![],
            buyable,
        };
        match self.answer(None, None, BuyPhase, prompt) {
            Reply::Buy(c) => Some(c),
            Reply::EndPhase => None,
            r => panic!("{}: {r:?} in the Buy phase", self.bot),
        }
    }
}

/// Player 0 owns the starting deck plus `extra` (in the discard pile); `left` Provinces.
fn owning(extra: &[CardId], left: u32) -> Game {
    let mut discard = vec![Copper; 7];
    discard.extend_from_slice(&[Estate; 3]);
    discard.extend_from_slice(extra);
    table(2)
        .discard(P0, &discard)
        .supply(Province, left)
        .start()
}

/// What `bot` (player 0) buys with `coins` owning `extra` with `left` Provinces.
fn buys(bot: &str, extra: &[CardId], left: u32, coins: u32) -> Option<CardId> {
    q(bot, &owning(extra, left), P0).buys(coins)
}

// ----- buy lists ----------------------------------------------------------------------

#[test]
fn library_and_moneylender_buy_by_money_then_their_card_once() {
    for (bot, card) in [("library", Library), ("moneylender", Moneylender)] {
        // money 7 + 6 Golds = 25 > 18: Province; 7 + 2*3 + 2*2 = 17 is not: Gold.
        assert_eq!(buys(bot, &[Gold; 6], 8, 8), Some(Province), "{bot}");
        assert_eq!(buys(bot, &[Gold, Gold, Silver, Silver], 8, 8), Some(Gold));
        assert_eq!(buys(bot, &[], 8, 5), Some(card), "{bot}: owns none");
        assert_eq!(buys(bot, &[card], 8, 5), Some(Silver), "{bot}: owns one");
        assert_eq!(buys(bot, &[], 6, 5), Some(Duchy), "{bot}: left 6");
        assert_eq!(buys(bot, &[], 7, 7), Some(Gold), "{bot}: left 7");
        assert_eq!(buys(bot, &[], 4, 7), Some(Duchy), "{bot}: left 4");
        assert_eq!(buys(bot, &[], 2, 2), Some(Estate), "{bot}: left 2");
        assert_eq!(buys(bot, &[], 3, 2), None, "{bot}: left 3");
    }
    assert_eq!(buys("moneylender", &[], 8, 4), Some(Moneylender));
    assert_eq!(buys("library", &[], 8, 4), Some(Silver));
}

#[test]
fn moneylender_counts_one_toward_money() {
    // 7 Coppers + 3 Golds + 1 Silver = 18, not > 18, until a Moneylender adds 1.
    assert_eq!(
        buys("library", &[Gold, Gold, Gold, Silver], 8, 8),
        Some(Gold)
    );
    let with_ml = [Gold, Gold, Gold, Silver, Moneylender];
    assert_eq!(buys("moneylender", &with_ml, 8, 8), Some(Province));
}

#[test]
fn chancellor_buys_a_second_only_with_more_than_19_treasures() {
    let bot = "chancellor";
    assert_eq!(buys(bot, &[], 8, 8), Some(Gold), "no Gold yet");
    assert_eq!(buys(bot, &[Gold], 8, 8), Some(Province));
    assert_eq!(buys(bot, &[], 8, 3), Some(Chancellor), "owns none");
    assert_eq!(buys(bot, &[Chancellor], 8, 3), Some(Silver));
    // 7 Coppers + 12 Silvers = 19 Treasures: 1 < 19/19 is false.
    let mut t = vec![Chancellor];
    t.extend_from_slice(&[Silver; 12]);
    assert_eq!(buys(bot, &t, 8, 4), Some(Silver));
    t.push(Silver);
    assert_eq!(buys(bot, &t, 8, 4), Some(Chancellor), "1 < 20/19");
    assert_eq!(buys(bot, &[], 6, 5), Some(Duchy));
    assert_eq!(buys(bot, &[], 7, 5), Some(Chancellor));
}

#[test]
fn adventurer_comes_after_the_first_gold() {
    let bot = "adventurer";
    assert_eq!(buys(bot, &[], 8, 6), Some(Gold));
    assert_eq!(buys(bot, &[Gold], 8, 6), Some(Adventurer));
    assert_eq!(buys(bot, &[Gold, Adventurer], 8, 6), Some(Gold));
    assert_eq!(buys(bot, &[Gold], 8, 8), Some(Province));
    assert_eq!(buys(bot, &[Gold], 4, 6), Some(Duchy), "left 4");
    assert_eq!(buys(bot, &[Gold], 6, 6), Some(Adventurer), "left 6");
    assert_eq!(buys(bot, &[], 5, 5), Some(Duchy), "left 5");
    assert_eq!(buys(bot, &[], 6, 5), Some(Silver), "left 6");
}

#[test]
fn bureaucrat_buys_one_then_one_per_20_treasures() {
    let bot = "bureaucrat";
    assert_eq!(buys(bot, &[], 8, 4), Some(Bureaucrat));
    assert_eq!(buys(bot, &[Bureaucrat], 8, 4), Some(Silver));
    // 7 Coppers + 13 Silvers = 20 Treasures: 1 < 20/20 is false.
    let mut t = vec![Bureaucrat];
    t.extend_from_slice(&[Silver; 13]);
    assert_eq!(buys(bot, &t, 8, 4), Some(Silver));
    t.push(Silver);
    assert_eq!(buys(bot, &t, 8, 4), Some(Bureaucrat), "1 < 21/20");
    assert_eq!(buys(bot, &[], 5, 6), Some(Duchy), "left 5");
    assert_eq!(buys(bot, &[], 6, 6), Some(Gold), "left 6");
    assert_eq!(buys(bot, &[], 6, 5), Some(Duchy), "left 6");
    assert_eq!(buys(bot, &[Gold], 3, 8), Some(Province));
}

#[test]
fn no_buy_or_gain_ends_the_game_in_a_loss() {
    // The last Province would end the game 6 to 12: a Duchy instead, bought or gained.
    let g = table(2)
        .discard(P1, &[Province, Province])
        .discard(P0, &[Gold; 7])
        .supply(Province, 1)
        .start();
    assert_eq!(q("library", &g, P0).buys(8), Some(Duchy));
    let pile = Prompt::ChoosePile {
        options: vec![Silver, Duchy, Province],
        optional: false,
    };
    let gained = q("library", &g, P0).answer(Some(Feast), None, Gain, pile);
    assert_eq!(gained, Reply::Pile(Some(Duchy)));
    // Ahead, it takes it.
    let mut mine = vec![Province, Province];
    mine.extend_from_slice(&[Gold; 7]);
    let g = table(2).discard(P0, &mine).supply(Province, 1).start();
    assert_eq!(q("library", &g, P0).buys(8), Some(Province));
}

// ----- play --------------------------------------------------------------------------

#[test]
fn plays_actions_giving_actions_first_then_the_most_expensive() {
    let g = owning(&[], 8);
    let play = |playable: &[CardId]| {
        let prompt = Prompt::ActionPhase {
            playable: playable.to_vec(),
        };
        q("library", &g, P0).answer(None, None, ActionPhase, prompt)
    };
    assert_eq!(play(&[Village, Smithy, Library]), Reply::Play(Village));
    assert_eq!(play(&[Smithy, Library]), Reply::Play(Library));
    assert_eq!(play(&[Moneylender, Chancellor]), Reply::Play(Moneylender));
    assert_eq!(play(&[Sentry, Adventurer]), Reply::Play(Sentry));
}

#[test]
fn library_sets_aside_actions_only_without_actions_left() {
    let set_aside =
        |g: &Game| q("library", g, P0).cards(Library, SetAside, Zone::Hand, &[Village], 0..=1);
    // Smithy used the only Action.
    let mut g = table(2)
        .hand(P0, &[Smithy, Copper])
        .deck(P0, &[Copper, Copper, Copper])
        .start();
    g.play(Smithy);
    assert_eq!(g.actions(), 0);
    assert_eq!(set_aside(&g), vec![Village]);
    // A Village first: Actions left, so the drawn Action is kept.
    let mut g = table(2)
        .hand(P0, &[Village, Library])
        .deck(P0, &[Copper])
        .start();
    g.play(Village);
    assert_eq!(g.actions(), 2);
    assert_eq!(set_aside(&g), vec![]);
}

#[test]
fn moneylender_always_trashes_a_copper_and_chancellor_always_discards_the_deck() {
    let g = table(2).hand(P0, &[Moneylender, Copper, Estate]).start();
    for bot in ["moneylender", "big_money"] {
        let trashed =
            q(bot, &g, P0).cards(Moneylender, Trash, Zone::Hand, &[Copper, Copper], 0..=1);
        assert_eq!(trashed, vec![Copper], "{bot}");
    }
    let g = table(2).hand(P0, &[Chancellor]).start();
    let yes = q("chancellor", &g, P0).answer(Some(Chancellor), None, DiscardDeck, Prompt::YesNo);
    assert_eq!(yes, Reply::YesNo(true));
}

// ----- victims -------------------------------------------------------------------------

#[test]
fn victims_discard_victory_cards_first_then_the_cheapest() {
    let g = table(2).start();
    let militia = |options: &[CardId]| {
        q("big_money", &g, P1).cards(Militia, Discard, Zone::Hand, options, 2..=2)
    };
    assert_eq!(
        militia(&[Copper, Silver, Gold, Estate, Duchy]),
        vec![Duchy, Estate]
    );
    assert_eq!(
        militia(&[Copper, Silver, Gold, Curse, Province]),
        vec![Province, Curse]
    );
    assert_eq!(
        militia(&[Copper, Silver, Gold, Smithy, Estate]),
        vec![Estate, Copper]
    );
    assert_eq!(
        militia(&[Gold, Silver, Smithy, Silver, Gold]),
        vec![Silver, Silver]
    );
}

#[test]
fn bureaucrat_victims_put_back_a_victory_card_and_bandit_victims_lose_the_cheapest() {
    let g = table(2).start();
    let victim = q("big_money", &g, P1);
    let put_back =
        |options: &[CardId]| victim.cards(Bureaucrat, TopDeck, Zone::Hand, options, 1..=1);
    assert_eq!(put_back(&[Estate, Province]), vec![Province]);
    assert_eq!(put_back(&[Estate, Gardens]), vec![Estate]);
    let trashed = victim.cards(Bandit, Trash, Zone::Revealed, &[Silver, Gold], 1..=1);
    assert_eq!(trashed, vec![Silver]);
}

#[test]
fn spy_discards_a_victims_good_card_and_its_own_bad_one() {
    let g = owning(&[], 8);
    let spy = |about, card| {
        q("big_money", &g, P0).pick(Spy, about, Discard, Zone::Revealed, &[card], 0..=1)
    };
    assert_eq!(spy(Some(P1), Gold), vec![Gold]);
    assert_eq!(spy(Some(P1), Smithy), vec![Smithy]);
    assert_eq!(spy(Some(P1), Estate), vec![]);
    assert_eq!(spy(Some(P1), Copper), vec![]);
    assert_eq!(spy(None, Gold), vec![]);
    assert_eq!(spy(None, Estate), vec![Estate]);
    assert_eq!(spy(None, Copper), vec![Copper]);
}

#[test]
fn thief_trashes_the_best_treasure_and_gains_all_but_copper() {
    let g = owning(&[], 8);
    let thief = q("big_money", &g, P0);
    let trash =
        |options: &[CardId]| thief.pick(Thief, Some(P1), Trash, Zone::Revealed, options, 1..=1);
    assert_eq!(trash(&[Silver, Gold]), vec![Gold]);
    assert_eq!(trash(&[Copper, Silver]), vec![Silver]);
    let gained = thief.cards(Thief, Gain, Zone::Trash, &[Copper, Silver, Gold], 0..=3);
    assert_eq!(gained, vec![Gold, Silver]);
}

// ----- other card decisions -------------------------------------------------------------

#[test]
fn own_discards_and_trashes_follow_the_conventions_order() {
    let g = owning(&[], 8);
    let me = q("big_money", &g, P0);
    let poacher = |options: &[CardId]| me.cards(Poacher, Discard, Zone::Hand, options, 3..=3);
    assert_eq!(
        poacher(&[Copper, Silver, Estate, Duchy, Curse]),
        vec![Curse, Estate, Duchy]
    );
    assert_eq!(
        poacher(&[Copper, Silver, Smithy, Province]),
        vec![Province, Copper, Silver]
    );
    // Cellar: only dead cards voluntarily.
    let cellar = me.cards(
        Cellar,
        Discard,
        Zone::Hand,
        &[Copper, Estate, Gardens, Silver],
        0..=4,
    );
    assert_eq!(cellar, vec![Estate, Gardens]);
    // Remodel must trash one: an Estate while the list does not want Estates…
    let remodel = |g: &Game| {
        q("big_money", g, P0).cards(Remodel, Trash, Zone::Hand, &[Copper, Silver, Estate], 1..=1)
    };
    assert_eq!(remodel(&g), vec![Estate]);
    // …but with 2 Provinces left it wants them: the Copper goes first.
    assert_eq!(remodel(&owning(&[], 2)), vec![Copper]);
}

#[test]
fn optional_trashing_keeps_six_money() {
    let chapel = |g: &Game| {
        let hand = [Copper, Copper, Copper, Estate, Duchy];
        q("big_money", g, P0).cards(Chapel, Trash, Zone::Hand, &hand, 0..=4)
    };
    // 7 Coppers: money 7, one Copper may go; with 2 Silvers (money 11), all three.
    assert_eq!(chapel(&owning(&[], 8)), vec![Estate, Copper]);
    assert_eq!(
        chapel(&owning(&[Silver, Silver], 8)),
        vec![Estate, Copper, Copper, Copper]
    );
    // Sentry, with the Estate wanted (2 Provinces left): only the Curse goes.
    let g = owning(&[], 2);
    let sentry = q("big_money", &g, P0).cards(Sentry, Trash, Zone::Deck, &[Curse, Estate], 0..=2);
    assert_eq!(sentry, vec![Curse]);
    // Then it discards Victory cards, keeps the rest, best on top.
    let g = owning(&[], 8);
    let me = q("big_money", &g, P0);
    let discard = me.cards(Sentry, Discard, Zone::Deck, &[Estate, Silver], 0..=2);
    assert_eq!(discard, vec![Estate]);
    let order = Prompt::OrderCards {
        cards: vec![Copper, Library, Gold],
    };
    let order = me.answer(Some(Sentry), None, TopDeck, order);
    assert_eq!(order, Reply::Cards(vec![Gold, Library, Copper]));
}

#[test]
fn harbinger_topdecks_its_best_card_vassal_plays_throne_room_doubles_a_village() {
    let g = owning(&[], 8);
    let me = q("big_money", &g, P0);
    let harbinger =
        |options: &[CardId]| me.cards(Harbinger, TopDeck, Zone::Discard, options, 0..=1);
    assert_eq!(
        harbinger(&[Copper, Estate, Silver, Gold, Smithy]),
        vec![Gold]
    );
    assert_eq!(harbinger(&[Copper, Estate, Smithy]), vec![Smithy]);
    assert_eq!(harbinger(&[Copper, Estate]), vec![]);
    let vassal = me.cards(Vassal, Play, Zone::Discard, &[Smithy], 0..=1);
    assert_eq!(vassal, vec![Smithy]);
    let tr = me.cards(
        ThroneRoom,
        PlayTwice,
        Zone::Hand,
        &[Smithy, Village, Gold],
        0..=1,
    );
    assert_eq!(tr, vec![Village]);
}

#[test]
fn artisan_gains_by_the_list_and_puts_back_what_it_cannot_use() {
    let g = owning(&[], 8);
    let pile = Prompt::ChoosePile {
        options: vec![Copper, Silver, Estate, Duchy, Curse, Smithy, Library],
        optional: false,
    };
    let gained = q("library", &g, P0).answer(Some(Artisan), None, Gain, pile);
    assert_eq!(gained, Reply::Pile(Some(Library)));
    // No Actions left (the first Smithy used it): the Smithy it cannot play goes back.
    let mut g = table(2)
        .hand(P0, &[Smithy, Smithy, Silver, Gold, Estate])
        .start();
    g.play(Smithy);
    assert_eq!(g.actions(), 0);
    let me = q("big_money", &g, P0);
    let back = |options: &[CardId]| me.cards(Artisan, TopDeck, Zone::Hand, options, 1..=1);
    assert_eq!(back(&[Silver, Gold, Estate, Smithy]), vec![Smithy]);
    // Silver + Gold = $5 buys a Silver; without the Gold $2 buys nothing, without the
    // Silver $3 still buys a Silver: the Silver goes back.
    assert_eq!(back(&[Silver, Gold, Estate]), vec![Silver]);
}

// ----- with the real cards -----------------------------------------------------------

/// Lets `bot` answer, for whichever player is asked, every pending decision that is not
/// a phase move (those are the test's).
fn bot_answers(g: &mut Game, bot: &str) {
    while let Some(req) = g.pending().cloned() {
        if matches!(req.purpose, ActionPhase | BuyPhase) {
            return;
        }
        let reply = by_name(bot, 0)
            .unwrap()
            .decide(&Observation::for_player(g, req.player), &req);
        g.ok(req.player, reply);
    }
}

#[test]
fn library_bot_skips_actions_it_cannot_play_when_the_card_asks() {
    let mut g = table(2)
        .hand(P0, &[Library, Copper])
        .deck(
            P0,
            &[
                Smithy, Copper, Copper, Village, Copper, Copper, Copper, Copper, Gold,
            ],
        )
        .start();
    g.play(Library);
    bot_answers(&mut g, "library");
    assert_eq!(g.hand(P0), vec![Copper; 7]);
    assert_eq!(g.discard(P0), vec![Village, Smithy]);
    assert_eq!(g.deck(P0), vec![Gold]);
}

#[test]
fn moneylender_and_chancellor_bots_with_the_cards() {
    let mut g = table(2)
        .hand(P0, &[Moneylender, Copper, Copper, Estate])
        .start();
    g.play(Moneylender);
    bot_answers(&mut g, "moneylender");
    assert_eq!((g.trash(), g.coins()), (vec![Copper], 3));
    let mut g = table(2)
        .edition(crate::card::Edition::First)
        .hand(P0, &[Chancellor])
        .deck(P0, &[Gold, Estate])
        .start();
    g.play(Chancellor);
    bot_answers(&mut g, "chancellor");
    assert_eq!((g.deck(P0), g.discard(P0)), (vec![], vec![Gold, Estate]));
}

#[test]
fn big_money_victims_of_bureaucrat_and_spy() {
    let mut g = table(2)
        .edition(crate::card::Edition::First)
        .hand(P0, &[Bureaucrat, Spy])
        .deck(P0, &[Estate, Copper])
        .hand(P1, &[Estate, Duchy, Copper, Silver])
        .deck(P1, &[Gold])
        .start();
    g.play(Bureaucrat);
    bot_answers(&mut g, "big_money");
    // Duchy first in the victim order; Silver onto the attacker's deck.
    assert_eq!(g.deck(P1), vec![Duchy, Gold]);
    assert_eq!(g.deck(P0), vec![Silver, Estate, Copper]);
    // Spy: draws the Estate, then discards its own Copper and the victim's Silver, and
    // leaves the victim's Estate.
    let mut g = table(3)
        .edition(crate::card::Edition::First)
        .hand(P0, &[Spy])
        .deck(P0, &[Estate, Copper, Gold])
        .deck(P1, &[Silver, Gold])
        .deck(P2, &[Estate, Gold])
        .start();
    g.play(Spy);
    bot_answers(&mut g, "big_money");
    assert_eq!(g.hand(P0), vec![Estate]);
    assert_eq!((g.discard(P0), g.deck(P0)), (vec![Copper], vec![Gold]));
    assert_eq!((g.discard(P1), g.deck(P1)), (vec![Silver], vec![Gold]));
    assert_eq!((g.discard(P2), g.deck(P2)), (vec![], vec![Estate, Gold]));
}

#[test]
fn a_bot_owning_every_kingdom_card_answers_every_decision_legally() {
    use super::{PriorityBot, Rule};
    use crate::agent::Agent;
    use crate::card::Edition;
    use crate::event::Event;
    use crate::setup::{CardPool, Kingdom, Setup};
    use std::collections::BTreeSet;
    // Bots buying two of each kingdom card, so every card's questions reach a
    // PriorityBot, as the player and as a victim; an invalid answer panics in the game.
    let mut played = BTreeSet::new();
    for seed in 0..150 {
        let setup = Setup {
            players: 2 + (seed % 3) as u8,
            kingdom: Kingdom::RandomFrom(CardPool::Both),
            edition: if seed % 2 == 0 {
                Edition::Second
            } else {
                Edition::First
            },
        };
        let mut g = Game::new(&setup, seed).unwrap();
        let kingdom = g.kingdom().to_vec();
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..setup.players)
            .map(|_| {
                let mut rules = vec![Rule::always(Province)];
                rules.extend(
                    kingdom
                        .iter()
                        .map(|&c| Rule::when(c, move |o| o.count_owned(c) < 2)),
                );
                // Copper last: a deck trashed down to no Treasures (Chapel,
                // Masquerade) can still buy, so games end by play, not by the turn
                // limit (which would make this test slow).
                rules.extend([
                    Rule::always(Gold),
                    Rule::always(Silver),
                    Rule::always(Copper),
                ]);
                Box::new(PriorityBot {
                    name: "everything",
                    rules,
                }) as Box<dyn Agent + Send>
            })
            .collect();
        g.play_out(&mut agents);
        assert!(g.is_over(), "seed {seed}");
        for e in g.events() {
            match e {
                Event::Played { card, .. } | Event::Gained { card, .. } => {
                    played.insert(*card);
                }
                _ => {}
            }
        }
    }
    let missed: Vec<CardId> = CardId::all()
        .filter(|c| c.is_kingdom() && !played.contains(c))
        .collect();
    assert!(missed.is_empty(), "never played: {missed:?}");
}

// ----- Intrigue reference bots (bots.md) ------------------------------------------------

impl Q<'_> {
    /// The modes chosen for `card`'s question offering `options`, one to choose.
    fn modes(&self, card: CardId, about: Option<PlayerId>, options: &[Mode]) -> Vec<Mode> {
        let prompt = Prompt::ChooseModes {
            options: options.to_vec(),
            min: 1,
            max: 1,
        };
        match self.answer(Some(card), about, ChooseModes, prompt) {
            Reply::Modes(m) => m,
            r => panic!("{r:?}"),
        }
    }

    /// What it does in the Action phase with `playable` (its hand is the game's).
    fn plays(&self, playable: &[CardId]) -> Reply {
        let prompt = Prompt::ActionPhase {
            playable: playable.to_vec(),
        };
        self.answer(None, None, ActionPhase, prompt)
    }

    /// The pile chosen for `card`'s gain among `options`.
    fn pile(
        &self,
        card: CardId,
        about: Option<PlayerId>,
        options: &[CardId],
        optional: bool,
    ) -> Option<CardId> {
        let prompt = Prompt::ChoosePile {
            options: options.to_vec(),
            optional,
        };
        match self.answer(Some(card), about, Gain, prompt) {
            Reply::Pile(c) => c,
            r => panic!("{r:?}"),
        }
    }
}

/// Player 0 holds `hand` and owns the starting deck besides (in the discard pile) plus
/// `extra`; `left` Provinces. (The standard bot's tests use it too.)
pub(crate) fn holding(hand: &[CardId], extra: &[CardId], left: u32) -> Game {
    let mut discard = vec![Copper; 7];
    discard.extend_from_slice(&[Estate; 3]);
    discard.extend_from_slice(extra);
    table(2)
        .hand(P0, hand)
        .discard(P0, &discard)
        .supply(Province, left)
        .start()
}

/// Lets `bot` play player 0's whole turn, phases included; stops when another
/// player's turn begins.
fn bot_turn(g: &mut Game, bot: &str) {
    while let Some(req) = g.pending().cloned() {
        if g.state().current != P0 {
            return;
        }
        let reply = by_name(bot, 0)
            .unwrap()
            .decide(&Observation::for_player(g, req.player), &req);
        g.ok(req.player, reply);
    }
}

fn played(g: &Game, card: CardId) -> bool {
    g.events()
        .iter()
        .any(|e| matches!(e, crate::event::Event::Played { card: c, .. } if *c == card))
}

#[test]
fn money_counts_bridge_minion_baron_and_harem() {
    let g = owning(
        &[Bridge, Minion, Baron, Harem, GreatHall, Nobles, Courtyard],
        8,
    );
    // 7 Coppers + Bridge 2 + Minion 2 + Baron 4 + Harem 2; the others count 0.
    assert_eq!(Observation::for_player(&g, P0).money(), 7 + 2 + 2 + 4 + 2);
    // 7 + 3 Golds = 16: Baron's 4 takes the baron bot over 18.
    assert_eq!(buys("baron", &[Gold; 3], 8, 8), Some(Gold));
    assert_eq!(
        buys("baron", &[Gold, Gold, Gold, Baron], 8, 8),
        Some(Province)
    );
}

#[test]
fn courtyard_buys_a_silver_first_then_courtyards_per_eight_treasures() {
    let bot = "courtyard";
    assert_eq!(buys(bot, &[], 8, 4), Some(Silver), "owns no Silver");
    assert_eq!(buys(bot, &[Silver], 8, 4), Some(Courtyard), "owns none");
    // 8 Treasures: 1 < 8/8 is false; with 10, 1 < 10/8.
    assert_eq!(buys(bot, &[Silver, Courtyard], 8, 4), Some(Silver));
    let three = [Silver, Silver, Silver, Courtyard];
    assert_eq!(buys(bot, &three, 8, 4), Some(Courtyard));
    // $2: Courtyard while it owns fewer than 2.
    assert_eq!(buys(bot, &[Silver, Courtyard], 8, 2), Some(Courtyard));
    let two = [Silver, Courtyard, Courtyard];
    assert_eq!(buys(bot, &two, 8, 2), None);
    assert_eq!(buys(bot, &[], 8, 8), Some(Gold));
    assert_eq!(buys(bot, &[Gold], 8, 8), Some(Province));
    assert_eq!(buys(bot, &[], 5, 5), Some(Duchy), "left 5");
    assert_eq!(buys(bot, &[], 6, 5), Some(Silver), "left 6");
}

#[test]
fn baron_torturer_nobles_coppersmith_masquerade_buy_their_card_once() {
    for (bot, card, cost) in [
        ("baron", Baron, 4),
        ("torturer", Torturer, 5),
        ("coppersmith", Coppersmith, 4),
        ("masquerade", Masquerade, 3),
    ] {
        assert_eq!(buys(bot, &[], 8, cost), Some(card), "{bot}");
        assert_eq!(buys(bot, &[card], 8, cost), Some(Silver), "{bot}");
        assert_eq!(buys(bot, &[], 8, 6), Some(Gold), "{bot}");
        assert_eq!(buys(bot, &[], 4, 5), Some(Duchy), "{bot}");
        assert_eq!(buys(bot, &[], 2, 2), Some(Estate), "{bot}");
    }
    // Nobles comes before Gold, once.
    assert_eq!(buys("nobles", &[], 8, 6), Some(Nobles));
    assert_eq!(buys("nobles", &[Nobles], 8, 6), Some(Gold));
    assert_eq!(buys("nobles", &[Nobles], 6, 5), Some(Duchy));
    assert_eq!(buys("nobles", &[Gold; 4], 8, 8), Some(Province), "money 19");
    // Masquerade: a Province only with 2 Golds; Duchy from 5 left.
    assert_eq!(buys("masquerade", &[Gold], 8, 8), Some(Gold));
    assert_eq!(buys("masquerade", &[Gold, Gold], 8, 8), Some(Province));
    assert_eq!(buys("masquerade", &[Masquerade], 5, 5), Some(Duchy));
    assert_eq!(buys("masquerade", &[Masquerade], 6, 5), Some(Silver));
    // Coppersmith: a Province with one Gold; Duchy from 6 left.
    assert_eq!(buys("coppersmith", &[Gold], 8, 8), Some(Province));
    assert_eq!(buys("coppersmith", &[Coppersmith], 6, 5), Some(Duchy));
}

#[test]
fn great_hall_with_seven_silvers_or_late() {
    let bot = "great_hall";
    let mut silvers = vec![Silver; 6];
    assert_eq!(buys(bot, &silvers, 8, 3), Some(Silver));
    silvers.push(Silver);
    assert_eq!(buys(bot, &silvers, 8, 3), Some(GreatHall));
    assert_eq!(buys(bot, &[], 4, 3), Some(GreatHall), "left 4");
    assert_eq!(buys(bot, &[], 4, 5), Some(Duchy), "left 4");
    assert_eq!(buys(bot, &[], 2, 2), Some(Estate), "left 2");
    assert_eq!(buys(bot, &[], 8, 8), Some(Gold));
    assert_eq!(buys(bot, &[Gold], 8, 8), Some(Province));
}

#[test]
fn shanty_town_needs_nine_treasures_and_one_per_fourteen() {
    let bot = "shanty_town";
    assert_eq!(buys(bot, &[Silver], 8, 3), Some(Silver), "8 Treasures");
    assert_eq!(buys(bot, &[Silver, Silver], 8, 3), Some(ShantyTown), "9");
    // With one: 1 < 14/14 is false, 1 < 15/14 true.
    let mut t = vec![ShantyTown];
    t.extend_from_slice(&[Silver; 7]);
    assert_eq!(buys(bot, &t, 8, 3), Some(Silver));
    t.push(Silver);
    assert_eq!(buys(bot, &t, 8, 3), Some(ShantyTown));
    // money > 17: 7 + 3 Golds + Silver = 18.
    assert_eq!(buys(bot, &[Gold, Gold, Gold], 8, 8), Some(Gold));
    assert_eq!(buys(bot, &[Gold, Gold, Gold, Silver], 8, 8), Some(Province));
}

#[test]
fn duke_buys_duchies_then_provinces_and_dukes_once_duchies_are_gone() {
    let bot = "duke";
    // money 7 + 2 Golds = 13: Silver at $5; one more Copper makes 14: Duchy.
    assert_eq!(buys(bot, &[Gold, Gold], 8, 5), Some(Silver));
    assert_eq!(buys(bot, &[Gold, Gold, Copper], 8, 5), Some(Duchy));
    assert_eq!(buys(bot, &[Gold, Gold, Copper], 8, 8), Some(Duchy));
    assert_eq!(buys(bot, &[], 8, 8), Some(Gold), "no Province yet");
    assert_eq!(buys(bot, &[], 8, 2), Some(Copper));
    let no_duchies = |extra: &[CardId], dukes: u32, coins| {
        let mut discard = vec![Copper; 7];
        discard.extend_from_slice(&[Estate; 3]);
        discard.extend_from_slice(extra);
        let g = table(2)
            .discard(P0, &discard)
            .supply(Duchy, 0)
            .supply(Duke, dukes)
            .start();
        q(bot, &g, P0).buys(coins)
    };
    assert_eq!(no_duchies(&[], 8, 8), Some(Province));
    assert_eq!(no_duchies(&[Duchy; 7], 8, 8), Some(Duke), "7 Duchies");
    assert_eq!(no_duchies(&[], 8, 5), Some(Duke));
    assert_eq!(no_duchies(&[], 4, 2), Some(Copper));
    assert_eq!(no_duchies(&[], 3, 2), Some(Estate), "3 Dukes left");
}

#[test]
fn bridge_buys_one_per_ten_treasures_and_one_at_first() {
    let bot = "bridge";
    assert_eq!(buys(bot, &[], 8, 4), Some(Bridge), "0 <= 7/10");
    assert_eq!(
        buys(bot, &[Bridge], 8, 4),
        Some(Silver),
        "1 <= 7/10 is false"
    );
    let t = [Bridge, Silver, Silver, Silver];
    assert_eq!(buys(bot, &t, 8, 4), Some(Bridge), "1 <= 10/10");
    assert_eq!(buys(bot, &[Gold], 8, 8), Some(Province));
    assert_eq!(buys(bot, &[], 6, 5), Some(Duchy));
}

#[test]
fn minion_buys_minions_never_gold_and_provinces_after_six() {
    let bot = "minion";
    assert_eq!(buys(bot, &[], 8, 7), Some(Minion));
    assert_eq!(buys(bot, &[Minion; 5], 8, 8), Some(Minion));
    assert_eq!(buys(bot, &[Minion; 6], 8, 8), Some(Province));
    assert_eq!(buys(bot, &[], 8, 4), Some(Silver));
    assert_eq!(buys(bot, &[], 4, 5), Some(Duchy));
}

#[test]
fn saboteur_buys_provinces_always_and_two_saboteurs() {
    let bot = "saboteur";
    assert_eq!(buys(bot, &[], 8, 8), Some(Province));
    assert_eq!(buys(bot, &[Saboteur], 8, 5), Some(Saboteur));
    assert_eq!(buys(bot, &[Saboteur, Saboteur], 8, 5), Some(Silver));
    assert_eq!(buys(bot, &[], 8, 6), Some(Gold));
    assert_eq!(buys(bot, &[], 5, 5), Some(Duchy), "left 5");
    assert_eq!(buys(bot, &[], 6, 5), Some(Saboteur), "left 6");
}

#[test]
fn workshop_gardens_buys_and_gains_by_its_list() {
    let bot = "workshop_gardens";
    assert_eq!(buys(bot, &[], 8, 4), Some(Workshop));
    assert_eq!(buys(bot, &[Workshop; 8], 8, 4), Some(Workshop));
    assert_eq!(buys(bot, &[Workshop; 9], 8, 4), Some(Gardens));
    assert_eq!(buys(bot, &[], 8, 2), Some(Estate));
    assert_eq!(buys(bot, &[], 8, 1), Some(Copper));
    assert_eq!(buys(bot, &[], 8, 3), Some(Workshop));
    let g = table(2).supply(Estate, 0).supply(Workshop, 0).start();
    assert_eq!(
        q(bot, &g, P0).buys(3),
        Some(Silver),
        "no Estates or Workshops left"
    );
    let up_to_4 = costing_up_to(4);
    let gain = |g: &Game| q(bot, g, P0).pile(Workshop, None, &up_to_4, false);
    assert_eq!(gain(&owning(&[], 8)), Some(Workshop));
    assert_eq!(gain(&owning(&[Workshop; 9], 8)), Some(Gardens));
    // The last Gardens with two piles empty ends the game: behind (5 VP to 12), it
    // takes a Workshop instead; ahead, the Gardens.
    let last_gardens = |theirs: &[CardId]| {
        let mut mine = vec![Copper; 7];
        mine.extend_from_slice(&[Estate; 3]);
        mine.extend_from_slice(&[Workshop; 9]);
        table(2)
            .discard(P0, &mine)
            .discard(P1, theirs)
            .supply(Gardens, 1)
            .supply(Chapel, 0)
            .supply(Cellar, 0)
            .start()
    };
    assert_eq!(gain(&last_gardens(&[Province, Province])), Some(Workshop));
    assert_eq!(gain(&last_gardens(&[Estate])), Some(Gardens));
}

#[test]
fn baron_is_played_only_with_an_estate_or_late_and_always_discards_it() {
    let plays = |hand: &[CardId], left| q("baron", &holding(hand, &[], left), P0).plays(&[Baron]);
    // Not played: the rest of the turn in one move, here its Treasures with nothing to
    // buy for $2 (`crate::combined`).
    assert_eq!(plays(&[Baron, Copper, Copper], 8), Reply::PlayAllTreasures);
    assert_eq!(plays(&[Baron, Estate, Copper], 8), Reply::Play(Baron));
    assert_eq!(plays(&[Baron, Copper, Copper], 2), Reply::Play(Baron));
    // Discards the Estate even while its list wants Estates (2 left).
    let g = holding(&[Estate, Copper], &[], 2);
    let discarded = q("baron", &g, P0).cards(Baron, Discard, Zone::Hand, &[Estate], 0..=1);
    assert_eq!(discarded, vec![Estate]);
    // With the card (owning a second Baron): the Estate gives +$4; $5 buys a Silver,
    // the second Buy finds nothing for $2; no Estate is gained.
    let mut g = table(2)
        .hand(P0, &[Baron, Estate, Copper])
        .discard(P0, &[Baron])
        .start();
    bot_turn(&mut g, "baron");
    assert!(played(&g, Baron));
    let me = g.state().player(P0);
    assert_eq!((me.count_owned(Silver), me.card_count()), (1, 5));
    assert_eq!(me.count_owned(Estate), 1, "not gained");
    // Without an Estate it keeps Baron in hand and buys with its Coppers.
    let mut g = table(2).hand(P0, &[Baron, Copper, Copper, Copper]).start();
    bot_turn(&mut g, "baron");
    assert!(!played(&g, Baron));
    assert_eq!(g.state().player(P0).count_owned(Estate), 0);
}

#[test]
fn intrigue_cards_giving_actions_are_played_first() {
    let g = owning(&[], 8);
    let me = q("big_money", &g, P0);
    assert_eq!(me.plays(&[Torturer, Minion]), Reply::Play(Minion));
    assert_eq!(me.plays(&[Courtyard, ShantyTown]), Reply::Play(ShantyTown));
    assert_eq!(me.plays(&[Masquerade, GreatHall]), Reply::Play(GreatHall));
    assert_eq!(me.plays(&[Bridge, Nobles]), Reply::Play(Nobles), "by cost");
}

#[test]
fn nobles_takes_actions_only_with_another_nobles_or_nothing_to_draw() {
    let options = [Mode::PlusThreeCards, Mode::PlusTwoActions];
    let mode = |g: &Game| q("nobles", g, P0).modes(Nobles, None, &options);
    assert_eq!(
        mode(&holding(&[Nobles, Copper], &[], 8)),
        vec![Mode::PlusTwoActions]
    );
    assert_eq!(
        mode(&holding(&[Copper, Estate], &[], 8)),
        vec![Mode::PlusThreeCards]
    );
    // Deck and discard pile empty: nothing to draw.
    let g = table(2).hand(P0, &[Copper]).start();
    assert_eq!(mode(&g), vec![Mode::PlusTwoActions]);
    let g = table(2).hand(P0, &[Copper]).deck(P0, &[Gold]).start();
    assert_eq!(mode(&g), vec![Mode::PlusThreeCards]);
    // With the card: the second Nobles is played with the Actions the first gave.
    let mut g = table(2)
        .hand(P0, &[Nobles, Nobles, Copper])
        .deck(P0, &[Gold, Gold, Gold, Silver, Silver, Silver])
        .start();
    g.play(Nobles);
    bot_answers(&mut g, "nobles");
    assert_eq!((g.actions(), g.hand(P0)), (2, vec![Copper, Nobles]));
    g.play(Nobles);
    bot_answers(&mut g, "nobles");
    assert_eq!(g.hand(P0), vec![Copper, Gold, Gold, Gold]);
}

// ----- Minion's mode (bots.md, the `minion` entry's rule 1–5) -------------------------
// Where the tests say "old", they name the answer of the rule this one replaced (+$2
// when the coins it would have plus 2 reached its target's cost, else the attack).

const TWO_COINS: Mode = Mode::PlusTwoCoins;
const ATTACK: Mode = Mode::DiscardAndDraw;

/// Player 0 holds `hand`; its draw pile is the rest of the starting deck (7 Coppers,
/// 3 Estates) then `extra`, its discard pile empty: rule 5 (a short draw pile over a
/// junk discard pile) stays out of the way unless a test sets the piles itself.
fn minion_table(hand: &[CardId], extra: &[CardId], left: u32) -> Table {
    let mut deck = vec![Copper; 7];
    deck.extend_from_slice(&[Estate; 3]);
    deck.extend_from_slice(extra);
    table(2)
        .hand(P0, hand)
        .deck(P0, &deck)
        .supply(Province, left)
}

/// The `minion` bot's mode for the last card of `plays` (a Minion), played in order from
/// `t`'s position; the bot answers the earlier cards' questions.
fn minion_mode(t: Table, plays: &[CardId]) -> Mode {
    let mut g = t.start();
    let (last, before) = plays.split_last().expect("a Minion to play");
    assert_eq!(*last, Minion);
    for &c in before {
        g.play(c);
        bot_answers(&mut g, "minion");
    }
    g.play(Minion);
    let req = g.req().clone();
    assert_eq!((req.card, req.purpose), (Some(Minion), ChooseModes));
    match q("minion", &g, P0).answer(req.card, req.about, req.purpose, req.prompt) {
        Reply::Modes(m) if m.len() == 1 => m[0],
        r => panic!("{r:?}"),
    }
}

#[test]
fn minion_rule_1_another_minion_in_hand_takes_two_coins_before_every_other_rule() {
    let junk = &[Minion, Minion, Estate, Estate, Estate];
    assert_eq!(
        minion_mode(minion_table(junk, &[], 8), &[Minion]),
        TWO_COINS
    );
    // Rule 4 would attack here (2 Minions in play, C = 2, $2 + 2 + 2 buy a Minion): the
    // third Minion in hand comes first.
    let hand = &[Minion, Minion, Minion, Copper, Copper];
    let t = minion_table(hand, &[], 8);
    assert_eq!(minion_mode(t, &[Minion, Minion]), TWO_COINS);
}

#[test]
fn minion_rule_2_attacks_unless_its_first_wanted_card_is_what_it_would_buy() {
    // Early: the first entry whose condition holds is Minion; $2 + 2 buy a Silver.
    let t = minion_table(&[Minion, Copper, Copper, Estate, Estate], &[], 8);
    assert_eq!(minion_mode(t, &[Minion]), ATTACK);
    // Owning 6 Minions the first entry is Province; $5 + 2 buy a Minion.
    let t = minion_table(&[Minion, Gold, Copper, Copper, Estate], &[Minion; 5], 8);
    assert_eq!(minion_mode(t, &[Minion]), ATTACK);
    // Its condition alone makes an entry the first, cost and Supply aside: with the
    // Minion pile empty the first is still Minion, and $3 + 2 buy a Silver (old: +$2,
    // its target being the Silver).
    let t = minion_table(&[Minion, Silver, Copper, Estate, Estate], &[], 8).supply(Minion, 0);
    assert_eq!(minion_mode(t, &[Minion]), ATTACK);
    // The last Province would end the game with it behind (10 VP to 12): with $10 it
    // would buy a Duchy, not the Province its list names first (old: +$2).
    let hand = &[Minion, Gold, Gold, Silver, Estate];
    let t = minion_table(hand, &[Minion; 5], 1).discard(P1, &[Province, Province]);
    assert_eq!(minion_mode(t, &[Minion]), ATTACK);
}

#[test]
fn minion_rule_3_attacks_when_the_coins_in_play_alone_buy_the_same_card() {
    let festivals = |n: usize, hand: &[CardId], extra: &[CardId]| {
        let mut cards = vec![Festival; n];
        cards.extend_from_slice(hand);
        let mut plays = vec![Festival; n];
        plays.push(Minion);
        minion_mode(minion_table(&cards, extra, 8), &plays)
    };
    // The first entry is Minion and $3 + 2 buy one: +$2, as C = $0 buys nothing.
    assert_eq!(
        festivals(0, &[Minion, Silver, Copper, Estate], &[]),
        TWO_COINS
    );
    // 3 Festivals: C = $6 alone buys the Minion too: the attack (old: +$2).
    assert_eq!(festivals(3, &[Minion, Copper], &[]), ATTACK);
    // 2 Festivals: C = $4 alone buys a Silver: +$2.
    assert_eq!(festivals(2, &[Minion, Copper], &[]), TWO_COINS);
    // Owning 6 Minions the card is a Province: C = $6 + Gold + 2 buy it, $6 a Minion:
    // +$2; with 4 Festivals C = $8 buys the Province alone: the attack (old: +$2).
    let five = [Minion; 5];
    assert_eq!(festivals(3, &[Minion, Gold], &five), TWO_COINS);
    assert_eq!(festivals(4, &[Minion, Copper], &five), ATTACK);
}

#[test]
fn minion_rule_4_the_second_minion_in_play_attacks_with_two_coins_when_a_minion_is_the_buy() {
    // Minion (+$2: another in hand), then Minion: C = $2, H = $2, $6 buy a Minion. By
    // rules 2–3 it would take +$2 ($2 alone buys nothing); rule 4 attacks (old: +$2).
    let hand = &[Minion, Minion, Copper, Copper, Estate];
    assert_eq!(
        minion_mode(minion_table(hand, &[], 8), &[Minion, Minion]),
        ATTACK
    );
    // Not a Minion to buy: owning 6 Minions, $2 + $6 + 2 buy a Province: rule 3, +$2.
    let hand = &[Minion, Minion, Gold, Gold, Estate];
    let t = minion_table(hand, &[Minion; 4], 8);
    assert_eq!(minion_mode(t, &[Minion, Minion]), TWO_COINS);
    // Three Minions in play (C = $4, $4 + $2 + 2 buy a Minion, $4 a Silver): rule 3, +$2.
    let hand = &[Minion, Minion, Minion, Copper, Copper];
    let t = minion_table(hand, &[], 8);
    assert_eq!(minion_mode(t, &[Minion, Minion, Minion]), TWO_COINS);
    // C = $0: the first Minion attacked and drew the second with a Silver and a Copper;
    // $0 + $3 + 2 buy a Minion: rule 3, +$2.
    let mut g = table(2)
        .hand(P0, &[Minion, Estate, Estate])
        .deck(
            P0,
            &[
                Minion, Silver, Copper, Estate, Copper, Copper, Copper, Copper,
            ],
        )
        .start();
    g.play(Minion).ok(P0, Reply::Modes(vec![ATTACK]));
    assert_eq!((g.coins(), g.in_play(P0)), (0, vec![Minion]));
    g.play(Minion);
    let options = [TWO_COINS, ATTACK];
    assert_eq!(
        q("minion", &g, P0).modes(Minion, None, &options),
        vec![TWO_COINS]
    );
    // With the card: the second Minion discards the hand and draws 4.
    let mut g = table(2)
        .hand(P0, &[Minion, Minion, Copper, Estate])
        .deck(P0, &[Estate, Estate, Estate, Estate])
        .start();
    g.play(Minion);
    bot_answers(&mut g, "minion");
    assert_eq!(g.coins(), 2, "another Minion in hand");
    g.play(Minion);
    bot_answers(&mut g, "minion");
    assert_eq!(
        (g.coins(), g.hand(P0), g.discard(P0)),
        (2, vec![Estate; 4], vec![Copper, Estate]),
        "2 in play, C = 2, $2 + $1 + 2 buy a Minion"
    );
}

#[test]
fn minion_rule_5_a_short_draw_pile_over_junk_takes_two_coins_instead_of_the_attack() {
    // Rule 2 attacks ($2 + 2 buy a Silver) but for the piles.
    let hand = &[Minion, Copper, Copper, Estate, Estate];
    let mode = |deck: &[CardId], discard: &[CardId]| {
        let t = table(2).hand(P0, hand).deck(P0, deck).discard(P0, discard);
        minion_mode(t, &[Minion])
    };
    let three = [Silver, Silver, Gold];
    // 4 Coppers, Curses and Victory cards (Great Hall is one) under a 3-card draw pile:
    // +$2 (old: the attack); with 3 of them, or 4 cards to draw, the attack.
    assert_eq!(mode(&three, &[Copper, Curse, Duchy, GreatHall]), TWO_COINS);
    assert_eq!(
        mode(&[], &[Gardens, Province, Estate, Copper, Copper]),
        TWO_COINS
    );
    assert_eq!(mode(&three, &[Copper, Curse, Duchy, Silver, Gold]), ATTACK);
    assert_eq!(
        mode(&[Silver; 4], &[Copper, Curse, Duchy, GreatHall]),
        ATTACK
    );
    // It overrides rule 3's and rule 4's attacks too.
    let short = |hand: &[CardId], plays: &[CardId]| {
        let t = table(2)
            .hand(P0, hand)
            .deck(P0, &[Silver, Silver, Silver])
            .discard(P0, &[Copper, Copper, Estate, Estate]);
        minion_mode(t, plays)
    };
    let plays = [Festival, Festival, Festival, Minion];
    assert_eq!(
        short(&[Festival, Festival, Festival, Minion], &plays),
        TWO_COINS
    );
    let hand = &[Minion, Minion, Copper, Copper, Estate];
    assert_eq!(short(hand, &[Minion, Minion]), TWO_COINS);
}

#[test]
fn torturer_victims_discard_junk_and_take_the_curse_with_a_small_good_hand() {
    let options = [Mode::DiscardTwo, Mode::GainCurse];
    let mode = |hand: &[CardId]| {
        let g = table(2).hand(P1, hand).start();
        q("big_money", &g, P1).modes(Torturer, None, &options)
    };
    let discard = vec![Mode::DiscardTwo];
    let curse = vec![Mode::GainCurse];
    assert_eq!(mode(&[Copper, Estate, Silver, Gold, Gold]), discard);
    assert_eq!(
        mode(&[Curse, GreatHall, Gold]),
        discard,
        "2 Victory or Curse"
    );
    assert_eq!(
        mode(&[Silver, Gold, Gold, Silver, Gold]),
        discard,
        "5 cards"
    );
    assert_eq!(mode(&[Silver, Gold, Gold, Silver]), discard, "4 cards");
    assert_eq!(mode(&[Silver, Estate, Gold]), curse, "3 cards, 1 junk");
    assert_eq!(mode(&[Silver, Gold]), curse);
    assert_eq!(mode(&[Gold]), discard, "1 card");
    assert_eq!(mode(&[]), discard);
    // With the card: the Curse goes to the hand; the big hand discards its Estates.
    let mut g = table(3)
        .hand(P0, &[Torturer])
        .deck(P0, &[Copper, Copper, Copper])
        .hand(P1, &[Silver, Gold, Gold])
        .hand(P2, &[Estate, Estate, Silver, Gold, Gold])
        .start();
    g.play(Torturer);
    bot_answers(&mut g, "big_money");
    assert_eq!(g.hand(P1), vec![Silver, Gold, Gold, Curse]);
    assert_eq!(
        (g.hand(P2), g.discard(P2)),
        (vec![Silver, Gold, Gold], vec![Estate, Estate])
    );
}

#[test]
fn masquerade_passes_junk_first_for_every_player() {
    let pass = |left, options: &[CardId]| {
        let g = owning(&[], left);
        q("big_money", &g, P1).cards(Masquerade, Pass, Zone::Hand, options, 1..=1)
    };
    assert_eq!(pass(8, &[Copper, Curse, Estate]), vec![Curse]);
    assert_eq!(
        pass(8, &[Copper, Estate, Duchy]),
        vec![Duchy],
        "neither wanted"
    );
    // big_money wants Duchies from 6 left, Estates from 2.
    assert_eq!(pass(6, &[Copper, Estate, Duchy]), vec![Estate]);
    assert_eq!(pass(2, &[Copper, Estate, Duchy]), vec![Copper]);
    assert_eq!(pass(8, &[Gold, Masquerade, Silver]), vec![Silver]);
    assert_eq!(pass(8, &[Gold, Masquerade]), vec![Masquerade]);
    assert_eq!(pass(2, &[Province, Estate, Gold]), vec![Gold]);
    assert_eq!(pass(2, &[Province, Duchy, Estate]), vec![Estate]);
    assert_eq!(pass(4, &[Province, Duchy]), vec![Duchy]);
    assert_eq!(pass(8, &[Province, Harem, Smithy]), vec![Province]);
    assert_eq!(
        pass(8, &[Harem, Smithy]),
        vec![Smithy],
        "unlisted: the cheapest"
    );
}

#[test]
fn masquerade_trashes_junk_only_when_the_buy_stays_the_same() {
    // It owns a Masquerade, so $3 and $4 buy a Silver, $6 and $7 a Gold.
    let trash = |hand: &[CardId], left| {
        let g = holding(hand, &[Masquerade], left);
        q("masquerade", &g, P0).cards(Masquerade, Trash, Zone::Hand, hand, 0..=1)
    };
    assert_eq!(trash(&[Copper, Estate, Curse], 8), vec![Curse]);
    assert_eq!(trash(&[Copper, Duchy, Estate], 8), vec![Estate]);
    assert_eq!(trash(&[Copper, Silver, Duchy], 8), vec![Duchy]);
    // Estates wanted (2 left): Copper next, as $7 and $6 both buy a Duchy.
    assert_eq!(trash(&[Copper, Estate, Gold, Gold], 2), vec![Copper]);
    assert_eq!(
        trash(&[Copper, Silver, Silver], 8),
        vec![Copper],
        "$5, $4: Silver"
    );
    assert_eq!(
        trash(&[Copper, Gold, Silver], 8),
        vec![],
        "$6 Gold, $5 Silver"
    );
    assert_eq!(trash(&[Silver, Gold], 8), vec![]);
    // With the card, against big_money: both pass their Curse, then it trashes the one
    // it received.
    let mut g = table(2)
        .hand(P0, &[Masquerade, Curse, Gold])
        .deck(P0, &[Silver, Silver])
        .discard(P0, &[Masquerade])
        .hand(P1, &[Curse, Copper, Silver, Gold, Estate])
        .start();
    g.play(Masquerade);
    bot_answers(&mut g, "masquerade");
    assert_eq!(g.hand(P0), vec![Silver, Silver, Gold]);
    assert_eq!(g.trash(), vec![Curse]);
    assert_eq!(g.hand(P1), vec![Copper, Silver, Gold, Estate, Curse]);
}

#[test]
fn courtyard_puts_back_an_unplayable_action_then_a_spare_treasure_then_junk() {
    let run = |hand: &[CardId], deck: &[CardId]| {
        let mut g = table(2).hand(P0, hand).deck(P0, deck).start();
        g.play(Courtyard);
        bot_answers(&mut g, "courtyard");
        (g.deck(P0), g.hand(P0))
    };
    // No Actions left: the drawn Courtyard goes back.
    let (deck, _) = run(&[Courtyard, Copper, Silver], &[Estate, Gold, Courtyard]);
    assert_eq!(deck, vec![Courtyard]);
    // $12 buys a Province (it holds a Gold) with or without a Gold: a Gold goes back.
    let (deck, hand) = run(&[Courtyard, Gold, Gold, Silver], &[Copper, Copper, Silver]);
    assert_eq!(deck, vec![Gold]);
    assert_eq!(hand, vec![Copper, Copper, Silver, Silver, Gold]);
    // $8 exactly: no Treasure is spare, so the Estate.
    let (deck, _) = run(
        &[Courtyard, Copper, Silver, Gold],
        &[Estate, Copper, Copper],
    );
    assert_eq!(deck, vec![Estate]);
    // Only Treasures, none spare: the cheapest card.
    let (deck, _) = run(&[Courtyard, Gold], &[Gold, Silver]);
    assert_eq!(deck, vec![Silver]);
}

#[test]
fn saboteur_victims_gain_the_first_card_of_their_list_else_nothing() {
    let g = owning(&[], 8);
    let gain = |bot, up_to| q(bot, &g, P0).pile(Saboteur, None, &costing_up_to(up_to), true);
    assert_eq!(gain("big_money", 6), Some(Gold));
    assert_eq!(gain("big_money", 4), Some(Silver));
    assert_eq!(
        gain("big_money", 1),
        None,
        "Copper and Curse are not on its list"
    );
    assert_eq!(gain("workshop_gardens", 1), Some(Copper));
    assert_eq!(gain("saboteur", 3), Some(Silver));
    let g = owning(&[], 2);
    let estate = q("big_money", &g, P0).pile(Saboteur, None, &costing_up_to(2), true);
    assert_eq!(estate, Some(Estate), "left 2");
    // With the card: big_money loses its Gold and takes a Silver.
    let mut g = table(2)
        .edition(crate::card::Edition::First)
        .hand(P0, &[Saboteur])
        .deck(P1, &[Copper, Gold, Estate])
        .start();
    g.play(Saboteur);
    bot_answers(&mut g, "big_money");
    assert_eq!(g.trash(), vec![Gold]);
    assert_eq!(g.discard(P1), vec![Copper, Silver]);
    assert_eq!(g.deck(P1), vec![Estate]);
}

#[test]
fn bridge_bot_plays_bridge_before_treasures_and_uses_every_buy() {
    // Bridge: 2 Buys, $1 + $6 with costs $1 less: a Gold ($5), then a Silver ($2).
    let mut g = table(2)
        .hand(P0, &[Bridge, Silver, Silver, Copper, Copper])
        .start();
    bot_turn(&mut g, "bridge");
    assert!(played(&g, Bridge));
    let me = g.state().player(P0);
    assert_eq!((me.count_owned(Gold), me.count_owned(Silver)), (1, 3));
}

#[test]
fn swindler_gives_victims_curses_and_victory_cards() {
    let g = owning(&[], 8);
    let give = |options: &[CardId]| q("big_money", &g, P0).pile(Swindler, Some(P1), options, false);
    assert_eq!(give(&[Copper, Curse]), Some(Curse));
    assert_eq!(give(&[Laboratory, Duchy, Market]), Some(Duchy));
    assert_eq!(give(&[Silver, Village]), Some(Silver));
}
