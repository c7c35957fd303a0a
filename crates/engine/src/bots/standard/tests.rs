//! Pins the standard bot's important choices (exact positions built with the testkit,
//! exact replies asserted) and soaks it in random kingdoms.

use super::StandardBot;
use super::buy::{self, Status};
use super::plan::{Engine, Plan};
use crate::agent::Agent;
use crate::bots::by_name;
use crate::card::CardId::{self, *};
use crate::card::Edition;
use crate::cards::testkit::*;
use crate::decision::Purpose::{self, *};
use crate::decision::{Mode, Prompt, Reply, Request, Zone};
use crate::game::Game;
use crate::setup::{CardPool, Kingdom, Setup};
use crate::state::PlayerId;
use crate::view::Observation;

/// The standard bot's reply, seated at `p`, checked to be legal.
fn ask(
    g: &Game,
    p: PlayerId,
    card: Option<CardId>,
    about: Option<PlayerId>,
    purpose: Purpose,
    prompt: Prompt,
) -> Reply {
    let req = Request {
        player: p,
        card,
        about,
        purpose,
        prompt,
    };
    let reply = StandardBot::new().decide(&Observation::for_player(g, p), &req);
    if let Err(e) = req.prompt.validate(&reply) {
        panic!("answered {req:?} with {reply:?}: {e}");
    }
    reply
}

/// The cards chosen by `p` among `options` for `card`'s `purpose`.
fn pick(
    g: &Game,
    p: PlayerId,
    card: CardId,
    purpose: Purpose,
    options: &[CardId],
    min: u8,
    max: u8,
) -> Vec<CardId> {
    let prompt = Prompt::ChooseCards {
        zone: Zone::Hand,
        options: options.to_vec(),
        min,
        max,
    };
    match ask(g, p, Some(card), None, purpose, prompt) {
        Reply::Cards(c) => c,
        r => panic!("{r:?}"),
    }
}

fn pile(
    g: &Game,
    p: PlayerId,
    card: CardId,
    about: Option<PlayerId>,
    options: &[CardId],
    optional: bool,
) -> Option<CardId> {
    let prompt = Prompt::ChoosePile {
        options: options.to_vec(),
        optional,
    };
    match ask(g, p, Some(card), about, Gain, prompt) {
        Reply::Pile(c) => c,
        r => panic!("{r:?}"),
    }
}

/// Player 0 holds `hand`, owns the starting deck plus `extra`; `left` Provinces.
use crate::bots::tests::holding as position;

// ----- trashing ------------------------------------------------------------------------

#[test]
fn chapel_trashes_junk_and_coppers_early_but_keeps_enough_money() {
    // Money 11 Coppers + 2 Golds = 17: Coppers may go down to 10; Chapel takes 4.
    let g = position(
        &[Curse, Estate, Copper, Copper, Copper, Copper],
        &[Gold, Gold],
        8,
    );
    let hand = [Curse, Estate, Copper, Copper, Copper, Copper];
    assert_eq!(
        pick(&g, P0, Chapel, Trash, &hand, 0, 4),
        vec![Curse, Estate, Copper, Copper]
    );
    // Without the Golds (money 11) one Copper goes, leaving 10.
    let g = position(&hand, &[], 8);
    assert_eq!(
        pick(&g, P0, Chapel, Trash, &hand, 0, 4),
        vec![Curse, Estate, Copper]
    );
}

#[test]
fn chapel_keeps_estates_and_coppers_late() {
    let hand = [Estate, Copper, Copper, Silver];
    let g = position(&hand, &[Gold, Gold, Gold], 3);
    assert_eq!(
        pick(&g, P0, Chapel, Trash, &hand, 0, 4),
        Vec::<CardId>::new()
    );
}

#[test]
fn remodel_turns_gold_into_province_late_and_estate_into_silver_early() {
    let g = position(&[Remodel, Gold, Copper, Estate], &[Gold; 3], 3);
    assert_eq!(
        pick(&g, P0, Remodel, Trash, &[Gold, Copper, Estate], 1, 1),
        vec![Gold]
    );
    assert_eq!(
        pile(
            &g,
            P0,
            Remodel,
            None,
            &[Province, Gold, Duchy, Silver],
            false
        ),
        Some(Province)
    );
    let g = position(&[Remodel, Gold, Copper, Estate], &[], 8);
    assert_eq!(
        pick(&g, P0, Remodel, Trash, &[Gold, Copper, Estate], 1, 1),
        vec![Estate]
    );
}

