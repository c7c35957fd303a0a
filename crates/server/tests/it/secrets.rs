//! No frame to one seat carries another seat's hidden cards, any deck order, or the seed
//! before the game ends.
//!
//! The canary: after a game the test rebuilds it exactly with the engine from the record
//! the server published (setup, seed, replies), so it knows every hidden card at every
//! moment — each private event's cards, every zone and the pending question after each
//! reply — and checks every frame every client received against that truth. What may be
//! public is decided here, from the protocol guide, not taken from the engine's own
//! redaction: draws and looked-at cards are always private; a discard or a put-onto-deck
//! is public only for cards that were revealed first; others learn of a private event its
//! count (and a discard's new top) and nothing else.
//!
//! The games are between two human sockets, a server bot and a spectator, on kingdoms of
//! cards that reveal, look at, set aside, move and steal cards; the humans buy and play
//! every kingdom card, and each test asserts the cards it is about were played.

use crate::common::{Client, Curious, card, config, replay_record, start};
use dominion_engine::state::PlayerState;
use dominion_engine::{CardId, Event, Game, Purpose, Request};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// A game with new cards takes a few seconds; this bounds a stuck one.
const GAME_TIMEOUT: Duration = Duration::from_secs(180);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_game_frames_hide_every_secret() {
    let truth = play_and_check(
        "base_2e/first_game",
        json!({"type": "recommended", "id": "base_2e/first_game"}),
        "2e",
        "militia",
        &["militia", "smithy", "market", "moat", "cellar"],
    )
    .await;
    assert_played(&truth, &["militia", "moat"]);
}

/// Spy and Thief (1E only) with Bandit, Sentry and Harbinger (2E only) in one 2E room:
/// the cards that reveal other players' decks, look at one's own and move cards between
/// the discard pile and the deck.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spy_thief_bandit_sentry_harbinger_and_library_frames_hide_every_secret() {
    let kingdom = [
        "spy",
        "thief",
        "bandit",
        "sentry",
        "harbinger",
        "library",
        "vassal",
        "chancellor",
        "moat",
        "village",
    ];
    let truth = play_and_check(
        "revealers",
        json!({"type": "cards", "cards": kingdom}),
        "2e",
        "big_money",
        // Most expensive first, so each is bought as soon as it can be.
        &[
            "bandit",
            "sentry",
            "library",
            "spy",
            "thief",
            "harbinger",
            "vassal",
            "chancellor",
            "village",
            "moat",
        ],
    )
    .await;
    assert_played(
        &truth,
        &["spy", "thief", "bandit", "sentry", "harbinger", "library"],
    );
    // The private and public moves of those cards happened, so the canary saw them.
    let events = truth.game.events();
    let happened = |what: &str, pred: &dyn Fn(&Event) -> bool| {
        assert!(events.iter().any(pred), "no {what} in the game");
    };
    happened("looked-at cards (Sentry)", &|e| {
        matches!(e, Event::LookedAt { .. })
    });
    happened("card set aside (Library)", &|e| {
        matches!(e, Event::SetAside { .. })
    });
    happened("private put onto a deck (Sentry, Harbinger)", &|e| {
        matches!(e, Event::TopDecked { private: true, .. })
    });
    happened(
        "revealed card discarded in the open (Spy, Bandit, Thief)",
        &|e| matches!(e, Event::Discarded { private: false, .. }),
    );
    let harbinger_moved = events.iter().enumerate().any(|(i, e)| {
        matches!(
            e,
            Event::Played {
                card: CardId::Harbinger,
                ..
            }
        ) && events[i + 1..]
            .iter()
            .take_while(|e| !matches!(e, Event::Played { .. } | Event::PhaseStarted { .. }))
            .any(|e| {
                matches!(
                    e,
                    Event::TopDecked {
                        private: true,
                        count: 1,
                        ..
                    }
                )
            })
    });
    assert!(
        harbinger_moved,
        "Harbinger never put a card from the discard pile onto the deck"
    );
    happened("revealed card put back in the open (Spy)", &|e| {
        matches!(e, Event::TopDecked { private: false, .. })
    });
}

