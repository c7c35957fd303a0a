//! What one viewer may know: [`PlayerView`] for clients, [`Observation`] for bots.
//!
//! Hands and deck order are secret; hand sizes, deck sizes, the discard top, cards in
//! play, set-aside cards, the trash and Supply counts are public. These two types are
//! the only ways the engine hands state to anything outside it.
//!
//! [`Observation::knowledge`] copies out, as plain data, everything one player knows:
//! the public facts plus its own private knowledge ([`Knowledge`]). It is the only place
//! the searching bot's sampler may read the state from: the sampler works from
//! `Knowledge` alone, so whatever it builds cannot depend on a hidden card.

use crate::card::{CARD_COUNT, CARD_IDS, CardId, Edition};
use crate::decision::Request;
use crate::event::Viewer;
use crate::score::{self, Score};
use crate::state::{Phase, Pile, PlayerId, State, TurnState};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PileView {
    pub card: CardId,
    pub count: u32,
    /// Cost now (after reductions such as Bridge).
    pub cost: u32,
}

/// The public part of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub player: PlayerId,
    pub hand_count: usize,
    pub deck_count: usize,
    pub discard_count: usize,
    pub discard_top: Option<CardId>,
    pub in_play: Vec<CardId>,
    pub aside: Vec<CardId>,
    /// Victory points now. Public: every gain and trash of a Victory card or Curse is.
    pub vp: i32,
    pub turns: u32,
}

/// Everything `viewer` may know about the game right now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub viewer: Viewer,
    pub edition: Edition,
    pub supply: Vec<PileView>,
    pub trash: Vec<CardId>,
    pub seats: Vec<SeatView>,
    /// The viewer's own hand (None for spectators).
    pub hand: Option<Vec<CardId>>,
    pub current: PlayerId,
    pub phase: Phase,
    pub actions: u32,
    pub buys: u32,
    pub coins: u32,
    pub turn_count: u32,
    /// Whose decision the game is waiting for. While another player's private question
    /// is pending, the view is the game at the last public decision, and this is whose
    /// turn it is (see `Game::visible`).
    pub waiting_for: Option<PlayerId>,
    /// The pending request, only if it is the viewer's.
    pub pending: Option<Request>,
    pub game_over: bool,
    /// Final scores, once the game is over.
    pub scores: Option<Vec<Score>>,
}

impl PlayerView {
    /// `viewer`'s view of `st`; `pending` is the question now asked (shown only to its
    /// player) and `waiting_for` whose decision the viewer is told the game waits for.
    pub(crate) fn build(
        st: &State,
        viewer: Viewer,
        pending: Option<&Request>,
        waiting_for: Option<PlayerId>,
    ) -> PlayerView {
        let seats = st
            .players
            .iter()
            .enumerate()
            .map(|(i, pl)| SeatView {
                player: PlayerId(i as u8),
                hand_count: pl.hand.len(),
                deck_count: pl.deck.len(),
                discard_count: pl.discard.len(),
                discard_top: pl.discard.last().copied(),
                in_play: pl.in_play.clone(),
                aside: pl.aside.clone(),
                vp: known_vp(st, PlayerId(i as u8), viewer),
                turns: pl.turns,
            })
            .collect();
        let hand = match viewer {
            Viewer::Player(p) => Some(st.player(p).hand.clone()),
            Viewer::Spectator => None,
        };
        PlayerView {
            viewer,
            edition: st.edition,
            supply: st
                .supply
                .iter()
                .map(|p| PileView {
                    card: p.card,
                    count: p.count,
                    cost: st.cost(p.card),
                })
                .collect(),
            trash: st.trash.clone(),
            seats,
            hand,
            current: st.current,
            phase: st.turn.phase,
            actions: st.turn.actions,
            buys: st.turn.buys,
            coins: st.turn.coins,
            turn_count: st.turn_count,
            waiting_for,
            pending: pending.filter(|r| viewer.is(r.player)).cloned(),
            game_over: st.game_over,
            scores: st.game_over.then(|| score::scores(st)),
        }
    }
}

