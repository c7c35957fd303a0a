//! The queue and its proposals, on one node, in memory.
//!
//! Entries stay in order: new ones at the back, players whose proposal fell through
//! (another player declined or did not answer) back at the *front*, keeping the time
//! they first queued. [`Matcher::tick`] serves the queue front first: each entry is
//! matched with the most suitable compatible entries behind it (`pairing`; ties go to
//! whoever is nearer the front). Compatible means the same pool and edition, sets in
//! common, and no block either way. Pools `2p`, `practice` and `bots` make pairs; `3-4p`
//! makes a table of four when four suit each other, or of three once the longest waiter
//! of three has waited `table_wait_ms`.
//!
//! A proposal needs every member's accept within `accept_ms`. A decline takes the
//! decliner out (and out of the queue); a timeout takes out everyone who had not
//! accepted; the others are requeued at the front. Time is the caller's (milliseconds
//! from any fixed origin), so tests are exact.
//!
//! A `bots` entry left without a bot account to play gets one of our own bots after a
//! wait (`house`: the bot ladder).

use super::pairing;
use dominion_protocol::{CardSet, Edition, MatchCancelReason, MatchPool};
pub use house::{House, HouseBot, HouseEffect};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Milliseconds since the caller's origin.
pub type Millis = u64;

/// One player waiting: `key` is their connection (unique while queued).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Entry {
    pub key: u64,
    pub account: i64,
    pub name: String,
    pub level: f64,
    pub pool: MatchPool,
    pub edition: Edition,
    /// The sets the kingdom may come from; None: every set.
    pub sets: Option<Vec<CardSet>>,
    /// The names this account blocked, lowercased.
    pub blocks: Vec<String>,
    /// When the player first asked (kept through a requeue).
    pub since: Millis,
}

impl Entry {
    fn blocks_name(&self, name: &str) -> bool {
        let name = name.to_lowercase();
        self.blocks.contains(&name)
    }

    /// Whether the two may play together at all.
    pub fn compatible(&self, other: &Entry) -> bool {
        self.pool == other.pool
            && self.edition == other.edition
            && self.account != other.account
            && !self.blocks_name(&other.name)
            && !other.blocks_name(&self.name)
            && shared_sets(&self.sets, &other.sets).is_none_or(|s| !s.is_empty())
    }
}

#[cfg(test)]
impl Entry {
    /// A `2p` first-edition player `p{key}` at level 20, queued at `since`: the entry of
    /// the queue's tests elsewhere (snapshot, the cluster's Redis queue).
    pub(crate) fn sample(key: u64, since: Millis) -> Entry {
        Entry {
            key,
            account: key as i64,
            name: format!("p{key}"),
            level: 20.0,
            pool: MatchPool::TwoPlayers,
            edition: Edition::First,
            sets: None,
            blocks: Vec::new(),
            since,
        }
    }
}

/// The sets both allow (None: every set).
pub fn shared_sets(a: &Option<Vec<CardSet>>, b: &Option<Vec<CardSet>>) -> Option<Vec<CardSet>> {
    match (a, b) {
        (None, None) => None,
        (Some(s), None) | (None, Some(s)) => Some(s.clone()),
        (Some(a), Some(b)) => Some(a.iter().filter(|s| b.contains(s)).copied().collect()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How long every member has to accept (20 s).
    pub accept_ms: Millis,
    /// How long the longest waiter of three suitable `3-4p` players waits for a fourth.
    pub table_wait_ms: Millis,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            accept_ms: 20_000,
            table_wait_ms: 10_000,
        }
    }
}

/// What the caller must tell players (or do).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Queued (or queued again with other preferences): send `match_queued`.
    Queued { key: u64 },
    /// A proposal to everyone in `members` (in queue order).
    Proposed { id: u64, members: Vec<Entry> },
    /// Everyone accepted: make the room.
    Found { id: u64, members: Vec<Entry> },
    /// `key` is out of the queue (declined, timed out, cancelled) or back at its front
    /// (`Requeued`).
    Cancelled { key: u64, reason: MatchCancelReason },
    /// A game against one of our bots on the bot ladder (`house`).
    House(HouseEffect),
}

#[derive(Debug)]
struct Proposal {
    members: Vec<Entry>,
    accepted: BTreeSet<u64>,
    deadline: Millis,
    /// The house bot the (single) member would play (`house`).
    house: Option<HouseBot>,
}

