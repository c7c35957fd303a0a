//! `PriorityBot`: buys by a priority list of (card, condition) rules and answers every
//! other decision by the conventions of the reference bots (shared bots.md), which are:
//!
//! - Each buy takes the first rule whose card is affordable, in the Supply and whose
//!   condition holds; with several Buys it goes down the list again with the coins left.
//! - It never buys, nor chooses to gain, a card that would end the game while it would
//!   not then be among the winners (turn tiebreak counted): it takes its next choice.
//! - While it has Actions it plays the Action card giving +Actions first, then the most
//!   expensive; it plays all its Treasures.
//! - Its own discards and trashes go Curse, Estate, Duchy, Province (while its list does
//!   not want them now), Copper, then the cheapest card.
//! - As a victim it discards Duchy, Province, Curse, Estate first, then the cheapest
//!   (Militia, Torturer) and puts back a Victory card in that order (Bureaucrat).
//! - The card rules bots.md gives with one bot are answers every `PriorityBot` gives,
//!   as the other players' choices follow them too (Masquerade's passing, Torturer's
//!   and Saboteur's victims): see [`PriorityBot::plays`], [`PriorityBot::modes`],
//!   [`PriorityBot::pass_rank`], [`PriorityBot::masquerade_trash`] and the Saboteur
//!   gain in `decide`.
//!
//! Choices bots.md does not settle are answered by the plain heuristics documented on
//! [`PriorityBot::choose_cards`] and the helpers it uses.

use crate::agent::Agent;
use crate::card::{CardId, Types};
use crate::decision::{Mode, Prompt, Purpose, Reply, Request, Zone};
use crate::view::{Observation, money_value};
use std::cmp::Reverse;

/// Buy `card` when `when` holds (and it is affordable and in the Supply).
pub struct Rule {
    pub card: CardId,
    pub when: Box<dyn Fn(&Observation) -> bool + Send + Sync>,
}

impl Rule {
    pub fn always(card: CardId) -> Rule {
        Rule {
            card,
            when: Box::new(|_| true),
        }
    }
    pub fn when(card: CardId, f: impl Fn(&Observation) -> bool + Send + Sync + 'static) -> Rule {
        Rule {
            card,
            when: Box::new(f),
        }
    }
}

pub struct PriorityBot {
    pub name: &'static str,
    pub rules: Vec<Rule>,
}

/// Optional trashing keeps at least this much money (bots.md's "money"): enough for a
/// Gold from the deck's best hand, so thinning Coppers never leaves the deck unable to
/// grow. Below it a Copper is worth more kept than trashed.
const KEEP_MONEY: u32 = 6;

/// Cards that give +Actions are played before terminal ones. Throne Room counts: it is
/// played first so that it can double a Village. Cards whose +Actions depend on a choice
/// or on the hand (Nobles, Pawn, Courtier, Conspirator, Diplomat, Ironworks) do not.
fn gives_actions(c: CardId) -> bool {
    use CardId::*;
    // Every card is named (no catch-all arm): a new card does not compile until it is
    // sorted into one of the two lists.
    match c {
        Cellar | Merchant | Village | Festival | Laboratory | Market | ThroneRoom | Harbinger
        | Poacher | Sentry | GreatHall | ShantyTown | WishingWell | Lurker | Scout | Mill
        | MiningVillage | Minion | SecretPassage | Upgrade => true,
        Copper | Silver | Gold | Estate | Duchy | Province | Curse | Chapel | Moat | Workshop
        | Militia | Remodel | Smithy | CouncilRoom | Mine | Witch | Adventurer | Artisan
        | Bandit | Bureaucrat | Chancellor | Feast | Gardens | Library | Moneylender | Spy
        | Thief | Vassal | Woodcutter | Courtyard | Pawn | SecretChamber | Masquerade | Steward
        | Swindler | Baron | Bridge | Conspirator | Coppersmith | Diplomat | Ironworks
        | Courtier | Duke | Patrol | Replace | Saboteur | Torturer | TradingPost | Tribute
        | Harem | Nobles => false,
    }
}

/// A Victory card with no other type, or a Curse: dead in hand.
fn is_dead(c: CardId) -> bool {
    c.types() == Types::VICTORY || c == CardId::Curse
}

