//! One turn: Action phase, Buy phase, Cleanup — and how a card is played.
//!
//! The phase moves are decision requests like any other, so a turn is straight-line code
//! that may suspend at any `choose` and be run again from its start.

use crate::card::{CardId, Types};
use crate::cards;
use crate::ctx::{Ctx, Play, Res};
use crate::decision::{Prompt, Purpose, Reply, Request, Zone};
use crate::event::{Destination, Event};
use crate::state::{Phase, PlayerId, State, TurnState};

/// Starts `p`'s turn: fresh counters, turn counts. Runs outside any decision.
pub(crate) fn begin_turn(st: &mut State, events: Option<&mut Vec<Event>>) {
    let p = st.current;
    st.turn = TurnState::new();
    st.turn_count += 1;
    st.player_mut(p).turns += 1;
    if let Some(ev) = events {
        ev.push(Event::TurnStarted {
            player: p,
            turn: st.player(p).turns,
        });
    }
}

/// Runs the current turn from its start (or from wherever the logged replies lead) to
/// its end, including the end-of-game check and passing the turn on.
pub(crate) fn run_turn(cx: &mut Ctx) -> Res {
    let p = cx.current();
    action_phase(cx, p)?;
    buy_phase(cx, p)?;
    cleanup(cx, p);
    if cx.st.end_condition() {
        cx.st.game_over = true;
    } else {
        cx.st.current = PlayerId((p.0 + 1) % cx.st.num_players() as u8);
    }
    Ok(())
}

