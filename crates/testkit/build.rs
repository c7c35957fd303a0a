//! Whether PostgreSQL and Redis are installed for the kit's own tests (tests/kit.rs): sets
//! `have_postgres` and `have_redis`, so a test needing a missing one is reported as
//! ignored, with how to install it, instead of failing. See services/.

use dominion_testkit_services::{Service, detect};

fn main() {
    detect(&[Service::Postgres, Service::Redis]);
}
