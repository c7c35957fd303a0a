//! SecretChamber: TODO.

use crate::ctx::{Ctx, Play, Res};

pub fn play(_cx: &mut Ctx, _play: &Play) -> Res {
    Ok(())
}

/// Revealed against an Attack: TODO. Returns whether it makes `who` unaffected.
pub fn react(_cx: &mut Ctx, _who: crate::state::PlayerId) -> Res<bool> {
    Ok(false)
}