#[test]
fn mine_upgrades_silver_before_copper() {
    let g = position(&[Copper, Silver], &[], 8);
    assert_eq!(
        pick(&g, P0, Mine, Trash, &[Copper, Silver], 0, 1),
        vec![Silver]
    );
}

#[test]
fn steward_trashes_two_estates_else_draws() {
    let modes = |g: &Game| match ask(
        g,
        P0,
        Some(Steward),
        None,
        ChooseModes,
        Prompt::ChooseModes {
            options: vec![Mode::PlusTwoCards, Mode::PlusTwoCoins, Mode::TrashTwo],
            min: 1,
            max: 1,
        },
    ) {
        Reply::Modes(m) => m,
        r => panic!("{r:?}"),
    };
    assert_eq!(
        modes(&position(&[Estate, Estate, Copper, Silver], &[], 8)),
        vec![Mode::TrashTwo]
    );
    assert_eq!(
        modes(&position(&[Silver, Copper, Copper, Copper], &[], 8)),
        vec![Mode::PlusTwoCards]
    );
}

// ----- discarding, passing, putting back ----------------------------------------------

#[test]
fn militia_victim_discards_dead_cards_then_coppers() {
    let hand = [Gold, Silver, Copper, Estate, Smithy];
    let g = table(2).hand(P1, &hand).start();
    assert_eq!(
        pick(&g, P1, Militia, Discard, &hand, 2, 2),
        vec![Estate, Copper]
    );
}

#[test]
fn torturer_victim_discards_with_junk_in_hand() {
    let g = table(2)
        .hand(P1, &[Estate, Curse, Copper, Silver, Gold])
        .start();
    let prompt = Prompt::ChooseModes {
        options: vec![Mode::DiscardTwo, Mode::GainCurse],
        min: 1,
        max: 1,
    };
    assert_eq!(
        ask(&g, P1, Some(Torturer), None, ChooseModes, prompt),
        Reply::Modes(vec![Mode::DiscardTwo])
    );
}

#[test]
fn masquerade_passes_the_worst_card() {
    let g = position(&[Gold, Curse, Silver], &[], 8);
    assert_eq!(
        pick(&g, P0, Masquerade, Pass, &[Gold, Curse, Silver], 1, 1),
        vec![Curse]
    );
}

#[test]
fn courtyard_puts_back_what_this_turn_does_not_need() {
    // $8 in hand: a Province. Any Treasure back would lose it, so an Estate goes.
    let hand = [Copper, Copper, Silver, Estate, Gold, Copper, Estate];
    let g = position(&hand, &[Gold; 6], 8);
    assert_eq!(pick(&g, P0, Courtyard, TopDeck, &hand, 1, 1), vec![Estate]);
    // $9: a Copper is spare, and better next turn than an Estate.
    let hand = [Copper, Copper, Silver, Estate, Gold, Silver];
    let g = position(&hand, &[Gold; 6], 8);
    assert_eq!(pick(&g, P0, Courtyard, TopDeck, &hand, 1, 1), vec![Copper]);
}

// ----- playing -------------------------------------------------------------------------

#[test]
fn plays_village_before_smithy_and_throne_rooms_the_smithy() {
    let g = position(&[Smithy, Village, Copper], &[], 8);
    let prompt = Prompt::ActionPhase {
        playable: vec![Village, Smithy],
    };
    assert_eq!(
        ask(&g, P0, None, None, ActionPhase, prompt),
        Reply::Play(Village)
    );
    let g = position(&[ThroneRoom, Smithy, Cellar, Copper], &[], 8);
    assert_eq!(
        pick(&g, P0, ThroneRoom, PlayTwice, &[Smithy, Cellar], 0, 1),
        vec![Smithy]
    );
}

#[test]
fn engine_plays_every_festival_before_library() {
    // One Festival played: two Actions left, a Festival and a Library in hand.
    let mut g = position(&[Library, Festival, Festival, Copper], &[], 8);
    g.play(Festival);
    assert_eq!(g.state().turn.actions, 2);
    let obs = Observation::for_player(&g, P0);
    let playable = [Library, Festival];
    // The engine plays the second Festival first: Library then draws one card more.
    assert_eq!(
        super::play::choose(&obs, &engine_plan(&g), &playable),
        Some(Festival)
    );
    // A money deck with Actions to spare draws first, hoping to find payload.
    assert_eq!(
        super::play::choose(&obs, &smithy_plan(&g), &playable),
        Some(Library)
    );
}

