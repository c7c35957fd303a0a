//! Messages the server sends: answers to commands, room state, and each viewer's share
//! of the game (its view, the events it may see, the decisions addressed to it).
//!
//! Nothing here can carry another player's hand or any deck order: seats other than the
//! viewer's are counts ([`SeatView`]), and private event parts are absent in the copies
//! other viewers receive ([`GameEvent`]).

use crate::client::{KingdomChoice, Reply, RoomSettings};
use crate::common::{
    CardKey, Destination, Edition, MatchCancelReason, MatchPool, Mode, Phase, Purpose, Zone,
};
use crate::error::ErrorCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A message from the server to one client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`: the version spoken and the limits this connection lives by.
    Welcome {
        protocol: u32,
        /// Server program and version, e.g. `dominion-server 0.1.0`.
        server: String,
        limits: Limits,
        /// The account this connection is signed in as (by `hello.token` or the session
        /// cookie); absent for a guest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<crate::AccountInfo>,
    },
    /// The answer to `ping`.
    Pong { re: u64 },
    /// A command was accepted and has nothing else to return.
    Ack { re: u64 },
    /// A command (or a frame) was refused; nothing changed. `re` is absent when the
    /// frame could not be read far enough to find its id.
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        re: Option<u64>,
        code: ErrorCode,
        /// What was wrong, for people.
        message: String,
    },
    /// The answer to `list_rooms`.
    RoomList { re: u64, rooms: Vec<RoomSummary> },
    /// The answer to `create_room`.
    RoomCreated { re: u64, room: RoomSummary },
    /// The answer to `take_seat` and `resume`: keep `token` secret; it is the only way
    /// back to this seat. `last_command` is the highest command id this seat has sent:
    /// number the next commands above it.
    Seated {
        re: u64,
        room: String,
        seat: u8,
        token: String,
        last_command: u64,
    },
    /// The answer to `spectate`.
    Spectating { re: u64, room: String },
    /// The room changed (seats taken or freed, players connected or gone, game started
    /// or over). Sent to everyone in the room.
    Room { room: RoomSummary },
    /// The whole game as this viewer may see it. The next event will be `next_event`;
    /// events before it that this client did not receive are not sent again.
    Snapshot { next_event: u64, view: GameView },
    /// New game events numbered `first`, `first + 1`, …, and the view after them.
    Events {
        first: u64,
        events: Vec<GameEvent>,
        view: GameView,
    },
    /// A decision addressed to you. Answer with `reply` naming `decision`.
    Decision(DecisionRequest),
    /// The game is over: scores, every player's cards, and how to replay it.
    GameOver(GameResult),
    /// `seat` asks to take back their last move; every other connected player is asked
    /// to answer with `undo_answer` within `seconds` (silence refuses). Sent to everyone
    /// in the room.
    UndoRequested { seat: u8, seconds: u32 },
    /// How an undo ended, sent to everyone in the room. When `outcome` is `done`, a
    /// `snapshot` follows (the game as it was before the move: event numbers go back to
    /// its `next_event`), then the pending `decision` to its seat.
    UndoResult {
        seat: u8,
        outcome: UndoOutcome,
        /// Who refused, for `refused`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<u8>,
    },
    /// The answer to `hint`, sent only to the player who asked: what the Hard bot would
    /// answer to the pending decision numbered `decision`, from that player's knowledge
    /// alone ("The Hard bot would …"). Not sent when the decision was answered first.
    Hint { decision: u64, reply: crate::Reply },
    /// A line of the room's chat, sent to everyone in the room who may read it.
    Chat(ChatLine),
    /// The room's recent chat, oldest first, sent after `seated` or `spectating` when
    /// there is any, so a player who arrives or comes back sees the conversation: the
    /// latest lines that fit in 8 KiB (of the last 100 the room keeps). Lines are
    /// numbered in the order the room heard them: `first` is the number of the first
    /// line here, `oldest` that of the oldest line the room keeps; when `oldest` is less
    /// than `first`, `chat_history` fetches the earlier ones.
    ChatLog {
        lines: Vec<ChatLine>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        first: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        oldest: Option<u64>,
    },
    /// The answer to `history`: the events numbered `first`, `first + 1`, … as this
    /// connection may see them (the same events `events` frames carried or would have).
    /// Fewer than asked when a page is full (500): ask again from where it stopped.
    History {
        re: u64,
        first: u64,
        events: Vec<GameEvent>,
    },
    /// The player in `seat` of this finished game offers a rematch in room `room` (a
    /// room waiting for players, usually with this game's seats and kingdom): `leave`
    /// this room and `take_seat` there to accept. Sent to the room's other members when
    /// offered, and after `game_over` to whoever resumes or watches the room later.
    Rematch { room: String, seat: u8 },
    /// The room's host removed this connection from `room` (before its game started):
    /// the connection is in no room now, and the room refuses it back
    /// (`removed_by_host`).
    Removed { room: String },
    /// The answer to `chat_history`: the room's chat lines numbered `first`, `first +
    /// 1`, …, oldest first — the latest of those asked that fit in 8 KiB (ask again up
    /// to `first` for the ones before).
    ChatHistory {
        re: u64,
        first: u64,
        lines: Vec<ChatLine>,
    },
    /// The signed-in player `from`, whom you may know as a friend, invites you to the
    /// table `room` (not started yet): `take_seat` there to accept (the browser's link is
    /// `/#room=<room>`). Sent to each of your signed-in connections on the server the
    /// invitation reached; ignoring it is answer enough.
    Invited { from: String, room: String },
    /// You are in the automatch queue of `pool` and have waited `waited_ms`. Sent after
    /// `find_match` and again every ~5 s while queued; no position is given. `estimate_ms`
    /// is a guess at the time left: the median wait of the pool's last 50 matched
    /// players less `waited_ms` (never below 0); absent until 5 were matched.
    MatchQueued {
        pool: MatchPool,
        waited_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimate_ms: Option<u64>,
    },
    /// The server found players for you: answer `accept_match` or `decline_match` naming
    /// `match` within `accept_within_ms`. Silence counts as a decline (`timeout`).
    MatchProposed {
        #[serde(rename = "match")]
        match_id: String,
        pool: MatchPool,
        opponents: Vec<MatchOpponent>,
        accept_within_ms: u64,
    },
    /// Everyone accepted: you are seated in `room` already (`token` is the seat token, as
    /// `seated` gives it). `resume` the room with it, as after a reconnect.
    MatchFound {
        #[serde(rename = "match")]
        match_id: String,
        room: String,
        seat: u8,
        token: String,
    },
    /// A proposal or queue entry ended; `requeued` means you are queued again, first.
    MatchCancelled { reason: MatchCancelReason },
    /// A rated game's end changed these players' ratings (sent to everyone in the room
    /// once the game's end and its rating are stored, after `game_over`).
    RatingChanged { changes: Vec<crate::RatingChange> },
}

