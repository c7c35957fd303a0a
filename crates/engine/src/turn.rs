//! One turn: Action phase, Buy phase, Cleanup — and how a card is played.
//!
//! The phase moves are decision requests like any other, so a turn is straight-line code
//! that may suspend at any `choose` and be run again from its start (or from a resume
//! point, see [`crate::game`]). Under rules 2 the Action phase is asked whenever an
//! Action is left and the Buy phase whenever a Buy is left, even with nothing to play or
//! buy: whether they are asked is public. So that this cannot spin forever, a turn in
//! which nothing had a real choice checks whether anyone can ever act again
//! (`State::stuck`); if not, the game ends and is scored as usual. A game also ends after
//! `State::TURN_LIMIT_PER_PLAYER` turns per player.
//!
//! **Play all Treasures** takes the Treasures out of the hand in one pass (keeping the
//! other cards' order), then plays them in hand order. Invariant: no Treasure's effect
//! looks at the hand or asks anything; a future Treasure that does must be played one at
//! a time.
//!
//! **Attacks** ([`resolve`]): before an Attack does anything, each other player, in turn
//! order, is offered the Reactions in their hand one at a time until they decline; a
//! Reaction drawn by an earlier one (Secret Chamber drawing Moat) is offered next. Under
//! rules 2 each *copy* may be revealed once per Attack (copies are indistinguishable, so a
//! kind is offered while the hand holds more copies than were revealed). `cards::can_react`
//! says when one may be revealed (Diplomat: 5+ cards in hand), `cards::react` what it
//! does; those who made themselves unaffected are skipped by `Ctx::each_victim`. Each
//! resolution of a Throne-Roomed Attack asks again; Throne Room itself is just two
//! calls of `resolve`.
//!
//! **Later expansions**: Duration and Reserve cards need zones that outlive a turn (in
//! `PlayerState`) and start-of-turn hooks in `begin_turn`; Night adds a phase in
//! `run_turn`; Events are buyable non-cards in the Buy prompt. None of these changes
//! the decision mechanism.

use crate::card::{CardId, CardSet, Types};
use crate::cards;
use crate::ctx::{Ask, Ctx, Play, Res};
use crate::decision::{Prompt, Purpose, Reply, Request, Zone};
use crate::event::{CardList, Destination, Event};
use crate::rules;
use crate::state::{Phase, PlayerId, State, TurnState};

/// Starts `p`'s turn: fresh counters, turn counts, and its Action phase. Runs outside
/// any decision. (The Action phase is announced here rather than in `action_phase` so
/// that running on from a state taken at an Action-phase decision announces nothing.)
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
        ev.push(Event::PhaseStarted {
            player: p,
            phase: Phase::Action,
        });
    }
}

/// Runs the current turn from its start (or from wherever the logged replies lead) to
/// its end, including the end-of-game check and passing the turn on.
///
/// It may also start from a state taken at an Action-phase or Buy-phase decision (no
/// card being resolved): the phase recorded in the state says where to go on, so a state
/// in its Buy phase does not go back to the Action phase. A searching bot's playouts
/// start from such states; a turn run from its start is in its Action phase.
pub(crate) fn run_turn(cx: &mut Ctx) -> Res {
    let p = cx.current();
    action_phase(cx, p)?;
    buy_phase(cx, p)?;
    cleanup(cx, p);
    // A turn in which nothing was asked may be a sign that no one can ever act again;
    // only then is the (costlier) check made.
    if cx.st.end_condition() || (!cx.asked && cx.st.stuck()) {
        cx.st.game_over = true;
    } else {
        cx.st.current = PlayerId((p.0 + 1) % cx.st.num_players() as u8);
    }
    Ok(())
}

/// The distinct `cards`, sorted, in `v` (an empty list, see `Ctx::list`).
fn distinct(mut v: Vec<CardId>, cards: impl Iterator<Item = CardId>) -> Vec<CardId> {
    let mut set = CardSet::default();
    for c in cards {
        set.insert(c);
    }
    set.drain_into(&mut v);
    v
}

