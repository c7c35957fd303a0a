//! The bot ladder's house bots (issue 25): a `bots` entry that has waited
//! [`House::wait_ms`] without a compatible bot account to play is proposed a game against
//! one of our own bots instead — `easy`, `standard` or `search`, each rated under an
//! account of its own (`accounts::house`).
//!
//! **Which house bot.** Round-robin per account: the first house game of an account is
//! against the first house bot, the next against the second, and so on, skipping one
//! whose name the account blocks. Not by level suitability: the house bots never play
//! each other, so their ratings come only from these games, and a rotation keeps all
//! three meeting every ladder bot equally often — a third-party bot is measured against
//! the whole range, and `easy` does not fall out of contact with the strong bots (nor
//! `search` with the weak ones) as levels spread. The rotation lives in this node's
//! memory and starts afresh after a restart.
//!
//! The proposal is the entry's alone to accept (the house bot always accepts): accept,
//! decline and timeout work as for any proposal, and an accepted one comes out as
//! [`HouseEffect::Found`] instead of `Effect::Found`.

use super::{Effect, Entry, Matcher, Millis, Proposal};
use dominion_protocol::MatchPool;
use std::collections::BTreeSet;

/// One of our bots as a ladder opponent.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HouseBot {
    /// The server bot that plays the seat (`easy`, `standard`, `search`).
    pub bot: String,
    /// The account it is rated under, and its name (shown to the opponent).
    pub account: i64,
    pub name: String,
}

/// The house bots a node offers and how long a `bots` entry waits before it is offered
/// one. No bots (the default): the ladder pairs bot accounts with each other only.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct House {
    pub bots: Vec<HouseBot>,
    pub wait_ms: Millis,
}

/// What the caller does for a game against a house bot.
#[derive(Clone, Debug, PartialEq)]
pub enum HouseEffect {
    /// Propose `member` a game against `house` (`match_proposed` with it as the
    /// opponent).
    Proposed {
        id: u64,
        member: Entry,
        house: HouseBot,
    },
    /// `member` accepted: make the room, `house` seated as the server bot it names.
    Found {
        id: u64,
        member: Entry,
        house: HouseBot,
    },
}

impl Matcher {
    /// Sets the house bots and their wait (`--ladder-house-wait`).
    pub fn set_house(&mut self, house: House) {
        self.house = house;
    }

    /// The house bot `entry` plays next, if any it does not block.
    fn next_house_bot(&mut self, entry: &Entry) -> Option<HouseBot> {
        let n = self.house.bots.len();
        let turn = self.house_turn.entry(entry.account).or_insert(0);
        for k in 0..n {
            let bot = &self.house.bots[(*turn + k) % n];
            if !entry.blocks_name(&bot.name) && bot.account != entry.account {
                *turn = (*turn + k + 1) % n;
                return Some(bot.clone());
            }
        }
        None
    }

