//! The queue's rules with exact times: pairing by suitability and order, tables of 3
//! and 4, blocks, accepts, declines and timeouts with the others requeued first.

use super::*;

fn entry(key: u64, level: f64, pool: MatchPool, since: Millis) -> Entry {
    Entry {
        key,
        account: key as i64,
        name: format!("p{key}"),
        level,
        pool,
        edition: Edition::Second,
        sets: None,
        blocks: Vec::new(),
        since,
    }
}

fn two(key: u64, level: f64, since: Millis) -> Entry {
    entry(key, level, MatchPool::TwoPlayers, since)
}

fn proposals(effects: &[Effect]) -> Vec<(u64, Vec<u64>)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Proposed { id, members } => {
                Some((*id, members.iter().map(|m| m.key).collect()))
            }
            _ => None,
        })
        .collect()
}

fn cancelled(effects: &[Effect]) -> Vec<(u64, MatchCancelReason)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Cancelled { key, reason } => Some((*key, *reason)),
            _ => None,
        })
        .collect()
}

fn keys(m: &Matcher) -> Vec<u64> {
    m.queued().iter().map(|e| e.key).collect()
}

#[test]
fn two_new_players_are_proposed_at_once_and_found_when_both_accept() {
    let mut m = Matcher::new(Settings::default());
    assert_eq!(m.enqueue(two(1, 19.78, 0)), vec![Effect::Queued { key: 1 }]);
    assert!(m.tick(0).is_empty(), "alone: no proposal");
    m.enqueue(two(2, 19.78, 100));
    let p = proposals(&m.tick(100));
    assert_eq!(p, vec![(1, vec![1, 2])]);
    assert!(m.queued().is_empty());
    assert_eq!(m.accept(1, 1), Ok(vec![]));
    assert_eq!(m.accept(3, 1), Err(UnknownMatch), "not a member");
    assert_eq!(m.accept(2, 7), Err(UnknownMatch), "no such match");
    match m.accept(2, 1).unwrap().as_slice() {
        [Effect::Found { id: 1, members }] => assert_eq!(members.len(), 2),
        other => panic!("{other:?}"),
    }
    assert!(!m.contains(1) && !m.contains(2));
}

#[test]
fn distant_levels_wait_until_the_waiting_suitability_carries_them() {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(two(1, 10.0, 0));
    m.enqueue(two(2, 30.0, 0)); // 20 apart: level suitability ½
    // Needs 1 − ½(1 − w) ≥ 0.8, w ≥ 0.6: atan(t/10) ≥ 0.3π, t ≥ 13.76 s.
    assert!(proposals(&m.tick(13_700)).is_empty());
    assert_eq!(proposals(&m.tick(13_800)), vec![(1, vec![1, 2])]);
}

#[test]
fn the_front_is_served_first_with_its_most_suitable_partner() {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(two(1, 20.0, 0));
    m.enqueue(two(2, 25.0, 0));
    m.enqueue(two(3, 21.0, 0));
    m.enqueue(two(4, 26.0, 0));
    // 1 takes 3 (closer than 2); 2 and 4 pair.
    assert_eq!(
        proposals(&m.tick(0)),
        vec![(1, vec![1, 3]), (2, vec![2, 4])]
    );
}

#[test]
fn blocked_accounts_are_never_paired_either_way() {
    let mut m = Matcher::new(Settings::default());
    let mut a = two(1, 20.0, 0);
    a.blocks = vec!["p2".into()];
    m.enqueue(a);
    m.enqueue(two(2, 20.0, 0));
    assert!(proposals(&m.tick(600_000)).is_empty(), "1 blocked 2");
    let mut c = two(3, 20.0, 0);
    c.blocks = vec!["p1".into()];
    m.enqueue(c);
    // 3 blocked 1: 1 has no partner; 2 and 3 pair.
    assert_eq!(proposals(&m.tick(600_000)), vec![(1, vec![2, 3])]);
    assert_eq!(keys(&m), vec![1]);
}

#[test]
fn pools_editions_and_sets_must_agree() {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(two(1, 20.0, 0));
    m.enqueue(entry(2, 20.0, MatchPool::Practice, 0));
    let mut first = two(3, 20.0, 0);
    first.edition = Edition::First;
    m.enqueue(first);
    let mut intrigue = two(4, 20.0, 0);
    intrigue.sets = Some(vec![CardSet::Intrigue]);
    m.enqueue(intrigue);
    let mut base = two(5, 20.0, 0);
    base.sets = Some(vec![CardSet::Base]);
    m.enqueue(base);
    // 1 (every set) pairs with 4 (intrigue); 5 (base) has nobody left; 2, 3 alone.
    assert_eq!(proposals(&m.tick(0)), vec![(1, vec![1, 4])]);
    assert_eq!(keys(&m), vec![2, 3, 5]);
    assert_eq!(
        shared_sets(
            &Some(vec![CardSet::Base, CardSet::Intrigue]),
            &Some(vec![CardSet::Intrigue])
        ),
        Some(vec![CardSet::Intrigue])
    );
}

