//! The per-viewer projection: the one place that decides which values of a room and its
//! game each viewer gets.
//!
//! Every game-bearing message a room sends is made by [`project`], from the room's
//! state and the viewer it is for; after a change, [`after_change`] gives each viewer
//! its frames, and [`history`] its pages. All start from the engine's own redacting
//! projections (`Game::visible`, `Game::view`, `Event::for_viewer`): no frame carries an
//! event past what `Game::visible` lets its viewer see, so while a private question is
//! pending the others are shown the last public decision. Secret state (`Game::state`)
//! is read only for public facts (victory points) and, in [`Topic::GameOver`], whole
//! decks once the game is over. Chat goes only to those who read it ([`reads_chat`]).
//! The values themselves are converted by `crate::convert::to_wire`, the only place
//! engine types become wire types: this module chooses, that one converts.

use crate::convert::to_wire::{
    decision_id, event, game_setup, key, keys, numbered_replies, prompt, purpose, score_line, view,
};
use crate::rooms::state::{RoomState, Seat};
use dominion_engine::{CardId, Game, Viewer};
use dominion_protocol as wire;
use dominion_protocol::ServerMessage;
use tokio::time::Instant;

/// What a viewer is being sent.
#[derive(Clone, Copy, Debug)]
pub enum Topic {
    /// The room's seats and status.
    Room,
    /// The whole game as the viewer may see it.
    Snapshot,
    /// The events numbered `from` onwards, and the view after them.
    EventsFrom(u64),
    /// The pending decision, if it is the viewer's (`now` dates the deadline).
    Decision { now: Instant },
    /// The result, only once the game is over.
    GameOver,
    /// A player asks to take back their last move (public).
    UndoRequested { seat: u8, seconds: u32 },
    /// How an undo request ended (public).
    UndoResult {
        seat: u8,
        outcome: wire::UndoOutcome,
        by: Option<u8>,
    },
    /// The room's newest chat line, to those who may read the chat.
    Chat,
    /// The room's recent chat, to those who may read it, when there is any: the latest
    /// lines that fit a page (`chat::PAGE_BYTES`), and where they start.
    ChatLog,
    /// The rematch offered after the game, if one was (public).
    Rematch,
    /// The rating changes of the game's end, once stored, if it was rated (public).
    Ratings,
}

/// Most events one `history` answer carries.
pub const HISTORY_PAGE: u64 = 500;

/// Whether `viewer` reads (and writes) the room's chat: players always, spectators
/// where the room allows it.
pub fn reads_chat(room: &RoomState, viewer: Viewer) -> bool {
    match viewer {
        Viewer::Player(_) => true,
        Viewer::Spectator => room.settings.spectator_chat,
    }
}

/// The answer to `history`: the events numbered `from` up to `to` (or the latest), at
/// most [`HISTORY_PAGE`] of them, each as `viewer` may see it — the same projection as
/// the `events` frames. None before the game starts.
pub fn history(
    room: &RoomState,
    viewer: Viewer,
    re: u64,
    from: u64,
    to: Option<u64>,
) -> Option<ServerMessage> {
    let game = room.game.as_ref()?;
    // Never past what the viewer may see now (`Game::visible`).
    let total = game.visible(viewer).events as u64;
    let end = to
        .unwrap_or(total)
        .min(total)
        .min(from.saturating_add(HISTORY_PAGE));
    let start = from.min(end);
    Some(ServerMessage::History {
        re,
        first: start,
        events: game.events()[start as usize..end as usize]
            .iter()
            .map(|e| event(&e.for_viewer(viewer)))
            .collect(),
    })
}

/// The answer to `chat_history`: the latest of the chat lines numbered `from` up to `to`
/// (or the latest) that fit a page (`chat::Log::page`); None when `viewer` does not
/// read this room's chat.
pub fn chat_history(
    room: &RoomState,
    viewer: Viewer,
    re: u64,
    from: u64,
    to: Option<u64>,
) -> Option<ServerMessage> {
    if !reads_chat(room, viewer) {
        return None;
    }
    let (first, lines) = room.chat.page(from, to);
    Some(ServerMessage::ChatHistory { re, first, lines })
}