/// Another player of an automatch proposal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatchOpponent {
    pub name: String,
    /// Their level in the match's pool, rounded down to a whole number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
}

/// One line of a room's chat. The server keeps a room's recent lines in memory only: they
/// are not game state, and a restart forgets them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChatLine {
    /// The line's number in its room, from 0 in the order the room heard them: a
    /// report (`POST /api/reports`) names a line by it. Lines a viewer does not receive
    /// (a blocked writer's) leave gaps.
    pub n: u64,
    pub from: ChatSender,
    /// The text as written, trimmed: show it as text, never as markup.
    pub text: String,
    /// When the server received it: Unix milliseconds.
    pub at: u64,
}

/// Who wrote a chat line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatSender {
    /// A seated player, with the name the seat had when the line was written.
    Seat { seat: u8, name: String },
    /// A spectator, by the name given in `spectate` ("Spectator" without one).
    Spectator { name: String },
}

/// How an undo request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UndoOutcome {
    /// The move was taken back.
    Done,
    /// A player refused (`by`).
    Refused,
    /// Not everyone answered in time.
    Expired,
    /// The asking player moved on (answered their decision) or the move can no longer be
    /// taken back.
    Cancelled,
}

/// The limits of this connection, so a client can stay within them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Limits {
    /// Larger text frames are refused with close code 1009.
    pub max_message_bytes: u64,
    /// At most `rate_messages` frames per `rate_window_ms`, or close code 1008.
    pub rate_messages: u32,
    pub rate_window_ms: u64,
    /// The server pings this often.
    pub heartbeat_ms: u64,
    /// With nothing received for this long, the server closes with 4002.
    pub idle_timeout_ms: u64,
    /// The longest chat line, in characters and in UTF-8 bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_max_chars: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_max_bytes: Option<u32>,
    /// At most `chat_messages` chat lines per `chat_window_ms` from a seat (whatever its
    /// connections) or a spectator (beyond: `chat_too_fast`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_messages: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_window_ms: Option<u64>,
}