/// `p`'s VP as `viewer` can know it. Every gain and trash is public, so VP totals are,
/// except for one thing: a card Masquerade passes between two players is seen only by
/// them. For anyone else each such pass is undone in the count — the card still counts
/// for its giver, not its receiver — whatever became of the card since: passed on
/// again (a pass the viewer saw or not), trashed, or passed back. Counting per card kind
/// with signed counts makes this exact for chains of passes; undoing a pass on the cards
/// a player holds now (as an earlier version did) failed when the receiver had passed
/// the card on, and the VP others saw then moved by the card's worth on a frame that
/// showed only hidden passes. Final scores are public and exact: they come from the
/// whole state.
fn known_vp(st: &State, p: PlayerId, viewer: Viewer) -> i32 {
    let unseen = |s: &crate::state::SecretPass| !viewer.is(s.from) && !viewer.is(s.to);
    if !st
        .passes
        .iter()
        .any(|s| (s.from == p || s.to == p) && unseen(s))
    {
        return score::player_vp(st.player(p));
    }
    let mut counts = [0i32; CARD_COUNT];
    for c in st.player(p).all_cards() {
        counts[c as usize] += 1;
    }
    for pass in st.passes.iter().filter(|s| unseen(s)) {
        if pass.to == p {
            counts[pass.card as usize] -= 1;
        }
        if pass.from == p {
            counts[pass.card as usize] += 1;
        }
    }
    score::vp_of_counts(&counts)
}

/// What one card counts towards a reference bot's "money" (shared bots.md): a Treasure
/// its coins (Harem 2), and the Actions bots.md lists: Moneylender 1, Chancellor 2,
/// Festival 2, Bridge 2, Minion 2, Baron 4; anything else 0. Bridge counts 2 though it
/// gives +$1, as bots.md says: its cost reduction is worth about another $1.
pub const fn money_value(card: CardId) -> u32 {
    use CardId::*;
    match card {
        Copper | Moneylender => 1,
        Silver | Harem | Chancellor | Festival | Bridge | Minion => 2,
        Gold => 3,
        Baron => 4,
        _ => 0,
    }
}

/// [`money_value`] of each card, by `CardId`: a table lookup per card owned.
static MONEY: [u8; CARD_COUNT] = {
    let mut t = [0; CARD_COUNT];
    let mut i = 0;
    while i < CARD_COUNT {
        t[i] = money_value(CARD_IDS[i]) as u8;
        i += 1;
    }
    t
};

/// [`money_value`] by table lookup (the `match` is a chain of comparisons).
pub(crate) fn money_of(card: CardId) -> u32 {
    u32::from(MONEY[card as usize])
}

/// A bot's window on the game: its own cards and public facts, nothing hidden.
pub struct Observation<'a> {
    st: &'a State,
    me: PlayerId,
}

