//! Game reviews (schema 9) on both backends: a claim takes a game's analysis for one node
//! at a time under an expiring lease, decisions are stored only under the lease and
//! survive a new connection (a restart), another version starts again, and two nodes
//! claiming the same games at once never both get one.

use dominion_store::{Analyses, AnalysisStatus, Claim, Store};

#[macro_use]
mod both;
use both::Db;

on_both!(
    a_claim_resumes_from_the_stored_decisions,
    a_lease_is_one_nodes_until_it_runs_out,
    another_version_starts_again,
    a_finished_or_failed_analysis_is_not_claimed_again,
    two_nodes_claiming_at_once_never_both_hold_a_game,
);

const LEASE: i64 = 30_000;

fn open(db: &Db) -> (Store, Analyses) {
    let database = db.database();
    let store = Store::open_database(&database).expect("store");
    let analyses = Analyses::open(&database).expect("analyses");
    (store, analyses)
}

fn a_claim_resumes_from_the_stored_decisions(db: &Db) {
    let (_store, mut a) = open(db);
    assert_eq!(a.analysis("r1").unwrap(), None);
    assert_eq!(
        a.claim("r1", 1, "n1", 1_000, LEASE).unwrap(),
        Claim::Claimed(vec![])
    );
    assert!(
        a.save_decision("r1", 1, "n1", 12, "{\"a\":12}", 3, 1_100, LEASE)
            .unwrap()
    );
    assert!(
        a.save_decision("r1", 1, "n1", 4, "{\"a\":4}", 3, 1_200, LEASE)
            .unwrap()
    );
    // The same index again keeps the first.
    assert!(
        a.save_decision("r1", 1, "n1", 4, "{\"other\":4}", 3, 1_300, LEASE)
            .unwrap()
    );
    let row = a.analysis("r1").unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Running);
    assert_eq!((row.version, row.total, row.done), (1, Some(3), 2));
    assert_eq!(row.lease_node.as_deref(), Some("n1"));
    assert_eq!(row.lease_until, Some(1_300 + LEASE));
    assert_eq!(a.unfinished(1, 10).unwrap(), vec!["r1".to_string()]);
    assert!(a.unfinished(2, 10).unwrap().is_empty());
    // A restart: a new connection, the same node name, finds both decisions.
    drop(a);
    let (_store, mut a) = open(db);
    assert_eq!(
        a.claim("r1", 1, "n1", 2_000, LEASE).unwrap(),
        Claim::Claimed(vec![
            (4, "{\"a\":4}".to_string()),
            (12, "{\"a\":12}".to_string())
        ])
    );
    assert!(a.finish("r1", 1, "n1", Ok("{\"done\":1}"), 3_000).unwrap());
    let row = a.analysis("r1").unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Done);
    assert_eq!(row.result.as_deref(), Some("{\"done\":1}"));
    assert_eq!((row.lease_node, row.lease_until), (None, None));
    assert!(a.unfinished(1, 10).unwrap().is_empty());
}

fn a_lease_is_one_nodes_until_it_runs_out(db: &Db) {
    let (_store, mut a) = open(db);
    let mut b = Analyses::open(&db.database()).unwrap();
    assert_eq!(
        a.claim("r1", 1, "n1", 1_000, LEASE).unwrap(),
        Claim::Claimed(vec![])
    );
    assert!(
        a.save_decision("r1", 1, "n1", 0, "d0", 5, 1_000, LEASE)
            .unwrap()
    );
    // While n1's lease runs, n2 is told who holds it, and cannot write.
    assert_eq!(
        b.claim("r1", 1, "n2", 1_000 + LEASE - 1, LEASE).unwrap(),
        Claim::Held {
            node: "n1".into(),
            until: 1_000 + LEASE
        }
    );
    assert!(
        !b.save_decision("r1", 1, "n2", 1, "x", 5, 1_500, LEASE)
            .unwrap()
    );
    assert!(!b.finish("r1", 1, "n2", Ok("x"), 1_500).unwrap());
    // Once it ran out, n2 takes it over with what n1 stored…
    assert_eq!(
        b.claim("r1", 1, "n2", 1_000 + LEASE, LEASE).unwrap(),
        Claim::Claimed(vec![(0, "d0".into())])
    );
    // …and n1, paused past its lease, can no longer write into it.
    assert!(
        !a.save_decision("r1", 1, "n1", 1, "late", 5, 40_000, LEASE)
            .unwrap()
    );
    assert!(!a.renew("r1", 1, "n1", 40_000, LEASE).unwrap());
    assert!(!a.finish("r1", 1, "n1", Ok("late"), 40_000).unwrap());
    assert_eq!(a.decisions("r1", 1).unwrap(), vec![(0, "d0".to_string())]);
    assert!(b.renew("r1", 1, "n2", 40_000, LEASE).unwrap());
    // Released, it is free at once.
    b.release("r1", "n2").unwrap();
    assert_eq!(
        a.claim("r1", 1, "n1", 40_001, LEASE).unwrap(),
        Claim::Claimed(vec![(0, "d0".into())])
    );
}