#[test]
fn engine_plays_draw_before_treasures_and_library_skips_actions_only_when_none_left() {
    // Festivals played, Library in hand: Library before the Buy phase.
    let mut g = position(&[Library, Festival, Copper, Copper, Copper], &[], 8);
    g.play(Festival);
    let obs = Observation::for_player(&g, P0);
    assert_eq!(
        super::play::choose(&obs, &engine_plan(&g), &[Library]),
        Some(Library)
    );
    // Library played with an Action to spare keeps the Festival it draws.
    g.play(Library);
    assert_eq!(g.state().turn.actions, 1);
    assert_eq!(
        pick(&g, P0, Library, SetAside, &[Festival], 0, 1),
        Vec::<CardId>::new()
    );
}

#[test]
fn does_not_play_moneylender_without_copper_nor_throne_room_alone() {
    let g = position(&[Moneylender, ThroneRoom, Silver], &[], 8);
    let prompt = Prompt::ActionPhase {
        playable: vec![Moneylender, ThroneRoom],
    };
    assert_eq!(
        ask(&g, P0, None, None, ActionPhase, prompt),
        Reply::EndPhase
    );
}

#[test]
fn library_sets_aside_actions_it_cannot_play() {
    let mut g = position(&[Library, Copper], &[], 8);
    g.play(Library);
    assert_eq!(g.state().turn.actions, 0);
    assert_eq!(
        pick(&g, P0, Library, SetAside, &[Smithy], 0, 1),
        vec![Smithy]
    );
}

#[test]
fn nobles_takes_actions_only_for_a_waiting_terminal() {
    let modes = |hand: &[CardId]| {
        let mut g = position(hand, &[], 8);
        g.play(Nobles);
        match ask(
            &g,
            P0,
            Some(Nobles),
            None,
            ChooseModes,
            Prompt::ChooseModes {
                options: vec![Mode::PlusThreeCards, Mode::PlusTwoActions],
                min: 1,
                max: 1,
            },
        ) {
            Reply::Modes(m) => m,
            r => panic!("{r:?}"),
        }
    };
    assert_eq!(modes(&[Nobles, Smithy, Copper]), vec![Mode::PlusTwoActions]);
    assert_eq!(modes(&[Nobles, Copper, Copper]), vec![Mode::PlusThreeCards]);
}

/// Every card has a row in roles.rs (its `match` has no catch-all arm, so a new card
/// does not compile without one), and the row plays it: an Action card is `Terminal`,
/// `NonTerminal` or `Village`; only cards that are not Actions are `Other`.
#[test]
fn every_action_card_has_a_role_that_plays_it() {
    use super::roles::{Kind, role};
    for c in CardId::all() {
        assert_eq!(
            role(c).kind == Kind::Other,
            !c.is_action(),
            "{c:?}: its row in bots/standard/roles.rs"
        );
    }
}

/// `play::score` has a line for every kingdom Action card that is not `Terminal` (those
/// are scored by their row's `money`): its catch-all (10) is for cards that are not
/// Actions. A new cantrip or village with no line there fails here.
#[test]
fn every_action_card_has_a_play_rule() {
    for c in CardId::all().filter(|c| c.is_kingdom() && c.is_action()) {
        let g = table(2)
            .hand(P0, &[c, Estate, Copper, Silver, Smithy])
            .deck(P0, &[Copper, Estate, Silver, Copper, Gold])
            .start();
        let obs = Observation::for_player(&g, P0);
        let (plan, st) = (Plan::for_kingdom(&obs), Status::read(&obs));
        assert_ne!(
            super::play::score(&obs, &plan, &st, c),
            Some(10),
            "{c:?} has no line in bots/standard/play.rs `score`"
        );
    }
}

// ----- attacks and reactions ----------------------------------------------------------

#[test]
fn swindler_gives_curses_and_victory_cards() {
    let g = position(&[], &[], 8);
    assert_eq!(
        pile(&g, P0, Swindler, Some(P1), &[Copper, Curse], false),
        Some(Curse)
    );
    assert_eq!(
        pile(
            &g,
            P0,
            Swindler,
            Some(P1),
            &[Duchy, Laboratory, Market],
            false
        ),
        Some(Duchy)
    );
    assert_eq!(
        pile(&g, P0, Swindler, Some(P1), &[Silver, Village], false),
        Some(Village)
    );
}

#[test]
fn reveals_moat() {
    let g = table(2).hand(P1, &[Moat, Copper]).start();
    assert_eq!(pick(&g, P1, Witch, React, &[Moat], 0, 1), vec![Moat]);
}