/// A room as listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomSummary {
    pub id: String,
    /// The settings' `name`, or else the host's name and the kingdom ("Ann — First
    /// Game"; "Ann — Cellar, Moat, Village, …" once a random kingdom is drawn).
    pub name: String,
    pub status: RoomStatus,
    pub settings: RoomSettings,
    pub seats: Vec<SeatInfo>,
    pub spectators: u32,
    /// The host's seat: the seat taken by the connection that created the room (or, when
    /// it left before the start, the first other seated player). Only the host may
    /// `set_seat`. Absent while nobody is seated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Waiting for seats to fill and someone to `start`.
    Lobby,
    Playing,
    Finished,
    /// The room hit an internal error and stopped; its game cannot continue.
    Broken,
}

/// One seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatInfo {
    pub seat: u8,
    pub occupant: Occupant,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Occupant {
    /// Nobody yet.
    Empty,
    Human {
        name: String,
        /// Whether the player has a live connection.
        connected: bool,
        /// Set while a server bot plays for the absent player.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot_playing: Option<String>,
        /// Set when the player sits as a registered account: `player`, or `bot` for a
        /// bot account (a program playing through an API token — show it as a bot).
        /// Absent for a guest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        account: Option<AccountKind>,
        /// The account's level, rounded down to a whole number, in the pool a game of
        /// this room would be rated in: `bots` for a bot account, else `2p` for a room
        /// of two seats and `3-4p` for more (also in unrated rooms). Absent for a
        /// guest, and while the room's node has not read it (a room reopened after a
        /// restart learns it again when the account resumes its seat or a rated game
        /// ends).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<u32>,
    },
    Bot {
        bot: String,
    },
}

/// What kind of registered account sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    /// A person's account.
    Player,
    /// A bot account: a program that plays only through API tokens.
    Bot,
}

/// Everything one viewer may know about the game now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameView {
    /// Your seat; absent for spectators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    pub edition: Edition,
    /// The ten kingdom cards.
    pub kingdom: Vec<CardKey>,
    /// Every Supply pile: basic cards first, then the kingdom by cost and name.
    pub supply: Vec<PileView>,
    pub trash: Vec<CardKey>,
    pub seats: Vec<SeatView>,
    /// Your hand; absent for spectators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<CardKey>>,
    /// Whose turn it is.
    pub current: u8,
    pub phase: Phase,
    pub actions: u32,
    pub buys: u32,
    pub coins: u32,
    /// Turns taken so far by all players together.
    pub turn_count: u32,
    /// Whose decision the game waits for. Absent for everyone but the asked player while
    /// a player is asked whether to reveal a Reaction: only players holding one are
    /// asked, so naming them would give their hand away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_for: Option<u8>,
    /// The pending decision's number, in the asked seat's view only (a number others
    /// could compare would tell them when a Reaction question was asked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<u64>,
    pub game_over: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PileView {
    pub card: CardKey,
    pub count: u32,
    /// What it costs now (after any reductions).
    pub cost: u32,
}

