//! Which services the integration tests (tests/it) need are installed: sets `have_postgres`
//! and the like, so a test needing a missing one is reported as ignored, with how to
//! install it, instead of failing. See crates/testkit/services.

use dominion_testkit_services::{Service, detect};

fn main() {
    detect(&Service::ALL);
}
