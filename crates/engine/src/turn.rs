//! One turn: Action phase, Buy phase, Cleanup — and how a card is played.
//!
//! The phase moves are decision requests like any other, so a turn is straight-line code
//! that may suspend at any `choose` and be run again from its start.

use crate::card::{CardId, Types};
use crate::cards;
use crate::ctx::{Ask, Ctx, Play, Res};
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
        let playable = distinct(
            cx.st
                .player(p)
                .hand
                .iter()
                .copied()
                .filter(|c| c.is_action()),
        );
        // Nothing to decide when nothing can be played.
        if playable.is_empty() {
            return Ok(());
        }
        let req = Request {
            player: p,
            card: None,
            about: None,
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
            distinct(
                cx.st
                    .player(p)
                    .hand
                    .iter()
                    .copied()
                    .filter(|c| c.is_treasure()),
            )
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
            about: None,
            purpose: Purpose::BuyPhase,
            prompt: Prompt::BuyPhase { treasures, buyable },
        };
        match cx.choose(req)? {
            Reply::Play(card) => play_treasure(cx, p, card)?,
            Reply::PlayAllTreasures => {
                let all: Vec<CardId> = cx
                    .st
                    .player(p)
                    .hand
                    .iter()
                    .copied()
                    .filter(|c| c.is_treasure())
                    .collect();
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
    // The hand goes under the played cards: the new top of the discard pile is a card
    // everyone saw in play, not a hand card no one saw.
    pl.discard.extend_from_slice(&hand);
    pl.discard.extend_from_slice(&in_play);
    let top = pl.discard.last().copied();
    if !hand.is_empty() {
        cx.emit(|| Event::Discarded {
            player: p,
            count: hand.len(),
            cards: Some(hand),
            top,
            private: true,
        });
    }
    cx.draw(p, 5);
}

/// Moves `card` from the current player's hand into play and announces it.
pub(crate) fn put_in_play(cx: &mut Ctx, card: CardId) -> Play {
    let p = cx.current();
    cx.remove_from_hand(p, card);
    into_play(cx, card)
}

/// Puts `card` (already taken from wherever it was) into play and announces it. Its play
/// number counts every card put into play this turn: those still in play and those that
/// left (nothing else leaves play before Clean-up).
fn into_play(cx: &mut Ctx, card: CardId) -> Play {
    let p = cx.current();
    let id = (cx.st.player(p).in_play.len() + cx.st.turn.left_play.len()) as u32;
    cx.st.player_mut(p).in_play.push(card);
    cx.emit(|| Event::Played { player: p, card });
    Play {
        card,
        id,
        immune: 0,
    }
}

/// Plays `card` from the top of the current player's discard pile, using no Action
/// (Vassal).
pub(crate) fn play_from_discard(cx: &mut Ctx, card: CardId) -> Res {
    let p = cx.current();
    let discard = &mut cx.st.player_mut(p).discard;
    debug_assert_eq!(
        discard.last(),
        Some(&card),
        "{card} is not on top of the discard"
    );
    discard.pop();
    let play = into_play(cx, card);
    resolve(cx, play)
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
            let chosen = cx.pick(
                Ask::new(v, attack, Purpose::React),
                Zone::Hand,
                options,
                0,
                1,
            )?;
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

#[cfg(test)]
mod tests {
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::{Event, InvalidReply, Prompt, Reply, Viewer};

    #[test]
    fn no_treasure_may_be_played_after_the_first_buy() {
        let mut g = table(2)
            .hand(P0, &[Festival, Copper, Copper, Silver])
            .start();
        g.play(Festival).play(Copper);
        g.ok(P0, Reply::Buy(Silver));
        assert_eq!(g.coins(), 0);
        assert_eq!(
            g.prompt(),
            &Prompt::BuyPhase {
                treasures: vec![],
                buyable: vec![Copper, Curse]
            }
        );
        assert_eq!(
            g.reply(P0, Reply::Play(Silver)),
            Err(InvalidReply::NotAnOption("silver".into()))
        );
        assert!(g.reply(P0, Reply::PlayAllTreasures).is_err());
        assert_eq!(g.hand(P0), vec![Copper, Silver]);
    }

    #[test]
    fn a_refused_reply_changes_nothing() {
        let mut g = table(3)
            .hand(P0, &[Militia, Copper])
            .hand(P1, &[Copper, Copper, Estate, Estate, Gold])
            .start();
        g.play(Militia);
        let (hash, pending, events) = (g.state_hash(), g.pending().cloned(), g.events().len());
        let bad = [
            (P0, Reply::Cards(vec![Estate, Estate])),
            (P2, Reply::Cards(vec![])),
            (P1, Reply::Cards(vec![Estate])),
            (P1, Reply::Cards(vec![Gold, Gold])),
            (P1, Reply::Cards(vec![Silver, Estate])),
            (P1, Reply::YesNo(true)),
            (crate::PlayerId(9), Reply::EndPhase),
        ];
        for (p, r) in bad {
            assert!(g.reply(p, r.clone()).is_err(), "{r:?} by {p} accepted");
            assert_eq!(g.state_hash(), hash);
            assert_eq!(g.pending().cloned(), pending);
            assert_eq!(g.events().len(), events);
        }
        assert_eq!(
            g.reply(P0, Reply::EndPhase),
            Err(InvalidReply::NotYourDecision {
                expected: P1,
                got: P0
            })
        );
    }

    #[test]
    fn the_game_ends_when_provinces_run_out_and_ties_go_to_fewer_turns() {
        let mut g = table(2)
            .hand(P0, &[Gold, Gold, Gold])
            .turns(P0, 4)
            .discard(P1, &[Province])
            .turns(P1, 4)
            .supply(Province, 1)
            .start();
        g.ok(P0, Reply::PlayAllTreasures)
            .ok(P0, Reply::Buy(Province));
        assert!(g.is_over());
        assert!(g.pending().is_none());
        let s = g.scores();
        assert_eq!((s[0].vp, s[0].turns, s[0].winner), (6, 5, false));
        assert_eq!((s[1].vp, s[1].turns, s[1].winner), (6, 4, true));
        assert!(matches!(g.events().last(), Some(Event::GameEnded { .. })));
        assert_eq!(g.reply(P0, Reply::EndPhase), Err(InvalidReply::GameOver));
    }

    #[test]
    fn three_empty_piles_end_the_game_four_with_five_players() {
        for (players, ends) in [(2, true), (4, true), (5, false), (6, false)] {
            let mut g = table(players)
                .hand(P0, &[Silver, Silver])
                .supply(Curse, 0)
                .supply(Estate, 0)
                .supply(Smithy, 1)
                .start();
            g.ok(P0, Reply::PlayAllTreasures).ok(P0, Reply::Buy(Smithy));
            assert_eq!(g.is_over(), ends, "{players} players");
        }
    }

    #[test]
    fn cleanup_draws_five_shuffling_only_when_the_deck_runs_out() {
        let mut g = table(2)
            .hand(P0, &[Copper])
            .deck(P0, &[Gold, Gold, Gold])
            .discard(P0, &[Estate, Estate, Estate])
            .start();
        g.ok(P0, Reply::PlayAllTreasures).ok(P0, Reply::EndPhase);
        // The 3 Golds first; then Estates ×3 + the Copper just discarded are shuffled.
        let hand = g.hand(P0);
        assert_eq!(hand.iter().filter(|c| **c == Gold).count(), 3);
        assert_eq!(hand.len(), 5);
        assert_eq!(g.deck(P0).len(), 2);
        assert_eq!(g.discard(P0), vec![]);
        let shuffles = g
            .events()
            .iter()
            .filter(|e| matches!(e, Event::Shuffled { .. }))
            .count();
        assert_eq!(shuffles, 1);
    }

    #[test]
    fn views_and_events_hide_other_players_cards() {
        let mut g = table(2)
            .hand(P0, &[Cellar, Estate])
            .deck(P0, &[Gold])
            .hand(P1, &[Silver, Silver])
            .start();
        g.play(Cellar).choose(P0, &[Estate]);
        let mine = g.view(Viewer::Player(P0));
        assert_eq!(mine.hand, Some(vec![Gold]));
        let theirs = g.view(Viewer::Player(P1));
        assert_eq!(theirs.hand, Some(vec![Silver, Silver]));
        assert_eq!(theirs.seats[0].hand_count, 1);
        assert!(theirs.pending.is_none(), "not their decision");
        assert_eq!(theirs.waiting_for, Some(P0));
        let spectator = g.view(Viewer::Spectator);
        assert_eq!(spectator.hand, None);
        let seats = serde_json::to_string(&spectator.seats).unwrap();
        assert!(
            !seats.contains("gold"),
            "spectator view leaks the drawn Gold: {seats}"
        );
        let drew = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::Drew { .. }))
            .unwrap();
        assert_eq!(drew.for_viewer(Viewer::Player(P0)), *drew);
        assert!(matches!(
            drew.for_viewer(Viewer::Player(P1)),
            Event::Drew {
                cards: None,
                count: 1,
                ..
            }
        ));
        // Discards from hand show others how many and the new top, not each card.
        let discarded = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::Discarded { .. }))
            .unwrap();
        assert_eq!(
            discarded.for_viewer(Viewer::Player(P1)),
            Event::Discarded {
                player: P0,
                count: 1,
                cards: None,
                top: Some(Estate),
                private: true
            }
        );
        assert_eq!(discarded.for_viewer(Viewer::Player(P0)), *discarded);
    }
}
