//! Engine values to wire values: events, prompts, views, replies, setups, scores.
//!
//! Together with [`super::from_wire`] and [`super::record`] this is the only place where
//! engine types meet `dominion-protocol`'s. It converts; it does not choose. Which events
//! and which view a viewer gets is decided by the caller (`rooms::projection`, from
//! `Game::visible`, `Game::view` and `Event::for_viewer`); the one rule applied here is
//! that a view carries the pending decision's number only to the seat it asks.
//!
//! [`replay_step`] projects a game rebuilt from an ended game's published record (the
//! replay viewer's `GET /api/games/{id}/steps/{n}`): for a seat what that seat knew, and
//! for the all-seeing viewer every hand and every event unredacted, which is allowed
//! only because that game is over and its record, seed included, is public.

use dominion_engine::event::Destination;
use dominion_engine::view::PlayerView;
use dominion_engine::{
    CardId, Edition, Event, Game, Mode, Phase, PlayerId, Prompt, Purpose, Reply, Score, Viewer,
    Zone,
};
use dominion_protocol as wire;

/// The public number of the pending decision (0 when none is pending): see
/// `Game::decision_number` for why it is not simply the count of replies.
pub fn decision_id(game: &Game) -> u64 {
    game.decision_number().unwrap_or_default()
}

pub fn view(game: &Game, viewer: Viewer) -> wire::GameView {
    wire_view(game, game.view(viewer), viewer)
}

/// `view`, converted: `decision` only for the seat whose decision is pending.
pub fn wire_view(game: &Game, view: PlayerView, viewer: Viewer) -> wire::GameView {
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
/// facts); unlike a live game's frames (`rooms::projection`) it is not veiled while
/// another seat's private question is pending, as the whole record is public now.
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

pub fn event(e: &Event) -> wire::GameEvent {
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

pub fn prompt(p: &Prompt) -> wire::Prompt {
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

pub fn key(c: CardId) -> String {
    c.key().to_string()
}

pub fn keys(cs: &[CardId]) -> Vec<String> {
    cs.iter().map(|c| key(*c)).collect()
}

pub fn edition(e: Edition) -> wire::Edition {
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

pub fn purpose(p: Purpose) -> wire::Purpose {
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

/// A rating pool (`dominion-rating`) as the wire names it.
pub fn rating_pool(pool: dominion_rating::Pool) -> wire::RatingPool {
    match pool {
        dominion_rating::Pool::TwoPlayer => wire::RatingPool::TwoPlayer,
        dominion_rating::Pool::Multiplayer => wire::RatingPool::Multiplayer,
        dominion_rating::Pool::Bots => wire::RatingPool::Bots,
    }
}