impl<'a> Observation<'a> {
    pub(crate) fn new(st: &'a State, me: PlayerId) -> Observation<'a> {
        Observation { st, me }
    }
    /// What `me` may know of `game` now: for driving agents from outside the engine
    /// (the server's bot seats, tests).
    pub fn for_player(game: &'a crate::Game, me: PlayerId) -> Observation<'a> {
        Observation {
            st: game.state(),
            me,
        }
    }
    pub fn me(&self) -> PlayerId {
        self.me
    }
    pub fn current(&self) -> PlayerId {
        self.st.current
    }
    pub fn num_players(&self) -> usize {
        self.st.num_players()
    }
    pub fn edition(&self) -> Edition {
        self.st.edition
    }
    pub fn hand(&self) -> &[CardId] {
        &self.st.player(self.me).hand
    }
    pub fn hand_count(&self, p: PlayerId) -> usize {
        self.st.player(p).hand.len()
    }
    /// Every card the bot owns (it knows them all, though not their order).
    pub fn owned(&self) -> impl Iterator<Item = CardId> + '_ {
        self.st.player(self.me).all_cards()
    }
    /// The bot's cards zone by zone (hand, deck, discard pile, in play, set aside): the
    /// cards of [`Observation::owned`], for a loop per slice, which is cheaper than the
    /// chained iterator. The deck's and discard pile's order is not for the bot to read.
    pub fn owned_zones(&self) -> [&[CardId]; 5] {
        let pl = self.st.player(self.me);
        [&pl.hand, &pl.deck, &pl.discard, &pl.in_play, &pl.aside]
    }
    pub fn count_owned(&self, card: CardId) -> usize {
        self.st.player(self.me).count_owned(card)
    }
    /// "money" as the reference bots define it (shared bots.md): the sum of
    /// [`money_value`] over every card owned.
    pub fn money(&self) -> u32 {
        let pl = self.st.player(self.me);
        // Zone by zone: a plain loop per slice is cheaper than one chained iterator, and
        // bots ask this at most of their buys.
        [&pl.hand, &pl.deck, &pl.discard, &pl.in_play, &pl.aside]
            .into_iter()
            .map(|zone| {
                zone.iter()
                    .map(|c| u32::from(MONEY[*c as usize]))
                    .sum::<u32>()
            })
            .sum()
    }
    /// The cards player `p` has in play (public: they lie face up on the table).
    pub fn in_play(&self, p: PlayerId) -> &[CardId] {
        &self.st.player(p).in_play
    }
    /// The bot's own set-aside and revealed cards (public anyway).
    pub fn aside(&self) -> &[CardId] {
        &self.st.player(self.me).aside
    }
    pub fn deck_count(&self, p: PlayerId) -> usize {
        self.st.player(p).deck.len()
    }
    /// Discard pile size (public).
    pub fn discard_count(&self, p: PlayerId) -> usize {
        self.st.player(p).discard.len()
    }
    /// Supply piles that are empty now (Poacher).
    pub fn empty_piles(&self) -> usize {
        self.st.empty_piles()
    }
    pub fn supply_count(&self, card: CardId) -> u32 {
        self.st.supply_count(card)
    }
    pub fn cost(&self, card: CardId) -> u32 {
        self.st.cost(card)
    }
    pub fn coins(&self) -> u32 {
        self.st.turn.coins
    }
    /// On this player's own turn: the coins it has once every Treasure in its hand is
    /// played — what a Buy answered at the Action-phase decision may spend (it plays them
    /// first; see `Reply::Buy`).
    pub fn coins_after_treasures(&self) -> u32 {
        crate::combined::coins_after_treasures(self.st, self.me)
    }
    pub fn actions(&self) -> u32 {
        self.st.turn.actions
    }
    pub fn buys(&self) -> u32 {
        self.st.turn.buys
    }
    /// VP a player has now (public: every gain is public).
    /// VP `p` has now, as far as this player can know (see [`known_vp`]).
    pub fn vp(&self, p: PlayerId) -> i32 {
        known_vp(self.st, p, Viewer::Player(self.me))
    }
    pub fn turns(&self, p: PlayerId) -> u32 {
        self.st.player(p).turns
    }
    /// How many Supply piles there are (empty ones included).
    pub fn supply_len(&self) -> usize {
        self.st.supply.len()
    }
    /// The cards of every Supply pile, empty or not (public: the table shows them).
    pub fn supply_cards(&self) -> impl Iterator<Item = CardId> + Clone + '_ {
        self.st.supply.iter().map(|p| p.card)
    }
    /// Every Supply pile with its count (public).
    pub fn supply(&self) -> impl Iterator<Item = (CardId, u32)> + '_ {
        self.st.supply.iter().map(|p| (p.card, p.count))
    }
    /// How many `card`s player `p` owns, when that is public: every gain and every trash
    /// is seen by all, so a player who follows the game knows each deck's make-up (not
    /// its order nor what is in hand). The one hidden move in these sets is
    /// Masquerade's pass, seen only by the two players concerned: with Masquerade in
    /// the Supply and 3+ players another player's count may be unknown, so this is
    /// `None` there (one's own count is always known).
    pub fn owned_by(&self, p: PlayerId, card: CardId) -> Option<usize> {
        let hidden_passes = self.num_players() > 2 && self.st.pile(CardId::Masquerade).is_some();
        (p == self.me || !hidden_passes).then(|| self.st.player(p).count_owned(card))
    }
    /// How many cards player `p` owns (public, as for [`Observation::owned_by`]).
    pub fn card_count(&self, p: PlayerId) -> usize {
        self.st.player(p).card_count()
    }
    /// The trash (public, face up).
    pub fn trash(&self) -> &[CardId] {
        &self.st.trash
    }
    /// How many `card`s are in the bot's own draw pile. A player who follows its own
    /// cards knows its deck's make-up (though not its order), which is all this says.
    pub fn count_in_deck(&self, card: CardId) -> usize {
        self.st
            .player(self.me)
            .deck
            .iter()
            .filter(|c| **c == card)
            .count()
    }
    /// How many cards of the bot's own discard pile `which` accepts (Minion's mode rule
    /// in bots.md counts its Coppers, Curses and Victory cards there). Only the top card
    /// is public, but the pile's make-up is no secret to its owner: it saw every card go
    /// there (its discards, gains, clean-ups, revealed cards, its deck put there whole).
    /// It is its own pile only, and a count, so no order is told.
    pub fn count_in_discard(&self, which: impl Fn(CardId) -> bool) -> usize {
        self.st
            .player(self.me)
            .discard
            .iter()
            .filter(|c| which(**c))
            .count()
    }
    /// How many empty Supply piles end the game (3, or 4 with 5+ players).
    pub fn piles_to_end(&self) -> usize {
        self.st.piles_to_end()
    }
    /// Whether gaining one `card` now would meet the end condition.
    pub fn gain_would_end_game(&self, card: CardId) -> bool {
        let left = self.st.supply_count(card);
        if left == 0 {
            return false;
        }
        if card == CardId::Province && left == 1 {
            return true;
        }
        left == 1 && self.st.empty_piles() + 1 >= self.st.piles_to_end()
    }
    /// Whether the bot would be among the winners if the game ended after it gains `card`.
    pub fn wins_after_gaining(&self, card: CardId) -> bool {
        // At most 6 players: the standings fit on the stack.
        let mut raw = [(0, 0); 6];
        let n = self.st.num_players();
        for (i, (r, o)) in raw.iter_mut().zip(&self.st.players).enumerate() {
            let vp = if i == self.me.idx() {
                score::vp_after_gaining(o, card)
            } else {
                known_vp(self.st, PlayerId(i as u8), Viewer::Player(self.me))
            };
            *r = (vp, o.turns);
        }
        score::is_winner(&raw[..n], self.me.idx())
    }
}

