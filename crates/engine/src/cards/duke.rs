//! Duke: TODO (Victory: its worth is in `score::card_vp`).
