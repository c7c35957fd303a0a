//! No frame to one seat carries another seat's hidden cards, any deck order, or the seed
//! before the game ends.
//!
//! The canary: after a game the test rebuilds it exactly with the engine from the record
//! the server published (setup, seed, replies), so it knows every hidden card at every
//! moment — each private event's cards, every zone and the pending question after each
//! reply — and checks every frame every client received against that truth. What may be
//! public is decided here, from the protocol guide and the card texts, not taken from the
//! engine's own redaction:
//! - draws and looked-at cards are always private; others learn of a private event its
//!   count (and a discard's new top) and nothing else;
//! - cards are shown only when a card's text reveals them (`REVEALERS`; Library sets
//!   aside face up) or a player reveals a Reaction against an Attack — never, say, a card
//!   passed with Masquerade, which only its giver and receiver know;
//! - a discard, a put-onto-deck or a put-into-hand is public only for cards revealed (or
//!   set aside) first and not since moved unseen, and a put-onto-deck in the open never
//!   shows an order (Scout's, Patrol's, Sentry's order is the player's secret); Courtyard's,
//!   Secret Passage's and Secret Chamber's cards come from the hand, so are private;
//! - a view shows its own hand as it is and every other zone as the public facts; whom
//!   the game waits for is hidden while a Reaction is asked about (who holds one is
//!   secret); a decision goes to its seat only and offers only that seat's cards where
//!   it says they are (a Masquerade pass: the passer's own hand).
//!
//! The games are between human sockets (two, or three for the Intrigue cards so that a
//! Masquerade pass has seats outside it), a server bot and a spectator, on kingdoms of
//! cards that reveal, look at, set aside, pass, move and steal cards; the humans buy and
//! play every kingdom card, and each test asserts the cards it is about were played and
//! the hidden moves it is about happened.

use crate::common::{Client, Curious, card, config, replay_record, start};
use dominion_engine::game::is_public;
use dominion_engine::state::PlayerState;
use dominion_engine::{CardId, Event, Game, Prompt, Purpose, Request, Types};
use dominion_server::Config;
use dominion_server::config::SqliteSync;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::time::Duration;

/// A game with new cards takes a few seconds; this bounds a stuck one.
const GAME_TIMEOUT: Duration = Duration::from_secs(180);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_game_frames_hide_every_secret() {
    play_until_covered(
        "base_2e/first_game",
        json!({"type": "recommended", "id": "base_2e/first_game"}),
        "2e",
        Table {
            humans: 2,
            bot: "militia",
        },
        &["militia", "smithy", "market", "moat", "cellar"],
        |t| played_times(t, &["militia", "moat"], 1),
    )
    .await;
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
    play_until_covered(
        "revealers",
        json!({"type": "cards", "cards": kingdom}),
        "2e",
        TWO_AND_A_BOT,
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
        |t| {
            played_times(
                t,
                &["spy", "thief", "bandit", "sentry", "harbinger", "library"],
                1,
            )?;
            revealers_moved(t)
        },
    )
    .await;
}

/// The private and public moves of Spy, Thief, Bandit, Sentry, Harbinger and Library
/// happened in the game, so the canary saw them; if not, names the first missing.
fn revealers_moved(truth: &Truth) -> Result<(), String> {
    let events = truth.game.events();
    let happened = |what: &str, pred: &dyn Fn(&Event) -> bool| {
        if events.iter().any(pred) {
            Ok(())
        } else {
            Err(what.to_string())
        }
    };
    happened("looked-at cards (Sentry)", &|e| {
        matches!(e, Event::LookedAt { .. })
    })?;
    happened("card set aside (Library)", &|e| {
        matches!(e, Event::SetAside { .. })
    })?;
    happened("private put onto a deck (Sentry, Harbinger)", &|e| {
        matches!(e, Event::TopDecked { private: true, .. })
    })?;
    happened(
        "revealed card discarded in the open (Spy, Bandit, Thief)",
        &|e| matches!(e, Event::Discarded { private: false, .. }),
    )?;
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
    if !harbinger_moved {
        return Err("Harbinger putting a card from the discard pile onto the deck".into());
    }
    happened("revealed card put back in the open (Spy)", &|e| {
        matches!(e, Event::TopDecked { private: false, .. })
    })
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
    play_until_covered(
        "movers",
        json!({"type": "cards", "cards": kingdom}),
        "1e",
        TWO_AND_A_BOT,
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
        |t| played_times(t, &["adventurer", "artisan", "bureaucrat", "chancellor"], 1),
    )
    .await;
}