/// The frame `viewer` gets about `topic`, or None when there is nothing for them.
pub fn project(room: &RoomState, viewer: Viewer, topic: Topic) -> Option<ServerMessage> {
    match topic {
        Topic::Room => Some(ServerMessage::Room {
            room: summary(room),
        }),
        Topic::Snapshot => {
            let game = room.game.as_ref()?;
            Some(ServerMessage::Snapshot {
                next_event: game.visible(viewer).events as u64,
                view: view(game, viewer),
            })
        }
        Topic::EventsFrom(from) => {
            let game = room.game.as_ref()?;
            let end = game.visible(viewer).events;
            let start = usize::try_from(from).ok()?.min(end);
            Some(ServerMessage::Events {
                first: start as u64,
                events: game.events()[start..end]
                    .iter()
                    .map(|e| event(&e.for_viewer(viewer)))
                    .collect(),
                view: view(game, viewer),
            })
        }
        Topic::Decision { now } => {
            let game = room.game.as_ref()?;
            let req = game.pending()?;
            if !viewer.is(req.player) {
                return None;
            }
            Some(ServerMessage::Decision(wire::DecisionRequest {
                decision: decision_id(game),
                seat: req.player.0,
                card: req.card.map(key),
                about: req.about.map(|p| p.0),
                purpose: purpose(req.purpose),
                prompt: prompt(&req.prompt),
                deadline_ms: room
                    .decision_deadline
                    .map(|d| d.saturating_duration_since(now).as_millis() as u64),
            }))
        }
        Topic::GameOver => {
            let game = room.game.as_ref()?;
            if !game.is_over() {
                return None;
            }
            Some(ServerMessage::GameOver(result(room, game)))
        }
        Topic::UndoRequested { seat, seconds } => {
            Some(ServerMessage::UndoRequested { seat, seconds })
        }
        Topic::UndoResult { seat, outcome, by } => {
            Some(ServerMessage::UndoResult { seat, outcome, by })
        }
        Topic::Chat => {
            let line = room.chat.latest()?;
            reads_chat(room, viewer).then(|| ServerMessage::Chat(line.clone()))
        }
        Topic::ChatLog => {
            if room.chat.is_empty() || !reads_chat(room, viewer) {
                return None;
            }
            // The latest lines that fit a page, not all it keeps: the rest on request.
            let (first, lines) = room.chat.page(0, None);
            Some(ServerMessage::ChatLog {
                lines,
                first: Some(first),
                oldest: Some(room.chat.oldest()),
            })
        }
        Topic::Rematch => room
            .rematch
            .as_ref()
            .map(|(room, seat)| ServerMessage::Rematch {
                room: room.clone(),
                seat: *seat,
            }),
        Topic::Ratings => room
            .ratings
            .as_ref()
            .map(|changes| ServerMessage::RatingChanged {
                changes: changes.clone(),
            }),
    }
}

/// What `viewer`, sent the game's events up to `sent`, is sent after the game changed:
/// the events it may see now and has not been sent, with the view after them, and — when
/// the pending decision is new — that decision if it is the viewer's own. The room's
/// `publish` sends exactly these to each viewer, so while another player's private
/// question is pending a viewer gets nothing at all (`Game::visible`). The server's
/// non-interference test drives games through this same function.
pub fn after_change(
    room: &RoomState,
    viewer: Viewer,
    sent: u64,
    new_decision: bool,
    now: Instant,
) -> Vec<ServerMessage> {
    let Some(game) = room.game.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(2);
    if game.visible(viewer).events as u64 > sent
        && let Some(msg) = project(room, viewer, Topic::EventsFrom(sent))
    {
        out.push(msg);
    }
    if new_decision && let Some(msg) = project(room, viewer, Topic::Decision { now }) {
        out.push(msg);
    }
    out
}

/// The room as anyone may see it: for `room` messages and room lists.
pub fn summary(room: &RoomState) -> wire::RoomSummary {
    wire::RoomSummary {
        id: room.id.clone(),
        name: room
            .settings
            .name
            .clone()
            .unwrap_or_else(|| display_name(room)),
        status: room.status,
        settings: room.settings.clone(),
        seats: room
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| wire::SeatInfo {
                seat: i as u8,
                occupant: match s {
                    Seat::Open => wire::Occupant::Empty,
                    Seat::Bot { bot } => wire::Occupant::Bot { bot: bot.clone() },
                    Seat::Human(h) => wire::Occupant::Human {
                        name: h.name.clone(),
                        connected: h.connected,
                        bot_playing: h.bot_playing.clone(),
                        account: h.account.map(|a| {
                            if a.bot {
                                wire::AccountKind::Bot
                            } else {
                                wire::AccountKind::Player
                            }
                        }),
                        level: h
                            .account
                            .and_then(|a| h.levels.shown(a.bot, room.seats.len())),
                    },
                },
            })
            .collect(),
        spectators: room.spectators,
        host: room.host,
    }
}

/// A room without a name is named by its host and its kingdom: "Ann — First Game",
/// "Ann — Cellar, Moat, Village, …" (a random kingdom once drawn), "Ann — Random
/// kingdom" before. Every client shows the same name.
fn display_name(room: &RoomState) -> String {
    let kingdom = kingdom_label(room);
    match room.host.and_then(|h| room.human(h as usize)) {
        Some(host) => format!("{} — {kingdom}", host.name),
        None => kingdom,
    }
}

