//! Taking back a move: a player's own last reply, within their turn, while nothing hidden
//! has come to light since.
//!
//! An undo is a truncation of the reply log: the game becomes exactly what the shorter
//! log replays to (the turn is answered again from its first decision), so it is
//! replay-exact, and a stored game survives it by dropping its last stored replies.
//!
//! **What may be taken back.** Only what taught nobody anything they did not know: the
//! events since the reply may only be the undoer's plays, buys, gains from the Supply or
//! the trash, discards, trashings and cards put onto the deck from the hand, and phase
//! changes. A draw, a shuffle, a reveal, a look at the deck, a pass (Masquerade), a
//! blocked Attack, a new turn, or anything another player did ends the chance: undoing
//! then would let a player peek and choose again.
//!
//! **Secrecy.** An undo is asked for at the undoer's own *public* decision (a phase
//! move), never at a private question: the others do not see a private question (see
//! `Game::visible`), so an undo there would show them a move taken back that they never
//! saw made. Private questions other players answered after the undoer's last reply (a
//! Moat not revealed against their Militia) are taken back with it: refusing because of
//! them would tell the undoer that someone had been asked, that is, held a Reaction.
//! Such answers leave no event, so whether an undo is allowed depends only on what the
//! undoer has seen.

use super::{Game, is_public};
use crate::event::Event;
use crate::state::PlayerId;

/// Why a move cannot be taken back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UndoRefused {
    #[error("the game is over")]
    GameOver,
    #[error("this game does not record its moves")]
    NotRecorded,
    #[error("there is no move of yours to take back")]
    NothingToUndo,
    #[error("only the player whose decision is pending can take back their last move")]
    NotYourDecision,
    #[error("a move can be taken back only at your Action- or Buy-phase decision")]
    NotAtPhaseMove,
    #[error("the last move was not yours")]
    NotYourMove,
    #[error("moves of an earlier turn cannot be taken back")]
    EarlierTurn,
    #[error("your last move revealed {0}: it cannot be taken back")]
    Revealed(&'static str),
}

impl Game {
    /// Whether `player` may take back their last move now (see the module docs).
    pub fn can_undo(&self, player: PlayerId) -> Result<(), UndoRefused> {
        self.undo_point(player).map(|_| ())
    }

    /// The length the log is cut to by `player`'s undo.
    fn undo_point(&self, player: PlayerId) -> Result<usize, UndoRefused> {
        if self.state.game_over {
            return Err(UndoRefused::GameOver);
        }
        if !self.record {
            return Err(UndoRefused::NotRecorded);
        }
        let Some(req) = &self.pending else {
            return Err(UndoRefused::GameOver);
        };
        if req.player != player {
            return Err(UndoRefused::NotYourDecision);
        }
        if !is_public(req) {
            return Err(UndoRefused::NotAtPhaseMove);
        }
        let Some(last) = self.log.iter().rposition(|(p, _)| *p == player) else {
            return Err(UndoRefused::NothingToUndo);
        };
        if last < self.turn_log_start {
            return Err(UndoRefused::EarlierTurn);
        }
        // Replies after the undoer's last one are other players' private answers: the
        // pending decision is the undoer's public one, and public decisions are the
        // current player's.
        debug_assert!(
            self.log[last + 1..].iter().all(|(p, _)| *p != player),
            "a later reply of the undoer"
        );
        let mark = self.event_marks[last];
        for e in &self.events[mark..] {
            if let Some(what) = revealing(e) {
                return Err(UndoRefused::Revealed(what));
            }
            if e.player().is_some_and(|p| p != player) {
                return Err(UndoRefused::Revealed("another player's move"));
            }
        }
        Ok(last)
    }

    /// Takes back `player`'s last move (and the private answers of others since): the
    /// game is as it was just before it, with the same decision pending. Nothing
    /// changes on a refusal.
    ///
    /// The turn is answered again from its first decision, reply by reply, as it was
    /// played: so the states replies re-run from (and the last public decision, which
    /// others see while a private question is pending) are exactly those of a game that
    /// never had the moves taken back.
    pub fn undo(&mut self, player: PlayerId) -> Result<(), UndoRefused> {
        let keep = self.undo_point(player)?;
        self.catch_up_turn_snapshot();
        let start = self.turn_log_start;
        let again: Vec<_> = self.log[start..keep].to_vec();
        let Some(snap) = self.snapshots.as_mut() else {
            return Err(UndoRefused::NotRecorded);
        };
        let Some(turn) = snap.turn.as_ref().filter(|_| snap.turn_taken) else {
            return Err(UndoRefused::NothingToUndo);
        };
        self.state.clone_from(turn);
        snap.turn_taken = false;
        snap.resume_at_turn = false;
        for _ in start..self.log.len() {
            self.numbers.take_back();
        }
        self.log.truncate(start);
        self.event_marks.truncate(start);
        self.events.truncate(self.turn_events_start);
        self.resume_log = start;
        self.run_log = start;
        self.resume_events = self.turn_events_start;
        self.run_at_decision = false;
        self.pending = None;
        // From the turn's first decision (the state holds it; no event is re-created).
        self.advance(None);
        for (p, r) in again {
            let answered = self.answer(p, r);
            debug_assert!(answered.is_ok(), "a reply taken again was refused");
        }
        Ok(())
    }
}