/// Whether drawing `c` next is better than an average card: a Treasure or Action other
/// than Copper (Spy, Harbinger).
fn good_draw(c: CardId) -> bool {
    (c.is_action() || c.is_treasure()) && c != CardId::Copper
}

/// A victim's order (bots.md): Duchy, Province, Curse, Estate, other Victory-only cards,
/// then the cheapest.
fn victim_rank(c: CardId) -> (u8, u8) {
    match c {
        CardId::Duchy => (0, 0),
        CardId::Province => (0, 1),
        CardId::Curse => (0, 2),
        CardId::Estate => (0, 3),
        c if c.types() == Types::VICTORY => (0, 4),
        c => (1, c.base_cost()),
    }
}

/// The first `min` of `ranked` (best choice first), then every further card that `more`
/// accepts given what is chosen so far, up to `max`.
fn take(
    ranked: &[CardId],
    min: usize,
    max: usize,
    more: impl Fn(&[CardId], CardId) -> bool,
) -> Vec<CardId> {
    let mut chosen = ranked[..min].to_vec();
    for &c in &ranked[min..] {
        if chosen.len() < max && more(&chosen, c) {
            chosen.push(c);
        }
    }
    chosen
}

fn sorted_by<K: Ord>(options: &[CardId], key: impl Fn(CardId) -> K) -> Vec<CardId> {
    let mut v = options.to_vec();
    v.sort_by_key(|c| key(*c));
    v
}

/// The coins it will have this turn: those it has plus the Treasures in its hand.
fn coins_this_turn(obs: &Observation) -> u32 {
    obs.coins() + obs.hand().iter().map(|c| coin_value(*c)).sum::<u32>()
}

/// What playing `c` from hand adds to this turn's coins: a Treasure's value, else 0.
fn coin_value(c: CardId) -> u32 {
    if c.is_treasure() { money_value(c) } else { 0 }
}

/// Whether gaining `card` is allowed by the end-of-game rule: it does not end the game,
/// or the bot would then be among the winners.
fn may_gain(obs: &Observation, card: CardId) -> bool {
    !obs.gain_would_end_game(card) || obs.wins_after_gaining(card)
}

impl PriorityBot {
    /// The first card of the list that `allowed` accepts, whose condition holds and
    /// which the end-of-game rule allows.
    fn first_rule(&self, obs: &Observation, allowed: impl Fn(CardId) -> bool) -> Option<CardId> {
        self.rules
            .iter()
            .find(|r| allowed(r.card) && (r.when)(obs) && may_gain(obs, r.card))
            .map(|r| r.card)
    }

    /// What it would buy with `coins` now.
    fn would_buy(&self, obs: &Observation, coins: u32) -> Option<CardId> {
        self.first_rule(obs, |c| obs.supply_count(c) > 0 && obs.cost(c) <= coins)
    }

    /// The Action phase ended with nothing it plays: the rest of its turn's first Buy
    /// in one reply (`Reply::Buy` plays every Treasure first), else Play all Treasures,
    /// else the end of the phase. The same moves as ending the phase, playing all
    /// Treasures and then buying as `decide` does: its rules' conditions look only at
    /// cards owned and the Supply, which playing Treasures does not change, and the
    /// coins are those the Treasures will bring (`Observation::coins_after_treasures`).
    fn buy_from_action_phase(&self, obs: &Observation) -> Reply {
        match self.would_buy(obs, obs.coins_after_treasures()) {
            Some(card) => Reply::Buy(card),
            None if obs.hand().iter().any(|c| c.is_treasure()) => Reply::PlayAllTreasures,
            None => Reply::EndPhase,
        }
    }

    /// "Wanted by its list right now": a rule for `card` whose condition holds, cost
    /// aside.
    fn wants(&self, obs: &Observation, card: CardId) -> bool {
        self.rules.iter().any(|r| r.card == card && (r.when)(obs))
    }