    /// Proposes a house bot to every `bots` entry that has waited long enough (run after
    /// the pairing of the same tick, so a bot account that can play another is never
    /// given a house bot instead).
    pub(super) fn pair_house(&mut self, now: Millis) -> Vec<Effect> {
        if self.house.bots.is_empty() {
            return Vec::new();
        }
        let mut effects = Vec::new();
        let mut i = 0;
        while i < self.queue.len() {
            let e = &self.queue[i];
            if e.pool != MatchPool::Bots || now.saturating_sub(e.since) < self.house.wait_ms {
                i += 1;
                continue;
            }
            let entry = e.clone();
            let Some(house) = self.next_house_bot(&entry) else {
                i += 1;
                continue;
            };
            self.queue.remove(i);
            self.next_id += 1;
            let id = self.next_id;
            self.proposed.insert(entry.key, id);
            self.proposals.insert(
                id,
                Proposal {
                    members: vec![entry.clone()],
                    accepted: BTreeSet::new(),
                    deadline: now.saturating_add(self.settings.accept_ms),
                    house: Some(house.clone()),
                },
            );
            effects.push(Effect::House(HouseEffect::Proposed {
                id,
                member: entry,
                house,
            }));
        }
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::super::{MatchCancelReason, Settings};
    use super::*;
    use dominion_protocol::Edition;

    fn bot_entry(key: u64, since: Millis) -> Entry {
        Entry {
            key,
            account: key as i64,
            name: format!("b{key}"),
            level: 19.78,
            pool: MatchPool::Bots,
            edition: Edition::Second,
            sets: None,
            blocks: Vec::new(),
            since,
        }
    }

    fn house() -> House {
        House {
            bots: ["easy", "standard", "search"]
                .iter()
                .enumerate()
                .map(|(i, b)| HouseBot {
                    bot: b.to_string(),
                    account: 100 + i as i64,
                    name: format!("house-{b}"),
                })
                .collect(),
            wait_ms: 3_000,
        }
    }

    fn house_proposals(effects: &[Effect]) -> Vec<(u64, u64, String)> {
        effects
            .iter()
            .filter_map(|e| match e {
                Effect::House(HouseEffect::Proposed { id, member, house }) => {
                    Some((*id, member.key, house.bot.clone()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn two_bot_accounts_play_each_other_and_a_lone_one_gets_a_house_bot_after_the_wait() {
        let mut m = Matcher::new(Settings::default());
        m.set_house(house());
        m.enqueue(bot_entry(1, 0));
        m.enqueue(bot_entry(2, 0));
        let effects = m.tick(5_000);
        assert!(house_proposals(&effects).is_empty(), "{effects:?}");
        assert!(matches!(&effects[..], [Effect::Proposed { members, .. }] if members.len() == 2));

        m.enqueue(bot_entry(3, 6_000));
        assert!(m.tick(8_999).is_empty(), "not yet waited 3 s");
        let p = house_proposals(&m.tick(9_000));
        assert_eq!(p, vec![(2, 3, "easy".to_string())]);
        assert!(m.queued().is_empty());
        assert_eq!(m.accept(3, 1), Err(super::super::UnknownMatch));
        let found = m.accept(3, 2).unwrap();
        let [Effect::House(HouseEffect::Found { id, member, house })] = &found[..] else {
            panic!("{found:?}")
        };
        assert_eq!((*id, member.key, house.name.as_str()), (2, 3, "house-easy"));
        assert!(!m.contains(3));
    }

    #[test]
    fn house_bots_come_round_robin_per_account_skipping_blocked_ones() {
        let mut m = Matcher::new(Settings::default());
        m.set_house(house());
        let mut seen = Vec::new();
        for round in 0..4u64 {
            let mut e = bot_entry(1, round * 10_000);
            e.key = 10 + round;
            m.enqueue(e);
            let p = house_proposals(&m.tick(round * 10_000 + 3_000));
            assert_eq!(p.len(), 1);
            seen.push(p[0].2.clone());
            m.accept(10 + round, p[0].0).unwrap();
        }
        assert_eq!(seen, ["easy", "standard", "search", "easy"]);
        // Another account starts its own rotation; a blocked house bot is skipped.
        let mut e = bot_entry(2, 50_000);
        e.blocks = vec!["house-easy".into()];
        m.enqueue(e);
        let p = house_proposals(&m.tick(53_000));
        assert_eq!(p[0].2, "standard");
    }

    #[test]
    fn a_declined_or_silent_house_proposal_takes_the_player_out_and_other_pools_never_get_one() {
        let mut m = Matcher::new(Settings::default());
        m.set_house(house());
        m.enqueue(bot_entry(1, 0));
        let mut human = bot_entry(2, 0);
        human.pool = MatchPool::TwoPlayers;
        m.enqueue(human);
        let p = house_proposals(&m.tick(3_000));
        assert_eq!(p.len(), 1, "only the bots entry");
        assert_eq!(
            m.decline(1, p[0].0).unwrap(),
            vec![Effect::Cancelled {
                key: 1,
                reason: MatchCancelReason::Declined
            }]
        );
        m.enqueue(bot_entry(3, 3_000));
        let p = house_proposals(&m.tick(6_000));
        let effects = m.tick(6_000 + m.settings().accept_ms);
        assert_eq!(
            effects,
            vec![Effect::Cancelled {
                key: 3,
                reason: MatchCancelReason::Timeout
            }],
            "{p:?}"
        );
        assert_eq!(m.queued().len(), 1, "the 2p player waits on");
    }

    #[test]
    fn without_house_bots_a_lone_bot_waits() {
        let mut m = Matcher::new(Settings::default());
        m.enqueue(bot_entry(1, 0));
        assert!(m.tick(600_000).is_empty());
    }
}
