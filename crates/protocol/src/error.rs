//! Error codes (in `error` messages) and WebSocket close codes.
//!
//! Codes are stable identifiers a program can branch on; the `message` next to them is
//! for people and may change.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Why a command or frame was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, an unknown `type`, a missing or unknown field, or a binary frame.
    BadMessage,
    /// `hello` named a protocol version this server does not speak (then close 4000).
    UnsupportedVersion,
    /// The first message was not `hello`, or `hello` was sent twice.
    HandshakeRequired,
    /// `id` was not greater than the last command id from this connection or seat.
    DuplicateCommand,
    /// No such room (or it has closed).
    UnknownRoom,
    /// The server already holds as many rooms as it may.
    TooManyRooms,
    /// Room settings that cannot make a game (the message says which).
    InvalidSettings,
    /// A card id that names no card.
    UnknownCard,
    /// A bot name the server does not know.
    UnknownBot,
    /// A name that is empty, too long, or holds a hidden or reordering character, or
    /// more than 4 combining marks on one character.
    InvalidName,
    /// The seat does not exist, is not open, or no seat is open.
    SeatUnavailable,
    /// The room has as many spectators as it may.
    TooManySpectators,
    /// This connection is already in a room: `leave` first.
    AlreadyInRoom,
    /// The command needs a room and this connection is in none.
    NotInRoom,
    /// The command needs a seat and this connection only watches.
    NotSeated,
    /// The token does not belong to any seat of this room.
    BadToken,
    /// Not every seat is filled yet.
    SeatsNotFilled,
    /// The game has not started yet.
    GameNotStarted,
    /// The game has already started (or finished).
    GameAlreadyStarted,
    /// The game is over.
    GameOver,
    /// `rematch` before the game is over.
    GameNotOver,
    /// `decision` is not the pending decision's number (it was answered, or never was).
    StaleDecision,
    /// The pending decision belongs to another seat.
    NotYourDecision,
    /// The reply's type does not answer this prompt kind.
    WrongKind,
    /// A card or mode that is not among the options.
    NotAnOption,
    /// Fewer or more choices than `min`..`max`.
    WrongCount,
    /// A card chosen more times than it is offered.
    TooMany,
    /// A pile must be chosen (the prompt is not optional).
    PileRequired,
    /// `order_cards` needs exactly the offered cards, in some order.
    NotAPermutation,
    /// `undo` is not possible now (the message says why), or `undo_answer` with no
    /// request to answer.
    UndoRefused,
    /// `set_seat` or `remove` from anyone but the room's host, or `rematch` naming a room this
    /// connection did not create.
    NotHost,
    /// `take_seat` or `spectate` in a room whose host removed this client (its address
    /// or the name it asks for).
    RemovedByHost,
    /// Chat from a spectator in a room whose `spectator_chat` is off.
    ChatNotAllowed,
    /// More chat lines than the chat limits allow (5 per 10 s per seat or spectator, and
    /// the server's limit per client address); nothing is closed.
    ChatTooFast,
    /// A chat line that is empty, too long, or holds a control, invisible or
    /// direction-changing character, or more than 4 combining marks on one character.
    InvalidChat,
    /// Too many frames too fast (then close 1008).
    RateLimited,
    /// A frame above the size limit (then close 1009).
    MessageTooBig,
    /// The server failed; the room may be broken. Not the client's fault.
    Internal,
    /// `take_seat` by a guest under a registered player's name (or one that looks like
    /// it): sign in, or choose another name.
    NameTaken,
    /// Only a signed-in connection may do this (`report_chat`, `invite`, the automatch commands): sign in first.
    SignInRequired,
    /// `invite` names no registered player.
    UnknownPlayer,
    /// `invite` names an account you do not follow (follow it first:
    /// `PUT /api/me/follows/{name}`).
    NotFollowing,
    /// `invite` names an account with no signed-in connection on this server.
    PlayerOffline,
    /// More than 10 invitations within a minute from one account; nothing is closed.
    TooManyInvites,
    /// `find_match` in pool `bots` from an account that is not a bot, or in another
    /// pool from a bot account.
    BotAccountsOnly,
    /// `accept_match` or `decline_match` naming no proposal pending for this connection.
    UnknownMatch,
    /// `hint` is not possible now (the message says why): hints are given only in an
    /// unrated room where every other seat is a bot, for your own pending decision, one
    /// at a time, on a server whose bots may think.
    HintUnavailable,
}

/// WebSocket close codes the server uses, and what each means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u16)]
pub enum CloseCode {
    /// The client or server ended the connection normally.
    Normal = 1000,
    /// The server is restarting (shutdown by SIGTERM or Ctrl-C): every game is saved;
    /// reconnect after a moment and `resume` with your token.
    ServiceRestart = 1012,
    /// Policy violation: the message budget was exceeded.
    PolicyViolation = 1008,
    /// A frame was larger than the limit.
    MessageTooBig = 1009,
    /// A text frame that is not valid UTF-8 (RFC 6455: invalid frame payload data).
    InvalidPayload = 1007,
    /// `hello` named an unsupported protocol version.
    UnsupportedVersion = 4000,
    /// No `hello` in time, or another message before it.
    HandshakeRequired = 4001,
    /// Nothing received within the idle timeout (answer pings, or send `ping`).
    IdleTimeout = 4002,
    /// The client read too slowly and its outbound queue filled up.
    TooSlow = 4003,
    /// Another connection resumed this connection's seat.
    Replaced = 4004,
    /// The connection was signed in and no longer is: its session ended (signed out, the
    /// password changed), its API token was revoked, or its account was banned or
    /// deleted. The reason says which.
    SignedOut = 4005,
}

impl CloseCode {
    pub fn code(self) -> u16 {
        self as u16
    }
}