    /// The pile to gain among `options`: the first rule of the list, else the most
    /// expensive card (Treasures first on a tie) that is not a Curse and does not end
    /// the game badly; when the gain is mandatory and nothing qualifies, the most
    /// expensive option.
    fn gain(&self, obs: &Observation, options: &[CardId], optional: bool) -> Option<CardId> {
        let best = |ok: &dyn Fn(CardId) -> bool| {
            options
                .iter()
                .copied()
                .filter(|c| ok(*c))
                .max_by_key(|c| (obs.cost(*c), c.is_treasure()))
        };
        self.first_rule(obs, |c| options.contains(&c))
            .or_else(|| best(&|c| c != CardId::Curse && may_gain(obs, c)))
            .or_else(|| if optional { None } else { best(&|_| true) })
    }

    /// Own discard (`trash` false) or trash order: Curse, Estate, Duchy, Province, other
    /// Victory-only cards, Copper, then the cheapest. When trashing, a Victory card its
    /// list wants now joins the cheapest by its cost; when discarding none is wanted, as
    /// a Victory card in hand never helps this turn's buy.
    fn own_rank(&self, obs: &Observation, c: CardId, trash: bool) -> (u8, u8) {
        let unwanted = !trash || !self.wants(obs, c);
        match c {
            CardId::Curse => (0, 0),
            CardId::Estate if unwanted => (1, 0),
            CardId::Duchy if unwanted => (2, 0),
            CardId::Province if unwanted => (3, 0),
            c if c.types() == Types::VICTORY && unwanted => (4, c.base_cost()),
            CardId::Copper => (5, 0),
            c => (6, c.base_cost()),
        }
    }

    /// Whether it trashes `c` when it may (Chapel, Sentry, 2E Moneylender aside): a
    /// Curse; an Estate its list does not want now; a Copper while the money left after
    /// all the Coppers chosen stays at least [`KEEP_MONEY`]. Never a Duchy or Province.
    fn trash_voluntarily(&self, obs: &Observation, chosen: &[CardId], c: CardId) -> bool {
        match c {
            CardId::Curse => true,
            CardId::Estate => !self.wants(obs, CardId::Estate),
            CardId::Copper => {
                // Money left once this Copper and those already chosen are gone.
                let coppers = chosen.iter().filter(|x| **x == CardId::Copper).count() as u32;
                obs.money().saturating_sub(coppers + 1) >= KEEP_MONEY
            }
            _ => false,
        }
    }

    /// Which card to put from hand onto the deck (Courtyard, Artisan), best first — the
    /// put-back rule bots.md gives for Courtyard: an Action card it cannot
    /// play (no Actions left), the most expensive first; else the most valuable Treasure
    /// whose removal still buys the same card this turn; else a Victory card or Curse;
    /// else its cheapest card.
    fn put_back_order(&self, obs: &Observation, options: &[CardId]) -> Vec<CardId> {
        let coins = coins_this_turn(obs);
        let buys = self.would_buy(obs, coins);
        sorted_by(options, |c| {
            let cost = i32::from(c.base_cost());
            if c.is_action() && obs.actions() == 0 {
                (0, -cost)
            } else if c.is_treasure()
                && self.would_buy(obs, coins.saturating_sub(coin_value(c))) == buys
            {
                (1, -(coin_value(c) as i32))
            } else if c.is(Types::VICTORY.union(Types::CURSE)) {
                (2, cost)
            } else {
                (3, cost)
            }
        })
    }

    /// Whether its play rule wants to play `c` now (bots.md): Baron only with an Estate
    /// in hand or while 2 or fewer Provinces are left; every other Action card always.
    fn plays(&self, obs: &Observation, c: CardId) -> bool {
        match c {
            CardId::Baron => {
                obs.hand().contains(&CardId::Estate) || obs.supply_count(CardId::Province) <= 2
            }
            _ => true,
        }
    }