/// The Intrigue cards that move hidden cards, in a first-edition room of three humans and
/// a Militia bot (attacking often, for Secret Chamber to react to): Masquerade's passes,
/// Courtyard's and Secret Chamber's cards put back from the hand, Scout's revealed cards
/// put back in a secret order, Saboteur's, Swindler's and Tribute's reveals from other
/// decks, Wishing Well's revealed card.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn intrigue_cards_hide_every_secret_in_a_first_edition_room() {
    let kingdom = [
        "masquerade",
        "secret_chamber",
        "courtyard",
        "scout",
        "swindler",
        "saboteur",
        "tribute",
        "wishing_well",
        "militia",
        "village",
    ];
    play_until_covered(
        "intrigue_1e",
        json!({"type": "cards", "cards": kingdom}),
        "1e",
        Table {
            humans: 3,
            bot: "militia",
        },
        // Saboteur not first: it trashes the others from the decks.
        &[
            "tribute",
            "scout",
            "saboteur",
            "militia",
            "masquerade",
            "swindler",
            "wishing_well",
            "courtyard",
            "secret_chamber",
            "village",
        ],
        |truth| {
            played_times(
                truth,
                &[
                    "masquerade",
                    "secret_chamber",
                    "courtyard",
                    "scout",
                    "swindler",
                    "saboteur",
                    "tribute",
                    "wishing_well",
                ],
                PLAYED_AT_LEAST,
            )?;
            masquerade_passed(truth)?;
            secret_chamber_reacted(truth)?;
            let during = |card, what, pred| happened_during(truth, card, what, pred);
            during(CardId::Courtyard, "a card put back unseen", &|e| {
                matches!(
                    e,
                    Event::TopDecked {
                        private: true,
                        count: 1,
                        ..
                    }
                )
            })?;
            during(CardId::Scout, "revealed cards put back unseen", &|e| {
                matches!(
                    e,
                    Event::TopDecked {
                        private: true,
                        count: 2..,
                        ..
                    }
                )
            })?;
            during(CardId::Scout, "a Victory card taken", &|e| {
                matches!(e, Event::PutInHand { .. })
            })?;
            during(CardId::Tribute, "the neighbour's cards discarded", &|e| {
                matches!(e, Event::Discarded { private: false, .. })
            })?;
            during(CardId::Saboteur, "a victim's card trashed", &|e| {
                matches!(e, Event::Trashed { .. })
            })?;
            during(CardId::Swindler, "a victim's card swindled", &|e| {
                matches!(e, Event::Gained { .. })
            })?;
            wishing_well_revealed(truth)
        },
    )
    .await;
}

/// The same in a second-edition room, with Patrol and Secret Passage (2E only), and
/// Secret Chamber (1E only) to react to Militia and Bureaucrat; a Bureaucrat bot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn intrigue_cards_hide_every_secret_in_a_second_edition_room() {
    let kingdom = [
        "masquerade",
        "secret_chamber",
        "courtyard",
        "patrol",
        "secret_passage",
        "wishing_well",
        "militia",
        "bureaucrat",
        "mill",
        "village",
    ];
    play_until_covered(
        "intrigue_2e",
        json!({"type": "cards", "cards": kingdom}),
        "2e",
        Table {
            humans: 3,
            bot: "bureaucrat",
        },
        &[
            "patrol",
            "secret_passage",
            "militia",
            "bureaucrat",
            "mill",
            "masquerade",
            "wishing_well",
            "courtyard",
            "secret_chamber",
            "village",
        ],
        |truth| {
            played_times(
                truth,
                &[
                    "masquerade",
                    "secret_chamber",
                    "courtyard",
                    "patrol",
                    "secret_passage",
                    "wishing_well",
                ],
                PLAYED_AT_LEAST,
            )?;
            masquerade_passed(truth)?;
            secret_chamber_reacted(truth)?;
            let during = |card, what, pred| happened_during(truth, card, what, pred);
            during(CardId::Courtyard, "a card put back unseen", &|e| {
                matches!(
                    e,
                    Event::TopDecked {
                        private: true,
                        count: 1,
                        ..
                    }
                )
            })?;
            during(
                CardId::SecretPassage,
                "a card put into the deck unseen",
                &|e| {
                    matches!(
                        e,
                        Event::TopDecked {
                            private: true,
                            count: 1,
                            ..
                        }
                    )
                },
            )?;
            during(CardId::Patrol, "revealed cards put back unseen", &|e| {
                matches!(
                    e,
                    Event::TopDecked {
                        private: true,
                        count: 2..,
                        ..
                    }
                )
            })?;
            wishing_well_revealed(truth)?;
            // Secret Passage was asked where to put its card, into a deck of cards.
            let placed = truth.steps.iter().any(|s| {
                s.pending.as_ref().is_some_and(|r| {
                    r.purpose == Purpose::PlaceInDeck
                        && matches!(r.prompt, Prompt::ChooseNumber { max: 1.., .. })
                })
            });
            placed
                .then_some(())
                .ok_or("Secret Passage asking where in a deck".to_string())
        },
    )
    .await;
}

