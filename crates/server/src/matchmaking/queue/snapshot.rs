//! The queue as plain data, for a cluster: the matcher leader writes a [`Snapshot`]
//! to Redis after every change (`net::automatch::cluster`), and the node that leads
//! next rebuilds the same [`Matcher`] from it. Additive to `queue.rs`: the queue's rules
//! stay there; this only copies its state out and back in.
//!
//! A new leader does not trust proposals in flight — their players may have answered to
//! the old leader, who is gone — so [`Matcher::requeue_proposals`] ends every one of
//! them: everyone in one goes back to the front of the queue (in proposal order, each
//! keeping their waiting time), as when a room could not be made.

use super::{Effect, Entry, HouseBot, Matcher, Millis, Proposal};
use dominion_protocol::MatchCancelReason;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One proposal as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProposalData {
    pub id: u64,
    pub members: Vec<Entry>,
    pub accepted: Vec<u64>,
    pub deadline: Millis,
    /// The house bot of a bot-ladder proposal (`house`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house: Option<HouseBot>,
}

/// Everything a [`Matcher`] holds but its settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Queued entries, front first.
    pub queue: Vec<Entry>,
    pub proposals: Vec<ProposalData>,
    pub next_id: u64,
}

impl Matcher {
    /// The matcher's state, to be restored by [`Matcher::restore`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            queue: self.queue.clone(),
            proposals: self
                .proposals
                .iter()
                .map(|(id, p)| ProposalData {
                    id: *id,
                    members: p.members.clone(),
                    accepted: p.accepted.iter().copied().collect(),
                    deadline: p.deadline,
                    house: p.house.clone(),
                })
                .collect(),
            next_id: self.next_id,
        }
    }

    /// Makes this matcher's queue the one a snapshot was taken of. What is not queue
    /// state — the settings, the house bots this node offers — stays this matcher's.
    pub fn restore(&mut self, snapshot: Snapshot) {
        let m = self;
        m.proposals.clear();
        m.proposed.clear();
        m.queue = snapshot.queue;
        m.next_id = snapshot.next_id;
        for p in snapshot.proposals {
            for member in &p.members {
                m.proposed.insert(member.key, p.id);
            }
            m.next_id = m.next_id.max(p.id);
            m.proposals.insert(
                p.id,
                Proposal {
                    members: p.members,
                    accepted: p.accepted.into_iter().collect::<BTreeSet<u64>>(),
                    deadline: p.deadline,
                    house: p.house,
                },
            );
        }
    }

    /// Every key queued or in a proposal.
    pub fn keys(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self.queue.iter().map(|e| e.key).collect();
        keys.extend(self.proposed.keys().copied());
        keys
    }

    /// The entry of `key`, queued or proposed.
    pub fn entry(&self, key: u64) -> Option<&Entry> {
        if let Some(id) = self.proposed.get(&key) {
            return self
                .proposals
                .get(id)?
                .members
                .iter()
                .find(|m| m.key == key);
        }
        self.queue.iter().find(|e| e.key == key)
    }

    /// Ends every proposal: their players go back to the front of the queue, the oldest
    /// proposal's first (`Cancelled { Requeued }` for each).
    pub fn requeue_proposals(&mut self) -> Vec<Effect> {
        let proposals = std::mem::take(&mut self.proposals);
        self.proposed.clear();
        let back: Vec<Entry> = proposals.into_values().flat_map(|p| p.members).collect();
        let effects = self.requeue_front(back);
        debug_assert!(effects.iter().all(|e| matches!(
            e,
            Effect::Cancelled {
                reason: MatchCancelReason::Requeued,
                ..
            }
        )));
        effects
    }
}

#[cfg(test)]
mod tests {
    use super::super::Settings;
    use super::*;

    fn entry(key: u64, since: Millis) -> Entry {
        Entry::sample(key, since)
    }

    #[test]
    fn a_restored_matcher_goes_on_as_the_original() {
        let mut a = Matcher::new(Settings::default());
        for k in 1..=5 {
            a.enqueue(entry(k, k * 10));
        }
        a.tick(100);
        a.accept(1, 1).unwrap();
        let snap = a.snapshot();
        let text = serde_json::to_string(&snap).unwrap();
        let mut b = Matcher::new(Settings::default());
        b.restore(serde_json::from_str(&text).unwrap());
        assert_eq!(b.snapshot(), snap);
        // The same answers from both.
        assert_eq!(a.accept(2, 1), b.accept(2, 1));
        a.enqueue(entry(6, 200));
        b.enqueue(entry(6, 200));
        assert_eq!(a.tick(300), b.tick(300));
        assert_eq!(a.snapshot(), b.snapshot());
    }

    #[test]
    fn proposals_in_flight_fall_through_to_the_front() {
        let mut m = Matcher::new(Settings::default());
        for k in 1..=5 {
            m.enqueue(entry(k, k));
        }
        m.tick(10); // (1,2) and (3,4) proposed, 5 waits
        m.accept(1, 1).unwrap();
        let mut keys = m.keys();
        keys.sort();
        assert_eq!(keys, [1, 2, 3, 4, 5]);
        assert_eq!(m.entry(3).map(|e| e.since), Some(3));
        let effects = m.requeue_proposals();
        assert_eq!(effects.len(), 4);
        let order: Vec<u64> = m.queued().iter().map(|e| e.key).collect();
        assert_eq!(order, [1, 2, 3, 4, 5]);
        assert_eq!(m.accept(1, 1), Err(super::super::UnknownMatch));
        // Matched again, under new ids.
        let again = m.tick(20);
        assert!(
            again
                .iter()
                .any(|e| matches!(e, Effect::Proposed { id: 3, .. }))
        );
    }
}