/// The other new Base cards, 2E-only ones in a 1E room: Adventurer's revealed
/// Treasures, Chancellor's unseen deck, Artisan's and Bureaucrat's cards onto the deck.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_other_new_cards_hide_every_secret_in_a_mixed_first_edition_room() {
    let kingdom = [
        "adventurer",
        "artisan",
        "bureaucrat",
        "chancellor",
        "feast",
        "gardens",
        "moneylender",
        "poacher",
        "vassal",
        "woodcutter",
    ];
    let truth = play_and_check(
        "movers",
        json!({"type": "cards", "cards": kingdom}),
        "1e",
        "big_money",
        &[
            "adventurer",
            "artisan",
            "feast",
            "bureaucrat",
            "moneylender",
            "poacher",
            "chancellor",
            "vassal",
            "woodcutter",
        ],
    )
    .await;
    assert_played(
        &truth,
        &["adventurer", "artisan", "bureaucrat", "chancellor"],
    );
}

/// Plays a game between two humans buying `wants`, the bot `bot` and a spectator, then
/// runs the canary over every frame; returns the replayed game.
async fn play_and_check(
    name: &str,
    kingdom: Value,
    edition: &str,
    bot: &str,
    wants: &[&str],
) -> Truth {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "name": name,
            "kingdom": kingdom,
            "edition": edition,
            "seats": [{"type": "open"}, {"type": "open"}, {"type": "bot", "bot": bot}],
        }))
        .await;
    ann.take_seat(&room).await;
    let mut bob = Client::connect(addr, "Bob").await;
    bob.take_seat(&room).await;
    let mut eve = Client::connect(addr, "Eve").await;
    eve.ask(json!({"type": "spectate", "room": room})).await;
    ann.start().await;

    let wants: Vec<String> = wants.iter().map(|w| w.to_string()).collect();
    let watch = |mut c: Client| async move {
        let over = c.until(|v| v["type"] == "game_over").await;
        (c, over)
    };
    let game = async {
        tokio::join!(
            play(ann, Curious::new(&wants)),
            play(bob, Curious::new(&wants)),
            watch(eve)
        )
    };
    let ((ann, result), (bob, _), (eve, _)) = tokio::time::timeout(GAME_TIMEOUT, game)
        .await
        .unwrap_or_else(|_| panic!("{name}: the game did not end within {GAME_TIMEOUT:?}"));

    let truth = Truth::replay(&result);
    assert_eq!(
        result["kingdom"], result["setup"]["kingdom"]["cards"],
        "the record names the drawn cards"
    );
    let seed = result["seed"].as_str().unwrap();
    let clients = [(&ann, Some(0u8)), (&bob, Some(1u8)), (&eve, None)];
    let copies: Vec<BTreeMap<u64, Value>> = clients
        .iter()
        .map(|(c, seat)| check_frames(&truth, c, *seat, seed))
        .collect();
    let private_checked = check_events(&truth, &copies, &[Some(0), Some(1), None]);
    assert!(
        private_checked > 100,
        "{name}: the game had private events to check ({private_checked})"
    );
    truth
}

async fn play(mut c: Client, mut me: Curious) -> (Client, Value) {
    loop {
        let v = c.recv().await;
        match v["type"].as_str() {
            Some("decision") => {
                let d = v["decision"].as_u64().unwrap();
                let r = me.reply(&v);
                c.reply(d, r).await;
            }
            Some("game_over") => return (c, v),
            Some("error") => panic!("{}: {v}", c.name),
            _ => {}
        }
    }
}

/// The game rebuilt from its published record, with what was true after each reply.
struct Truth {
    game: Game,
    /// After 0, 1, 2, … accepted replies.
    steps: Vec<Step>,
    /// The first step at which the game had emitted this many events: the state a
    /// frame carrying the events up to there was made from.
    by_events: BTreeMap<usize, usize>,
    /// The step at which the decision with this number was pending.
    by_number: BTreeMap<u64, usize>,
}

struct Step {
    players: Vec<PlayerState>,
    pending: Option<Request>,
    /// The pending decision's number (`Game::decision_number`).
    number: Option<u64>,
}

