//! What the store's test files share: a database of either backend, and `on_both!`,
//! which runs each named test once on SQLite and once on PostgreSQL (ignored, with the
//! reason, where no PostgreSQL runs).

use dominion_store::{Database, Durability};

pub enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

// Each test file uses what it needs of this module.
#[allow(dead_code)]
impl Db {
    /// The database, SQLite with `synchronous=FULL`.
    pub fn database(&self) -> Database {
        self.database_with(Durability::Full)
    }

    /// The database, SQLite with `durability`.
    pub fn database_with(&self, durability: Durability) -> Database {
        match self {
            Db::Sqlite(dir) => Database::Sqlite {
                dir: dir.path().to_path_buf(),
                durability,
            },
            Db::Postgres(url) => Database::Postgres { url: url.clone() },
        }
    }
}

/// `on_both!(a, b)`: tests `sqlite::a`, `postgres::a`, … calling `a(&Db)`.
macro_rules! on_both {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $( #[test] fn $test() { super::$test(&super::Db::Sqlite(tempfile::tempdir().unwrap())) } )*
        }
        mod postgres {
            $(
                #[test]
                #[cfg_attr(not(have_postgres), ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh")]
                fn $test() { super::$test(&super::Db::Postgres(dominion_testkit::TempPostgres::shared().fresh_database())) }
            )*
        }
    };
}