fn another_version_starts_again(db: &Db) {
    let (_store, mut a) = open(db);
    a.claim("r1", 1, "n1", 1_000, LEASE).unwrap();
    assert!(
        a.save_decision("r1", 1, "n1", 3, "old", 2, 1_000, LEASE)
            .unwrap()
    );
    assert!(a.finish("r1", 1, "n1", Ok("old result"), 1_000).unwrap());
    assert_eq!(a.claim("r1", 1, "n1", 2_000, LEASE).unwrap(), Claim::Done);
    // A server of review version 2 recomputes it from nothing.
    assert_eq!(
        a.claim("r1", 2, "n1", 3_000, LEASE).unwrap(),
        Claim::Claimed(vec![])
    );
    let row = a.analysis("r1").unwrap().unwrap();
    assert_eq!(
        (row.version, row.status, row.done, row.result),
        (2, AnalysisStatus::Running, 0, None)
    );
    assert!(a.decisions("r1", 1).unwrap().is_empty());
}

fn a_finished_or_failed_analysis_is_not_claimed_again(db: &Db) {
    let (_store, mut a) = open(db);
    a.claim("r1", 1, "n1", 1_000, LEASE).unwrap();
    assert!(
        a.finish("r1", 1, "n1", Err("the record does not replay"), 1_000)
            .unwrap()
    );
    assert_eq!(
        a.claim("r1", 1, "n2", 99_000, LEASE).unwrap(),
        Claim::Failed
    );
    let row = a.analysis("r1").unwrap().unwrap();
    assert_eq!(row.status, AnalysisStatus::Failed);
    assert_eq!(row.error.as_deref(), Some("the record does not replay"));
    a.claim("r2", 1, "n1", 1_000, LEASE).unwrap();
    assert!(a.finish("r2", 1, "n1", Ok("{}"), 1_000).unwrap());
    assert_eq!(a.claim("r2", 1, "n2", 99_000, LEASE).unwrap(), Claim::Done);
}

/// Two nodes (two connections on two threads) claim the same 40 games at the same
/// moment: each game is claimed by exactly one of them.
fn two_nodes_claiming_at_once_never_both_hold_a_game(db: &Db) {
    let (_store, _a) = open(db);
    let rooms: Vec<String> = (0..40).map(|i| format!("room{i}")).collect();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let handles: Vec<_> = ["n1", "n2"]
        .into_iter()
        .map(|node| {
            let (database, rooms, barrier) = (db.database(), rooms.clone(), barrier.clone());
            std::thread::spawn(move || {
                let mut a = Analyses::open(&database).unwrap();
                barrier.wait();
                rooms
                    .iter()
                    .map(|r| {
                        matches!(
                            a.claim(r, 1, node, 1_000, LEASE).unwrap(),
                            Claim::Claimed(_)
                        )
                    })
                    .collect::<Vec<bool>>()
            })
        })
        .collect();
    let got: Vec<Vec<bool>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for (i, r) in rooms.iter().enumerate() {
        assert!(got[0][i] != got[1][i], "{r}: exactly one node holds it");
    }
}
