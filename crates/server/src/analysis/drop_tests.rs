//! The review service holds a PostgreSQL connection, whose client owns a runtime of its
//! own and panics when dropped on an async worker. The service's last reference may go
//! there — with the router, when a drained server stops (the chaos test saw a drained
//! node exit with code 101 once) — so the service closes it on a thread of its own.

use super::*;
use dominion_testkit::TempPostgres;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
async fn the_last_reference_dropped_on_an_async_worker_closes_the_connection_without_a_panic() {
    let database = Database::Postgres {
        url: TempPostgres::shared().fresh_database(),
    };
    let store = tokio::task::spawn_blocking(move || {
        // The schema first, as a server's store brings it up to date.
        dominion_store::Store::open_database(&database).expect("the store");
        Analyses::open(&database).expect("the analyses' connection")
    })
    .await
    .unwrap();
    // No worker threads: this reference is the only one, and it goes on the async worker.
    let service = Arc::new(Analysis {
        settings: Settings::of(&Config::default()),
        node: "local".into(),
        history: None,
        store: Some(Mutex::new(store)),
        shared: Mutex::new(Shared {
            queue: FairQueue::new(1),
            running: HashMap::new(),
        }),
        wake: Condvar::new(),
        metrics: Arc::new(Metrics::new()),
    });
    tokio::spawn(async move { drop(service) })
        .await
        .expect("dropping the review service on an async worker does not panic");
}