#[test]
fn wishing_well_names_the_commonest_card_of_its_deck() {
    let g = table(2)
        .hand(P0, &[Copper])
        .deck(P0, &[Estate, Gold, Gold, Silver])
        .start();
    let all: Vec<CardId> = CardId::all().collect();
    let prompt = Prompt::NameCard { options: all };
    assert_eq!(
        ask(&g, P0, Some(WishingWell), None, Name, prompt),
        Reply::Name(Gold)
    );
}

#[test]
fn secret_passage_sends_an_estate_to_the_bottom() {
    let g = table(2)
        .hand(P0, &[Estate, Gold, Copper])
        .deck(P0, &[Silver, Silver])
        .start();
    let mut bot = StandardBot::new();
    let obs = Observation::for_player(&g, P0);
    let top = Request {
        player: P0,
        card: Some(SecretPassage),
        about: None,
        purpose: TopDeck,
        prompt: Prompt::ChooseCards {
            zone: Zone::Hand,
            options: vec![Estate, Gold, Copper],
            min: 1,
            max: 1,
        },
    };
    assert_eq!(bot.decide(&obs, &top), Reply::Cards(vec![Estate]));
    let depth = Request {
        purpose: PlaceInDeck,
        prompt: Prompt::ChooseNumber { min: 0, max: 2 },
        ..top
    };
    assert_eq!(bot.decide(&obs, &depth), Reply::Number(2));
}

// ----- buying --------------------------------------------------------------------------

/// A Smithy money plan, as the planner makes for a Smithy kingdom.
fn smithy_plan(g: &Game) -> Plan {
    Plan {
        key: super::plan::kingdom_key(&Observation::for_player(g, P0)),
        main: Some(Smithy),
        support: vec![],
        gardens: None,
        duke: false,
        duke_plan: false,
        province_money: 16,
        engine: None,
    }
}

/// The Festival/Library engine, as the planner makes for Underlings (2E).
fn engine_plan(g: &Game) -> Plan {
    Plan {
        main: Some(Library),
        engine: Some(Engine {
            village: Festival,
            draw: Library,
        }),
        ..smithy_plan(g)
    }
}

/// What the engine plan buys with `coins`.
fn engine_buys(g: &Game, coins: u32) -> Option<CardId> {
    let obs = Observation::for_player(g, P0);
    buy::best_with(&obs, &engine_plan(g), &Status::read(&obs), coins)
}

#[test]
fn engine_buys_library_first_then_keeps_festivals_in_step() {
    // No Library: the first comes before Gold.
    let g = position(&[], &[], 8);
    assert_eq!(
        (engine_buys(&g, 6), engine_buys(&g, 5)),
        (Some(Library), Some(Library))
    );
    // One Library, no Festival: a Festival at $5, Gold at $6.
    let g = position(&[], &[Library], 8);
    assert_eq!(
        (engine_buys(&g, 6), engine_buys(&g, 5)),
        (Some(Gold), Some(Festival))
    );
    // One of each: the next Library (after Gold).
    let g = position(&[], &[Library, Festival], 8);
    assert_eq!(
        (engine_buys(&g, 6), engine_buys(&g, 5)),
        (Some(Gold), Some(Library))
    );
    // Three Libraries (the most) and three Festivals: neither any more.
    let g = position(
        &[],
        &[Library, Library, Library, Festival, Festival, Festival],
        8,
    );
    assert_eq!(engine_buys(&g, 5), Some(Silver));
    // Once Duchies beat Gold, the engine stops growing.
    let g = position(&[], &[Library], 4);
    assert_eq!(engine_buys(&g, 5), Some(Duchy));
}

fn buys(g: &Game, coins: u32) -> Option<CardId> {
    let obs = Observation::for_player(g, P0);
    let plan = smithy_plan(g);
    buy::best_with(&obs, &plan, &Status::read(&obs), coins)
}

#[test]
fn buys_by_plan_then_greens_as_provinces_run_low() {
    // Money 7: Gold at $8; its first Smithy at $4; Silver at $3.
    let g = position(&[], &[], 8);
    assert_eq!(
        (buys(&g, 8), buys(&g, 4), buys(&g, 3)),
        (Some(Gold), Some(Smithy), Some(Silver))
    );
    // Money 7 + 3 Golds = 16: Province.
    let g = position(&[], &[Gold; 3], 8);
    assert_eq!(buys(&g, 8), Some(Province));
    // 4 left: Duchy over Gold; 2 left: Estate over Silver.
    let g = position(&[], &[Smithy], 4);
    assert_eq!((buys(&g, 6), buys(&g, 3)), (Some(Duchy), Some(Silver)));
    // (Great Hall is the 1 VP card on offer at $3 in the testkit's full Supply.)
    let g = position(&[], &[Smithy], 2);
    assert_eq!((buys(&g, 3), buys(&g, 2)), (Some(GreatHall), Some(Estate)));
}

