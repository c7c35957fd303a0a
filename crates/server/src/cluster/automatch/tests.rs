//! The shared queue's exactly-once rule against a real Redis: two matchers over the
//! same committed state, making the same match at the same moment, commit it once.

use super::*;
use crate::matchmaking::queue::{Effect, Entry, Matcher, Settings};
use dominion_testkit::TempRedis;

fn entry(key: u64) -> Entry {
    Entry::sample(key, 0)
}

async fn queue(redis: &TempRedis) -> RedisQueue {
    let client = redis::Client::open(redis.url()).unwrap();
    let manager = ConnectionManager::new(client.clone()).await.unwrap();
    RedisQueue {
        redis: manager,
        client,
    }
}

fn commit_of(m: &Matcher, claims: Vec<u64>) -> Commit {
    Commit {
        state: serde_json::to_string(&m.snapshot()).unwrap(),
        keys: m.keys(),
        claims,
        consumed: 0,
    }
}

const LONG: Duration = Duration::from_secs(60);

/// Player 1 accepted match 1 of players 1 and 2, committed by `a` under `token`.
async fn proposed(a: &RedisQueue, token: u64) -> Matcher {
    let mut m = Matcher::new(Settings::default());
    m.enqueue(entry(1));
    m.enqueue(entry(2));
    m.enqueue(entry(3));
    let proposed = m.tick(0);
    assert!(matches!(proposed[0], Effect::Proposed { id: 1, .. }));
    m.accept(1, 1).unwrap();
    a.commit(token, commit_of(&m, Vec::new()))
        .await
        .unwrap()
        .unwrap();
    m
}

fn restored(text: Option<String>) -> Matcher {
    let mut m = Matcher::new(Settings::default());
    m.restore(serde_json::from_str(&text.expect("a committed state")).unwrap());
    m
}

fn found(m: &mut Matcher) -> Vec<u64> {
    let effects = m.accept(2, 1).unwrap();
    let [Effect::Found { members, .. }] = &effects[..] else {
        panic!("{effects:?}")
    };
    members.iter().map(|e| e.key).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_redis),
    ignore = "needs Redis — run scripts/setup-test-deps.sh"
)]
async fn two_matchers_making_the_same_match_at_the_same_moment_make_it_once() {
    let server = TempRedis::start().unwrap_or_else(|e| panic!("{e}"));
    for round in 0..20 {
        let a = queue(&server).await;
        let b = queue(&server).await;
        let _: () = redis::cmd("FLUSHALL")
            .query_async(&mut a.redis.clone())
            .await
            .unwrap();

        // A new leader while the old one still runs (its lease expired while it was
        // paused): both restored the same state, both see the last accept at once.
        let ta = a.lead(1, None, LONG).await.unwrap().expect("a leads");
        assert_eq!(b.lead(2, None, LONG).await.unwrap(), None, "one leader");
        let mut ma = proposed(&a, ta).await;
        let _: () = redis::cmd("DEL")
            .arg(key("leader"))
            .query_async(&mut a.redis.clone())
            .await
            .unwrap();
        let tb = b.lead(2, None, LONG).await.unwrap().expect("b leads");
        assert!(tb > ta, "a newer token");
        let mut mb = restored(b.load().await.unwrap());
        let (ca, cb) = (found(&mut ma), found(&mut mb));
        assert_eq!(ca, cb, "the same match");
        let (ra, rb) = tokio::join!(
            a.commit(ta, commit_of(&ma, ca)),
            b.commit(tb, commit_of(&mb, cb))
        );
        let (ra, rb) = (ra.unwrap(), rb.unwrap());
        assert_eq!(
            ra,
            Err(Refused::Fenced),
            "round {round}: the old leader is fenced"
        );
        assert_eq!(rb, Ok(()), "round {round}");

        // Two matchers under the same (newest) token — two steps of one leader racing
        // — claim the same members: one commits, the other finds them claimed.
        let _: () = redis::cmd("FLUSHALL")
            .query_async(&mut a.redis.clone())
            .await
            .unwrap();
        let t = a.lead(1, None, LONG).await.unwrap().expect("a leads");
        let mut m1 = proposed(&a, t).await;
        let mut m2 = restored(a.load().await.unwrap());
        let (c1, c2) = (found(&mut m1), found(&mut m2));
        let (r1, r2) = tokio::join!(
            a.commit(t, commit_of(&m1, c1)),
            b.commit(t, commit_of(&m2, c2))
        );
        let mut results = [r1.unwrap(), r2.unwrap()];
        results.sort_by_key(|r| r.is_err());
        assert_eq!(
            results,
            [Ok(()), Err(Refused::Claimed)],
            "round {round}: exactly one commit makes the match"
        );
        // What was committed: player 3 still queued, 1 and 2 no longer anywhere.
        let left = restored(a.load().await.unwrap());
        assert_eq!(left.keys(), [3]);
    }
}