fn distinct(cards: impl Iterator<Item = CardId>) -> Vec<CardId> {
    let mut v: Vec<CardId> = cards.collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn action_phase(cx: &mut Ctx, p: PlayerId) -> Res {
    cx.st.turn.phase = Phase::Action;
    cx.emit(|| Event::PhaseStarted {
        player: p,
        phase: Phase::Action,
    });
    loop {
        if cx.st.turn.actions == 0 {
            return Ok(());
        }
        let playable = distinct(cx.st.player(p).hand.iter().copied().filter(|c| c.is_action()));
        // Nothing to decide when nothing can be played.
        if playable.is_empty() {
            return Ok(());
        }
        let req = Request {
            player: p,
            card: None,
            purpose: Purpose::ActionPhase,
            prompt: Prompt::ActionPhase { playable },
        };
        match cx.choose(req)? {
            Reply::Play(card) => {
                cx.st.turn.actions -= 1;
                play_from_hand(cx, card)?;
            }
            Reply::EndPhase => return Ok(()),
            r => unreachable!("validated reply {r:?}"),
        }
    }
}

fn buy_phase(cx: &mut Ctx, p: PlayerId) -> Res {
    cx.st.turn.phase = Phase::Buy;
    cx.emit(|| Event::PhaseStarted {
        player: p,
        phase: Phase::Buy,
    });
    loop {
        if cx.st.turn.buys == 0 {
            return Ok(());
        }
        let treasures = if cx.st.turn.bought {
            Vec::new()
        } else {
            distinct(cx.st.player(p).hand.iter().copied().filter(|c| c.is_treasure()))
        };
        let coins = cx.st.turn.coins;
        let buyable = cx
            .st
            .supply
            .iter()
            .filter(|pile| pile.count > 0 && cx.st.cost(pile.card) <= coins)
            .map(|pile| pile.card)
            .collect();
        let req = Request {
            player: p,
            card: None,
            purpose: Purpose::BuyPhase,
            prompt: Prompt::BuyPhase { treasures, buyable },
        };
        match cx.choose(req)? {
            Reply::Play(card) => play_treasure(cx, p, card)?,
            Reply::PlayAllTreasures => {
                let all: Vec<CardId> = cx.st.player(p).hand.iter().copied().filter(|c| c.is_treasure()).collect();
                for card in all {
                    play_treasure(cx, p, card)?;
                }
            }
            Reply::Buy(card) => buy(cx, p, card),
            Reply::EndPhase => return Ok(()),
            r => unreachable!("validated reply {r:?}"),
        }
    }
}

fn buy(cx: &mut Ctx, p: PlayerId, card: CardId) {
    let cost = cx.st.cost(card);
    let t = &mut cx.st.turn;
    t.coins -= cost;
    t.buys -= 1;
    t.bought = true;
    cx.emit(|| Event::Bought { player: p, card });
    cx.gain(p, card, Destination::Discard);
}

fn cleanup(cx: &mut Ctx, p: PlayerId) {
    cx.st.turn.phase = Phase::Cleanup;
    let pl = cx.st.player_mut(p);
    debug_assert!(pl.aside.is_empty(), "set-aside cards left over at cleanup");
    let in_play = std::mem::take(&mut pl.in_play);
    let hand = std::mem::take(&mut pl.hand);
    pl.discard.extend_from_slice(&in_play);
    pl.discard.extend_from_slice(&hand);
    if !hand.is_empty() {
        cx.emit(|| Event::Discarded {
            player: p,
            count: hand.len(),
            cards: Some(hand),
            private: true,
        });
    }
    cx.st.turn.plays_in_play.clear();
    cx.draw(p, 5);
}

/// Moves `card` from the current player's hand into play and announces it.
pub(crate) fn put_in_play(cx: &mut Ctx, card: CardId) -> Play {
    let p = cx.current();
    cx.remove_from_hand(p, card);
    cx.st.player_mut(p).in_play.push(card);
    let slot = cx.st.turn.plays_in_play.len();
    cx.st.turn.plays_in_play.push(true);
    cx.emit(|| Event::Played { player: p, card });
    Play {
        card,
        slot: Some(slot),
        immune: 0,
    }
}

/// Plays an Action card from hand: into play, then its effect.
pub(crate) fn play_from_hand(cx: &mut Ctx, card: CardId) -> Res {
    let play = put_in_play(cx, card);
    resolve(cx, play)
}

/// Resolves one play of an Action card's effect (Throne Room calls this twice).
/// Before an Attack does anything, each other player may react to it.
pub(crate) fn resolve(cx: &mut Ctx, mut play: Play) -> Res {
    cx.st.turn.actions_played += 1;
    if play.card.is(Types::ATTACK) {
        play.immune = reactions(cx, play.card)?;
    }
    cards::on_play(cx, &play)
}

/// Offers each other player, in turn order, the Reactions in their hand, one at a time,
/// until they decline. Returns the players who are now unaffected (bit per seat).
fn reactions(cx: &mut Ctx, attack: CardId) -> Res<u8> {
    let me = cx.current();
    let mut immune = 0u8;
    for v in cx.st.others(me) {
        let mut revealed: Vec<CardId> = Vec::new();
        loop {
            let options: Vec<CardId> = distinct(
                cx.st
                    .player(v)
                    .hand
                    .iter()
                    .copied()
                    .filter(|c| c.is(Types::REACTION) && !revealed.contains(c)),
            );
            if options.is_empty() {
                break;
            }
            let chosen = cx.choose_cards(v, attack, Purpose::React, Zone::Hand, options, 0, 1)?;
            let Some(&reaction) = chosen.first() else {
                break;
            };
            revealed.push(reaction);
            cx.reveal(v, &[reaction]);
            if cards::react(cx, reaction, v)? {
                immune |= 1 << v.0;
                cx.emit(|| Event::Blocked {
                    player: v,
                    by: reaction,
                });
            }
        }
    }
    Ok(immune)
}

/// Plays a Treasure from hand (Buy phase).
pub(crate) fn play_treasure(cx: &mut Ctx, p: PlayerId, card: CardId) -> Res {
    debug_assert!(!cx.st.turn.bought, "treasure played after a buy");
    let play = put_in_play(cx, card);
    debug_assert_eq!(p, cx.current());
    cards::on_play(cx, &play)
}