#[test]
fn never_takes_the_last_province_to_lose_but_takes_it_to_win() {
    // P1 is 10 VP ahead: the last Province would end the game in a loss.
    let behind = table(2)
        .discard(P0, &[Gold; 6])
        .discard(P1, &[Province, Duchy, Duchy, Duchy, Estate])
        .supply(Province, 1)
        .start();
    assert_ne!(buys(&behind, 8), Some(Province));
    let ahead = table(2).discard(P0, &[Gold; 6]).supply(Province, 1).start();
    assert_eq!(buys(&ahead, 8), Some(Province));
}

#[test]
fn three_piles_it_neither_opens_while_behind_nor_misses_while_ahead() {
    // Two piles empty: one more ends the game. Silver is down to 2.
    let near_end = |p1_discard: &[CardId], silvers: u32| {
        table(2)
            .discard(
                P0,
                &[
                    Copper, Copper, Copper, Copper, Copper, Copper, Copper, Estate,
                ],
            )
            .discard(P1, p1_discard)
            .supply(Village, 0)
            .supply(Cellar, 0)
            .supply(Silver, silvers)
            .start()
    };
    // Behind: taking the second-to-last Silver would let P1 end it and win.
    assert_ne!(buys(&near_end(&[Duchy], 2), 3), Some(Silver));
    // Ahead with the last Silver: taking it ends the game in a win.
    assert_eq!(buys(&near_end(&[], 1), 3), Some(Silver));
    // Behind with the last Silver: never.
    assert_ne!(buys(&near_end(&[Duchy], 1), 3), Some(Silver));
}

#[test]
fn plans_from_the_kingdom() {
    let plan_of = |cards: &[&str]| {
        let g = Game::new_unrecorded(&Setup::with_cards(2, cards, Edition::Second), 1).unwrap();
        Plan::for_kingdom(&Observation::for_player(&g, P0))
    };
    let first_game = [
        "cellar", "market", "merchant", "militia", "mine", "moat", "remodel", "smithy", "village",
        "workshop",
    ];
    let p = plan_of(&first_game);
    assert_eq!((p.main, p.gardens), (Some(Smithy), None));
    assert_eq!(p.support, vec![(Market, 3)]);
    let witch = [
        "witch", "smithy", "village", "cellar", "chapel", "moat", "market", "festival", "library",
        "mine",
    ];
    assert_eq!(plan_of(&witch).main, Some(Witch));
    let gardens = [
        "gardens", "workshop", "witch", "village", "cellar", "chapel", "moat", "market",
        "festival", "mine",
    ];
    assert_eq!(plan_of(&gardens).gardens, Some(Workshop));
    assert_eq!(p.engine, None); // Village + Smithy: Smithy money
    // Underlings (2E): Festival (village, +Buy), Library (draw), Sentry (trasher), and
    // nothing stronger than Library for a money deck: the engine.
    let underlings = [
        "cellar", "festival", "library", "sentry", "vassal", "courtier", "diplomat", "minion",
        "nobles", "pawn",
    ];
    let engine = Some(Engine {
        village: Festival,
        draw: Library,
    });
    assert_eq!(plan_of(&underlings).engine, engine);
    // A stronger money card (Smithy, Council Room) or Market: money.
    for (i, other) in [(0, "smithy"), (4, "council_room"), (9, "market")] {
        let mut cards = underlings;
        cards[i] = other;
        assert_eq!(plan_of(&cards).engine, None, "with {other}");
    }
    // Gardens with a gainer stays the Gardens plan.
    let mut cards = underlings;
    cards[0] = "gardens";
    cards[3] = "workshop";
    assert_eq!(plan_of(&cards).engine, None);
}

// ----- soak ----------------------------------------------------------------------------

/// Wraps an agent and fails on any illegal reply.
struct Checked(Box<dyn Agent + Send>);

impl Agent for Checked {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        let reply = self.0.decide(obs, req);
        if let Err(e) = req.prompt.validate(&reply) {
            panic!("{} answered {req:?} with {reply:?}: {e}", self.0.name());
        }
        reply
    }
}