/// The proposal named does not exist or does not include the player.
#[derive(Debug, PartialEq, Eq)]
pub struct UnknownMatch;

#[derive(Debug, Default)]
pub struct Matcher {
    settings: Settings,
    queue: Vec<Entry>,
    proposals: BTreeMap<u64, Proposal>,
    /// Which proposal a player is in.
    proposed: HashMap<u64, u64>,
    next_id: u64,
    /// The bot ladder's house bots (`house`), and each account's next one.
    house: House,
    house_turn: HashMap<i64, usize>,
}

impl Matcher {
    pub fn new(settings: Settings) -> Matcher {
        Matcher {
            settings,
            ..Matcher::default()
        }
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Queued entries, front first.
    pub fn queued(&self) -> &[Entry] {
        &self.queue
    }

    /// Whether `key` is queued or in a proposal.
    pub fn contains(&self, key: u64) -> bool {
        self.proposed.contains_key(&key) || self.queue.iter().any(|e| e.key == key)
    }

    /// Adds a player at the back. A player already queued is replaced in place (new
    /// preferences, same place and waiting time); one in a proposal keeps it (nothing
    /// changes).
    pub fn enqueue(&mut self, mut entry: Entry) -> Vec<Effect> {
        if self.proposed.contains_key(&entry.key) {
            return Vec::new();
        }
        let key = entry.key;
        if let Some(old) = self.queue.iter_mut().find(|e| e.key == key) {
            entry.since = old.since;
            *old = entry;
        } else {
            self.queue.push(entry);
        }
        vec![Effect::Queued { key }]
    }

    /// The player leaves: out of the queue, or out of their proposal (as a decline,
    /// the others requeued). Nothing if they were in neither.
    pub fn cancel(&mut self, key: u64) -> Vec<Effect> {
        if let Some(id) = self.proposed.get(&key).copied() {
            return self.fall_through(id, &[key], MatchCancelReason::Cancelled);
        }
        let before = self.queue.len();
        self.queue.retain(|e| e.key != key);
        if self.queue.len() < before {
            vec![Effect::Cancelled {
                key,
                reason: MatchCancelReason::Cancelled,
            }]
        } else {
            Vec::new()
        }
    }

    pub fn accept(&mut self, key: u64, id: u64) -> Result<Vec<Effect>, UnknownMatch> {
        if self.proposed.get(&key) != Some(&id) {
            return Err(UnknownMatch);
        }
        let proposal = self.proposals.get_mut(&id).ok_or(UnknownMatch)?;
        proposal.accepted.insert(key);
        if proposal.accepted.len() < proposal.members.len() {
            return Ok(Vec::new());
        }
        let proposal = self.proposals.remove(&id).ok_or(UnknownMatch)?;
        for m in &proposal.members {
            self.proposed.remove(&m.key);
        }
        if let (Some(house), Some(member)) = (proposal.house, proposal.members.first()) {
            return Ok(vec![Effect::House(HouseEffect::Found {
                id,
                member: member.clone(),
                house,
            })]);
        }
        Ok(vec![Effect::Found {
            id,
            members: proposal.members,
        }])
    }

    pub fn decline(&mut self, key: u64, id: u64) -> Result<Vec<Effect>, UnknownMatch> {
        if self.proposed.get(&key) != Some(&id) {
            return Err(UnknownMatch);
        }
        Ok(self.fall_through(id, &[key], MatchCancelReason::Declined))
    }

    /// Puts players back at the front (a room that could not be made after all).
    pub fn requeue_front(&mut self, members: Vec<Entry>) -> Vec<Effect> {
        let effects = members
            .iter()
            .map(|m| Effect::Cancelled {
                key: m.key,
                reason: MatchCancelReason::Requeued,
            })
            .collect();
        let rest = std::mem::take(&mut self.queue);
        self.queue = members.into_iter().chain(rest).collect();
        effects
    }

    /// Ends proposal `id` without a game: `out` leave with `reason`, the rest go back
    /// to the front of the queue, in their order.
    fn fall_through(&mut self, id: u64, out: &[u64], reason: MatchCancelReason) -> Vec<Effect> {
        let Some(proposal) = self.proposals.remove(&id) else {
            return Vec::new();
        };
        let mut effects = Vec::new();
        let mut back = Vec::new();
        for m in proposal.members {
            self.proposed.remove(&m.key);
            if out.contains(&m.key) {
                effects.push(Effect::Cancelled { key: m.key, reason });
            } else {
                back.push(m);
            }
        }
        effects.extend(self.requeue_front(back));
        effects
    }

    /// Ends proposals past their deadline, then makes the proposals the queue allows.
    pub fn tick(&mut self, now: Millis) -> Vec<Effect> {
        let mut effects = Vec::new();
        let expired: Vec<u64> = self
            .proposals
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(id, _)| *id)
            .collect();
        // Older proposals' players go back first, so handle the newest first.
        for id in expired.into_iter().rev() {
            let silent: Vec<u64> = self.proposals[&id]
                .members
                .iter()
                .filter(|m| !self.proposals[&id].accepted.contains(&m.key))
                .map(|m| m.key)
                .collect();
            effects.extend(self.fall_through(id, &silent, MatchCancelReason::Timeout));
        }
        effects.extend(self.pair(now));
        effects.extend(self.pair_house(now));
        effects
    }