    /// Modes chosen for `req` (bots.md), else the first `min` offered (Steward: +2
    /// Cards; Pawn: +1 Card +1 Action).
    ///
    /// - Nobles: +2 Actions only when it holds another Nobles or has no cards left to
    ///   draw (deck and discard pile empty); else +3 Cards.
    /// - Minion: see [`PriorityBot::minion_mode`].
    /// - Torturer, as the victim: discard when it holds 2 or more Victory cards, Curses
    ///   or Coppers, or at most 1 card; else the Curse when it holds 3 or fewer cards;
    ///   else discard.
    fn modes(&self, obs: &Observation, req: &Request, options: &[Mode], min: usize) -> Vec<Mode> {
        let hand = obs.hand();
        let mode = match req.card {
            Some(CardId::Nobles) => {
                let me = obs.me();
                if hand.contains(&CardId::Nobles) || obs.deck_count(me) + obs.discard_count(me) == 0
                {
                    Mode::PlusTwoActions
                } else {
                    Mode::PlusThreeCards
                }
            }
            Some(CardId::Minion) => self.minion_mode(obs),
            Some(CardId::Torturer) => {
                let junk = hand
                    .iter()
                    .filter(|c| c.is(Types::VICTORY.union(Types::CURSE)) || **c == CardId::Copper)
                    .count();
                if junk >= 2 || hand.len() <= 1 || hand.len() > 3 {
                    Mode::DiscardTwo
                } else {
                    Mode::GainCurse
                }
            }
            _ => return options[..min].to_vec(),
        };
        debug_assert!(options.contains(&mode), "{mode:?} not in {options:?}");
        vec![mode]
    }

    /// Minion's mode, bots.md's rule for the `minion` bot, in this order:
    ///
    /// 1. It holds another Minion → +$2.
    /// 2. Let C = the coins already in play this turn (from Actions played; Treasures
    ///    are not yet played), H = the coin value of the Treasures in its hand and D =
    ///    the card its list would buy with C + H + 2 ([`PriorityBot::would_buy`]: the
    ///    first rule affordable, in the Supply, whose condition holds, with the
    ///    end-of-game rule; none if nothing qualifies). At the first entry of its list
    ///    whose condition holds (cost ignored; nothing else checked), if that card is
    ///    not D → the attack; if it is D → on to 3.
    /// 3. If D is also what its list would buy with C alone → the attack; else +$2.
    /// 4. Exception to 2–3: exactly 2 Minions in play (this one counted), C ≥ 2 and D
    ///    is Minion → the attack.
    /// 5. Whenever the attack was chosen but its draw pile has fewer than 4 cards and
    ///    its discard pile holds more than 3 Coppers, Curses and Victory cards together
    ///    → +$2 instead.
    ///
    /// Early on this is +$2 when C + H + 2 reaches a Minion's $5, the attack otherwise.
    fn minion_mode(&self, obs: &Observation) -> Mode {
        use CardId::{Copper, Minion};
        let hand = obs.hand();
        if hand.contains(&Minion) {
            return Mode::PlusTwoCoins;
        }
        let c = obs.coins();
        let h: u32 = hand.iter().map(|x| coin_value(*x)).sum();
        let d = self.would_buy(obs, c + h + 2);
        let me = obs.me();
        let minions_in_play = obs.in_play(me).iter().filter(|x| **x == Minion).count();
        let attack = if minions_in_play == 2 && c >= 2 && d == Some(Minion) {
            true
        } else {
            let first = self.rules.iter().find(|r| (r.when)(obs)).map(|r| r.card);
            first != d || self.would_buy(obs, c) == d
        };
        let junk = |x: CardId| x == Copper || x.is(Types::VICTORY.union(Types::CURSE));
        if attack && !(obs.deck_count(me) < 4 && obs.count_in_discard(junk) > 3) {
            Mode::DiscardAndDraw
        } else {
            Mode::PlusTwoCoins
        }
    }

    /// Masquerade's passing order (bots.md), for every player: Curse; Duchy and Estate
    /// while its list does not want them now; Copper; Silver; Masquerade; Gold; Estate;
    /// Duchy; Province. A card bots.md does not list comes last, the cheapest first.
    fn pass_rank(&self, obs: &Observation, c: CardId) -> (u8, u8) {
        use CardId::*;
        let unwanted = |v| !self.wants(obs, v);
        let listed = match c {
            Curse => 0,
            Duchy if unwanted(Duchy) => 1,
            Estate if unwanted(Estate) => 2,
            Copper => 3,
            Silver => 4,
            Masquerade => 5,
            Gold => 6,
            Estate => 7,
            Duchy => 8,
            Province => 9,
            c => return (10, c.base_cost()),
        };
        (listed, 0)
    }