#[test]
fn random_kingdoms_in_every_seat_count_and_both_editions_end_with_legal_replies() {
    for i in 0..240u64 {
        let players = 2 + (i % 5) as u8;
        let edition = if i % 2 == 0 {
            Edition::First
        } else {
            Edition::Second
        };
        // Every third kingdom draws from both editions' printings.
        let kingdom = if i % 3 == 0 {
            Kingdom::RandomFrom(CardPool::Both)
        } else {
            Kingdom::Random
        };
        let setup = Setup {
            players,
            kingdom,
            edition,
        };
        // Every fourth game takes the recorded path (each reply validated by the game).
        let mut g = if i % 4 == 1 {
            Game::new(&setup, i).unwrap()
        } else {
            Game::new_unrecorded(&setup, i).unwrap()
        };
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
            .map(|s| {
                let name = if (i + u64::from(s)) % 4 == 3 {
                    "easy"
                } else {
                    "standard"
                };
                Box::new(Checked(by_name(name, i).unwrap())) as Box<dyn Agent + Send>
            })
            .collect();
        g.play_out(&mut agents);
        assert!(
            g.state().game_over,
            "game {i} ({players} players, {edition:?}) did not end"
        );
        assert!(
            g.state().turn_count < 100 * u32::from(players),
            "game {i} dragged on"
        );
    }
}

// ----- more card questions -------------------------------------------------------------

fn modes_of(g: &Game, p: PlayerId, card: CardId, options: &[Mode], n: u8) -> Vec<Mode> {
    let prompt = Prompt::ChooseModes {
        options: options.to_vec(),
        min: n,
        max: n,
    };
    match ask(g, p, Some(card), None, ChooseModes, prompt) {
        Reply::Modes(m) => m,
        r => panic!("{r:?}"),
    }
}

#[test]
fn sentry_trashes_junk_discards_green_and_keeps_the_best_on_top() {
    let g = position(&[Copper], &[Gold, Gold], 8);
    let deck = |options: &[CardId], purpose| {
        let prompt = Prompt::ChooseCards {
            zone: Zone::Deck,
            options: options.to_vec(),
            min: 0,
            max: options.len() as u8,
        };
        match ask(&g, P0, Some(Sentry), None, purpose, prompt) {
            Reply::Cards(c) => c,
            r => panic!("{r:?}"),
        }
    };
    assert_eq!(deck(&[Curse, Silver], Trash), vec![Curse]);
    assert_eq!(deck(&[Province, Silver], Trash), Vec::<CardId>::new());
    assert_eq!(deck(&[Province, Silver], Discard), vec![Province]);
    let order = ask(
        &g,
        P0,
        Some(Sentry),
        None,
        TopDeck,
        Prompt::OrderCards {
            cards: vec![Silver, Gold],
        },
    );
    assert_eq!(order, Reply::Cards(vec![Gold, Silver]));
}

#[test]
fn harbinger_tops_its_best_card_from_the_discard_pile() {
    let g = position(&[], &[], 8);
    let prompt = Prompt::ChooseCards {
        zone: Zone::Discard,
        options: vec![Copper, Estate, Gold, Silver],
        min: 0,
        max: 1,
    };
    assert_eq!(
        ask(&g, P0, Some(Harbinger), None, TopDeck, prompt),
        Reply::Cards(vec![Gold])
    );
    let prompt = Prompt::ChooseCards {
        zone: Zone::Discard,
        options: vec![Copper, Estate],
        min: 0,
        max: 1,
    };
    assert_eq!(
        ask(&g, P0, Some(Harbinger), None, TopDeck, prompt),
        Reply::Cards(vec![])
    );
}

#[test]
fn bandit_and_thief_choices() {
    // Bandit's victim loses its Silver, not its Gold.
    let g = table(2).hand(P1, &[Copper]).start();
    let prompt = Prompt::ChooseCards {
        zone: Zone::Revealed,
        options: vec![Gold, Silver],
        min: 1,
        max: 1,
    };
    assert_eq!(
        ask(&g, P1, Some(Bandit), None, Trash, prompt.clone()),
        Reply::Cards(vec![Silver])
    );
    // Thief trashes the victim's Gold, and gains it but not a Copper.
    assert_eq!(
        ask(&g, P0, Some(Thief), Some(P1), Trash, prompt),
        Reply::Cards(vec![Gold])
    );
    let gain = Prompt::ChooseCards {
        zone: Zone::Trash,
        options: vec![Copper, Gold],
        min: 0,
        max: 2,
    };
    assert_eq!(
        ask(&g, P0, Some(Thief), None, Gain, gain),
        Reply::Cards(vec![Gold])
    );
}

