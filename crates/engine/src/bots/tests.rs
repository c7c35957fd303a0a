//! Pins the reference bots' rules (shared bots.md): each bot's buy list in chosen
//! situations, and the answers `PriorityBot` gives to card decisions. Requests are built
//! by hand in the shape the cards ask them, so these tests hold whatever a card does
//! around its question.

use super::by_name;
use crate::card::CardId::{self, *};
use crate::cards::testkit::*;
use crate::decision::Purpose::{self, *};
use crate::decision::{Prompt, Reply, Request, Zone};
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
        if let Err(e) = req.prompt.validate(&reply) {
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
                // Masquerade) can still buy, so every game ends.
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