/// How often each card of a game about it must have been played.
const PLAYED_AT_LEAST: usize = 2;

/// Games a test may play to see every move it is about.
const ATTEMPTS: usize = 3;

/// Plays games as [`play_and_check`] — each one checked in full — until one has the
/// moves `covered` asks for (it names what is missing), at most [`ATTEMPTS`]: the server
/// deals a random game, and a card can miss every hand of one.
async fn play_until_covered(
    name: &str,
    kingdom: Value,
    edition: &str,
    table: Table<'_>,
    wants: &[&str],
    covered: impl Fn(&Truth) -> Result<(), String>,
) -> Truth {
    let mut missing = Vec::new();
    for game in 1..=ATTEMPTS {
        let truth = play_and_check(name, kingdom.clone(), edition, table, wants).await;
        match covered(&truth) {
            Ok(()) => return truth,
            Err(what) => {
                eprintln!("{name}: game {game} had no {what}; playing another");
                missing.push(what);
            }
        }
    }
    panic!("{name}: {ATTEMPTS} games lacked, in turn: {missing:?}")
}

/// Some Masquerade passed a card all round a table of 3 or more: each pass has seats
/// that neither give nor receive it, and the canary checked what they were sent.
fn masquerade_passed(truth: &Truth) -> Result<(), String> {
    let mut circle = 0;
    let mut largest = 0;
    for s in &truth.steps {
        match &s.pending {
            Some(r) if r.purpose == Purpose::Pass => circle += 1,
            _ => circle = 0,
        }
        largest = largest.max(circle);
    }
    (largest >= 3).then_some(()).ok_or(format!(
        "Masquerade passing round 3 players or more (largest circle: {largest})"
    ))
}

/// A player revealed Secret Chamber against an Attack, then drew.
fn secret_chamber_reacted(truth: &Truth) -> Result<(), String> {
    let reacted = truth.game.events().windows(2).any(|w| {
        matches!(&w[0], Event::Revealed { cards, .. } if cards[..] == [CardId::SecretChamber])
            && matches!(w[1], Event::Drew { .. } | Event::Shuffled { .. })
    });
    reacted
        .then_some(())
        .ok_or("Secret Chamber revealed against an Attack".to_string())
}

/// Wishing Well revealed a card and moved it in the open: into the hand when named,
/// back on top otherwise. (Which happens is luck: the scripted players name Copper.)
fn wishing_well_revealed(truth: &Truth) -> Result<(), String> {
    happened_during(
        truth,
        CardId::WishingWell,
        "revealed card taken or put back in the open",
        &|e| {
            matches!(
                e,
                Event::PutInHand { .. } | Event::TopDecked { private: false, .. }
            )
        },
    )
}

/// Whether, while some play of `card` resolved (up to the next card played or phase),
/// an event matching `pred` happened; if not, names what is missing.
fn happened_during(
    truth: &Truth,
    card: CardId,
    what: &str,
    pred: &dyn Fn(&Event) -> bool,
) -> Result<(), String> {
    let events = truth.game.events();
    let happened = events.iter().enumerate().any(|(i, e)| {
        matches!(e, Event::Played { card: c, .. } | Event::PlayedAgain { card: c, .. } if *c == card)
            && events[i + 1..]
                .iter()
                .take_while(|e| {
                    !matches!(
                        e,
                        Event::Played { .. } | Event::PlayedAgain { .. } | Event::PhaseStarted { .. }
                    )
                })
                .any(pred)
    });
    happened.then_some(()).ok_or(format!("{card:?}: {what}"))
}