#[test]
fn a_decline_puts_the_other_back_first_and_the_decliner_out() {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(two(1, 20.0, 0));
    m.enqueue(two(2, 20.0, 10));
    m.tick(10);
    m.enqueue(two(3, 80.0, 20)); // far from 1: not matched at once
    m.enqueue(two(4, 80.0, 30)); // but suits 3
    let effects = m.decline(2, 1).unwrap();
    assert_eq!(
        cancelled(&effects),
        vec![
            (2, MatchCancelReason::Declined),
            (1, MatchCancelReason::Requeued)
        ]
    );
    assert_eq!(keys(&m), vec![1, 3, 4], "1 ahead of the newer entries");
    assert_eq!(m.queued()[0].since, 0, "the waiting time is kept");
    assert!(!m.contains(2));
    assert_eq!(m.decline(2, 1), Err(UnknownMatch));
    // 3 and 4 pair; 1 waits for a third.
    assert_eq!(proposals(&m.tick(40)), vec![(2, vec![3, 4])]);
    m.enqueue(two(5, 21.0, 50));
    assert_eq!(proposals(&m.tick(50)), vec![(3, vec![1, 5])]);
}

#[test]
fn a_timeout_removes_the_silent_and_requeues_who_accepted() {
    let mut m = Matcher::new(Settings {
        accept_ms: 1_000,
        table_wait_ms: 10_000,
    });
    m.enqueue(two(1, 20.0, 0));
    m.enqueue(two(2, 20.0, 0));
    m.tick(0);
    m.accept(2, 1).unwrap();
    assert!(cancelled(&m.tick(999)).is_empty());
    let effects = m.tick(1_000);
    assert_eq!(
        cancelled(&effects),
        vec![
            (1, MatchCancelReason::Timeout),
            (2, MatchCancelReason::Requeued)
        ]
    );
    assert_eq!(keys(&m), vec![2]);
    assert_eq!(m.accept(1, 1), Err(UnknownMatch), "too late");
}

#[test]
fn nobody_accepting_puts_everyone_out() {
    let mut m = Matcher::new(Settings {
        accept_ms: 1_000,
        table_wait_ms: 10_000,
    });
    m.enqueue(two(1, 20.0, 0));
    m.enqueue(two(2, 20.0, 0));
    m.tick(0);
    let effects = m.tick(5_000);
    assert_eq!(
        cancelled(&effects),
        vec![
            (1, MatchCancelReason::Timeout),
            (2, MatchCancelReason::Timeout)
        ]
    );
    assert!(m.queued().is_empty() && !m.contains(1));
}

#[test]
fn cancel_leaves_the_queue_or_the_proposal() {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(two(1, 20.0, 0));
    assert_eq!(
        cancelled(&m.cancel(1)),
        vec![(1, MatchCancelReason::Cancelled)]
    );
    assert!(m.cancel(1).is_empty(), "twice: nothing");
    m.enqueue(two(2, 20.0, 0));
    m.enqueue(two(3, 20.0, 0));
    m.tick(0);
    assert_eq!(
        cancelled(&m.cancel(3)),
        vec![
            (3, MatchCancelReason::Cancelled),
            (2, MatchCancelReason::Requeued)
        ]
    );
    assert_eq!(keys(&m), vec![2]);
}

#[test]
fn a_second_find_match_replaces_the_entry_in_place() {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(two(1, 20.0, 0));
    m.enqueue(two(2, 90.0, 5));
    m.enqueue(entry(1, 20.0, MatchPool::Practice, 500));
    assert_eq!(keys(&m), vec![1, 2]);
    assert_eq!(m.queued()[0].pool, MatchPool::Practice);
    assert_eq!(m.queued()[0].since, 0);
}

#[test]
fn three_four_player_tables() {
    let mut m = Matcher::new(Settings::default());
    let t = MatchPool::ThreeFourPlayers;
    for k in 1..=3 {
        m.enqueue(entry(k, 20.0, t, 0));
    }
    assert!(
        proposals(&m.tick(9_999)).is_empty(),
        "three wait for a fourth"
    );
    m.enqueue(entry(4, 20.0, t, 9_999));
    m.enqueue(entry(5, 20.0, t, 9_999));
    assert_eq!(proposals(&m.tick(9_999)), vec![(1, vec![1, 2, 3, 4])]);
    assert_eq!(keys(&m), vec![5]);
    for k in 6..=7 {
        m.enqueue(entry(k, 20.0, t, 10_000));
    }
    assert!(proposals(&m.tick(19_998)).is_empty());
    // 5 has waited 10 s: a table of three.
    assert_eq!(proposals(&m.tick(19_999)), vec![(2, vec![5, 6, 7])]);
}

#[test]
fn a_table_needs_every_pair_suitable() {
    let mut m = Matcher::new(Settings::default());
    let t = MatchPool::ThreeFourPlayers;
    m.enqueue(entry(1, 20.0, t, 0));
    m.enqueue(entry(2, 25.0, t, 0));
    m.enqueue(entry(3, 15.0, t, 0)); // 10 from 2: not at once
    m.enqueue(entry(4, 20.0, t, 0));
    assert!(proposals(&m.tick(0)).is_empty());
    let mut blocker = entry(5, 20.0, t, 0);
    blocker.blocks = vec!["p4".into()];
    m.enqueue(blocker);
    // 1, 4 and 5 suit but 5 blocked 4; 1 has 4, 2 (or 3): 1, 4, 2 and then 3 does not
    // suit 2; 5 does not suit 4.
    assert!(proposals(&m.tick(0)).is_empty());
    // After 10 s the gaps are fine, 5 still never sits with 4: 1, 4, 2, 3.
    assert_eq!(proposals(&m.tick(10_000)), vec![(1, vec![1, 4, 2, 3])]);
}
