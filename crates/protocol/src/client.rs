//! Messages a client sends, and the room settings and replies they carry.
//!
//! Inbound messages refuse unknown fields: a typo such as `"decison"` is an error that
//! names the field rather than a silently ignored answer. Variants without fields are
//! written `Variant {}`, not `Variant`: serde ignores extra fields of a unit variant in an
//! internally tagged enum even under `deny_unknown_fields`, so `{"type": "end_phase",
//! "card": "gold"}` would have passed as a plain `end_phase`.

use crate::common::{CardKey, CardPool, CardSet, Edition, MatchPool, Mode};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A message from a client to the server.
///
/// Every message except `hello` carries `id`, a number the client chooses that must be
/// greater than the previous one it sent; the server's direct answer (a result, `ack`,
/// `pong` or `error`) echoes it as `re`. Commands from a seat are also numbered per seat
/// across reconnects: one whose `id` is not above the seat's last is refused as
/// `duplicate_command` and not applied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// The first message on every connection: the protocol version the client speaks.
    Hello {
        protocol: u32,
        /// Free text naming the client program, for the server's logs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client: Option<String>,
        /// An API token (`dmn_…`, made on the profile page or with `POST /api/me/tokens`):
        /// the connection is signed in as its account (`welcome.account`). A token that
        /// is unknown or revoked is refused with `bad_token` and the connection closed
        /// (4001). Without it, a browser's session cookie on the upgrade request signs
        /// the connection in; without either, the connection is a guest's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Asks for a `pong`; for clients that cannot see WebSocket pings.
    Ping {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Asks for the list of rooms (answered by `room_list`).
    ListRooms {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Creates a room (answered by `room_created`). The creator is not seated: it sends
    /// `take_seat` next.
    CreateRoom {
        #[schemars(range(min = 1))]
        id: u64,
        settings: RoomSettings,
    },
    /// Takes an open seat (answered by `seated`, which holds the seat token).
    TakeSeat {
        #[schemars(range(min = 1))]
        id: u64,
        room: String,
        /// Which seat (0-based); the first open one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// Display name, 1 to 32 characters. A signed-in connection sits down under its
        /// account's name and may omit it; a guest may not take a name that a registered
        /// account has (or one that looks like it): `name_taken`.
        #[serde(default)]
        name: String,
    },
    /// Takes back a seat after a reconnect (answered by `seated`, then `events` or a
    /// `snapshot`, then the pending `decision` if it is yours).
    Resume {
        #[schemars(range(min = 1))]
        id: u64,
        room: String,
        token: String,
        /// The number of the last game event this client received; absent for a snapshot.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_event: Option<u64>,
    },
    /// Watches a room as a spectator (answered by `spectating`).
    Spectate {
        #[schemars(range(min = 1))]
        id: u64,
        room: String,
        /// The name a spectator's chat lines carry (1 to 32 characters, the rule of
        /// player names); "Spectator" when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Leaves the room. Before the game a seat is freed; during it the seat counts as
    /// abandoned (the room's `abandoned` policy applies) and the token still resumes it.
    Leave {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Starts the game; any seated player may, once every seat is filled.
    Start {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Answers the decision numbered `decision` (from a `decision` message).
    Reply {
        #[schemars(range(min = 1))]
        id: u64,
        decision: u64,
        reply: Reply,
    },
    /// Takes back your own last move: allowed within your turn while your decision is
    /// pending and the move revealed nothing (no card drawn, revealed, looked at or
    /// shuffled since), and not a move the server made because your time ran out.
    /// Refused at once with `undo_refused` otherwise. With no other human connected it is
    /// done at once; else every other connected player is asked (`undo_requested`) and
    /// all must accept. `undo_result` tells everyone how it ended. The decision asked
    /// again has the time it had left, not a fresh `decision_seconds`.
    Undo {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Accepts or refuses the pending `undo_requested` of another player.
    UndoAnswer {
        #[schemars(range(min = 1))]
        id: u64,
        accept: bool,
    },
    /// Says something to the room (answered by `ack`; everyone in the room who may read
    /// the chat gets a `chat`). One line of 1 to 300 characters and at most 1,000 bytes,
    /// with no control, invisible or direction-changing characters, at most 4 combining
    /// marks on one character; at most 5 lines per 10 seconds per seat (whatever its
    /// connections) or spectator, and the server's limit per client address. Spectators
    /// may chat only where the room's `spectator_chat` allows it.
    Chat {
        #[schemars(range(min = 1))]
        id: u64,
        text: String,
    },
    /// The host changes an unseated seat before the game starts (answered by `ack`; the
    /// room then sends `room`): `{"type": "open"}` makes a bot's seat open, `{"type":
    /// "bot", "bot": NAME}` puts a bot in an open seat (or another bot in a bot's seat).
    /// A seat a human holds cannot be changed.
    SetSeat {
        #[schemars(range(min = 1))]
        id: u64,
        seat: u8,
        occupant: SeatSetting,
    },
    /// The host removes a player (by seat) or a spectator (by name: every spectator
    /// watching under that name) from a room whose game has not started. Answered by
    /// `ack`; each one removed gets `removed` and is in no room any more. The room then
    /// refuses `take_seat` and `spectate` (`removed_by_host`) from their client address
    /// and under their name, for as long as it is open.
    Remove {
        #[schemars(range(min = 1))]
        id: u64,
        who: Removable,
    },
    /// Asks for the game's events numbered `from` up to (not including) `to` — or the
    /// latest — as this connection may see them (answered by `history`, at most 500
    /// events per answer: ask again from where it stopped).
    History {
        #[schemars(range(min = 1))]
        id: u64,
        from: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<u64>,
    },
    /// Offers the other members of this finished room a rematch in `room`, a room still
    /// waiting for players (create it first, with `create_room`; you are not seated in
    /// it until you `leave` this room and `take_seat` there). Answered by `ack`; the
    /// others get `rematch`. Only a seated player may offer, once the game is over, and
    /// only a room this connection created (else `not_host`); a later offer replaces an
    /// earlier one.
    Rematch {
        #[schemars(range(min = 1))]
        id: u64,
        room: String,
    },
    /// Asks for the room's chat lines numbered `from` up to (not including) `to` — or the
    /// latest — (answered by `chat_history`). Lines are numbered in the order the room
    /// heard them; the room keeps its last 100 (`chat_log` says which it holds). An
    /// answer carries the latest lines of the range that fit in 8 KiB, and says where
    /// they start: to page back, ask again up to that line.
    ChatHistory {
        #[schemars(range(min = 1))]
        id: u64,
        from: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<u64>,
    },
    /// Reports line `line` of the chat of the room this connection is in, for the
    /// server's operators (answered by `ack`). Signed-in connections only. The room
    /// quotes the line itself (its text and writer are kept with the report, the room,
    /// and the reporter), so it must still keep it (its last 100). Sent on the game's
    /// connection, it reaches the node that runs the room in a cluster.
    ReportChat {
        #[schemars(range(min = 1))]
        id: u64,
        line: u64,
        /// Why, in up to 500 characters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// Invites the account registered as `name` to `room`, the room this connection sits
    /// in, before its game starts. Signed in only (`sign_in_required`), and only an
    /// account you follow (`not_following`); answered by `ack` once each of its
    /// signed-in connections on this server got `invited` (`player_offline` when it has
    /// none; `unknown_player` for no such account). At most 10 invitations a minute per
    /// account (`too_many_invites`).
    Invite {
        #[schemars(range(min = 1))]
        id: u64,
        room: String,
        name: String,
    },
    /// Asks to be matched with other players (docs/protocol.md, "Automatch"): answered
    /// by `match_queued` (again every ~5 s while queued), then `match_proposed`, then —
    /// once everyone accepted — `match_found`. Signed-in connections only
    /// (`sign_in_required`); pool `bots` only for bot accounts and bot accounts only
    /// there (`bot_accounts_only`). A second `find_match` while queued replaces the
    /// first (the waiting time carries over); one in a room is `already_in_room`.
    FindMatch {
        #[schemars(range(min = 1))]
        id: u64,
        pool: MatchPool,
        /// The edition of the kingdom drawn; default: the second.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        edition: Option<Edition>,
        /// The sets the kingdom may draw from; default: every set.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(length(min = 1), extend("uniqueItems" = true))]
        sets: Option<Vec<CardSet>>,
    },
    /// Leaves the automatch queue (answered by `ack`, then `match_cancelled` with
    /// `cancelled`); declines a pending proposal too. `ack` alone when not queued.
    CancelMatch {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Accepts the proposal `match` (from `match_proposed`), answered by `ack`; once every
    /// player accepted, each gets `match_found`.
    AcceptMatch {
        #[schemars(range(min = 1))]
        id: u64,
        #[serde(rename = "match")]
        match_id: String,
    },
    /// Asks the Hard bot what it would answer to your pending decision, in a room where
    /// every other seat is a bot and that is not `rated`. Answered by `ack`, then — once
    /// the bot has thought, within the server's thinking budget — by `hint`, to this
    /// player only; a hint whose decision was answered meanwhile is not sent. Refused
    /// with `hint_unavailable` (the message says why) elsewhere, for a decision that is
    /// not yours, or while a hint is still being thought.
    Hint {
        #[schemars(range(min = 1))]
        id: u64,
    },
    /// Declines the proposal `match` (answered by `ack`, then `match_cancelled` with
    /// `declined`): this connection leaves the queue, the others go back to its front.
    DeclineMatch {
        #[schemars(range(min = 1))]
        id: u64,
        #[serde(rename = "match")]
        match_id: String,
    },
}

impl ClientMessage {
    /// The command id, for every message but `hello`.
    pub fn id(&self) -> Option<u64> {
        match self {
            ClientMessage::Hello { .. } => None,
            ClientMessage::Ping { id }
            | ClientMessage::ListRooms { id }
            | ClientMessage::CreateRoom { id, .. }
            | ClientMessage::TakeSeat { id, .. }
            | ClientMessage::Resume { id, .. }
            | ClientMessage::Spectate { id, .. }
            | ClientMessage::Leave { id }
            | ClientMessage::Start { id }
            | ClientMessage::Reply { id, .. }
            | ClientMessage::Undo { id }
            | ClientMessage::UndoAnswer { id, .. }
            | ClientMessage::Chat { id, .. }
            | ClientMessage::SetSeat { id, .. }
            | ClientMessage::Remove { id, .. }
            | ClientMessage::History { id, .. }
            | ClientMessage::Rematch { id, .. }
            | ClientMessage::ChatHistory { id, .. }
            | ClientMessage::ReportChat { id, .. }
            | ClientMessage::Invite { id, .. }
            | ClientMessage::FindMatch { id, .. }
            | ClientMessage::CancelMatch { id }
            | ClientMessage::AcceptMatch { id, .. }
            | ClientMessage::DeclineMatch { id, .. }
            | ClientMessage::Hint { id } => Some(*id),
        }
    }
}

/// Whom the host's `remove` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Removable {
    /// The player in this seat (0-based); not the host's own seat (`leave` instead).
    Seat { seat: u8 },
    /// Every spectator watching under this name (as their chat lines show it).
    Spectator { name: String },
}

/// An answer to a decision. Which variants answer which prompt is listed on [`crate::Prompt`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reply {
    /// Play one card: an Action in `action_phase`, a Treasure in `buy_phase`.
    Play { card: CardKey },
    /// Play every Treasure in hand (`buy_phase`, while `treasures` is not empty). In
    /// `action_phase`, with a Treasure in hand: end the Action phase, then play them all.
    PlayAllTreasures {},
    /// Buy one card from `buyable` (`buy_phase`). In `action_phase`: end the Action phase,
    /// play every Treasure in hand, then buy the card, which those coins must afford —
    /// a money turn in one reply (the same events as the three moves it stands for).
    Buy { card: CardKey },
    /// End the Action phase, or end the Buy phase (and the turn).
    EndPhase {},
    /// Cards chosen from `options` (`choose_cards`), or the order of `cards`
    /// (`order_cards`, first card ends on top).
    Cards { cards: Vec<CardKey> },
    /// A pile from `options`, or null when the prompt is `optional` (`choose_pile`).
    Pile {
        #[serde(default)]
        card: Option<CardKey>,
    },
    /// Distinct modes from `options` (`choose_modes`).
    Modes { modes: Vec<Mode> },
    /// Yes or no (`yes_no`).
    YesNo { yes: bool },
    /// A card named from `options` (`name_card`).
    Name { card: CardKey },
    /// A number from `min` to `max` (`choose_number`).
    Number { number: u32 },
}

/// Everything a room is created with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RoomSettings {
    /// Shown in room lists; up to 64 characters. Without it the room is named by its
    /// host and kingdom ("Ann — First Game").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub kingdom: KingdomChoice,
    #[serde(default)]
    pub edition: Edition,
    /// One entry per seat, in turn order: 2 to 6.
    pub seats: Vec<SeatSetting>,
    /// Seconds a human has for each decision; when they run out the server answers
    /// for them with the `standard` bot. Absent: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_seconds: Option<u32>,
    /// What happens to a seat whose player disconnects or leaves.
    #[serde(default)]
    pub abandoned: AbandonPolicy,
    /// Whether spectators read and write the room's chat (default: they do neither).
    #[serde(default)]
    pub spectator_chat: bool,
    /// Whether the game is rated (default: not). It is, at its end, only if every seat
    /// is a signed-in account's and there are 2 to 4 players (docs/protocol.md,
    /// "Ratings"); otherwise this changes nothing. Automatch rooms of pools `2p`, `3-4p`
    /// and `bots` are rated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
}

/// How the ten kingdom cards are chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum KingdomChoice {
    /// Exactly these ten different kingdom cards.
    Cards { cards: Vec<CardKey> },
    /// A recommended kingdom by id or name (`GET /api/kingdoms`).
    Recommended { id: String },
    /// Ten cards drawn at random when the game starts, from the cards of `sets` in
    /// `pool`.
    Random {
        /// The printings to draw from; default: the cards printed in the room's edition.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pool: Option<CardPool>,
        /// The sets to draw from, each named once; default: every set.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(length(min = 1), extend("uniqueItems" = true))]
        sets: Option<Vec<CardSet>>,
    },
}

/// Who sits in a seat when the room is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatSetting {
    /// A seat a human takes with `take_seat`.
    Open {},
    /// A server bot by name (`GET /api/bots`).
    Bot { bot: String },
}

/// What happens when a seated human disconnects or leaves during a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum AbandonPolicy {
    /// After `seconds` away, the bot `bot` (default `standard`) plays the seat until its
    /// player resumes. Before the game, the seat is freed after `seconds` instead.
    BotAfter {
        seconds: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<String>,
    },
    /// The game waits for the player to resume, however long it takes.
    Wait {},
}

impl Default for AbandonPolicy {
    fn default() -> Self {
        AbandonPolicy::BotAfter {
            seconds: 60,
            bot: None,
        }
    }
}