/// What one player knows of the game: the public facts and its own cards, nothing else.
///
/// Built by [`Observation::knowledge`] for a searching bot, which fills in what it does
/// not know by sampling (determinization). Multisets of cards whose order or place the
/// player does not know are sorted, so not even an order leaks through them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    pub me: PlayerId,
    pub edition: Edition,
    pub supply: Vec<Pile>,
    pub trash: Vec<CardId>,
    pub current: PlayerId,
    /// The current turn's counters and phase (all public).
    pub turn: TurnState,
    pub turn_count: u32,
    pub seats: Vec<SeatKnowledge>,
    /// The rules version of the game (public).
    pub rules: u32,
}

/// What the viewer knows of one seat (its own or another's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatKnowledge {
    pub hand_count: usize,
    pub deck_count: usize,
    pub discard_count: usize,
    pub discard_top: Option<CardId>,
    pub in_play: Vec<CardId>,
    pub aside: Vec<CardId>,
    pub turns: u32,
    /// The hand, when it is the viewer's own.
    pub hand: Option<Vec<CardId>>,
    /// The whole discard pile (bottom first), when it is the viewer's own: a player saw
    /// every card it put there.
    pub discard: Option<Vec<CardId>>,
    /// The cards of this seat whose place the viewer does not know, sorted: for the
    /// viewer, its deck; for another player, their cards as public knowledge has them
    /// (every gain and trash is public; Masquerade passes the viewer was not part of are
    /// undone) minus the cards in play, set aside and on top of the discard pile — the
    /// pool their hand, deck and the rest of their discard pile come from. It may not
    /// add up to those zones' sizes when a secret pass moved a card: the sampler
    /// reconciles.
    pub unplaced: Vec<CardId>,
}

