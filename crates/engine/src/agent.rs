//! The interface every automatic player implements: answer any request.

use crate::decision::{Reply, Request};
use crate::view::Observation;

/// Something that answers decision requests: a bot, or a test script.
///
/// An agent sees only an [`Observation`] — what its player may know — so a bot cannot
/// peek at deck order or other hands even by accident.
pub trait Agent {
    fn name(&self) -> &str;
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply;
}