    fn pair(&mut self, now: Millis) -> Vec<Effect> {
        let mut taken = vec![false; self.queue.len()];
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..self.queue.len() {
            if taken[i] {
                continue;
            }
            let group = self.group_for(i, &taken, now);
            if let Some(group) = group {
                for &g in &group {
                    taken[g] = true;
                }
                groups.push(group);
            }
        }
        if groups.is_empty() {
            return Vec::new();
        }
        let mut effects = Vec::new();
        let mut members_of: Vec<Vec<Entry>> = groups
            .iter()
            .map(|g| g.iter().map(|&i| self.queue[i].clone()).collect())
            .collect();
        let mut k = 0;
        self.queue.retain(|_| {
            k += 1;
            !taken[k - 1]
        });
        for members in members_of.drain(..) {
            self.next_id += 1;
            let id = self.next_id;
            for m in &members {
                self.proposed.insert(m.key, id);
            }
            self.proposals.insert(
                id,
                Proposal {
                    members: members.clone(),
                    accepted: BTreeSet::new(),
                    deadline: now.saturating_add(self.settings.accept_ms),
                    house: None,
                },
            );
            effects.push(Effect::Proposed { id, members });
        }
        effects
    }

    fn waited(&self, i: usize, now: Millis) -> Millis {
        now.saturating_sub(self.queue[i].since)
    }

    fn suits(&self, a: usize, b: usize, now: Millis) -> Option<f64> {
        let (ea, eb) = (&self.queue[a], &self.queue[b]);
        if !ea.compatible(eb) {
            return None;
        }
        let waited = self.waited(a, now).max(self.waited(b, now));
        let s = pairing::suitability(ea.level, eb.level, waited);
        (s >= pairing::THRESHOLD).then_some(s)
    }

    /// The group entry `i` heads, if it can have one now.
    fn group_for(&self, i: usize, taken: &[bool], now: Millis) -> Option<Vec<usize>> {
        let head = &self.queue[i];
        // Candidates behind `i`, most suitable first (a stable sort keeps queue order
        // among equals).
        let mut candidates: Vec<(usize, f64)> = Vec::new();
        for (j, other) in self.queue.iter().enumerate().skip(i + 1) {
            if taken[j] || other.pool != head.pool {
                continue;
            }
            if let Some(s) = self.suits(i, j, now) {
                // Equal levels (everyone new): the first is as good as any.
                if head.pool != MatchPool::ThreeFourPlayers && s >= 1.0 {
                    return Some(vec![i, j]);
                }
                candidates.push((j, s));
            }
        }
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        if head.pool != MatchPool::ThreeFourPlayers {
            return candidates.first().map(|&(j, _)| vec![i, j]);
        }
        let mut group = vec![i];
        for (j, _) in candidates {
            if group
                .iter()
                .all(|&g| g == i || self.suits(g, j, now).is_some())
            {
                group.push(j);
                if group.len() == 4 {
                    return Some(group);
                }
            }
        }
        let longest = group
            .iter()
            .map(|&g| self.waited(g, now))
            .max()
            .unwrap_or(0);
        (group.len() == 3 && longest >= self.settings.table_wait_ms).then_some(group)
    }
}

mod house;
pub mod snapshot;
#[cfg(test)]
mod tests;