/// Who sits at the table: `humans` scripted players (2 or 3) buying the same cards, then
/// one server bot.
#[derive(Clone, Copy)]
struct Table<'a> {
    humans: usize,
    bot: &'a str,
}

const TWO_AND_A_BOT: Table<'static> = Table {
    humans: 2,
    bot: "big_money",
};

/// Plays a game between the humans of `table` buying `wants`, its bot and a spectator,
/// then runs the canary over every frame; returns the replayed game.
async fn play_and_check(
    name: &str,
    kingdom: Value,
    edition: &str,
    table: Table<'_>,
    wants: &[&str],
) -> Truth {
    const NAMES: [&str; 3] = ["Ann", "Bob", "Cid"];
    assert!((2..=NAMES.len()).contains(&table.humans));
    // What the frames carry is the point here, not durability: without an fsync per
    // reply a game takes a fraction of the time.
    let addr = start(Config {
        sqlite_sync: SqliteSync::Normal,
        ..config()
    })
    .await;
    let mut humans = Vec::new();
    for name in &NAMES[..table.humans] {
        humans.push(Client::connect(addr, name).await);
    }
    let mut seats = vec![json!({"type": "open"}); table.humans];
    seats.push(json!({"type": "bot", "bot": table.bot}));
    let room = humans[0]
        .create_room_with(json!({
            "name": name,
            "kingdom": kingdom,
            "edition": edition,
            "seats": seats,
        }))
        .await;
    for (i, c) in humans.iter_mut().enumerate() {
        assert_eq!(c.take_seat(&room).await, i as u64);
    }
    let mut eve = Client::connect(addr, "Eve").await;
    eve.ask(json!({"type": "spectate", "room": room})).await;
    humans[0].start().await;
    // A spectator who arrives mid-game asks for the whole game so far (`history`): every
    // page is checked below like every `events` frame.
    let late = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut lia = Client::connect(addr, "Lia").await;
        lia.ask(json!({"type": "spectate", "room": room})).await;
        let snapshot = lia.until(|v| v["type"] == "snapshot").await;
        fetch_history(&mut lia, snapshot["next_event"].as_u64().unwrap()).await;
        lia.until(|v| v["type"] == "game_over").await;
        lia
    };

    let wants: Vec<String> = wants.iter().map(|w| w.to_string()).collect();
    let game = async {
        let players = futures_util::future::join_all(
            humans.into_iter().map(|c| play(c, Curious::new(&wants))),
        );
        let watch = async move {
            eve.until(|v| v["type"] == "game_over").await;
            eve
        };
        tokio::join!(players, watch, late)
    };
    let (mut players, eve, lia) = tokio::time::timeout(GAME_TIMEOUT, game)
        .await
        .unwrap_or_else(|_| panic!("{name}: the game did not end within {GAME_TIMEOUT:?}"));
    // Each player's own history of the whole game: the same copies its frames carried.
    for (c, _) in &mut players {
        fetch_history(c, u64::MAX).await;
    }

    let result = &players[0].1;
    let truth = Truth::replay(result);
    assert_eq!(
        result["kingdom"], result["setup"]["kingdom"]["cards"],
        "the record names the drawn cards"
    );
    let seed = result["seed"].as_str().unwrap();
    let mut clients: Vec<(&Client, Option<u8>)> = players
        .iter()
        .enumerate()
        .map(|(i, (c, _))| (c, Some(i as u8)))
        .collect();
    clients.push((&eve, None));
    clients.push((&lia, None));
    let copies: Vec<BTreeMap<u64, Value>> = clients
        .iter()
        .map(|(c, seat)| check_frames(&truth, c, *seat, seed))
        .collect();
    let viewers: Vec<Option<u8>> = clients.iter().map(|(_, seat)| *seat).collect();
    let private_checked = check_events(&truth, &copies, &viewers);
    assert!(
        private_checked > 100,
        "{name}: the game had private events to check ({private_checked})"
    );
    truth
}

