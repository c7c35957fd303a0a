//! The published wire protocol of the Dominion server.
//!
//! Every frame in either direction is one JSON text message whose `type` field names one
//! variant of [`ClientMessage`] (client → server) or [`ServerMessage`] (server → client).
//! Names are snake_case; cards are their stable snake_case ids (`"throne_room"`).
//!
//! This crate is the contract third-party clients are written against, so it depends on
//! nothing of the engine: the server converts engine types into these (in one module)
//! and back. The JSON Schema in `schema/protocol.schema.json` is generated from
//! these types ([`json_schema`]; `cargo run -p dominion-protocol --bin gen-schema`
//! rewrites it) and a test fails when the committed file drifts. Another test holds
//! docs/protocol.md to the types: every example must be a real message, and every
//! message, prompt, error code and event must be described there.
//!
//! Versioning: [`PROTOCOL_VERSION`] is stated by the client in [`ClientMessage::Hello`].
//! Within one version the server may *add* optional fields and new server message types
//! (clients ignore what they do not know); anything else — removing or renaming a field,
//! a message or a value, or changing what a client must send — is a new version.

mod accounts;
mod analysis;
mod api;
mod client;
mod common;
mod error;
mod ratings;
mod server;
mod social;

pub use accounts::{
    AccountInfo, ApiError, BotRecord, Credentials, Me, NewToken, Profile, ProfileGame,
    ProfileResult, SessionInfo, TokenInfo,
};
pub use analysis::{
    AnalysedCandidate, AnalysedDecision, AnalysisPlayer, AnalysisProgress, DecisionMark,
    GAME_ANALYSIS_FORMAT, GameAnalysis, WinPoint,
};
pub use api::{
    CardInfo, GAME_RECORD_FORMAT, GameOutcome, GameRecord, GameSummary, KingdomInfo, RecordSeat,
    ReplayStep, SeatHand,
};
pub use client::{
    AbandonPolicy, ClientMessage, KingdomChoice, Removable, Reply, RoomSettings, SeatSetting,
};
pub use common::{
    CardKey, CardPool, CardSet, Destination, Edition, MatchCancelReason, MatchPool, Mode, Phase,
    Purpose, Zone,
};
pub use error::{CloseCode, ErrorCode};
pub use ratings::{Leaderboard, LeaderboardRow, PoolRating, RatingChange, RatingPoint, RatingPool};
pub use server::{
    AccountKind, ChatLine, ChatSender, DecisionRequest, GameEvent, GameResult, GameSetup, GameView,
    Limits, MatchOpponent, NumberedReply, Occupant, PileView, Prompt, RoomStatus, RoomSummary,
    ScoreLine, SeatDeck, SeatInfo, SeatView, ServerMessage, UndoOutcome,
};
pub use social::{CardPrefs, Friend, FriendTable};

/// The protocol version this crate describes.
pub const PROTOCOL_VERSION: u32 = 1;

/// Versions a server built from this crate accepts in `hello`.
pub const SUPPORTED_VERSIONS: &[u32] = &[1];

/// The JSON Schema of every message, as committed in `schema/protocol.schema.json`.
///
/// The root accepts any client or server message; `$defs/ClientMessage` and
/// `$defs/ServerMessage` describe each direction.
pub fn json_schema() -> serde_json::Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let client = generator.subschema_for::<ClientMessage>();
    let server = generator.subschema_for::<ServerMessage>();
    // The HTTP bodies a client reads too, so that the schema covers all it receives.
    generator.subschema_for::<Vec<CardInfo>>();
    generator.subschema_for::<Vec<KingdomInfo>>();
    generator.subschema_for::<Vec<GameSummary>>();
    generator.subschema_for::<GameRecord>();
    generator.subschema_for::<ReplayStep>();
    // The account endpoints' bodies (docs/protocol.md, "Accounts").
    generator.subschema_for::<Credentials>();
    generator.subschema_for::<Me>();
    generator.subschema_for::<Profile>();
    generator.subschema_for::<Vec<SessionInfo>>();
    generator.subschema_for::<Vec<TokenInfo>>();
    generator.subschema_for::<NewToken>();
    generator.subschema_for::<ApiError>();
    // Card preferences and friends (docs/protocol.md, "Card preferences and friends").
    generator.subschema_for::<CardPrefs>();
    generator.subschema_for::<Vec<Friend>>();
    // Ratings (issue 25).
    generator.subschema_for::<Leaderboard>();
    // Game review (issue 27: docs/protocol.md, "Game review").
    generator.subschema_for::<GameAnalysis>();
    generator.subschema_for::<AnalysisProgress>();
    let defs = generator.take_definitions(true);
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": format!("Dominion server protocol, version {PROTOCOL_VERSION}"),
        "description": "Every WebSocket text frame is one of these messages. See docs/protocol.md.",
        "oneOf": [client, server],
        "$defs": defs,
    })
}

/// [`json_schema`] as the exact text of the committed file (pretty, trailing newline).
pub fn json_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).expect("a schema is plain JSON");
    text.push('\n');
    text
}