#[test]
fn minion_attacks_with_a_weak_hand_and_takes_coins_with_a_good_one() {
    let both = [Mode::PlusTwoCoins, Mode::DiscardAndDraw];
    let weak = position(&[Estate, Copper], &[], 8);
    assert_eq!(
        modes_of(&weak, P0, Minion, &both, 1),
        vec![Mode::DiscardAndDraw]
    );
    // $4 + $2 reaches a Gold.
    let good = position(&[Gold, Copper], &[], 8);
    assert_eq!(
        modes_of(&good, P0, Minion, &both, 1),
        vec![Mode::PlusTwoCoins]
    );
}

#[test]
fn pawn_takes_an_action_only_for_a_waiting_terminal() {
    let all = [
        Mode::PlusCard,
        Mode::PlusAction,
        Mode::PlusBuy,
        Mode::PlusCoin,
    ];
    let mut g = position(&[Pawn, Smithy, Copper], &[], 8);
    g.play(Pawn);
    assert_eq!(
        modes_of(&g, P0, Pawn, &all, 2),
        vec![Mode::PlusCard, Mode::PlusAction]
    );
    let mut g = position(&[Pawn, Copper, Copper], &[], 8);
    g.play(Pawn);
    assert_eq!(
        modes_of(&g, P0, Pawn, &all, 2),
        vec![Mode::PlusCard, Mode::PlusCoin]
    );
}

#[test]
fn courtier_reveals_its_most_typed_card_and_takes_gold_first() {
    let g = position(&[Copper, Nobles, Silver], &[], 8);
    assert_eq!(
        pick(&g, P0, Courtier, Reveal, &[Copper, Nobles, Silver], 1, 1),
        vec![Nobles]
    );
    let all = [
        Mode::PlusAction,
        Mode::PlusBuy,
        Mode::PlusThreeCoins,
        Mode::GainGold,
    ];
    // Two modes (Action–Victory): the Gold and the coins, in either order.
    let g = position(&[Copper, Copper], &[], 8);
    let mut two = modes_of(&g, P0, Courtier, &all, 2);
    two.sort_by_key(|m| format!("{m:?}"));
    assert_eq!(two, vec![Mode::GainGold, Mode::PlusThreeCoins]);
}

#[test]
fn mill_discards_two_dead_cards_and_mining_village_stays_early() {
    let mill = |hand: &[CardId]| {
        let g = position(hand, &[], 8);
        ask(&g, P0, Some(Mill), None, Discard, Prompt::YesNo)
    };
    assert_eq!(mill(&[Estate, Estate, Silver]), Reply::YesNo(true));
    assert_eq!(mill(&[Silver, Silver, Estate]), Reply::YesNo(false));
    let g = position(&[Gold, Silver], &[], 8);
    assert_eq!(
        ask(&g, P0, Some(MiningVillage), None, Trash, Prompt::YesNo),
        Reply::YesNo(false)
    );
}

#[test]
fn lurker_gains_a_good_action_from_the_trash_else_trashes_from_the_supply() {
    let options = [Mode::TrashFromSupply, Mode::GainFromTrash];
    let g = table(2).trash(&[Laboratory]).start();
    assert_eq!(
        modes_of(&g, P0, Lurker, &options, 1),
        vec![Mode::GainFromTrash]
    );
    let g = table(2).trash(&[Copper]).start();
    assert_eq!(
        modes_of(&g, P0, Lurker, &options, 1),
        vec![Mode::TrashFromSupply]
    );
}

#[test]
fn bureaucrat_and_diplomat_victims() {
    let g = table(2).hand(P1, &[Province, Estate, Copper]).start();
    assert_eq!(
        pick(&g, P1, Bureaucrat, TopDeck, &[Province, Estate], 1, 1).len(),
        1
    );
    let hand = [Gold, Silver, Copper, Estate, Curse, Silver, Copper];
    let g = table(2).hand(P1, &hand).start();
    assert_eq!(
        pick(&g, P1, Diplomat, Discard, &hand, 3, 3),
        vec![Estate, Curse, Copper]
    );
}