impl Observation<'_> {
    /// Everything this player knows, copied out (see [`Knowledge`]). This is the one
    /// place the search bot's sampler reads the state through, and it copies only public
    /// facts and the viewer's own cards: other players' hands and every deck order stay
    /// out (a test builds two games that differ only there and compares).
    pub fn knowledge(&self) -> Knowledge {
        let st = self.st;
        let me = self.me;
        let seats = st
            .players
            .iter()
            .enumerate()
            .map(|(i, pl)| {
                let p = PlayerId(i as u8);
                let mine = p == me;
                let mut unplaced: Vec<CardId> = if mine {
                    pl.deck.clone()
                } else {
                    let mut pool: Vec<CardId> = pl
                        .hand
                        .iter()
                        .chain(&pl.deck)
                        .chain(&pl.discard)
                        .copied()
                        .collect();
                    // Undo the passes the viewer did not see: a card received secretly
                    // is not known to be theirs, a card given away secretly still is.
                    for pass in st.passes.iter().filter(|s| s.from != me && s.to != me) {
                        if pass.to == p
                            && let Some(at) = pool.iter().position(|c| *c == pass.card)
                        {
                            pool.swap_remove(at);
                        }
                        if pass.from == p {
                            pool.push(pass.card);
                        }
                    }
                    if let Some(top) = pl.discard.last()
                        && let Some(at) = pool.iter().position(|c| c == top)
                    {
                        pool.swap_remove(at);
                    }
                    pool
                };
                unplaced.sort_unstable();
                SeatKnowledge {
                    hand_count: pl.hand.len(),
                    deck_count: pl.deck.len(),
                    discard_count: pl.discard.len(),
                    discard_top: pl.discard.last().copied(),
                    in_play: pl.in_play.clone(),
                    aside: pl.aside.clone(),
                    turns: pl.turns,
                    hand: mine.then(|| pl.hand.clone()),
                    discard: mine.then(|| pl.discard.clone()),
                    unplaced,
                }
            })
            .collect();
        Knowledge {
            me,
            edition: st.edition,
            supply: st.supply.clone(),
            trash: st.trash.clone(),
            current: st.current,
            turn: st.turn.clone(),
            turn_count: st.turn_count,
            seats,
            rules: st.rules,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardId::*;
    use crate::cards::testkit::*;
    use crate::decision::{Prompt, Purpose, Zone};

    #[test]
    fn others_see_sizes_discard_top_play_trash_and_supply_never_hands_or_deck_order() {
        let mut g = table(3)
            .hand(P0, &[Village, Gold])
            .deck(P0, &[Silver, Duchy, Province])
            .discard(P0, &[Copper, Estate])
            .hand(P1, &[Copper, Copper, Smithy])
            .deck(P1, &[Gold, Estate])
            .discard(P1, &[Curse])
            .trash(&[Chapel])
            .supply(Province, 3)
            .start();
        g.play(Village);
        assert_eq!(g.state().player(P0).hand, vec![Gold, Silver]);
        let p0 = SeatView {
            player: P0,
            hand_count: 2,
            deck_count: 2,
            discard_count: 2,
            discard_top: Some(Estate),
            in_play: vec![Village],
            aside: vec![],
            vp: 1 + 3 + 6,
            turns: 1,
        };
        let p1 = SeatView {
            player: P1,
            hand_count: 3,
            deck_count: 2,
            discard_count: 1,
            discard_top: Some(Curse),
            in_play: vec![],
            aside: vec![],
            vp: 1 - 1,
            turns: 0,
        };
        for viewer in [Viewer::Player(P0), Viewer::Player(P1), Viewer::Spectator] {
            let v = g.view(viewer);
            assert_eq!(v.seats[..2], [p0.clone(), p1.clone()], "{viewer:?}");
            assert_eq!(v.trash, vec![Chapel]);
            assert_eq!(
                v.supply.iter().find(|p| p.card == Province),
                Some(&PileView {
                    card: Province,
                    count: 3,
                    cost: 8
                })
            );
            assert_eq!((v.current, v.actions, v.buys, v.coins), (P0, 2, 1, 0));
            assert_eq!(v.waiting_for, Some(P0));
            // Seats hold counts, the discard top and public zones only: neither player's
            // hand nor any deck card appears in them (not even one's own deck order).
            let seats = serde_json::to_string(&v.seats).unwrap();
            for secret in ["gold", "silver", "duchy", "province", "smithy"] {
                assert!(!seats.contains(secret), "{viewer:?} sees {secret}: {seats}");
            }
        }
        assert_eq!(g.view(Viewer::Player(P0)).hand, Some(vec![Gold, Silver]));
        assert_eq!(
            g.view(Viewer::Player(P1)).hand,
            Some(vec![Copper, Copper, Smithy])
        );
        assert_eq!(g.view(Viewer::Spectator).hand, None);
        assert_eq!(g.view(Viewer::Player(P0)).pending.as_ref(), g.pending());
        assert_eq!(g.view(Viewer::Player(P1)).pending, None);
        assert_eq!(g.view(Viewer::Spectator).pending, None);
    }

    #[test]
    fn observation_tells_public_counts_and_its_own_deck_make_up() {
        let g = table(2)
            .hand(P0, &[Gold])
            .deck(P0, &[Silver, Estate, Silver])
            .discard(P1, &[Duke, Duke, Copper])
            .trash(&[Chapel])
            .supply(Province, 3)
            .start();
        let obs = Observation::for_player(&g, P0);
        assert_eq!((obs.count_in_deck(Silver), obs.count_in_deck(Gold)), (2, 0));
        assert_eq!((obs.owned_by(P1, Duke), obs.card_count(P1)), (Some(2), 3));
        // With Masquerade and 3 players, passes between others are hidden.
        let g3 = table(3).discard(P1, &[Duke]).discard(P0, &[Duke]).start();
        let obs3 = Observation::for_player(&g3, P0);
        assert_eq!(
            (obs3.owned_by(P1, Duke), obs3.owned_by(P0, Duke)),
            (None, Some(1))
        );
        assert_eq!(obs.trash(), &[Chapel]);
        assert_eq!(
            obs.supply().find(|(c, _)| *c == Province),
            Some((Province, 3))
        );
        assert_eq!(obs.supply_cards().count(), CardId::all().count());
        assert_eq!(obs.piles_to_end(), 3);
    }

    /// While a private question is pending (here: reveal Moat?), everyone but the asked
    /// player sees the game exactly as at the last public decision (before Witch was
    /// played): the same view, the same number, whose turn it is — nothing tells them
    /// that anyone was asked.
    #[test]
    fn while_a_private_question_is_asked_the_others_see_the_last_public_decision() {
        let mut g = table(3)
            .hand(P0, &[Witch])
            .deck(P0, &[Copper, Copper])
            .hand(P1, &[Moat, Copper])
            .start();
        let others = [Viewer::Player(P0), Viewer::Player(P2), Viewer::Spectator];
        let before: Vec<_> = others
            .iter()
            .map(|&v| {
                let mut view = g.view(v);
                view.pending = None;
                (view, g.visible(v))
            })
            .collect();
        g.play(Witch);
        let req = g.req().clone();
        assert_eq!(
            (req.player, req.card, req.purpose),
            (P1, Some(Witch), Purpose::React)
        );
        assert_eq!(
            req.prompt,
            Prompt::ChooseCards {
                zone: Zone::Hand,
                options: vec![Moat],
                min: 0,
                max: 1
            }
        );
        for (viewer, was) in others.iter().zip(&before) {
            assert_eq!(&(g.view(*viewer), g.visible(*viewer)), was, "{viewer:?}");
            assert_eq!(g.view(*viewer).waiting_for, Some(P0));
        }
        let asked = g.view(Viewer::Player(P1));
        assert_eq!(asked.waiting_for, Some(P1));
        assert_eq!(asked.pending, Some(req));
        assert_eq!(asked.seats[0].in_play, vec![Witch]);
        assert_eq!(g.visible(Viewer::Player(P1)).events, g.events().len());
        // Once the Reaction is answered, everyone sees it all: Witch played, the Curses.
        g.choose(P1, &[]);
        let seen = g.view(Viewer::Spectator);
        assert_eq!(seen.waiting_for, Some(P0));
        assert_eq!(seen.seats[0].in_play, vec![Witch]);
        assert_eq!(g.visible(Viewer::Spectator).events, g.events().len());
    }

    /// The same position with Moat or Copper in P1's hand: after Militia, P1 discards and
    /// then P0 decides. A declined Moat (and the discard, a private question too) must
    /// leave everything the others see as it would be without it.
    #[test]
    fn a_declined_reaction_changes_nothing_anyone_else_sees() {
        let run = |holds_moat: bool| {
            let card = if holds_moat { Moat } else { Copper };
            let mut g = table(2)
                .hand(P0, &[Militia, Village])
                .deck(P0, &[Copper])
                .hand(P1, &[card, Copper, Copper, Estate, Estate])
                .start();
            // What each of P0 and a spectator is shown, each time it changes.
            let mut seen = vec![Vec::new(), Vec::new()];
            let mut look = |g: &crate::Game| {
                for (i, v) in [Viewer::Player(P0), Viewer::Spectator]
                    .into_iter()
                    .enumerate()
                {
                    let events: Vec<_> = g.events()[..g.visible(v).events]
                        .iter()
                        .map(|e| e.for_viewer(v))
                        .collect();
                    let now = (g.visible(v).step, g.view(v), events);
                    if seen[i].last() != Some(&now) {
                        seen[i].push(now);
                    }
                }
            };
            look(&g);
            g.play(Village);
            look(&g);
            g.play(Militia);
            if holds_moat {
                assert_eq!(g.req().purpose, Purpose::React);
                let asked = g.decision_number().unwrap();
                assert!(!asked.is_multiple_of(1000), "in between: {asked}");
                look(&g);
                g.choose(P1, &[]);
            }
            assert_eq!(g.req().purpose, Purpose::Discard);
            look(&g);
            g.choose(P1, &[Estate, Estate]);
            assert_eq!(g.req().player, P0);
            look(&g);
            (seen, g.reply_numbers().len())
        };
        let (with_moat, replies_with) = run(true);
        let (without, replies_without) = run(false);
        assert!(with_moat == without, "the others saw a difference");
        assert_eq!(
            replies_with,
            replies_without + 1,
            "one more reply was logged"
        );
        let steps: Vec<u64> = without[1].iter().map(|s| s.0).collect();
        assert_eq!(steps, vec![0, 1000, 2000]);
    }
}