    /// Masquerade's trash (bots.md): the first of Curse, an Estate or Duchy its list
    /// does not want now, Copper, but only if losing it does not change what it would
    /// buy with this turn's coins; otherwise nothing.
    fn masquerade_trash(&self, obs: &Observation, options: &[CardId]) -> Vec<CardId> {
        use CardId::*;
        let rank = |c: CardId| match c {
            Curse => Some(0),
            Estate | Duchy if !self.wants(obs, c) => Some(if c == Estate { 1 } else { 2 }),
            Copper => Some(3),
            _ => None,
        };
        let coins = coins_this_turn(obs);
        options
            .iter()
            .copied()
            .filter_map(|c| rank(c).map(|r| (r, c)))
            .min()
            .map(|(_, c)| c)
            .filter(|c| self.would_buy(obs, coins - coin_value(*c)) == self.would_buy(obs, coins))
            .into_iter()
            .collect()
    }

    /// Answers a [`Prompt::ChooseCards`]. "Own" choices are about the bot's own cards on
    /// its own turn; a "victim" is asked on another player's turn.
    ///
    /// - React: reveals every Reaction offered (Moat).
    /// - PlayTwice (Throne Room): the card it would play first (+Actions, then cost).
    /// - SetAside (Library): the drawn Action card while it has no Actions left (bots.md).
    /// - Play (Vassal): plays the discarded Action.
    /// - Gain from the trash (Thief): every card but Copper and Curse.
    /// - Trash about a victim (Thief): the victim's most expensive Treasure.
    /// - Trash as a victim (Bandit): its cheapest Treasure offered.
    /// - Trash for Moneylender: the Copper (bots.md: always).
    /// - Trash for Masquerade: see `masquerade_trash`.
    /// - Pass (Masquerade): the first card of `pass_rank`'s order.
    /// - Discard for Baron: the Estate (bots.md: always).
    /// - Other own trashes: the own order, then voluntarily see `trash_voluntarily`.
    /// - Discard for Spy: a victim's card when it is a good draw, its own when it is not.
    /// - Discard or put back as a victim (Militia, Bureaucrat): the victim order.
    /// - Put back from the discard pile (Harbinger): its most expensive Treasure or
    ///   Action other than Copper, Treasures first on a tie; nothing if none.
    /// - Put back from hand (Artisan): see `put_back_order`.
    /// - Other own discards (Cellar, Poacher, Sentry): the own order, then every other
    ///   Victory-only card or Curse.
    fn choose_cards(&self, obs: &Observation, req: &Request) -> Vec<CardId> {
        let Prompt::ChooseCards {
            zone,
            options,
            min,
            max,
        } = &req.prompt
        else {
            unreachable!("called for ChooseCards only");
        };
        let (zone, min, max) = (*zone, *min as usize, *max as usize);
        let victim = req.player != obs.current();
        let all = |_: &[CardId], _| true;
        let no_more = |_: &[CardId], _| false;
        match req.purpose {
            Purpose::React | Purpose::Play => take(options, min, max, all),
            Purpose::PlayTwice => {
                let ranked = sorted_by(options, |c| Reverse((gives_actions(c), c.base_cost())));
                take(&ranked, min, max, all)
            }
            Purpose::SetAside => take(options, min, max, |_, _| obs.actions() == 0),
            Purpose::Gain => {
                let ranked = sorted_by(options, |c| Reverse(c.base_cost()));
                take(&ranked, min, max, |_, c| {
                    c != CardId::Copper && c != CardId::Curse
                })
            }
            Purpose::Trash if req.about.is_some() => {
                let ranked = sorted_by(options, |c| Reverse(c.base_cost()));
                take(&ranked, min, max, no_more)
            }
            Purpose::Trash if victim => {
                take(&sorted_by(options, CardId::base_cost), min, max, no_more)
            }
            Purpose::Trash if req.card == Some(CardId::Moneylender) => take(options, min, max, all),
            Purpose::Trash if req.card == Some(CardId::Masquerade) => {
                self.masquerade_trash(obs, options)
            }
            Purpose::Pass => {
                let ranked = sorted_by(options, |c| self.pass_rank(obs, c));
                take(&ranked, min, max, no_more)
            }
            Purpose::Discard if req.card == Some(CardId::Baron) => take(options, min, max, all),
            Purpose::Trash => {
                let ranked = sorted_by(options, |c| self.own_rank(obs, c, true));
                take(&ranked, min, max, |chosen, c| {
                    self.trash_voluntarily(obs, chosen, c)
                })
            }
            Purpose::Discard if req.card == Some(CardId::Spy) => {
                let theirs = req.about.is_some();
                take(options, min, max, |_, c| good_draw(c) == theirs)
            }
            Purpose::Discard | Purpose::TopDeck if victim => {
                take(&sorted_by(options, victim_rank), min, max, no_more)
            }
            Purpose::TopDeck if zone == Zone::Discard => {
                let ranked = sorted_by(options, |c| Reverse((c.base_cost(), c.is_treasure())));
                take(&ranked, min, max, |_, c| good_draw(c))
            }
            Purpose::TopDeck => take(&self.put_back_order(obs, options), min, max, no_more),
            _ => {
                let ranked = sorted_by(options, |c| self.own_rank(obs, c, false));
                take(&ranked, min, max, |_, c| is_dead(c))
            }
        }
    }
}