/// What an event brought to light that a player did not know, if anything.
fn revealing(e: &Event) -> Option<&'static str> {
    match e {
        Event::PhaseStarted { .. }
        | Event::Played { .. }
        | Event::PlayedAgain { .. }
        | Event::Bought { .. }
        | Event::Gained { .. }
        | Event::GainedFromTrash { .. }
        | Event::Trashed { .. }
        | Event::ModesChosen { .. }
        | Event::Discarded { private: true, .. }
        | Event::TopDecked { private: true, .. } => None,
        Event::Drew { .. } | Event::PutInHand { .. } => Some("cards drawn"),
        Event::Shuffled { .. } => Some("a shuffle"),
        Event::LookedAt { .. } => Some("cards looked at"),
        Event::Revealed { .. }
        | Event::SetAside { .. }
        | Event::Discarded { private: false, .. }
        | Event::TopDecked { private: false, .. }
        | Event::Named { .. } => Some("revealed cards"),
        Event::DeckDiscarded { .. } => Some("the discarded deck's top card"),
        Event::Passed { .. } => Some("passed cards"),
        Event::Blocked { .. } => Some("a Reaction"),
        Event::TurnStarted { .. } | Event::GameStarted { .. } | Event::GameEnded { .. } => {
            Some("a new turn")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardId;
    use crate::decision::Reply;
    use crate::state::Phase;
    use crate::{Edition, Kingdom, Setup};

    fn c(k: &str) -> CardId {
        k.parse().unwrap()
    }

    fn setup(cards: &[&str]) -> Setup {
        Setup {
            players: 2,
            kingdom: Kingdom::Cards(cards.iter().map(|k| c(k)).collect()),
            edition: Edition::Second,
        }
    }

    const KINGDOM: [&str; 10] = [
        "cellar",
        "chapel",
        "moat",
        "village",
        "workshop",
        "smithy",
        "militia",
        "market",
        "laboratory",
        "festival",
    ];

    /// A game from the start of its first turn, the current player holding `hand` over
    /// `deck` (top last).
    fn holding(seed: u64, hand: &[&str], deck: &[&str]) -> (Game, PlayerId) {
        let s = setup(&KINGDOM);
        let mut st = Game::new(&s, seed).unwrap().state().clone();
        let p = st.current;
        st.players[p.idx()].hand = hand.iter().map(|k| c(k)).collect();
        if !deck.is_empty() {
            st.players[p.idx()].deck = deck.iter().map(|k| c(k)).collect();
        }
        (Game::from_state_for_tests(&s, st), p)
    }

    /// A game whose current player holds a Festival (+1 Buy, no draw) and Coppers.
    fn festival_hand(seed: u64) -> (Game, PlayerId) {
        holding(
            seed,
            &["festival", "copper", "copper", "copper", "estate"],
            &[],
        )
    }

    #[test]
    fn buys_and_plays_are_taken_back_exactly_and_the_same_decision_is_asked_again() {
        let (mut g, p) = festival_hand(3);
        let start = (g.digest(), g.decision_number(), g.events().to_vec());
        g.reply(p, Reply::Play(c("festival"))).unwrap();
        // Festival's +2 Actions: the Action phase is asked again, nothing left to play.
        g.reply(p, Reply::EndPhase).unwrap();
        g.reply(p, Reply::PlayAllTreasures).unwrap();
        let before = (
            g.digest(),
            g.decision_number(),
            g.events().len(),
            g.pending().cloned(),
        );
        // Two Buys: the first one leaves the Buy phase open.
        g.reply(p, Reply::Buy(c("copper"))).unwrap();
        assert_ne!(g.digest(), before.0);
        assert_eq!(g.can_undo(p), Ok(()));
        g.undo(p).unwrap();
        assert_eq!(
            (
                g.digest(),
                g.decision_number(),
                g.events().len(),
                g.pending().cloned()
            ),
            before
        );
        // And again, back to the start of the turn: the Treasures, the end of the Action
        // phase, then the Festival.
        g.undo(p).unwrap();
        g.undo(p).unwrap();
        g.undo(p).unwrap();
        assert_eq!(
            (g.digest(), g.decision_number(), g.events().to_vec()),
            start
        );
        assert!(g.replies().is_empty());
        assert_eq!(g.undo(p), Err(UndoRefused::NothingToUndo));
    }

    #[test]
    fn the_undone_game_is_the_replay_of_the_shorter_log() {
        let mut g = Game::new(&setup(&KINGDOM), 5).unwrap();
        let p = g.pending().unwrap().player;
        to_buy_phase(&mut g, p);
        g.reply(p, Reply::PlayAllTreasures).unwrap();
        g.undo(p).unwrap();
        let replayed = Game::replay(&g.record()).unwrap();
        assert_eq!(replayed.digest(), g.digest());
        assert_eq!(replayed.reply_numbers(), g.reply_numbers());
        assert_eq!(replayed.decision_number(), g.decision_number());
        assert_eq!(replayed.events(), g.events());
    }

    /// The last Buy ends the turn and the Clean-up draws a new hand: too late.
    #[test]
    fn the_last_buy_ends_the_turn_and_cannot_be_taken_back() {
        let mut g = Game::new(&setup(&KINGDOM), 7).unwrap();
        let p = g.pending().unwrap().player;
        to_buy_phase(&mut g, p);
        g.reply(p, Reply::PlayAllTreasures).unwrap();
        g.reply(p, Reply::Buy(c("copper"))).unwrap();
        let q = g.pending().unwrap().player;
        assert_ne!(p, q);
        assert_eq!(g.undo(p), Err(UndoRefused::NotYourDecision));
        assert_eq!(g.undo(q), Err(UndoRefused::NothingToUndo));
    }

    /// Ends the Action phase if it is asked (from rules 2 it is, even with nothing to
    /// play): a step to the Buy phase.
    fn to_buy_phase(g: &mut Game, p: PlayerId) {
        if g.pending().unwrap().purpose == crate::Purpose::ActionPhase {
            g.reply(p, Reply::EndPhase).unwrap();
        }
    }

    /// A Village draws: too late at once. A Festival may be taken back until a Smithy
    /// draws.
    #[test]
    fn a_draw_ends_the_chance_to_take_back() {
        const DECK: [&str; 5] = ["gold", "silver", "copper", "estate", "duchy"];
        let (mut g, p) = holding(
            1,
            &["village", "smithy", "copper", "copper", "estate"],
            &DECK,
        );
        g.reply(p, Reply::Play(c("village"))).unwrap();
        // Village draws a card itself: so even it cannot be taken back.
        assert_eq!(g.can_undo(p), Err(UndoRefused::Revealed("cards drawn")));
        let hand = ["festival", "smithy", "copper", "copper", "estate"];
        let (mut g2, _) = holding(1, &hand, &DECK);
        let start = g2.digest();
        g2.reply(p, Reply::Play(c("festival"))).unwrap();
        assert_eq!(g2.can_undo(p), Ok(()));
        g2.reply(p, Reply::Play(c("smithy"))).unwrap();
        assert_eq!(g2.undo(p), Err(UndoRefused::Revealed("cards drawn")));
        // Festival (no draw) was taken back before the Smithy in another line of play:
        let (mut g3, _) = holding(1, &hand, &DECK);
        g3.reply(p, Reply::Play(c("festival"))).unwrap();
        g3.undo(p).unwrap();
        assert_eq!(g3.digest(), start);
        assert_eq!(g3.state().players[p.idx()].hand.len(), 5);
        assert_eq!(g3.state().turn.phase, Phase::Action);
    }

    #[test]
    fn an_attack_answered_by_another_player_cannot_be_taken_back() {
        use crate::state::State;
        let s = setup(&KINGDOM);
        let mut st: State = Game::new(&s, 2).unwrap().state().clone();
        let p = st.current;
        let other = PlayerId(1 - p.0);
        st.players[p.idx()].hand = vec![
            c("militia"),
            c("copper"),
            c("copper"),
            c("copper"),
            c("estate"),
        ];
        st.players[other.idx()].hand = vec![
            c("copper"),
            c("copper"),
            c("copper"),
            c("estate"),
            c("estate"),
        ];
        let mut g = Game::from_state_for_tests(&s, st);
        g.reply(p, Reply::Play(c("militia"))).unwrap();
        // The other player must now discard: it is not the attacker's decision.
        assert_eq!(g.pending().unwrap().player, other);
        assert_eq!(g.undo(p), Err(UndoRefused::NotYourDecision));
        g.reply(other, Reply::Cards(vec![c("estate"), c("estate")]))
            .unwrap();
        assert_eq!(
            g.undo(p),
            Err(UndoRefused::Revealed("another player's move"))
        );
    }

    /// A Moat not revealed leaves no trace, so it cannot stop an undo either: whether the
    /// attacker may take back the Militia must not tell them the victim was asked. The
    /// victim's answer is taken back with it (and asked again if Militia is played again).
    #[test]
    fn a_reaction_declined_against_it_is_taken_back_with_the_attack() {
        use crate::state::State;
        let s = setup(&KINGDOM);
        for victim_hand in [
            vec![c("moat"), c("copper"), c("estate")],
            vec![c("silver"), c("copper"), c("estate")],
        ] {
            let mut st: State = Game::new(&s, 2).unwrap().state().clone();
            let p = st.current;
            let other = PlayerId(1 - p.0);
            st.players[p.idx()].hand = vec![c("militia"), c("copper"), c("copper")];
            st.players[other.idx()].hand = victim_hand.clone();
            let mut g = Game::from_state_for_tests(&s, st);
            let start = (g.digest(), g.events().len());
            g.reply(p, Reply::Play(c("militia"))).unwrap();
            if victim_hand.contains(&c("moat")) {
                assert_eq!(g.pending().unwrap().purpose, crate::Purpose::React);
                g.reply(other, Reply::Cards(vec![])).unwrap();
            }
            // Three cards: nothing to discard. The attacker is in its Buy phase.
            assert_eq!(g.pending().unwrap().player, p);
            assert_eq!(g.can_undo(p), Ok(()));
            g.undo(p).unwrap();
            assert_eq!((g.digest(), g.events().len()), start);
            assert!(g.replies().is_empty());
        }
    }

    /// A player asked a private question (here Baron's "discard an Estate?") cannot take
    /// back the move that led to it there: the others do not see the question, so an undo
    /// would show them a move taken back that they never saw made. At the next phase
    /// move the answer is taken back first, then the Baron.
    #[test]
    fn no_undo_at_a_private_question() {
        let (mut g, p) = holding(4, &["baron", "estate", "copper", "copper", "copper"], &[]);
        let start = g.digest();
        g.reply(p, Reply::Play(c("baron"))).unwrap();
        assert_eq!(g.pending().unwrap().card, Some(c("baron")));
        assert_eq!(g.undo(p), Err(UndoRefused::NotAtPhaseMove));
        g.reply(p, Reply::Cards(vec![])).unwrap();
        assert_eq!(g.pending().unwrap().purpose, crate::Purpose::BuyPhase);
        g.undo(p).unwrap();
        assert_eq!(g.pending().unwrap().card, Some(c("baron")));
        assert_eq!(g.undo(p), Err(UndoRefused::NotAtPhaseMove));
        g.reply(p, Reply::Cards(vec![c("estate")])).unwrap();
        assert_eq!(g.state().turn.coins, 4);
        g.undo(p).unwrap();
        g.reply(p, Reply::Cards(vec![])).unwrap();
        assert_ne!(g.digest(), start);
    }

    /// Over whole games of random bots on random kingdoms: wherever a move may be taken
    /// back, taking it back gives exactly the state, decision and events before it, and
    /// making it again gives exactly the state after it.
    #[test]
    fn taking_back_and_redoing_any_allowed_move_changes_nothing() {
        let mut undone = 0;
        for seed in 0..60u64 {
            let s = Setup {
                players: 2 + (seed % 3) as u8,
                kingdom: Kingdom::RandomFrom(crate::setup::CardPool::Both),
                edition: if seed % 2 == 0 {
                    Edition::Second
                } else {
                    Edition::First
                },
            };
            let mut g = Game::new(&s, seed).unwrap();
            let mut agents: Vec<_> = (0..s.players)
                .map(|i| crate::bots::by_name("random", seed * 10 + i as u64).unwrap())
                .collect();
            while let Some(req) = g.pending().cloned() {
                let before = (g.digest(), g.decision_number(), g.events().len());
                let obs = crate::view::Observation::new(g.state(), req.player);
                let r = agents[req.player.idx()].decide(&obs, &req);
                g.reply(req.player, r.clone()).unwrap();
                let after = (g.digest(), g.decision_number(), g.events().to_vec());
                if g.can_undo(req.player).is_ok() {
                    g.undo(req.player).unwrap();
                    assert_eq!((g.digest(), g.decision_number(), g.events().len()), before);
                    assert_eq!(g.pending(), Some(&req));
                    g.reply(req.player, r).unwrap();
                    assert_eq!(
                        (g.digest(), g.decision_number(), g.events().to_vec()),
                        after
                    );
                    undone += 1;
                }
                if g.replies().len() > 3000 {
                    break;
                }
            }
        }
        assert!(undone > 500, "only {undone} moves could be taken back");
    }
}