fn kingdom_label(room: &RoomState) -> String {
    let cards = |cards: &[CardId]| {
        let names: Vec<&str> = cards.iter().take(3).map(|c| c.name()).collect();
        format!("{}, …", names.join(", "))
    };
    if let Some(game) = &room.game {
        if let wire::KingdomChoice::Recommended { id } = &room.settings.kingdom
            && let Some(r) = dominion_engine::setup::recommended_kingdoms().find(|r| r.id == id)
        {
            return r.name.to_string();
        }
        return cards(game.kingdom());
    }
    match &room.settings.kingdom {
        wire::KingdomChoice::Recommended { id } => dominion_engine::setup::recommended_kingdoms()
            .find(|r| r.id == id)
            .map_or_else(|| id.clone(), |r| r.name.to_string()),
        wire::KingdomChoice::Cards { cards: keys } => {
            let ids: Vec<CardId> = keys.iter().filter_map(|k| k.parse().ok()).collect();
            cards(&ids)
        }
        wire::KingdomChoice::Random { .. } => "Random kingdom".to_string(),
    }
}

fn result(room: &RoomState, game: &Game) -> wire::GameResult {
    // The game is over: every card may now be shown.
    let decks = game
        .state()
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut cards: Vec<String> = p.all_cards().map(key).collect();
            cards.sort();
            wire::SeatDeck {
                seat: i as u8,
                name: room.seat_name(i),
                cards,
            }
        })
        .collect();
    wire::GameResult {
        scores: game.scores().iter().map(score_line).collect(),
        decks,
        seed: game.seed().to_string(),
        setup: game_setup(game.setup().players, game.setup().edition, game.kingdom()),
        kingdom: keys(game.kingdom()),
        replies: numbered_replies(game),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::{Edition, Kingdom, PlayerId, Setup, bots, view::Observation};

    fn room(game: Game) -> RoomState {
        RoomState::playing(game, 0)
    }

    fn new_game(seed: u64) -> Game {
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        };
        Game::new(&setup, seed).expect("setup")
    }

    /// The engine redacts; this checks the conversion keeps the redaction: in every
    /// event another viewer gets, a private card list is absent, and views carry only
    /// the viewer's own hand.
    #[test]
    fn other_viewers_never_get_private_cards() {
        let mut game = new_game(7);
        let mut agents = [
            bots::by_name("big_money", 1).unwrap(),
            bots::by_name("militia", 2).unwrap(),
        ];
        while let Some(req) = game.pending().cloned() {
            let r =
                agents[req.player.idx()].decide(&Observation::for_player(&game, req.player), &req);
            game.reply(req.player, r).unwrap();
        }
        let room = room(game);
        let me = Viewer::Player(PlayerId(0));
        let Some(ServerMessage::Events { events, view, .. }) =
            project(&room, me, Topic::EventsFrom(0))
        else {
            panic!("events");
        };
        let mine = events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    wire::GameEvent::Drew {
                        seat: 0,
                        cards: Some(_),
                        ..
                    }
                )
            })
            .count();
        assert!(mine > 0, "my own draws carry cards");
        for e in &events {
            match e {
                wire::GameEvent::Drew { seat: 1, cards, .. }
                | wire::GameEvent::Discarded {
                    seat: 1,
                    cards,
                    private: true,
                    ..
                }
                | wire::GameEvent::TopDecked {
                    seat: 1,
                    cards,
                    private: true,
                    ..
                } => {
                    assert_eq!(cards, &None, "{e:?} leaks seat 1's cards to seat 0")
                }
                _ => {}
            }
        }
        assert_eq!(view.seat, Some(0));
        assert!(view.hand.is_some());
        let spectator = project(&room, Viewer::Spectator, Topic::Snapshot).unwrap();
        let ServerMessage::Snapshot { view, .. } = spectator else {
            panic!()
        };
        assert_eq!(view.hand, None);
        assert!(project(&room, me, Topic::GameOver).is_some());
    }

    #[test]
    fn decisions_go_only_to_their_seat_and_results_only_after_the_end() {
        let game = new_game(9);
        let who = game.pending().unwrap().player;
        let room = room(game);
        let now = Instant::now();
        assert!(project(&room, Viewer::Player(who), Topic::Decision { now }).is_some());
        let other = PlayerId(1 - who.0);
        assert!(project(&room, Viewer::Player(other), Topic::Decision { now }).is_none());
        assert!(project(&room, Viewer::Spectator, Topic::Decision { now }).is_none());
        assert!(project(&room, Viewer::Player(who), Topic::GameOver).is_none());
    }
}