/// The distinct cards of `p`'s hand that `kind` accepts, sorted: a phase move's options.
/// None (an Action phase of a money deck, every turn): an empty list that allocates
/// nothing, where a kept list would be taken and given back at every reply; else a kept
/// one (`Ctx::list`).
#[inline]
fn kinds_in_hand(cx: &mut Ctx, p: PlayerId, kind: impl Fn(CardId) -> bool) -> Vec<CardId> {
    let hand = &cx.st.player(p).hand;
    if !hand.iter().any(|&c| kind(c)) {
        return Vec::new();
    }
    let list = cx.list();
    distinct(
        list,
        cx.st.player(p).hand.iter().copied().filter(|&c| kind(c)),
    )
}

fn action_phase(cx: &mut Ctx, p: PlayerId) -> Res {
    if cx.st.turn.phase != Phase::Action {
        return Ok(());
    }
    loop {
        if cx.st.turn.actions == 0 {
            return Ok(());
        }
        let reply = match cx.resumed_answer() {
            Some(r) => r,
            None => {
                // Nothing to play and no one to ask: the phase ends as the request's
                // only answer would end it (`Ctx::forced_phase_move_unasked`).
                if cx.forced_phase_move_unasked(p)
                    && !cx.st.player(p).hand.iter().any(|c| c.is_action())
                {
                    return Ok(());
                }
                let Some(req) = action_request(cx, p) else {
                    return Ok(());
                };
                cx.choose_phase_move(req)?
            }
        };
        match reply {
            Reply::Play(card) => {
                cx.st.turn.actions -= 1;
                play_from_hand(cx, card)?;
            }
            Reply::EndPhase => return Ok(()),
            // A Buy-phase move answered here (`crate::combined`): the Buy phase below
            // starts with it, as the moves it stands for (`Ctx::stage`).
            Reply::PlayAllTreasures => {
                cx.stage(None);
                return Ok(());
            }
            Reply::Buy(card) => {
                cx.stage(Some(card));
                return Ok(());
            }
            r => unreachable!("validated reply {r:?}"),
        }
    }
}

/// The Action-phase move. Under rules 1, None when nothing can be played (nothing to
/// decide); from rules 2 it is asked all the same, since whether it is asked would tell
/// everyone whether the hand holds an Action card (`crate::rules`).
fn action_request(cx: &mut Ctx, p: PlayerId) -> Option<Request> {
    let playable = kinds_in_hand(cx, p, CardId::is_action);
    if playable.is_empty() && !rules::asks_every_phase_move(cx.st) {
        cx.keep(playable);
        return None;
    }
    Some(Request {
        player: p,
        card: None,
        about: None,
        purpose: Purpose::ActionPhase,
        prompt: Prompt::ActionPhase { playable },
    })
}

fn buy_phase(cx: &mut Ctx, p: PlayerId) -> Res {
    if cx.st.turn.phase != Phase::Buy {
        cx.st.turn.phase = Phase::Buy;
        cx.emit(|| Event::PhaseStarted {
            player: p,
            phase: Phase::Buy,
        });
    }
    loop {
        if cx.st.turn.buys == 0 {
            return Ok(());
        }
        let reply = match cx.resumed_answer() {
            Some(r) => r,
            None => match buy_move_unasked(cx, p) {
                Some(r) => r,
                None => {
                    let req = buy_request(cx, p);
                    cx.choose_phase_move(req)?
                }
            },
        };
        match reply {
            Reply::Play(card) => play_treasure(cx, p, card)?,
            // The Treasures in the hand now, in hand order. No Treasure's effect looks at
            // the hand or asks anything (Copper, Silver, Gold, Harem: coins only), so
            // they leave the hand together, which keeps the other cards' order, and are
            // then played one by one: the same plays as taking the first one left each
            // time, without shifting the hand once per Treasure.
            Reply::PlayAllTreasures => {
                let mut treasures = cx.list();
                cx.st.player_mut(p).hand.retain(|&c| {
                    let t = c.is_treasure();
                    if t {
                        treasures.push(c);
                    }
                    !t
                });
                let kept = cx.st.player(p).hand.len();
                for &card in &treasures {
                    let play = into_play(cx, card);
                    cards::on_play(cx, &play)?;
                }
                debug_assert_eq!(
                    cx.st.player(p).hand.len(),
                    kept,
                    "a Treasure changed the hand"
                );
                cx.keep(treasures);
            }
            Reply::Buy(card) => buy(cx, p, card),
            Reply::EndPhase => return Ok(()),
            r => unreachable!("validated reply {r:?}"),
        }
    }
}

