//! The kit against the real servers: they start, answer, and are gone after a stop.

use dominion_testkit::{TempPostgres, TempRedis};
use std::net::TcpStream;

#[test]
#[cfg_attr(
    not(have_redis),
    ignore = "needs Redis — run scripts/setup-test-deps.sh"
)]
fn redis_starts_answers_and_is_gone_after_a_stop() {
    // What a test binary killed with SIGKILL leaves: the directory of a process that is
    // gone (no pid is this large). The next start removes it.
    let stale = std::env::temp_dir().join("dominion-redis-4294967294-left");
    std::fs::create_dir_all(&stale).unwrap();
    let redis = TempRedis::start().unwrap_or_else(|e| panic!("{e}"));
    assert!(!stale.exists(), "a dead process's directory is swept");
    assert_eq!(redis.url(), format!("redis://127.0.0.1:{}", redis.port()));
    let mut s = TcpStream::connect(("127.0.0.1", redis.port())).unwrap();
    use std::io::{Read, Write};
    s.write_all(b"SET k v\r\nGET k\r\n").unwrap();
    let mut answer = Vec::new();
    while !answer.ends_with(b"v\r\n") {
        let mut buf = [0u8; 64];
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "redis closed the connection: {answer:?}");
        answer.extend_from_slice(&buf[..n]);
    }
    assert_eq!(answer, b"+OK\r\n$1\r\nv\r\n");
    let port = redis.port();
    drop(redis);
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens on {port} once the Redis is dropped"
    );
}

#[test]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
fn each_fresh_database_is_empty_and_its_own() {
    let pg = TempPostgres::shared();
    let (a, b) = (pg.fresh_database(), pg.fresh_database());
    assert_ne!(a, b);
    pg.execute(&a, "CREATE TABLE t (x INT); INSERT INTO t VALUES (1);");
    // The same table in the other database: it does not exist there yet.
    pg.execute(&b, "CREATE TABLE t (x INT);");
    let count = |url: &str| {
        std::thread::scope(|s| {
            s.spawn(|| {
                let mut c = postgres::Client::connect(url, postgres::NoTls).unwrap();
                c.query_one("SELECT COUNT(*) FROM t", &[])
                    .unwrap()
                    .get::<_, i64>(0)
            })
            .join()
            .unwrap()
        })
    };
    assert_eq!((count(&a), count(&b)), (1, 0));
}

#[test]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
fn a_stopped_postgres_leaves_no_process_and_no_directory() {
    let pg = TempPostgres::start().unwrap_or_else(|e| panic!("{e}"));
    let port = pg.port();
    let url = pg.fresh_database();
    assert!(url.starts_with("postgres://postgres@127.0.0.1:"), "{url}");
    let root = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("dominion-pg-"))
        .count();
    drop(pg);
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens on {port} once the PostgreSQL is dropped"
    );
    let after = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("dominion-pg-"))
        .count();
    assert!(
        after < root,
        "its directory is removed ({root} before, {after} after)"
    );
}
