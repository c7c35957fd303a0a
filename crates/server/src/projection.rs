//! The per-viewer projection: the one place where room and game state become frames.
//!
//! Every game-bearing message a room sends is made by [`project`], from the room's state
//! and the viewer it is for. It starts from the engine's own redacting projections
//! (`Game::visible`, `Game::view`, `Event::for_viewer`) and converts them to wire types:
//! no frame carries an event past what `Game::visible` lets its viewer see, so while a
//! private question is pending the others are shown the last public decision. Secret state
//! (`Game::state`) is read only for public facts (victory points) and, in
//! [`Topic::GameOver`], only once the game is over. Engine types never reach the wire:
//! conversions from engine to protocol types exist only in this module.
//!
//! [`replay_step`] projects a game rebuilt from an ended game's published record (the
//! replay viewer's `GET /api/games/{id}/steps/{n}`): for a seat exactly as above, and
//! for the all-seeing viewer every hand and every event unredacted, which is allowed
//! only because that game is over and its record, seed included, is public.

use crate::room::state::{RoomState, Seat};
use dominion_engine::event::Destination;
use dominion_engine::view::PlayerView;
use dominion_engine::{
    CardId, Edition, Event, Game, Mode, Phase, PlayerId, Prompt, Purpose, Reply, Score, Viewer,
    Zone,
};
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
    /// The room's recent chat, to those who may read it, when there is any.
    ChatLog,
    /// The rematch offered after the game, if one was (public).
    Rematch,
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
            let line = room.chat.back()?;
            reads_chat(room, viewer).then(|| ServerMessage::Chat(line.clone()))
        }
        Topic::ChatLog => {
            if room.chat.is_empty() || !reads_chat(room, viewer) {
                return None;
            }
            Some(ServerMessage::ChatLog {
                lines: room.chat.iter().cloned().collect(),
            })
        }
        Topic::Rematch => room
            .rematch
            .as_ref()
            .map(|(room, seat)| ServerMessage::Rematch {
                room: room.clone(),
                seat: *seat,
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

/// The public number of the pending decision (0 when none is pending): see
/// `Game::decision_number` for why it is not simply the count of replies.
pub fn decision_id(game: &Game) -> u64 {
    game.decision_number().unwrap_or_default()
}

fn view(game: &Game, viewer: Viewer) -> wire::GameView {
    wire_view(game, game.view(viewer), viewer)
}

/// `view`, converted: `decision` only for the seat whose decision is pending.
fn wire_view(game: &Game, view: PlayerView, viewer: Viewer) -> wire::GameView {
    let PlayerView {
        viewer: _,
        edition: ed,
        supply,
        trash,
        seats,
        hand,
        current,
        phase: ph,
        actions,
        buys,
        coins,
        turn_count,
        waiting_for,
        pending: _,
        game_over,
        scores: _,
    } = view;
    wire::GameView {
        seat: match viewer {
            Viewer::Player(p) => Some(p.0),
            Viewer::Spectator => None,
        },
        edition: edition(ed),
        kingdom: keys(game.kingdom()),
        supply: supply
            .into_iter()
            .map(|p| wire::PileView {
                card: key(p.card),
                count: p.count,
                cost: p.cost,
            })
            .collect(),
        trash: keys(&trash),
        seats: seats
            .into_iter()
            .map(|s| wire::SeatView {
                seat: s.player.0,
                hand_count: s.hand_count as u32,
                deck_count: s.deck_count as u32,
                discard_count: s.discard_count as u32,
                discard_top: s.discard_top.map(key),
                in_play: keys(&s.in_play),
                aside: keys(&s.aside),
                vp: s.vp,
                turns: s.turns,
            })
            .collect(),
        hand: hand.map(|h| keys(&h)),
        current: current.0,
        phase: phase(ph),
        actions,
        buys,
        coins,
        turn_count,
        waiting_for: waiting_for.map(|p| p.0),
        // Only the asked seat is told the number: others learn whose turn it is from
        // `waiting_for`, and a number they could compare would tell them when a
        // Reaction question was asked (see `Game::decision_number`).
        decision: game
            .pending()
            .filter(|r| viewer.is(r.player))
            .map(|_| decision_id(game)),
        game_over,
    }
}

/// Who a replay step is projected for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepViewer {
    /// What this player saw then: their hand, the others' as counts.
    Player(PlayerId),
    /// Every hand and every event unredacted (an ended game's replay only).
    All,
}

/// One step of an ended game's replay: `game` is the game rebuilt from its published
/// record after its first `step` of `steps` replies; `step_first` is the number of the
/// first event the last of them caused, and `since` the first event to send (by
/// default `step_first`).
///
/// Only for games that are over (the caller checks the record is published):
/// [`StepViewer::All`] reads every hand from the state, which nobody may see while the
/// game is played. A seat's view is what that seat knew then (its hand, the public
/// facts); unlike [`project`] it is not veiled while another seat's private question is
/// pending, as the whole record is public now.
pub fn replay_step(
    room: &str,
    game: &Game,
    step: u32,
    steps: u32,
    step_first: u64,
    since: Option<u64>,
    viewer: StepViewer,
) -> wire::ReplayStep {
    let next_event = game.events().len() as u64;
    let first = since.unwrap_or(step_first).min(next_event);
    let shown = &game.events()[first as usize..];
    let (events, view, hands) = match viewer {
        // The record is public once the game is over, so a replay shows what the seat
        // knew at each step, without the veil a live game keeps over other players'
        // private questions (`Game::visible`).
        StepViewer::Player(p) => (
            shown
                .iter()
                .map(|e| event(&e.for_viewer(Viewer::Player(p))))
                .collect(),
            wire_view(
                game,
                game.view_of_public_record(Viewer::Player(p)),
                Viewer::Player(p),
            ),
            None,
        ),
        StepViewer::All => (
            shown.iter().map(event).collect(),
            wire_view(
                game,
                game.view_of_public_record(Viewer::Spectator),
                Viewer::Spectator,
            ),
            Some(
                game.state()
                    .players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| wire::SeatHand {
                        seat: i as u8,
                        cards: keys(&p.hand),
                    })
                    .collect(),
            ),
        ),
    };
    let led_by = step.checked_sub(1).and_then(|i| {
        let i = i as usize;
        let (p, r) = game.replies().get(i)?;
        Some(wire::NumberedReply {
            decision: *game.reply_numbers().get(i)?,
            seat: p.0,
            reply: reply(r),
        })
    });
    wire::ReplayStep {
        room: room.to_string(),
        step,
        steps,
        reply: led_by,
        step_first,
        first,
        events,
        next_event,
        view,
        hands,
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

/// A game's setup with its kingdom as drawn, as the store keeps it and records publish
/// it: a random kingdom's record then replays to the same cards in a later release
/// whose pool is larger.
pub fn game_setup(players: u8, e: Edition, kingdom: &[CardId]) -> wire::GameSetup {
    wire::GameSetup {
        players,
        kingdom: wire::KingdomChoice::Cards {
            cards: keys(kingdom),
        },
        edition: edition(e),
    }
}

/// Every accepted reply of `game` with the number of the decision it answered.
pub fn numbered_replies(game: &Game) -> Vec<wire::NumberedReply> {
    game.replies()
        .iter()
        .zip(game.reply_numbers())
        .map(|((p, r), n)| wire::NumberedReply {
            decision: *n,
            seat: p.0,
            reply: reply(r),
        })
        .collect()
}

fn event(e: &Event) -> wire::GameEvent {
    use wire::GameEvent as W;
    match e {
        Event::GameStarted {
            players,
            first,
            kingdom,
        } => W::GameStarted {
            players: *players,
            first: first.0,
            kingdom: keys(kingdom),
        },
        Event::TurnStarted { player, turn } => W::TurnStarted {
            seat: player.0,
            turn: *turn,
        },
        Event::PhaseStarted { player, phase: ph } => W::PhaseStarted {
            seat: player.0,
            phase: phase(*ph),
        },
        Event::Drew {
            player,
            count,
            cards,
        } => W::Drew {
            seat: player.0,
            count: *count as u32,
            cards: cards.as_deref().map(keys),
        },
        Event::Shuffled { player } => W::Shuffled { seat: player.0 },
        Event::Played { player, card } => W::Played {
            seat: player.0,
            card: key(*card),
        },
        Event::PlayedAgain { player, card } => W::PlayedAgain {
            seat: player.0,
            card: key(*card),
        },
        Event::Bought { player, card } => W::Bought {
            seat: player.0,
            card: key(*card),
        },
        Event::Gained { player, card, to } => W::Gained {
            seat: player.0,
            card: key(*card),
            to: destination(*to),
        },
        Event::Discarded {
            player,
            count,
            cards,
            top,
            private,
        } => W::Discarded {
            seat: player.0,
            count: *count as u32,
            cards: cards.as_deref().map(keys),
            top: top.map(key),
            private: *private,
        },
        Event::DeckDiscarded { player, count, top } => W::DeckDiscarded {
            seat: player.0,
            count: *count as u32,
            top: top.map(key),
        },
        Event::SetAside { player, cards } => W::SetAside {
            seat: player.0,
            cards: keys(cards),
        },
        Event::PutInHand { player, cards } => W::PutInHand {
            seat: player.0,
            cards: keys(cards),
        },
        Event::LookedAt {
            player,
            count,
            cards,
        } => W::LookedAt {
            seat: player.0,
            count: *count as u32,
            cards: cards.as_deref().map(keys),
        },
        Event::GainedFromTrash { player, card } => W::GainedFromTrash {
            seat: player.0,
            card: key(*card),
        },
        Event::Trashed { player, cards } => W::Trashed {
            seat: player.0,
            cards: keys(cards),
        },
        Event::Revealed { player, cards } => W::Revealed {
            seat: player.0,
            cards: keys(cards),
        },
        Event::TopDecked {
            player,
            count,
            cards,
            private,
        } => W::TopDecked {
            seat: player.0,
            count: *count as u32,
            cards: cards.as_deref().map(keys),
            private: *private,
        },
        Event::Named { player, card } => W::Named {
            seat: player.0,
            card: key(*card),
        },
        Event::Passed { player, to, card } => W::Passed {
            seat: player.0,
            to: to.0,
            card: card.map(key),
        },
        Event::ModesChosen {
            player,
            card,
            modes,
        } => W::ModesChosen {
            seat: player.0,
            card: key(*card),
            modes: modes.iter().map(|m| mode(*m)).collect(),
        },
        Event::Blocked { player, by } => W::Blocked {
            seat: player.0,
            by: key(*by),
        },
        Event::GameEnded { scores } => W::GameEnded {
            scores: scores.iter().map(score_line).collect(),
        },
    }
}

fn prompt(p: &Prompt) -> wire::Prompt {
    match p {
        Prompt::ActionPhase { playable } => wire::Prompt::ActionPhase {
            playable: keys(playable),
        },
        Prompt::BuyPhase { treasures, buyable } => wire::Prompt::BuyPhase {
            treasures: keys(treasures),
            buyable: keys(buyable),
        },
        Prompt::ChooseCards {
            zone: z,
            options,
            min,
            max,
        } => wire::Prompt::ChooseCards {
            zone: zone(*z),
            options: keys(options),
            min: *min,
            max: *max,
        },
        Prompt::ChoosePile { options, optional } => wire::Prompt::ChoosePile {
            options: keys(options),
            optional: *optional,
        },
        Prompt::ChooseModes { options, min, max } => wire::Prompt::ChooseModes {
            options: options.iter().map(|m| mode(*m)).collect(),
            min: *min,
            max: *max,
        },
        Prompt::OrderCards { cards } => wire::Prompt::OrderCards { cards: keys(cards) },
        Prompt::YesNo => wire::Prompt::YesNo,
        Prompt::NameCard { options } => wire::Prompt::NameCard {
            options: keys(options),
        },
        Prompt::ChooseNumber { min, max } => wire::Prompt::ChooseNumber {
            min: *min,
            max: *max,
        },
    }
}

/// The wire form of an engine reply (what a client sends, and what the store keeps).
pub fn reply(r: &Reply) -> wire::Reply {
    match r {
        Reply::Play(c) => wire::Reply::Play { card: key(*c) },
        Reply::PlayAllTreasures => wire::Reply::PlayAllTreasures {},
        Reply::Buy(c) => wire::Reply::Buy { card: key(*c) },
        Reply::EndPhase => wire::Reply::EndPhase {},
        Reply::Cards(cs) => wire::Reply::Cards { cards: keys(cs) },
        Reply::Pile(c) => wire::Reply::Pile { card: c.map(key) },
        Reply::Modes(ms) => wire::Reply::Modes {
            modes: ms.iter().map(|m| mode(*m)).collect(),
        },
        Reply::YesNo(yes) => wire::Reply::YesNo { yes: *yes },
        Reply::Name(c) => wire::Reply::Name { card: key(*c) },
        Reply::Number(n) => wire::Reply::Number { number: *n },
    }
}

pub fn score_line(s: &Score) -> wire::ScoreLine {
    wire::ScoreLine {
        seat: s.player.0,
        vp: s.vp,
        turns: s.turns,
        winner: s.winner,
    }
}

fn key(c: CardId) -> String {
    c.key().to_string()
}

fn keys(cs: &[CardId]) -> Vec<String> {
    cs.iter().map(|c| key(*c)).collect()
}

fn edition(e: Edition) -> wire::Edition {
    match e {
        Edition::First => wire::Edition::First,
        Edition::Second => wire::Edition::Second,
    }
}

fn phase(p: Phase) -> wire::Phase {
    match p {
        Phase::Action => wire::Phase::Action,
        Phase::Buy => wire::Phase::Buy,
        Phase::Cleanup => wire::Phase::Cleanup,
    }
}

fn purpose(p: Purpose) -> wire::Purpose {
    match p {
        Purpose::ActionPhase => wire::Purpose::ActionPhase,
        Purpose::BuyPhase => wire::Purpose::BuyPhase,
        Purpose::Discard => wire::Purpose::Discard,
        Purpose::Trash => wire::Purpose::Trash,
        Purpose::Gain => wire::Purpose::Gain,
        Purpose::TopDeck => wire::Purpose::TopDeck,
        Purpose::PlayTwice => wire::Purpose::PlayTwice,
        Purpose::React => wire::Purpose::React,
        Purpose::ChooseModes => wire::Purpose::ChooseModes,
        Purpose::SetAside => wire::Purpose::SetAside,
        Purpose::Play => wire::Purpose::Play,
        Purpose::DiscardDeck => wire::Purpose::DiscardDeck,
        Purpose::Pass => wire::Purpose::Pass,
        Purpose::Reveal => wire::Purpose::Reveal,
        Purpose::Name => wire::Purpose::Name,
        Purpose::PlaceInDeck => wire::Purpose::PlaceInDeck,
    }
}

fn zone(z: Zone) -> wire::Zone {
    match z {
        Zone::Hand => wire::Zone::Hand,
        Zone::Deck => wire::Zone::Deck,
        Zone::Discard => wire::Zone::Discard,
        Zone::InPlay => wire::Zone::InPlay,
        Zone::Revealed => wire::Zone::Revealed,
        Zone::Trash => wire::Zone::Trash,
        Zone::Supply => wire::Zone::Supply,
    }
}

fn mode(m: Mode) -> wire::Mode {
    match m {
        Mode::PlusCard => wire::Mode::PlusCard,
        Mode::PlusAction => wire::Mode::PlusAction,
        Mode::PlusBuy => wire::Mode::PlusBuy,
        Mode::PlusCoin => wire::Mode::PlusCoin,
        Mode::PlusTwoCards => wire::Mode::PlusTwoCards,
        Mode::PlusThreeCards => wire::Mode::PlusThreeCards,
        Mode::PlusTwoActions => wire::Mode::PlusTwoActions,
        Mode::PlusTwoCoins => wire::Mode::PlusTwoCoins,
        Mode::PlusThreeCoins => wire::Mode::PlusThreeCoins,
        Mode::GainGold => wire::Mode::GainGold,
        Mode::TrashTwo => wire::Mode::TrashTwo,
        Mode::DiscardAndDraw => wire::Mode::DiscardAndDraw,
        Mode::DiscardTwo => wire::Mode::DiscardTwo,
        Mode::GainCurse => wire::Mode::GainCurse,
        Mode::TrashFromSupply => wire::Mode::TrashFromSupply,
        Mode::GainFromTrash => wire::Mode::GainFromTrash,
    }
}

fn destination(d: Destination) -> wire::Destination {
    match d {
        Destination::Discard => wire::Destination::Discard,
        Destination::Hand => wire::Destination::Hand,
        Destination::Deck => wire::Destination::Deck,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::state::HumanSeat;
    use crate::token::TokenHash;
    use dominion_engine::{Kingdom, PlayerId, Setup, bots, view::Observation};

    fn room(game: Game) -> RoomState {
        let human = |name: &str| Seat::Human(HumanSeat::new(name.to_string(), TokenHash::of(name)));
        RoomState {
            id: "r1".into(),
            settings: wire::RoomSettings {
                name: None,
                kingdom: wire::KingdomChoice::Recommended {
                    id: "base_2e/first_game".into(),
                },
                edition: wire::Edition::Second,
                seats: vec![wire::SeatSetting::Open {}, wire::SeatSetting::Open {}],
                decision_seconds: None,
                abandoned: wire::AbandonPolicy::Wait {},
                spectator_chat: false,
            },
            setup: game.setup().clone(),
            status: wire::RoomStatus::Playing,
            seats: vec![human("ann"), human("bob")],
            spectators: 0,
            game: Some(game),
            decision_deadline: None,
            host: None,
            creator: None,
            chat: Default::default(),
            rematch: None,
        }
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