impl Agent for PriorityBot {
    fn name(&self) -> &str {
        self.name
    }

    /// Its answers are a function of the observation and the request alone.
    fn unmoved_by_forced_phase_moves(&self) -> bool {
        true
    }

    /// `decide` answers any Buy phase offering Treasures with `PlayAllTreasures`.
    fn plays_all_treasures_when_offered(&self) -> bool {
        true
    }

    /// `decide`'s Buy without Treasures takes the first rule among the piles offered,
    /// which are those `would_buy` tests: cards left, cost now within the coins.
    fn buy_from_observation(&mut self, obs: &Observation) -> Option<Reply> {
        Some(
            self.would_buy(obs, obs.coins())
                .map_or(Reply::EndPhase, Reply::Buy),
        )
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        match &req.prompt {
            Prompt::ActionPhase { playable } => playable
                .iter()
                .copied()
                .filter(|c| self.plays(obs, *c))
                .max_by_key(|c| (gives_actions(*c), c.base_cost()))
                .map_or_else(|| self.buy_from_action_phase(obs), Reply::Play),
            Prompt::BuyPhase { treasures, buyable } => {
                if treasures.is_empty() {
                    match self.first_rule(obs, |c| buyable.contains(&c)) {
                        Some(c) => Reply::Buy(c),
                        None => Reply::EndPhase,
                    }
                } else {
                    Reply::PlayAllTreasures
                }
            }
            Prompt::ChooseCards { .. } => Reply::Cards(self.choose_cards(obs, req)),
            // Saboteur's victim (bots.md): the first card of its own list among those
            // offered, else nothing.
            Prompt::ChoosePile {
                options,
                optional: true,
            } if req.card == Some(CardId::Saboteur) => {
                Reply::Pile(self.first_rule(obs, |c| options.contains(&c)))
            }
            // Choosing what a victim gains (Swindler): a Curse, else a Victory card
            // that only clogs their deck, else the first offered.
            Prompt::ChoosePile { options, .. } if req.about.is_some() => Reply::Pile(
                sorted_by(options, |c| (c != CardId::Curse, !is_dead(c)))
                    .first()
                    .copied(),
            ),
            Prompt::ChoosePile { options, optional } => {
                Reply::Pile(self.gain(obs, options, *optional))
            }
            Prompt::ChooseModes { options, min, .. } => {
                Reply::Modes(self.modes(obs, req, options, *min as usize))
            }
            // Best on top (Sentry): the most expensive Treasure or Action first, Victory
            // cards and Curses last.
            Prompt::OrderCards { cards } => Reply::Cards(sorted_by(cards, |c| {
                Reverse((!is_dead(c), c.base_cost(), c.is_treasure()))
            })),
            // Chancellor (Purpose::DiscardDeck): always yes (bots.md).
            Prompt::YesNo => Reply::YesNo(true),
            Prompt::NameCard { options } => Reply::Name(options[0]),
            Prompt::ChooseNumber { min, .. } => Reply::Number(*min),
        }
    }
}
