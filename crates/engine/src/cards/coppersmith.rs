//! Coppersmith: TODO.

use crate::ctx::{Ctx, Play, Res};

pub fn play(_cx: &mut Ctx, _play: &Play) -> Res {
    Ok(())
}
