//! The analysis queue, fair across players: one queue per requester (an account, or a
//! client address for a guest), served round-robin, so one player asking for fifty
//! reviews delays another player's one review by at most one review per worker. Bounded
//! in all: a request beyond `cap` games waiting is refused. Pure logic, no clock.

use std::collections::VecDeque;

/// Who asked: a signed-in account, or a guest's client address.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Requester {
    Account(i64),
    Address(std::net::IpAddr),
    /// Unknown (a request without a peer address: tests), or the server itself (a review
    /// resumed at start-up).
    Server,
}

/// The queue.
#[derive(Debug)]
pub struct FairQueue {
    /// Requesters in serving order, each with its games in the order asked.
    lanes: VecDeque<(Requester, VecDeque<String>)>,
    len: usize,
    cap: usize,
}

/// The queue holds `cap` games already.
#[derive(Debug, PartialEq, Eq)]
pub struct Full;

impl FairQueue {
    pub fn new(cap: usize) -> FairQueue {
        FairQueue {
            lanes: VecDeque::new(),
            len: 0,
            cap,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many games will be taken before `game` (0: it is next), if it waits.
    pub fn position(&self, game: &str) -> Option<usize> {
        self.order().iter().position(|g| g == game)
    }

    /// Every waiting game in the order they will be taken.
    fn order(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.len);
        let depth = self.lanes.iter().map(|(_, q)| q.len()).max().unwrap_or(0);
        for round in 0..depth {
            for (_, q) in &self.lanes {
                if let Some(g) = q.get(round) {
                    out.push(g.clone());
                }
            }
        }
        out
    }

    /// Adds `game` for `who` (nothing changes when it waits already) and gives its
    /// position.
    pub fn push(&mut self, who: Requester, game: &str) -> Result<usize, Full> {
        if let Some(p) = self.position(game) {
            return Ok(p);
        }
        if self.len >= self.cap {
            return Err(Full);
        }
        match self.lanes.iter_mut().find(|(r, _)| *r == who) {
            Some((_, q)) => q.push_back(game.to_string()),
            None => self
                .lanes
                .push_back((who, VecDeque::from([game.to_string()]))),
        }
        self.len += 1;
        Ok(self.position(game).unwrap_or(0))
    }

    /// The next game: the first of the next requester's, who then goes to the back.
    pub fn pop(&mut self) -> Option<String> {
        let (who, mut q) = self.lanes.pop_front()?;
        let game = q.pop_front()?;
        if !q.is_empty() {
            self.lanes.push_back((who, q));
        }
        self.len -= 1;
        Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requesters_are_served_in_turn_and_the_queue_is_bounded() {
        let mut q = FairQueue::new(5);
        let (ann, bob) = (Requester::Account(1), Requester::Account(2));
        assert_eq!(q.push(ann.clone(), "a1"), Ok(0));
        assert_eq!(q.push(ann.clone(), "a2"), Ok(1));
        assert_eq!(q.push(ann.clone(), "a3"), Ok(2));
        // Bob's one game goes right after Ann's first, not after all of hers.
        assert_eq!(q.push(bob.clone(), "b1"), Ok(1));
        assert_eq!(q.position("a2"), Some(2));
        // Asking again for a waiting game keeps its place, and costs no room.
        assert_eq!(q.push(bob.clone(), "a3"), Ok(3));
        assert_eq!(q.push(Requester::Server, "s1"), Ok(2));
        assert_eq!(q.push(bob.clone(), "b2"), Err(Full));
        assert_eq!(q.len(), 5);
        let order: Vec<String> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, ["a1", "b1", "s1", "a2", "a3"]);
        assert!(q.is_empty());
        assert_eq!(q.position("a1"), None);
    }
}