#[test]
fn workshop_gains_by_the_plan_and_upgrade_turns_an_estate_into_silver() {
    let g = position(&[Upgrade, Estate, Copper, Gold], &[], 8);
    assert_eq!(
        pick(&g, P0, Upgrade, Trash, &[Estate, Copper, Gold], 1, 1),
        vec![Estate]
    );
    // The testkit's Supply holds Gardens and Workshop: the Gardens plan gains Workshops.
    assert_eq!(
        pile(
            &g,
            P0,
            Workshop,
            None,
            &[Silver, Workshop, Smithy, Estate],
            false
        ),
        Some(Workshop)
    );
}

// ----- the plan's main card is bought -------------------------------------------------

/// Kingdom cards that are never a money plan's card and make no other plan (no gainer
/// for Gardens, no Festival/Library engine): the rest of a kingdom built around one card.
const FILLERS: [CardId; 9] = [
    Cellar,
    CardId::Village,
    Chapel,
    Harbinger,
    Pawn,
    Lurker,
    Scout,
    Spy,
    ThroneRoom,
];

#[test]
fn the_plans_main_card_is_bought_at_its_price_for_every_card_and_edition() {
    use super::roles::{Kind, role};
    let mut mains = 0;
    for card in CardId::all().filter(|c| c.is_kingdom()) {
        let main_like = role(card).money > 0 && role(card).kind == Kind::Terminal;
        for edition in [Edition::First, Edition::Second] {
            let mut kingdom = FILLERS.to_vec();
            if !kingdom.contains(&card) {
                kingdom[8] = card;
            }
            let g = table(2)
                .edition(edition)
                .kingdom(&kingdom)
                .hand(P0, &[])
                .discard(
                    P0,
                    &[
                        Copper, Copper, Copper, Copper, Copper, Copper, Copper, Estate, Estate,
                        Estate,
                    ],
                )
                .start();
            let obs = Observation::for_player(&g, P0);
            let plan = Plan::for_kingdom(&obs);
            if !main_like {
                assert_ne!(plan.main, Some(card), "{card} {edition:?}");
                continue;
            }
            assert_eq!(plan.main, Some(card), "{card} {edition:?}");
            // The starting deck owns none: the plan wants at least one.
            assert!(plan.main_copies(7) >= 1, "{card}");
            mains += 1;
            let price = obs.cost(card);
            let buyable: Vec<CardId> = obs
                .supply_cards()
                .filter(|c| obs.cost(*c) <= price)
                .collect();
            let req = Request {
                player: P0,
                card: None,
                about: None,
                purpose: Purpose::BuyPhase,
                prompt: Prompt::BuyPhase {
                    treasures: vec![],
                    buyable,
                },
            };
            assert_eq!(
                StandardBot::new().decide(&obs, &req),
                Reply::Buy(card),
                "{card} ({edition:?}) at ${price}"
            );
        }
    }
    // Every terminal with a money row: Witch, Smithy, Nobles, Adventurer, Artisan…
    assert!(mains >= 2 * 30, "{mains}");
}

#[test]
fn a_duke_kingdom_without_a_strong_card_takes_duchies_once_the_deck_has_money_14() {
    let buy_at = |main: CardId, extra: &[CardId], coins: u32| {
        let mut kingdom = FILLERS.to_vec();
        kingdom[7] = Duke;
        kingdom[8] = main;
        let mut discard = vec![Copper; 7];
        discard.extend_from_slice(&[Estate; 3]);
        discard.extend_from_slice(extra);
        let g = table(2)
            .kingdom(&kingdom)
            .hand(P0, &[])
            .discard(P0, &discard)
            .start();
        let obs = Observation::for_player(&g, P0);
        let plan = Plan::for_kingdom(&obs);
        (
            plan.duke_plan,
            buy::best_with(&obs, &plan, &Status::read(&obs), coins),
        )
    };
    // Baron (weaker than Library): Duke plan. Money 7: money first.
    assert_eq!(buy_at(Baron, &[], 5), (true, Some(Baron)));
    // Money 7 + 3 Golds = 16: a Duchy at $5 and even at $8 (over a Province).
    assert_eq!(buy_at(Baron, &[Gold; 3], 5), (true, Some(Duchy)));
    assert_eq!(buy_at(Baron, &[Gold; 3], 8), (true, Some(Duchy)));
    // Witch leads a money deck instead: no Duke plan, a Province at $8, its first
    // Witch at $5.
    assert_eq!(buy_at(Witch, &[Gold; 3], 8), (false, Some(Province)));
    assert_eq!(buy_at(Witch, &[Gold; 3], 5), (false, Some(Witch)));
}