impl Truth {
    fn replay(result: &Value) -> Truth {
        let mut steps = Vec::new();
        let mut by_events = BTreeMap::new();
        let mut by_number = BTreeMap::new();
        let game = replay_record(result, |game| {
            by_events.entry(game.events().len()).or_insert(steps.len());
            let number = game.decision_number();
            if let Some(n) = number {
                let again = by_number.insert(n, steps.len());
                assert_eq!(again, None, "decision number {n} given twice");
            }
            steps.push(Step {
                players: game.state().players.clone(),
                pending: game.pending().cloned(),
                number,
            });
        });
        Truth {
            game,
            steps,
            by_events,
            by_number,
        }
    }

    /// The number of replies after which the game had first emitted `n` events.
    fn step_after_events(&self, n: u64, who: &str) -> usize {
        *self
            .by_events
            .get(&(n as usize))
            .unwrap_or_else(|| panic!("{who}: no state of the game had {n} events"))
    }
}

/// Checks every frame one client received; returns its copy of each event by number.
fn check_frames(
    truth: &Truth,
    client: &Client,
    seat: Option<u8>,
    seed: &str,
) -> BTreeMap<u64, Value> {
    let who = &client.name;
    let over_at = client
        .frames
        .iter()
        .position(|f| f.contains(r#""type":"game_over""#))
        .expect("game_over received");
    let mut events = BTreeMap::new();
    for (i, text) in client.frames.iter().enumerate() {
        let v: Value = serde_json::from_str(text).unwrap();
        if i < over_at {
            assert!(!text.contains(seed), "seed leaked to {who}: {text}");
            assert_no_secret_keys(&v, who);
        }
        match v["type"].as_str().unwrap() {
            "decision" => check_decision(truth, &v, seat, who),
            "events" => {
                let first = v["first"].as_u64().unwrap();
                let list = v["events"].as_array().unwrap();
                for (k, e) in list.iter().enumerate() {
                    events.insert(first + k as u64, e.clone());
                }
                let step = truth.step_after_events(first + list.len() as u64, who);
                check_view(truth, &v["view"], step, seat, who);
            }
            "snapshot" => {
                let step = truth.step_after_events(v["next_event"].as_u64().unwrap(), who);
                check_view(truth, &v["view"], step, seat, who);
            }
            _ => {}
        }
    }
    assert_eq!(
        events.len(),
        truth.game.events().len(),
        "{who} missed events"
    );
    events
}

/// A decision goes only to the seat asked, is exactly the engine's question, and offers
/// only cards the asked seat may know: its own, or revealed ones.
fn check_decision(truth: &Truth, v: &Value, seat: Option<u8>, who: &str) {
    let n = v["decision"].as_u64().unwrap();
    let at = *truth
        .by_number
        .get(&n)
        .unwrap_or_else(|| panic!("{who} got decision {n}, but no decision had that number"));
    let step = &truth.steps[at];
    let req = step
        .pending
        .as_ref()
        .expect("a numbered decision is pending");
    assert_eq!(
        seat,
        Some(req.player.0),
        "{who} got seat {}'s decision",
        req.player
    );
    assert_eq!(v["seat"], req.player.0, "{who}: {v}");
    assert_eq!(v["card"].as_str(), req.card.map(|c| c.key()), "{who}: {v}");
    assert_eq!(
        v["about"].as_u64(),
        req.about.map(|p| u64::from(p.0)),
        "{who}: {v}"
    );
    assert_eq!(
        v["purpose"],
        serde_json::to_value(req.purpose).unwrap(),
        "{who}: {v}"
    );
    assert_eq!(
        v["prompt"],
        serde_json::to_value(&req.prompt).unwrap(),
        "{who}: {v}"
    );
    let whose = req.about.unwrap_or(req.player).idx();
    match v["prompt"]["zone"].as_str() {
        Some("hand" | "deck" | "discard") => {
            assert_eq!(req.about, None, "{who}: hidden cards of another seat: {v}")
        }
        Some("revealed") => {
            let options: Vec<CardId> = v["prompt"]["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(card)
                .collect();
            assert!(
                is_sub_multiset(&options, &step.players[whose].aside),
                "{who}: options not among seat {whose}'s revealed cards: {v}"
            );
        }
        _ => {}
    }
}

const VIEW_KEYS: &[&str] = &[
    "seat",
    "edition",
    "kingdom",
    "supply",
    "trash",
    "seats",
    "hand",
    "current",
    "phase",
    "actions",
    "buys",
    "coins",
    "turn_count",
    "waiting_for",
    "decision",
    "game_over",
];
const SEAT_KEYS: &[&str] = &[
    "seat",
    "hand_count",
    "deck_count",
    "discard_count",
    "discard_top",
    "in_play",
    "aside",
    "vp",
    "turns",
];

/// A view shows its seat's hand as it truly is, every other zone as the public facts
/// (counts, the discard pile's top, cards in play and revealed), nothing else; whom the
/// game waits for, except a Reaction question to anyone but the viewer; and the pending
/// decision's number to the asked seat only (others could compare numbers).
fn check_view(truth: &Truth, view: &Value, at: usize, seat: Option<u8>, who: &str) {
    let step = &truth.steps[at];
    for k in view.as_object().unwrap().keys() {
        assert!(VIEW_KEYS.contains(&k.as_str()), "{who}: view carries {k}");
    }
    assert_eq!(view["seat"].as_u64().map(|s| s as u8), seat, "{who}");
    match seat {
        Some(s) => assert_eq!(
            view["hand"],
            json!(keys(&step.players[s as usize].hand)),
            "{who}'s hand"
        ),
        None => assert!(view.get("hand").is_none(), "spectator sees a hand"),
    }
    for (i, sv) in view["seats"].as_array().unwrap().iter().enumerate() {
        for k in sv.as_object().unwrap().keys() {
            assert!(
                SEAT_KEYS.contains(&k.as_str()),
                "{who}: seat {i} carries {k}"
            );
        }
        let p = &step.players[i];
        assert_eq!(sv["hand_count"], p.hand.len(), "{who}: seat {i}");
        assert_eq!(sv["deck_count"], p.deck.len(), "{who}: seat {i}");
        assert_eq!(sv["discard_count"], p.discard.len(), "{who}: seat {i}");
        assert_eq!(
            sv["discard_top"].as_str(),
            p.discard.last().map(|c| c.key()),
            "{who}: seat {i}"
        );
        assert_eq!(sv["in_play"], json!(keys(&p.in_play)), "{who}: seat {i}");
        assert_eq!(sv["aside"], json!(keys(&p.aside)), "{who}: seat {i}");
    }
    match &step.pending {
        Some(req) if req.purpose == Purpose::React && seat != Some(req.player.0) => {
            assert!(
                view.get("waiting_for").is_none() && view.get("decision").is_none(),
                "{who} is told that seat {} is asked about a Reaction: {view}",
                req.player
            );
        }
        Some(req) => {
            assert_eq!(view["waiting_for"], req.player.0, "{who}");
            if seat == Some(req.player.0) {
                assert_eq!(
                    view.get("decision").and_then(Value::as_u64),
                    step.number,
                    "{who}: the number of its own decision"
                );
            } else {
                assert!(
                    view.get("decision").is_none(),
                    "{who} is told the number of seat {}'s decision: {view}",
                    req.player
                );
            }
        }
        None => assert!(
            view.get("waiting_for").is_none() && view.get("decision").is_none(),
            "{who}: {view}"
        ),
    }
}

/// Every viewer's copy of every event: a private part only to its seat, with the rest
/// the same for everyone; public card lists only of cards that were revealed. Returns
/// how many private parts were withheld from other viewers.
fn check_events(truth: &Truth, copies: &[BTreeMap<u64, Value>], seats: &[Option<u8>]) -> usize {
    let mut withheld = 0;
    // Cards each seat revealed or set aside this turn and has not moved since.
    let mut revealed: Vec<Vec<CardId>> = vec![Vec::new(); truth.steps[0].players.len()];
    for (n, e) in truth.game.events().iter().enumerate() {
        let n = n as u64;
        let private = match e {
            Event::Drew { player, cards, .. } | Event::LookedAt { player, cards, .. } => {
                Some((*player, cards.clone()))
            }
            Event::Discarded {
                player,
                cards,
                private: true,
                ..
            }
            | Event::TopDecked {
                player,
                cards,
                private: true,
                ..
            } => Some((*player, cards.clone())),
            Event::Discarded { player, cards, .. } | Event::TopDecked { player, cards, .. } => {
                let cards = cards.as_ref().expect("a public move names its cards");
                assert!(
                    take_all(&mut revealed[player.idx()], cards),
                    "event {n} moves seat {player}'s cards {cards:?} in the open without their being revealed: {e:?}"
                );
                None
            }
            Event::Revealed { player, cards } | Event::SetAside { player, cards } => {
                revealed[player.idx()].extend(cards);
                None
            }
            Event::PutInHand { player, cards } | Event::Trashed { player, cards } => {
                take_all(&mut revealed[player.idx()], cards);
                None
            }
            Event::TurnStarted { .. } => {
                revealed.iter_mut().for_each(Vec::clear);
                None
            }
            _ => None,
        };
        match private {
            Some((owner, cards)) => {
                let cards = cards.expect("the engine's own copy holds the cards");
                let mut public = None;
                for (i, seat) in seats.iter().enumerate() {
                    let copy = &copies[i][&n];
                    assert_eq!(copy["seat"], owner.0, "event {n}");
                    assert_eq!(copy["count"], cards.len(), "event {n}: {copy}");
                    if let Event::Discarded { top, .. } = e {
                        assert_eq!(copy["top"].as_str(), top.map(|c| c.key()), "event {n}");
                    }
                    let mut rest = copy.clone();
                    let shown = rest.as_object_mut().unwrap().remove("cards");
                    if *seat == Some(owner.0) {
                        assert_eq!(
                            shown,
                            Some(json!(keys(&cards))),
                            "event {n}: seat {owner}'s own copy"
                        );
                    } else {
                        assert_eq!(
                            shown, None,
                            "event {n} shows seat {owner}'s cards to viewer {seat:?}: {copy}"
                        );
                        withheld += 1;
                    }
                    // Apart from the cards, everyone gets the same event.
                    let public = public.get_or_insert_with(|| rest.clone());
                    assert_eq!(
                        &rest, public,
                        "event {n}: viewer {seat:?} gets another copy"
                    );
                }
            }
            None => {
                for c in &copies[1..] {
                    assert_eq!(
                        c[&n], copies[0][&n],
                        "event {n} differs between viewers: {e:?}"
                    );
                }
            }
        }
    }
    withheld
}

/// Removes `cards` from `from` if all are there (multiset); whether they were.
fn take_all(from: &mut Vec<CardId>, cards: &[CardId]) -> bool {
    if !is_sub_multiset(cards, from) {
        return false;
    }
    for c in cards {
        let i = from.iter().position(|x| x == c).unwrap();
        from.remove(i);
    }
    true
}

fn is_sub_multiset(a: &[CardId], b: &[CardId]) -> bool {
    let mut b = b.to_vec();
    a.iter().all(|c| match b.iter().position(|x| x == c) {
        Some(i) => {
            b.remove(i);
            true
        }
        None => false,
    })
}

/// Asserts each card was played at least once in the game, so a test cannot pass
/// without the moves it is about.
fn assert_played(truth: &Truth, cards: &[&str]) {
    let played: BTreeSet<&str> = truth
        .game
        .events()
        .iter()
        .filter_map(|e| match e {
            Event::Played { card, .. } | Event::PlayedAgain { card, .. } => Some(card.key()),
            _ => None,
        })
        .collect();
    for c in cards {
        assert!(
            played.contains(c),
            "{c} was never played (played: {played:?})"
        );
    }
}

fn assert_no_secret_keys(v: &Value, who: &str) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                assert!(
                    !["deck", "rng", "seed", "decks", "state"].contains(&k.as_str()),
                    "{who} got key {k}: {v}"
                );
                assert_no_secret_keys(child, who);
            }
        }
        Value::Array(items) => items.iter().for_each(|c| assert_no_secret_keys(c, who)),
        _ => {}
    }
}

fn keys(cards: &[CardId]) -> Vec<&'static str> {
    cards.iter().map(|c| c.key()).collect()
}