/// The Buy-phase move of `p`'s agent when the agent gives it without the request (an
/// unrecorded game only): `PlayAllTreasures` when Treasures may be played and the agent
/// always plays them all (`Ctx::plays_all_treasures_unasked`: a real choice was there),
/// else its buy from the observation (`Ctx::buy_unasked`). None: build the request.
fn buy_move_unasked(cx: &mut Ctx, p: PlayerId) -> Option<Reply> {
    if !cx.answered_by_agents() {
        return None;
    }
    let treasures = !cx.st.turn.bought && cx.st.player(p).hand.iter().any(|c| c.is_treasure());
    if !treasures {
        return cx.buy_unasked(p);
    }
    if !cx.plays_all_treasures_unasked(p) {
        return None;
    }
    cx.asked = true;
    Some(Reply::PlayAllTreasures)
}

/// The Buy-phase move: the Treasures that may still be played and the piles affordable.
fn buy_request(cx: &mut Ctx, p: PlayerId) -> Request {
    let treasures = if cx.st.turn.bought {
        cx.list()
    } else {
        kinds_in_hand(cx, p, CardId::is_treasure)
    };
    let mut buyable = cx.list();
    cx.afford
        .fill(&cx.st.supply, crate::afford::budget(cx.st), &mut buyable);
    Request {
        player: p,
        card: None,
        about: None,
        purpose: Purpose::BuyPhase,
        prompt: Prompt::BuyPhase { treasures, buyable },
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
    // The hand goes under the played cards: the new top of the discard pile is a card
    // everyone saw in play, not a hand card no one saw. Both zones are emptied in place,
    // keeping their allocations for the next turn.
    pl.discard.extend_from_slice(&pl.hand);
    pl.discard.extend_from_slice(&pl.in_play);
    pl.in_play.clear();
    let top = pl.discard.last().copied();
    let count = pl.hand.len();
    if count > 0 && cx.events.is_some() {
        let hand = CardList::from_slice(&cx.st.player(p).hand);
        cx.emit(|| Event::Discarded {
            player: p,
            count,
            cards: Some(hand),
            top,
            private: true,
        });
    }
    cx.st.player_mut(p).hand.clear();
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
///
/// Each *copy* of a Reaction may be revealed once per Attack (rules 2; rules 1 offered
/// each kind once). Copies are indistinguishable, so the engine counts: a kind is offered
/// while the hand holds more copies of it than were revealed. A revealed copy that
/// leaves the hand (Secret Chamber puts cards back) may as well be the revealed one —
/// the player could have chosen it — so the count revealed never exceeds the copies
/// left in hand; a copy drawn meanwhile is a new one and is offered.
fn reactions(cx: &mut Ctx, attack: CardId) -> Res<u8> {
    let me = cx.current();
    let mut immune = 0u8;
    let per_copy = rules::reactions_per_copy(cx.st);
    for v in cx.st.others(me) {
        let mut revealed: Vec<CardId> = Vec::new();
        loop {
            let hand = &cx.st.player(v).hand;
            let held = |c: CardId| hand.iter().filter(|h| **h == c).count();
            if per_copy && !revealed.is_empty() {
                let mut capped: Vec<CardId> = Vec::with_capacity(revealed.len());
                for &r in &revealed {
                    if capped.iter().filter(|c| **c == r).count() < held(r) {
                        capped.push(r);
                    }
                }
                revealed = capped;
            }
            let shown = |c: CardId| revealed.iter().filter(|r| **r == c).count();
            // Usually no one holds a Reaction: an empty `Vec::new()` allocates nothing.
            let options: Vec<CardId> = distinct(
                Vec::new(),
                hand.iter()
                    .copied()
                    .filter(|c| {
                        c.is(Types::REACTION)
                            && if per_copy {
                                held(*c) > shown(*c)
                            } else {
                                !revealed.contains(c)
                            }
                    })
                    .filter(|c| cards::can_react(cx.st, *c, v)),
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
    use crate::state::Phase;
    use crate::{Destination, Event, InvalidReply, Prompt, Purpose, Reply, Viewer};

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

    fn shuffles(events: &[Event]) -> usize {
        events
            .iter()
            .filter(|e| matches!(e, Event::Shuffled { .. }))
            .count()
    }

    // ----- General: shuffling ----------------------------------------------------------

    #[test]
    fn a_short_deck_is_drawn_first_then_the_discard_is_shuffled() {
        let mut g = table(2)
            .hand(P0, &[Smithy])
            .deck(P0, &[Gold])
            .discard(P0, &[Estate, Estate, Estate])
            .start();
        g.play(Smithy);
        assert_eq!(
            g.events(),
            &[
                Event::PhaseStarted {
                    player: P0,
                    phase: Phase::Action
                },
                Event::Played {
                    player: P0,
                    card: Smithy
                },
                Event::Shuffled { player: P0 },
                Event::Drew {
                    player: P0,
                    count: 3,
                    cards: Some(vec![Gold, Estate, Estate].into())
                },
                Event::PhaseStarted {
                    player: P0,
                    phase: Phase::Buy
                },
            ]
        );
        assert_eq!(g.state().player(P0).hand, vec![Gold, Estate, Estate]);
        assert_eq!(g.deck(P0), vec![Estate]);
        assert_eq!(g.discard_pile(P0), vec![]);
        assert_eq!(g.in_play(P0), vec![Smithy]);
    }

    #[test]
    fn never_shuffle_early_a_deck_of_exactly_enough_is_drawn_whole() {
        let mut g = table(2)
            .hand(P0, &[Smithy])
            .deck(P0, &[Gold, Silver, Copper])
            .discard(P0, &[Estate])
            .start();
        g.play(Smithy);
        assert_eq!(g.hand(P0), vec![Copper, Silver, Gold]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Estate], "not shuffled in yet");
        assert_eq!(shuffles(g.events()), 0);

        // Clean-up with exactly 5 left draws them without shuffling.
        let mut g = table(2)
            .hand(P0, &[Copper])
            .deck(P0, &[Silver; 5])
            .discard(P0, &[Estate])
            .hand(P1, &[Copper])
            .start();
        end_turn(&mut g);
        assert_eq!(g.hand(P0), vec![Silver; 5]);
        assert_eq!(g.deck(P0), vec![]);
        assert_eq!(g.discard_pile(P0), vec![Estate, Copper]);
        assert_eq!(shuffles(g.events()), 0);
        assert_eq!(g.req().player, P1);
    }

    #[test]
    fn with_too_few_cards_even_after_shuffling_draw_what_there_is() {
        let mut g = table(2)
            .hand(P0, &[Smithy])
            .deck(P0, &[Gold])
            .discard(P0, &[Estate])
            .start();
        g.play(Smithy);
        assert_eq!(g.state().player(P0).hand, vec![Gold, Estate]);
        assert_eq!((g.deck(P0), g.discard_pile(P0)), (vec![], vec![]));
        assert_eq!(shuffles(g.events()), 1);

        // Nothing anywhere: nothing drawn, nothing shuffled, and the game goes on.
        let mut g = table(2).hand(P0, &[Smithy, Copper]).start();
        g.play(Smithy);
        assert_eq!(g.hand(P0), vec![Copper]);
        assert_eq!(shuffles(g.events()), 0);
        assert!(matches!(g.prompt(), Prompt::BuyPhase { .. }));
    }

    #[test]
    fn second_edition_puts_the_shuffled_discard_under_the_deck() {
        // Looking at 3 with 1 on the deck: the discard is shuffled and put under it, so
        // the old top card is still on top (no existing card looks at several; Sentry will).
        let (seen, st, events) = table(2)
            .deck(P0, &[Gold])
            .discard(P0, &[Estate, Estate])
            .with_ctx(|cx| cx.look_at_top(P0, 3));
        assert_eq!(seen, vec![Gold, Estate, Estate]);
        assert_eq!(st.player(P0).deck, vec![Estate, Estate, Gold], "top last");
        assert_eq!(st.player(P0).discard, vec![]);
        assert_eq!(shuffles(&events), 1);
    }

    #[test]
    fn a_card_put_onto_an_empty_deck_becomes_the_whole_deck() {
        let (drawn, st, events) = table(2).discard(P0, &[Estate, Estate]).with_ctx(|cx| {
            cx.gain(P0, Silver, Destination::Deck);
            assert_eq!(cx.st.player(P0).deck, vec![Silver]);
            cx.draw(P0, 1)
        });
        assert_eq!(drawn, 1);
        assert_eq!(st.player(P0).hand, vec![Silver]);
        assert_eq!(st.player(P0).deck, vec![]);
        assert_eq!(st.player(P0).discard, vec![Estate, Estate], "no shuffle");
        assert_eq!(shuffles(&events), 0);
    }

    #[test]
    fn cards_in_play_or_set_aside_are_not_shuffled_into_a_new_deck() {
        let mut g = table(2)
            .hand(P0, &[Village, Smithy])
            .deck(P0, &[Copper])
            .discard(P0, &[Estate, Estate])
            .start();
        g.play(Village).play(Smithy);
        // Smithy finds an empty deck: only the 2 Estates are shuffled; the third draw
        // finds nothing, and Village and Smithy stay in play.
        assert_eq!(g.hand(P0), vec![Copper, Estate, Estate]);
        assert_eq!(g.in_play(P0), vec![Village, Smithy]);
        assert_eq!((g.deck(P0), g.discard_pile(P0)), (vec![], vec![]));

        let (revealed, st, _) = table(2)
            .aside(P0, &[Gold])
            .discard(P0, &[Estate])
            .with_ctx(|cx| cx.reveal_from_deck(P0, 2));
        assert_eq!(revealed, vec![Estate]);
        assert_eq!(st.player(P0).aside, vec![Gold, Estate]);
        assert_eq!(st.player(P0).deck, vec![]);
    }

    // ----- General: the turn --------------------------------------------------------------

    #[test]
    fn unused_actions_buys_and_coins_are_lost_at_end_of_turn() {
        let mut g = table(2)
            .hand(P0, &[Festival, Copper])
            .hand(P1, &[Copper])
            .start();
        g.play(Festival);
        assert_eq!((g.actions(), g.buys(), g.coins()), (2, 2, 2));
        end_turn(&mut g);
        assert_eq!(g.view(Viewer::Spectator).current, P1);
        assert_eq!(g.req().player, P1);
        assert_eq!((g.actions(), g.buys(), g.coins()), (1, 1, 0));
    }

    /// Ends the current player's turn from wherever it is: the Action phase, then the
    /// Buy phase (each asked from rules 2 even with nothing to do).
    fn end_turn(g: &mut crate::Game) {
        let p = g.req().player;
        while g.pending().is_some_and(|r| r.player == p) {
            g.ok(p, Reply::EndPhase);
        }
    }

    /// From rules 2 both phase moves are asked even when ending the phase is the only
    /// answer: whether they are asked would otherwise tell everyone whether the hand holds
    /// an Action card or a Treasure (`crate::rules`).
    #[test]
    fn both_phase_moves_are_asked_even_with_nothing_to_play_or_buy() {
        let mut g = table(2)
            .hand(P0, &[Estate])
            .deck(P0, &[Silver; 5])
            .supply(Copper, 0)
            .supply(Curse, 0)
            .hand(P1, &[Copper])
            .start();
        assert_eq!(g.prompt(), &Prompt::ActionPhase { playable: vec![] });
        assert!(!g.prompt().has_choice());
        g.ok(P0, Reply::EndPhase);
        assert_eq!(
            g.prompt(),
            &Prompt::BuyPhase {
                treasures: vec![],
                buyable: vec![]
            }
        );
        g.ok(P0, Reply::EndPhase);
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P1, Purpose::ActionPhase));
        assert_eq!(g.replies().len(), 2);
    }

    #[test]
    fn under_rules_1_a_phase_with_nothing_to_do_is_not_asked() {
        // No Treasure in hand, $0, and both $0 piles empty: ending the turn is the only
        // answer, so the turn ends without a question.
        let g = table(2)
            .rules(1)
            .hand(P0, &[Estate])
            .deck(P0, &[Silver; 5])
            .supply(Copper, 0)
            .supply(Curse, 0)
            .hand(P1, &[Copper])
            .start();
        assert!(g.replies().is_empty());
        let r = g.req();
        assert_eq!((r.player, r.purpose), (P1, Purpose::BuyPhase));
        assert_eq!(g.hand(P0), vec![Silver; 5]);
        assert_eq!(g.discard_pile(P0), vec![Estate]);
        assert!(g.events().contains(&Event::TurnStarted {
            player: P1,
            turn: 1
        }));
        // With the Copper pile back, buying it is a choice, so the question is asked.
        let g = table(2)
            .rules(1)
            .hand(P0, &[Estate])
            .supply(Curse, 0)
            .start();
        assert_eq!(
            g.prompt(),
            &Prompt::BuyPhase {
                treasures: vec![],
                buyable: vec![Copper]
            }
        );
    }

    #[test]
    fn a_game_that_no_one_ends_stops_at_the_turn_limit() {
        use crate::bots::PriorityBot;
        use crate::{Agent, Game, Kingdom, Setup};
        // Bots that never buy anything: no pile ever empties.
        let setup = Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: crate::Edition::Second,
        };
        let mut g = Game::new_unrecorded(&setup, 3).unwrap();
        let mut idle: Vec<Box<dyn Agent + Send>> = (0..2)
            .map(|_| {
                Box::new(PriorityBot {
                    name: "idle",
                    rules: vec![],
                }) as Box<dyn Agent + Send>
            })
            .collect();
        g.play_out(&mut idle);
        assert!(g.is_over());
        assert_eq!(
            g.state().turn_count,
            2 * crate::state::State::TURN_LIMIT_PER_PLAYER
        );
    }

    #[test]
    fn a_game_where_nobody_can_do_anything_ends() {
        // No Treasures or Actions anywhere, Copper and Curse piles empty: every Buy phase
        // is forced, so no question is ever asked and no pile ever empties.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut g = table(2)
                .hand(P0, &[Estate])
                .hand(P1, &[Estate])
                .supply(Copper, 0)
                .supply(Curse, 0)
                .start();
            // From rules 2 the phase moves are asked all the same (with nothing to
            // choose): the game ends after the first turn in which nothing had a choice.
            let mut asked = 0;
            while let Some(r) = g.pending().cloned() {
                assert!(!r.prompt.has_choice(), "{r:?}");
                g.ok(r.player, Reply::EndPhase);
                asked += 1;
            }
            assert_eq!(asked, 2, "P0's two phase moves");
            let _ = tx.send((g.pending().cloned(), g.is_over(), g.scores()));
        });
        let (pending, over, scores) = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("the engine never came back");
        // It ends after the first empty turn, scored as usual: 1 VP each, P0 took
        // one turn more than P1's none, so P1 wins the tie on turns.
        assert_eq!(pending, None);
        assert!(over);
        assert_eq!((scores[0].vp, scores[1].vp), (1, 1));
        assert_eq!((scores[0].winner, scores[1].winner), (false, true));
    }

    // ----- New rule: Clean-up puts the hand under the played cards ----------------------

    #[test]
    fn at_cleanup_the_hand_goes_under_the_played_cards() {
        let mut g = table(2)
            .hand(P0, &[Village, Copper, Estate, Silver])
            .deck(P0, &[Gold, Duchy, Copper, Copper, Copper, Copper])
            .hand(P1, &[Copper])
            .start();
        g.play(Village).ok(P0, Reply::Play(Silver));
        let n = g.events().len();
        g.ok(P0, Reply::EndPhase);
        // Hand (in order) first, then the played cards: Silver, played last, is on top.
        assert_eq!(
            g.discard_pile(P0),
            vec![Copper, Estate, Gold, Village, Silver]
        );
        assert_eq!(g.in_play(P0), vec![]);
        assert_eq!(g.hand(P0), vec![Copper, Copper, Copper, Copper, Duchy]);
        assert_eq!(g.deck(P0), vec![]);
        let cleanup = g.events_since(n);
        let discarded = Event::Discarded {
            player: P0,
            count: 3,
            cards: Some(vec![Copper, Estate, Gold].into()),
            top: Some(Silver),
            private: true,
        };
        assert_eq!(cleanup[0], discarded);
        assert_eq!(
            cleanup[0].for_viewer(Viewer::Player(P1)),
            Event::Discarded {
                player: P0,
                count: 3,
                cards: None,
                top: Some(Silver),
                private: true,
            }
        );
        assert_eq!(
            g.view(Viewer::Player(P1)).seats[0].discard_top,
            Some(Silver)
        );
    }

    #[test]
    fn at_cleanup_with_nothing_played_others_see_only_the_count_and_the_top_hand_card() {
        let mut g = table(2)
            .hand(P0, &[Estate, Duchy, Copper])
            .deck(P0, &[Silver; 5])
            .hand(P1, &[Copper])
            .start();
        end_turn(&mut g);
        assert_eq!(g.discard_pile(P0), vec![Estate, Duchy, Copper]);
        let discarded = g
            .events()
            .iter()
            .find(|e| matches!(e, Event::Discarded { .. }))
            .unwrap();
        for viewer in [Viewer::Player(P1), Viewer::Spectator] {
            assert_eq!(
                discarded.for_viewer(viewer),
                Event::Discarded {
                    player: P0,
                    count: 3,
                    cards: None,
                    top: Some(Copper),
                    private: true,
                }
            );
            let seat = &g.view(viewer).seats[0];
            assert_eq!((seat.discard_count, seat.discard_top), (3, Some(Copper)));
        }
        assert_eq!(discarded.for_viewer(Viewer::Player(P0)), *discarded);
    }

    // ----- General: the end of the game ----------------------------------------------------

    #[test]
    fn the_game_ends_at_the_end_of_the_turn_the_last_province_is_taken() {
        let mut g = table(2)
            .hand(P0, &[Festival, Gold, Gold, Gold])
            .deck(P0, &[Copper; 5])
            .supply(Province, 1)
            .start();
        g.play(Festival)
            .ok(P0, Reply::PlayAllTreasures)
            .ok(P0, Reply::Buy(Province));
        // The turn goes on: a buy is left.
        assert_eq!(g.supply(Province), 0);
        assert!(!g.is_over());
        assert_eq!((g.buys(), g.coins()), (1, 3));
        assert_eq!(g.req().purpose, Purpose::BuyPhase);
        g.ok(P0, Reply::Buy(Silver));
        assert!(g.is_over());
        assert_eq!(
            g.discard(P0),
            vec![Silver, Gold, Gold, Gold, Province, Festival]
        );
        assert_eq!(g.hand(P0), vec![Copper; 5]);
    }

    #[test]
    fn any_three_empty_piles_end_the_game_curse_and_copper_included() {
        // Witch gives away the last Curse: with Copper and Estate already empty that is 3
        // piles, but the turn is finished first.
        let mut g = table(2)
            .hand(P0, &[Witch])
            .deck(P0, &[Silver, Silver])
            .supply(Curse, 1)
            .supply(Copper, 0)
            .supply(Estate, 0)
            .start();
        g.play(Witch);
        assert_eq!(g.discard(P1), vec![Curse]);
        assert_eq!(g.supply(Curse), 0);
        assert!(!g.is_over());
        g.ok(P0, Reply::PlayAllTreasures)
            .ok(P0, Reply::Buy(Village));
        assert!(g.is_over());
        assert!(matches!(g.events().last(), Some(Event::GameEnded { .. })));
    }

    #[test]
    fn four_empty_piles_end_a_five_or_six_player_game() {
        for players in [5, 6] {
            let mut g = table(players)
                .hand(P0, &[Silver, Silver])
                .supply(Curse, 0)
                .supply(Estate, 0)
                .supply(Copper, 0)
                .supply(Smithy, 1)
                .start();
            g.ok(P0, Reply::PlayAllTreasures).ok(P0, Reply::Buy(Smithy));
            assert!(g.is_over(), "{players} players");
        }
    }

    #[test]
    fn a_tie_on_points_and_turns_is_shared() {
        let mut g = table(2)
            .current(P1)
            .discard(P0, &[Province])
            .turns(P0, 5)
            .hand(P1, &[Gold, Gold, Gold])
            .turns(P1, 4)
            .supply(Province, 1)
            .start();
        g.ok(P1, Reply::PlayAllTreasures)
            .ok(P1, Reply::Buy(Province));
        assert!(g.is_over());
        let s: Vec<_> = g
            .scores()
            .iter()
            .map(|s| (s.vp, s.turns, s.winner))
            .collect();
        assert_eq!(s, vec![(6, 5, true), (6, 5, true)]);
    }
}