/// The public part of one seat: sizes, not contents, of hidden zones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatView {
    pub seat: u8,
    pub hand_count: u32,
    pub deck_count: u32,
    pub discard_count: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard_top: Option<CardKey>,
    pub in_play: Vec<CardKey>,
    /// Cards revealed or set aside by an effect in progress.
    pub aside: Vec<CardKey>,
    /// Victory points now (public: every gain and trash is public).
    pub vp: i32,
    /// Turns this player has taken.
    pub turns: u32,
}

/// One thing that happened. Fields marked private are present only in the copy sent to
/// the seat they belong to; everyone else gets the same event without them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameEvent {
    GameStarted {
        players: u8,
        first: u8,
        kingdom: Vec<CardKey>,
    },
    TurnStarted {
        seat: u8,
        /// This player's own turn number, from 1.
        turn: u32,
    },
    PhaseStarted {
        seat: u8,
        phase: Phase,
    },
    /// Cards moved from the deck to the hand. `cards` is private.
    Drew {
        seat: u8,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<CardKey>>,
    },
    /// The discard pile was shuffled to form a new deck.
    Shuffled {
        seat: u8,
    },
    Played {
        seat: u8,
        card: CardKey,
    },
    /// A card's effect resolves again (Throne Room).
    PlayedAgain {
        seat: u8,
        card: CardKey,
    },
    Bought {
        seat: u8,
        card: CardKey,
    },
    Gained {
        seat: u8,
        card: CardKey,
        to: Destination,
    },
    /// Cards discarded. When `private` (discards from the hand: Cellar, Militia,
    /// Clean-up) `cards` is private and others learn only `count` and the new `top`;
    /// revealed cards are discarded in the open.
    Discarded {
        seat: u8,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<CardKey>>,
        /// The top card of the discard pile afterwards (public: the pile lies face up).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<CardKey>,
        private: bool,
    },
    /// The seat's whole deck went into its discard pile, unseen (Chancellor): only its
    /// top card, now on top of the face-up discard pile, is seen by everyone.
    DeckDiscarded {
        seat: u8,
        count: u32,
        /// The top card of the discard pile afterwards.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        top: Option<CardKey>,
    },
    /// Cards set aside face up from the hand (Library skipping an Action card).
    SetAside {
        seat: u8,
        cards: Vec<CardKey>,
    },
    /// Revealed or set-aside cards put into the hand (Adventurer's Treasures).
    PutInHand {
        seat: u8,
        cards: Vec<CardKey>,
    },
    /// The seat looked at the top `count` cards of its deck (Sentry). `cards` is private.
    LookedAt {
        seat: u8,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<CardKey>>,
    },
    /// A card gained from the trash to the discard pile (Thief).
    GainedFromTrash {
        seat: u8,
        card: CardKey,
    },
    Trashed {
        seat: u8,
        cards: Vec<CardKey>,
    },
    Revealed {
        seat: u8,
        cards: Vec<CardKey>,
    },
    /// Cards put onto the deck. When `private`, `cards` is private; else public.
    TopDecked {
        seat: u8,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<CardKey>>,
        private: bool,
    },
    /// The seat named a card (Wishing Well); public.
    Named {
        seat: u8,
        card: CardKey,
    },
    /// The seat passed a card from its hand to seat `to` (Masquerade). `card` is private
    /// to the two of them; everyone learns who passed to whom.
    Passed {
        seat: u8,
        to: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardKey>,
    },
    /// The seat chose `modes` of a "choose one" `card` (Pawn, Steward, Nobles, Minion,
    /// Courtier, Lurker; a Torturer victim's choice).
    ModesChosen {
        seat: u8,
        card: CardKey,
        modes: Vec<Mode>,
    },
    /// The seat revealed a Reaction (`by`) and is unaffected by the Attack.
    Blocked {
        seat: u8,
        by: CardKey,
    },
    GameEnded {
        scores: Vec<ScoreLine>,
    },
}

