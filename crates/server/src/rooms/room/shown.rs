//! How far each viewer of a room has been shown its game.
//!
//! What a viewer may see is the engine's to say (`Game::visible`): while a private
//! question is pending, everyone but the asked player sees the game as it was at the last
//! public decision. So viewers are not all at the same event: the asked player is ahead
//! of the others until the next public decision, when everyone catches up. The room keeps
//! one count per seat (a seat's connections come and go; it resumes from its own count)
//! and one for all spectators (they always see the same). A viewer is sent events only
//! up to `Game::visible(viewer)`, so while a private question is pending the others get
//! no frame at all; `snapshot`, `resume` and `history` stop at the last public decision
//! too.

use dominion_engine::{Game, PlayerId, Viewer};

pub struct Shown {
    seats: Vec<u64>,
    spectators: u64,
}

impl Shown {
    pub fn new(seats: usize) -> Shown {
        Shown {
            seats: vec![0; seats],
            spectators: 0,
        }
    }

    /// The events `viewer` has been sent.
    pub fn get(&self, viewer: Viewer) -> u64 {
        match viewer {
            Viewer::Player(p) => self.seats.get(p.idx()).copied().unwrap_or_default(),
            Viewer::Spectator => self.spectators,
        }
    }

    /// Everyone as far as `game` lets them see now: after a publish, a reopened game or
    /// an undo's snapshot.
    pub fn catch_up(&mut self, game: &Game) {
        for (i, n) in self.seats.iter_mut().enumerate() {
            *n = visible(game, Viewer::Player(PlayerId(i as u8)));
        }
        self.spectators = visible(game, Viewer::Spectator);
    }
}

/// How many of the game's events `viewer` may see now.
pub fn visible(game: &Game, viewer: Viewer) -> u64 {
    game.visible(viewer).events as u64
}
