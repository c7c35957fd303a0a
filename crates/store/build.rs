//! Whether PostgreSQL is installed for the tests (tests/store.rs): sets `have_postgres`, so
//! the PostgreSQL half is reported as ignored, with how to install it, instead of
//! failing. See crates/testkit/services.

use dominion_testkit_services::{Service, detect};

fn main() {
    detect(&[Service::Postgres]);
}