/// A question for one seat, with everything needed to answer it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DecisionRequest {
    /// The decision's number: name it in your `reply`. An opaque id, unique within the
    /// game but not increasing: every decision but a Reaction question is numbered
    /// 1000 × the replies to such decisions so far, and Reaction questions take numbers
    /// in between, so that asking one moves no number anyone else sees.
    pub decision: u64,
    pub seat: u8,
    /// The card asking; absent for the phase moves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<CardKey>,
    /// Whose cards the question is about when they are another seat's (Spy: discard
    /// this seat's revealed card?; Thief: which of its Treasures is trashed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<u8>,
    pub purpose: Purpose,
    pub prompt: Prompt,
    /// Milliseconds left before the server answers for you, when the room has a limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_ms: Option<u64>,
}

/// The shape of a question and its legal answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Prompt {
    /// Answer `play` (one of `playable`) or `end_phase`; or with a Buy-phase move, which
    /// ends the Action phase first: `play_all_treasures` (with a Treasure in hand), or
    /// `buy` (which plays every Treasure in hand, then buys a card those coins afford).
    ActionPhase { playable: Vec<CardKey> },
    /// Answer `play` (one of `treasures`), `play_all_treasures` (when `treasures` is not
    /// empty), `buy` (one of `buyable`) or `end_phase`. `treasures` is empty once you
    /// have bought something.
    BuyPhase {
        treasures: Vec<CardKey>,
        buyable: Vec<CardKey>,
    },
    /// Answer `cards`: between `min` and `max` of `options` (a card listed twice may be
    /// chosen twice).
    ChooseCards {
        zone: Zone,
        options: Vec<CardKey>,
        min: u8,
        max: u8,
    },
    /// Answer `pile`: one of `options`, or null when `optional`.
    ChoosePile {
        options: Vec<CardKey>,
        optional: bool,
    },
    /// Answer `modes`: between `min` and `max` distinct entries of `options`.
    ChooseModes {
        options: Vec<Mode>,
        min: u8,
        max: u8,
    },
    /// Answer `cards`: all of `cards` in the order to put them; the first ends on top.
    OrderCards { cards: Vec<CardKey> },
    /// Answer `yes_no`.
    YesNo,
    /// Answer `name`: one of `options`.
    NameCard { options: Vec<CardKey> },
    /// Answer `number`: a whole number from `min` to `max`.
    ChooseNumber { min: u32, max: u32 },
}

/// How a game ended, sent to everyone in the room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameResult {
    pub scores: Vec<ScoreLine>,
    /// Every card each player ended with, sorted by id.
    pub decks: Vec<SeatDeck>,
    /// The game's random seed, secret until now (a string: it may exceed 2^53).
    pub seed: String,
    /// What the game was set up from: with the seed and the replies, enough to replay it.
    /// Its `kingdom` is always the ten cards as drawn (`{"type": "cards"}`), whatever the
    /// room asked for (the room's settings keep that), so the record replays to the same
    /// game in a later release whose random pool or recommended lists have grown.
    pub setup: GameSetup,
    /// The ten kingdom cards as resolved.
    pub kingdom: Vec<CardKey>,
    /// Every accepted reply, in order.
    pub replies: Vec<NumberedReply>,
}

/// A game's setup: players, kingdom, edition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameSetup {
    pub players: u8,
    pub kingdom: KingdomChoice,
    pub edition: Edition,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ScoreLine {
    pub seat: u8,
    pub vp: i32,
    pub turns: u32,
    /// Several seats share a win when tied on VP and turns.
    pub winner: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatDeck {
    pub seat: u8,
    pub name: String,
    pub cards: Vec<CardKey>,
}

/// One accepted reply of the game record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NumberedReply {
    pub decision: u64,
    pub seat: u8,
    pub reply: Reply,
}