/// Asks `history` page by page for the events before `to` (all of them for
/// `u64::MAX`); the frames stay in the client's record for the checks.
async fn fetch_history(c: &mut Client, to: u64) {
    let mut from = 0;
    while from < to {
        let mut ask = json!({"type": "history", "from": from});
        if to != u64::MAX {
            ask["to"] = json!(to);
        }
        let page = c.ask(ask).await;
        assert_eq!(page["type"], "history", "{}: {page}", c.name);
        assert_eq!(page["first"], from, "{}: {page}", c.name);
        let n = page["events"].as_array().unwrap().len() as u64;
        assert!(n <= 500, "a page holds at most 500 events");
        if n == 0 {
            break;
        }
        from += n;
    }
    assert!(
        to == u64::MAX || from == to,
        "{}: history ended at {from} of {to}",
        c.name
    );
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
    /// Replies so far to public questions (the phase moves).
    public: u64,
    /// Each seat's replies to private questions since the last public reply.
    own: Vec<u64>,
}

impl Truth {
    fn replay(result: &Value) -> Truth {
        let mut steps = Vec::new();
        let mut by_events = BTreeMap::new();
        let mut by_number = BTreeMap::new();
        let game = replay_record(result, |game| {
            by_events.entry(game.events().len()).or_insert(steps.len());
            // The reply just given answered the previous step's question.
            let seats = game.num_players();
            let (public, own) =
                steps
                    .last()
                    .map_or((0, vec![0; seats]), |s: &Step| match &s.pending {
                        Some(r) if is_public(r) => (s.public + 1, vec![0; seats]),
                        Some(r) => {
                            let mut own = s.own.clone();
                            own[r.player.idx()] += 1;
                            (s.public, own)
                        }
                        None => (s.public, s.own.clone()),
                    });
            let number = game.decision_number();
            if let Some(n) = number {
                let again = by_number.insert(n, steps.len());
                assert_eq!(again, None, "decision number {n} given twice");
            }
            steps.push(Step {
                players: game.state().players.clone(),
                pending: game.pending().cloned(),
                number,
                public,
                own,
            });
        });
        Truth {
            game,
            steps,
            by_events,
            by_number,
        }
    }

    /// The step a view with `n` events was made at. Replies that emit no event (a
    /// Reaction declined, say) leave several steps with the same events; they differ only
    /// in whom the game waits for, so the one the view names is taken (a snapshot is
    /// taken whenever the viewer arrives, at any of them), else the first.
    ///
    /// A viewer is shown only steps at a public decision or at one of its own (never
    /// while another seat's private question is pending), so among those steps the one
    /// it may be shown is taken.
    fn step_for_view(&self, n: u64, view: &Value, seat: Option<u8>, who: &str) -> usize {
        let first = self.step_after_events(n, who);
        let end = self
            .by_events
            .range(n as usize + 1..)
            .next()
            .map_or(self.steps.len(), |(_, s)| *s);
        (first..end)
            .find(|&s| {
                let pending = self.steps[s].pending.as_ref();
                let asked = pending.map(|r| r.player.0);
                let may_see = pending.is_none_or(|r| is_public(r) || seat == Some(r.player.0));
                // A decision number in the view names the step exactly (a seat's own
                // questions can follow one another with no event between).
                let number = view.get("decision").and_then(Value::as_u64);
                may_see
                    && view.get("waiting_for").and_then(Value::as_u64) == asked.map(u64::from)
                    && (number.is_none() || number == self.steps[s].number)
            })
            .unwrap_or(first)
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
                let step = truth.step_for_view(first + list.len() as u64, &v["view"], seat, who);
                check_view(truth, &v["view"], step, seat, who);
            }
            "history" => {
                // Past events, as this viewer may see them: the same copy an `events`
                // frame carried (or would have), checked with them below.
                let first = v["first"].as_u64().unwrap();
                for (k, e) in v["events"].as_array().unwrap().iter().enumerate() {
                    let n = first + k as u64;
                    if let Some(seen) = events.get(&n) {
                        assert_eq!(
                            seen, e,
                            "{who}: history's event {n} differs from its events frame"
                        );
                    }
                    events.insert(n, e.clone());
                }
            }
            "snapshot" => {
                let step =
                    truth.step_for_view(v["next_event"].as_u64().unwrap(), &v["view"], seat, who);
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
    // The guide's numbering: a phase move is 1000 × the phase moves answered so far; a
    // private question the number of the phase move answered last + 1 + 166 × its seat +
    // the seat's own private answers since, so one's own numbers never tell that someone
    // else was asked anything.
    let expected = if is_public(req) {
        1000 * step.public
    } else {
        1000 * (step.public - 1) + 1 + 166 * u64::from(req.player.0) + step.own[req.player.idx()]
    };
    assert_eq!(
        n, expected,
        "{who}: decision {n} is not numbered as the guide says"
    );
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
    let seat_of = &step.players[whose];
    let listed = |key: &str| -> Vec<CardId> {
        v["prompt"][key]
            .as_array()
            .unwrap()
            .iter()
            .map(card)
            .collect()
    };
    match v["prompt"]["kind"].as_str() {
        Some("choose_cards") => {
            let zone = v["prompt"]["zone"].as_str().unwrap();
            if ["hand", "deck", "discard"].contains(&zone) {
                assert_eq!(req.about, None, "{who}: hidden cards of another seat: {v}");
            }
            // The options are cards where the question says they are: the asked seat's
            // own (a Masquerade pass offers the passer's hand, not what comes to it), or
            // another's revealed ones.
            let there = match zone {
                "hand" => Some(&seat_of.hand),
                "deck" => Some(&seat_of.deck),
                "discard" => Some(&seat_of.discard),
                "in_play" => Some(&seat_of.in_play),
                "revealed" => Some(&seat_of.aside),
                _ => None,
            };
            if let Some(there) = there {
                assert!(
                    is_sub_multiset(&listed("options"), there),
                    "{who}: options not among seat {whose}'s cards in the {zone} zone: {v}"
                );
            }
        }
        // What is put back in order is the asked seat's own: from its hand (Secret
        // Chamber), revealed (Scout, Patrol) or looked at on its deck (Sentry).
        Some("order_cards") => {
            assert_eq!(req.about, None, "{who}: {v}");
            let own: Vec<CardId> = seat_of
                .hand
                .iter()
                .chain(&seat_of.aside)
                .chain(&seat_of.deck)
                .copied()
                .collect();
            assert!(
                is_sub_multiset(&listed("cards"), &own),
                "{who}: cards to order not seat {whose}'s own: {v}"
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
        // While another seat's private question is pending, a viewer is shown the game
        // at the last public decision: a frame is never made at such a step.
        Some(req) if !is_public(req) && seat != Some(req.player.0) => {
            panic!(
                "{who} is shown the game while seat {} is asked {:?}: {view}",
                req.player, req.purpose
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

/// The cards whose text has a player reveal cards (rulebooks, both editions): a
/// `revealed` event is public only while one of these resolves, or when a player reveals
/// a Reaction against another's Attack. Anything else shown to the table — a card
/// passed with Masquerade, say — is a leak. (A card missing here fails the canary: add
/// it from its text.)
const REVEALERS: &[CardId] = &[
    // From the deck.
    CardId::Adventurer,
    CardId::Bandit,
    CardId::Patrol,
    CardId::Saboteur,
    CardId::Scout,
    CardId::Spy,
    CardId::Thief,
    CardId::Tribute,
    CardId::WishingWell,
    // The top card moves face up: to the discard pile (Vassal), to the trash (Swindler).
    CardId::Swindler,
    CardId::Vassal,
    // From the hand.
    CardId::Bureaucrat,
    CardId::Courtier,
    CardId::ShantyTown,
];

/// The cards whose text sets cards aside face up.
const SETTERS_ASIDE: &[CardId] = &[CardId::Library];

/// Every viewer's copy of every event: a private part only to its seat, with the rest
/// the same for everyone; public card lists only of cards that were revealed, and
/// revealed only by a card whose text reveals them. A public put onto a deck shows no
/// order (Scout's, Patrol's and Sentry's are the player's secret). Returns how many
/// private parts were withheld from other viewers.
fn check_events(truth: &Truth, copies: &[BTreeMap<u64, Value>], seats: &[Option<u8>]) -> usize {
    let mut withheld = 0;
    // Cards each seat revealed or set aside this turn and has not moved since.
    let mut revealed: Vec<Vec<CardId>> = vec![Vec::new(); truth.steps[0].players.len()];
    // Whose turn it is, and the card resolving now (the last one played this phase).
    let mut current = None;
    let mut resolving: Option<CardId> = None;
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
            } => {
                // Moved unseen: no longer known to be anywhere.
                forget(
                    &mut revealed[player.idx()],
                    cards.as_deref().unwrap_or_default(),
                );
                Some((*player, cards.clone()))
            }
            Event::Discarded { player, cards, .. } | Event::TopDecked { player, cards, .. } => {
                let cards = cards.as_ref().expect("a public move names its cards");
                if matches!(e, Event::TopDecked { .. }) {
                    assert!(
                        cards.windows(2).all(|w| w[0] == w[1]),
                        "event {n} puts {cards:?} onto seat {player}'s deck in the open: their order is the player's secret: {e:?}"
                    );
                }
                assert!(
                    take_all(&mut revealed[player.idx()], cards),
                    "event {n} moves seat {player}'s cards {cards:?} in the open without their being revealed: {e:?}"
                );
                None
            }
            Event::Revealed { player, cards } => {
                let reaction = Some(*player) != current
                    && matches!(cards[..], [c] if c.is(Types::REACTION))
                    && resolving.is_some_and(|c| c.is(Types::ATTACK));
                assert!(
                    reaction || resolving.is_some_and(|c| REVEALERS.contains(&c)),
                    "event {n} shows seat {player}'s {cards:?} while {resolving:?} resolves, whose text reveals nothing: {e:?}"
                );
                revealed[player.idx()].extend(cards);
                None
            }
            Event::SetAside { player, cards } => {
                assert!(
                    resolving.is_some_and(|c| SETTERS_ASIDE.contains(&c)),
                    "event {n} sets seat {player}'s {cards:?} aside face up while {resolving:?} resolves: {e:?}"
                );
                revealed[player.idx()].extend(cards);
                None
            }
            Event::PutInHand { player, cards } => {
                assert!(
                    take_all(&mut revealed[player.idx()], cards),
                    "event {n} puts seat {player}'s cards {cards:?} into its hand in the open without their being revealed: {e:?}"
                );
                None
            }
            Event::Trashed { player, cards } => {
                take_all(&mut revealed[player.idx()], cards);
                None
            }
            Event::Passed { player, to, card } => {
                // Masquerade: the card is the passer's and the receiver's secret.
                let card = card.expect("the engine's own copy holds the card");
                assert!(
                    matches!(resolving, Some(CardId::Masquerade)),
                    "event {n}: a pass while {resolving:?} resolves"
                );
                forget(&mut revealed[player.idx()], &[card]);
                for (i, seat) in seats.iter().enumerate() {
                    let copy = &copies[i][&n];
                    assert_eq!(
                        (&copy["seat"], &copy["to"]),
                        (&json!(player.0), &json!(to.0)),
                        "event {n}"
                    );
                    if seat.is_some_and(|s| s == player.0 || s == to.0) {
                        assert_eq!(copy["card"], json!(card.key()), "event {n}: {copy}");
                    } else {
                        withheld += 1;
                        assert!(
                            copy.get("card").is_none(),
                            "event {n} shows the card seat {player} passed to seat {to} to viewer {seat:?}: {copy}"
                        );
                    }
                }
                continue;
            }
            Event::Played { card, .. } | Event::PlayedAgain { card, .. } => {
                resolving = Some(*card);
                None
            }
            Event::PhaseStarted { .. } => {
                resolving = None;
                None
            }
            Event::TurnStarted { player, .. } => {
                revealed.iter_mut().for_each(Vec::clear);
                current = Some(*player);
                resolving = None;
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

/// Removes from `from` those of `cards` that are there.
fn forget(from: &mut Vec<CardId>, cards: &[CardId]) {
    for c in cards {
        if let Some(i) = from.iter().position(|x| x == c) {
            from.remove(i);
        }
    }
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

/// Whether each card was played at least `times` times; if not, names the first that
/// was not. [`play_until_covered`] asks for it, so a test cannot pass without the moves
/// it is about.
fn played_times(truth: &Truth, cards: &[&str], times: usize) -> Result<(), String> {
    let mut played: BTreeMap<&str, usize> = BTreeMap::new();
    for e in truth.game.events() {
        if let Event::Played { card, .. } | Event::PlayedAgain { card, .. } = e {
            *played.entry(card.key()).or_default() += 1;
        }
    }
    for c in cards {
        let n = played.get(c).copied().unwrap_or_default();
        if n < times {
            return Err(format!(
                "{times} plays of {c} (it had {n}; played: {played:?})"
            ));
        }
    }
    Ok(())
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
