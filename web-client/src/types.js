// JSDoc types of the wire protocol, transcribed from crates/protocol (the committed
// JSON Schema crates/protocol/schema/protocol.schema.json is the authority; the
// browser tests validate every frame this client sends against it, and
// crates/protocol/tests/client_types.rs checks that each schema definition has a
// typedef here of the same name and shape, and that there is no other).
// This module exports nothing at run time.

/**
 * @typedef {string} CardKey
 * @typedef {'1e' | '2e'} Edition
 * @typedef {'action' | 'buy' | 'cleanup'} Phase
 * @typedef {'hand' | 'deck' | 'discard' | 'in_play' | 'revealed' | 'trash' | 'supply'} Zone
 * @typedef {'action_phase' | 'buy_phase' | 'discard' | 'trash' | 'gain' | 'top_deck' | 'play_twice' | 'react' | 'choose_modes' | 'set_aside' | 'play' | 'discard_deck'
 *   | 'pass' | 'reveal' | 'name' | 'place_in_deck'} Purpose
 * @typedef {'plus_card' | 'plus_action' | 'plus_buy' | 'plus_coin' | 'plus_two_cards' | 'plus_three_cards'
 *   | 'plus_two_actions' | 'plus_two_coins' | 'plus_three_coins' | 'gain_gold' | 'trash_two'
 *   | 'discard_and_draw' | 'discard_two' | 'gain_curse' | 'trash_from_supply' | 'gain_from_trash'} Mode
 * @typedef {'discard' | 'hand' | 'deck'} Destination
 * @typedef {'1e' | '2e' | 'both'} CardPool
 * @typedef {{players: number, kingdom: KingdomChoice, edition: Edition}} GameSetup
 * @typedef {'finished' | 'abandoned'} GameOutcome
 * @typedef {'done' | 'refused' | 'expired' | 'cancelled'} UndoOutcome
 */

/**
 * @typedef {'base' | 'intrigue'} CardSet
 * @typedef {{type: 'cards', cards: CardKey[]} | {type: 'recommended', id: string} | {type: 'random', pool?: CardPool, sets?: CardSet[]}} KingdomChoice
 * @typedef {{type: 'open'} | {type: 'bot', bot: string}} SeatSetting
 * @typedef {{type: 'seat', seat: number} | {type: 'spectator', name: string}} Removable
 * @typedef {{type: 'bot_after', seconds: number, bot?: string} | {type: 'wait'}} AbandonPolicy
 * @typedef {object} RoomSettings
 * @property {string} [name]
 * @property {KingdomChoice} kingdom
 * @property {Edition} [edition]
 * @property {SeatSetting[]} seats
 * @property {number} [decision_seconds]
 * @property {AbandonPolicy} [abandoned]
 * @property {boolean} [spectator_chat]
 * @property {boolean} [rated]
 */

/**
 * @typedef {{type: 'play', card: CardKey}
 *   | {type: 'play_all_treasures'}
 *   | {type: 'buy', card: CardKey}
 *   | {type: 'end_phase'}
 *   | {type: 'cards', cards: CardKey[]}
 *   | {type: 'pile', card: CardKey | null}
 *   | {type: 'modes', modes: Mode[]}
 *   | {type: 'yes_no', yes: boolean}
 *   | {type: 'name', card: CardKey}
 *   | {type: 'number', number: number}} Reply
 */

/**
 * @typedef {{type: 'hello', protocol: number, client?: string, token?: string}
 *   | {type: 'ping', id: number}
 *   | {type: 'list_rooms', id: number}
 *   | {type: 'create_room', id: number, settings: RoomSettings}
 *   | {type: 'take_seat', id: number, room: string, seat?: number, name?: string}
 *   | {type: 'resume', id: number, room: string, token: string, last_event?: number}
 *   | {type: 'spectate', id: number, room: string, name?: string}
 *   | {type: 'leave', id: number}
 *   | {type: 'start', id: number}
 *   | {type: 'reply', id: number, decision: number, reply: Reply}
 *   | {type: 'undo', id: number}
 *   | {type: 'undo_answer', id: number, accept: boolean}
 *   | {type: 'hint', id: number}
 *   | {type: 'chat', id: number, text: string}
 *   | {type: 'set_seat', id: number, seat: number, occupant: SeatSetting}
 *   | {type: 'remove', id: number, who: Removable}
 *   | {type: 'history', id: number, from: number, to?: number}
 *   | {type: 'rematch', id: number, room: string}
 *   | {type: 'chat_history', id: number, from: number, to?: number}
 *   | {type: 'report_chat', id: number, line: number, reason?: string}
 *   | {type: 'invite', id: number, room: string, name: string}
 *   | {type: 'find_match', id: number, pool: MatchPool, edition?: Edition, sets?: CardSet[]}
 *   | {type: 'cancel_match', id: number}
 *   | {type: 'accept_match', id: number, match: string}
 *   | {type: 'decline_match', id: number, match: string}} ClientMessage
 */

/**
 * @typedef {{type: 'empty'} | {type: 'human', name: string, connected: boolean, bot_playing?: string, account?: AccountKind, level?: number} | {type: 'bot', bot: string}} Occupant
 * @typedef {'player' | 'bot'} AccountKind
 * @typedef {{seat: number, occupant: Occupant}} SeatInfo
 * @typedef {'lobby' | 'playing' | 'finished' | 'broken'} RoomStatus
 * @typedef {object} RoomSummary
 * @property {string} id
 * @property {string} name
 * @property {RoomStatus} status
 * @property {RoomSettings} settings
 * @property {SeatInfo[]} seats
 * @property {number} spectators
 * @property {number} [host]
 */

/**
 * @typedef {{type: 'seat', seat: number, name: string} | {type: 'spectator', name: string}} ChatSender
 * @typedef {{n: number, from: ChatSender, text: string, at: number}} ChatLine
 * @typedef {{seat: number, name: string, bot?: string}} RecordSeat
 * @typedef {object} GameSummary
 * @property {string} room
 * @property {GameOutcome} outcome
 * @property {number} finished_at
 * @property {GameSetup} setup
 * @property {ScoreLine[]} [scores]
 * @property {RecordSeat[]} [seats]
 */

/**
 * @typedef {{card: CardKey, count: number, cost: number}} PileView
 * @typedef {object} SeatView
 * @property {number} seat
 * @property {number} hand_count
 * @property {number} deck_count
 * @property {number} discard_count
 * @property {CardKey} [discard_top]
 * @property {CardKey[]} in_play
 * @property {CardKey[]} aside
 * @property {number} vp
 * @property {number} turns
 * @typedef {object} GameView
 * @property {number} [seat]
 * @property {Edition} edition
 * @property {CardKey[]} kingdom
 * @property {PileView[]} supply
 * @property {CardKey[]} trash
 * @property {SeatView[]} seats
 * @property {CardKey[]} [hand]
 * @property {number} current
 * @property {Phase} phase
 * @property {number} actions
 * @property {number} buys
 * @property {number} coins
 * @property {number} turn_count
 * @property {number} [waiting_for]
 * @property {number} [decision]
 * @property {boolean} game_over
 */

/**
 * @typedef {{type: 'game_started', players: number, first: number, kingdom: CardKey[]}
 *   | {type: 'turn_started', seat: number, turn: number}
 *   | {type: 'phase_started', seat: number, phase: Phase}
 *   | {type: 'drew', seat: number, count: number, cards?: CardKey[]}
 *   | {type: 'shuffled', seat: number}
 *   | {type: 'played', seat: number, card: CardKey}
 *   | {type: 'played_again', seat: number, card: CardKey}
 *   | {type: 'bought', seat: number, card: CardKey}
 *   | {type: 'gained', seat: number, card: CardKey, to: Destination}
 *   | {type: 'discarded', seat: number, count: number, cards?: CardKey[], top?: CardKey, private: boolean}
 *   | {type: 'deck_discarded', seat: number, count: number, top?: CardKey}
 *   | {type: 'set_aside', seat: number, cards: CardKey[]}
 *   | {type: 'put_in_hand', seat: number, cards: CardKey[]}
 *   | {type: 'looked_at', seat: number, count: number, cards?: CardKey[]}
 *   | {type: 'gained_from_trash', seat: number, card: CardKey}
 *   | {type: 'trashed', seat: number, cards: CardKey[]}
 *   | {type: 'revealed', seat: number, cards: CardKey[]}
 *   | {type: 'top_decked', seat: number, count: number, cards?: CardKey[], private: boolean}
 *   | {type: 'named', seat: number, card: CardKey}
 *   | {type: 'passed', seat: number, to: number, card?: CardKey}
 *   | {type: 'modes_chosen', seat: number, card: CardKey, modes: Mode[]}
 *   | {type: 'blocked', seat: number, by: CardKey}
 *   | {type: 'game_ended', scores: ScoreLine[]}} GameEvent
 */

/**
 * @typedef {{kind: 'action_phase', playable: CardKey[]}
 *   | {kind: 'buy_phase', treasures: CardKey[], buyable: CardKey[]}
 *   | {kind: 'choose_cards', zone: Zone, options: CardKey[], min: number, max: number}
 *   | {kind: 'choose_pile', options: CardKey[], optional: boolean}
 *   | {kind: 'choose_modes', options: Mode[], min: number, max: number}
 *   | {kind: 'order_cards', cards: CardKey[]}
 *   | {kind: 'yes_no'}
 *   | {kind: 'name_card', options: CardKey[]}
 *   | {kind: 'choose_number', min: number, max: number}} Prompt
 * @typedef {object} DecisionRequest
 * @property {number} decision
 * @property {number} seat
 * @property {CardKey} [card]
 * @property {number} [about]   whose cards the question is about, when another seat's (Spy, Thief, Torturer)
 * @property {Purpose} purpose
 * @property {Prompt} prompt
 * @property {number} [deadline_ms]
 */

/**
 * @typedef {{seat: number, vp: number, turns: number, winner: boolean}} ScoreLine
 * @typedef {{seat: number, name: string, cards: CardKey[]}} SeatDeck
 * @typedef {object} GameResult
 * @property {ScoreLine[]} scores
 * @property {SeatDeck[]} decks
 * @property {string} seed
 * @property {GameSetup} setup
 * @property {CardKey[]} kingdom
 * @property {NumberedReply[]} replies
 */

/**
 * @typedef {'bad_message' | 'unsupported_version' | 'handshake_required' | 'duplicate_command'
 *   | 'unknown_room' | 'too_many_rooms' | 'invalid_settings' | 'unknown_card' | 'unknown_bot'
 *   | 'invalid_name' | 'seat_unavailable' | 'too_many_spectators' | 'already_in_room' | 'not_in_room'
 *   | 'not_seated' | 'bad_token' | 'seats_not_filled' | 'game_not_started' | 'game_already_started'
 *   | 'game_over' | 'game_not_over' | 'stale_decision' | 'not_your_decision' | 'wrong_kind'
 *   | 'not_an_option' | 'wrong_count' | 'too_many' | 'pile_required' | 'not_a_permutation'
 *   | 'undo_refused' | 'not_host' | 'removed_by_host' | 'chat_not_allowed' | 'chat_too_fast' | 'invalid_chat'
 *   | 'rate_limited' | 'message_too_big' | 'internal' | 'name_taken'
 *   | 'sign_in_required' | 'unknown_player' | 'not_following' | 'player_offline' | 'too_many_invites'
 *   | 'bot_accounts_only' | 'unknown_match' | 'hint_unavailable'} ErrorCode
 * @typedef {'2p' | '3-4p' | 'practice' | 'bots'} MatchPool
 * @typedef {'declined' | 'timeout' | 'cancelled' | 'requeued'} MatchCancelReason
 * @typedef {{name: string, level?: number}} MatchOpponent
 * @typedef {{max_message_bytes: number, rate_messages: number, rate_window_ms: number, heartbeat_ms: number, idle_timeout_ms: number,
 *   chat_max_chars?: number, chat_max_bytes?: number, chat_messages?: number, chat_window_ms?: number}} Limits
 * @typedef {{type: 'welcome', protocol: number, server: string, limits: Limits, account?: AccountInfo}
 *   | {type: 'pong', re: number}
 *   | {type: 'ack', re: number}
 *   | {type: 'error', re?: number, code: ErrorCode, message: string}
 *   | {type: 'room_list', re: number, rooms: RoomSummary[]}
 *   | {type: 'room_created', re: number, room: RoomSummary}
 *   | {type: 'seated', re: number, room: string, seat: number, token: string, last_command: number}
 *   | {type: 'spectating', re: number, room: string}
 *   | {type: 'room', room: RoomSummary}
 *   | {type: 'snapshot', next_event: number, view: GameView}
 *   | {type: 'events', first: number, events: GameEvent[], view: GameView}
 *   | ({type: 'decision'} & DecisionRequest)
 *   | ({type: 'game_over'} & GameResult)
 *   | {type: 'undo_requested', seat: number, seconds: number}
 *   | {type: 'undo_result', seat: number, outcome: UndoOutcome, by?: number}
 *   | {type: 'hint', decision: number, reply: Reply}
 *   | ({type: 'chat'} & ChatLine)
 *   | {type: 'chat_log', lines: ChatLine[], first?: number, oldest?: number}
 *   | {type: 'history', re: number, first: number, events: GameEvent[]}
 *   | {type: 'rematch', room: string, seat: number}
 *   | {type: 'removed', room: string}
 *   | {type: 'chat_history', re: number, first: number, lines: ChatLine[]}
 *   | {type: 'invited', from: string, room: string}
 *   | {type: 'match_queued', pool: MatchPool, waited_ms: number, estimate_ms?: number}
 *   | {type: 'match_proposed', match: string, pool: MatchPool, opponents: MatchOpponent[], accept_within_ms: number}
 *   | {type: 'match_found', match: string, room: string, seat: number, token: string}
 *   | {type: 'match_cancelled', reason: MatchCancelReason}

 *   | {type: 'rating_changed', changes: RatingChange[]}} ServerMessage
 */

/**
 * The HTTP catalogue (`GET /api/cards` and `GET /api/kingdoms`).
 * @typedef {object} CardInfo
 * @property {CardKey} id
 * @property {string} name
 * @property {number} cost
 * @property {string[]} types
 * @property {boolean} kingdom
 * @property {Edition[]} editions
 * @property {CardSet} [set]
 * @typedef {{id: string, name: string, edition: Edition, cards: CardKey[]}} KingdomInfo
 */

/**
 * The HTTP history API (`GET /api/games/{id}` and `GET /api/games/{id}/steps/{n}`).
 * @typedef {{decision: number, seat: number, reply: Reply}} NumberedReply
 * @typedef {object} GameRecord
 * @property {number} format
 * @property {string} room
 * @property {GameOutcome} outcome
 * @property {number} rules_version
 * @property {number} started_at
 * @property {number} finished_at
 * @property {string} seed
 * @property {GameSetup} setup
 * @property {CardKey[]} kingdom
 * @property {RecordSeat[]} seats
 * @property {NumberedReply[]} replies
 * @property {ScoreLine[]} [scores]
 * @typedef {{seat: number, cards: CardKey[]}} SeatHand
 * @typedef {object} ReplayStep
 * @property {string} room
 * @property {number} step
 * @property {number} steps
 * @property {NumberedReply} [reply]
 * @property {number} step_first
 * @property {number} first
 * @property {GameEvent[]} events
 * @property {number} next_event
 * @property {GameView} view
 * @property {SeatHand[]} [hands]
 */

/**
 * The account endpoints' bodies (docs/protocol.md, "Accounts").
 * @typedef {{name: string, bot: boolean}} AccountInfo
 * @typedef {{code: string, message: string}} ApiError
 * @typedef {{name: string, password: string}} Credentials
 * @typedef {{name: string, bot: boolean, created: number}} Me
 * @typedef {{id: number, created: number, last_used: number, expires: number, current: boolean}} SessionInfo
 * @typedef {{id: number, label: string, created: number, last_used?: number}} TokenInfo
 * @typedef {{id: number, label: string, created: number, token: string}} NewToken
 * @typedef {'win' | 'loss' | 'tie' | 'abandoned'} ProfileResult
 * @typedef {{game: string, room: string, finished: number, result: ProfileResult, players: string[], replay: string}} ProfileGame
 * @typedef {{level: string, games: number, wins: number}} BotRecord
 * @typedef {object} Profile
 * @property {string} name
 * @property {boolean} bot
 * @property {number} created
 * @property {number} games
 * @property {ProfileGame[]} recent
 * @property {BotRecord[]} vs_bots
 * @property {PoolRating[]} [ratings]
 */

/**
 * Ratings (issue 25): `rating_changed`, GET /api/leaderboard, a profile's ratings.
 * @typedef {'2p' | '3-4p' | 'bots'} RatingPool
 * @typedef {object} RatingChange
 * @property {number} seat
 * @property {string} name
 * @property {RatingPool} pool
 * @property {number} level_before
 * @property {number} level_after
 * @property {number} rating_before
 * @property {number} rating_after
 * @property {number} deviation_before
 * @property {number} deviation_after
 * @typedef {object} LeaderboardRow
 * @property {number} rank
 * @property {string} name
 * @property {number} level
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {boolean} bot
 * @typedef {object} Leaderboard
 * @property {RatingPool} pool
 * @property {number} page
 * @property {number} pages
 * @property {number} total
 * @property {LeaderboardRow[]} rows
 * @property {LeaderboardRow} [me]
 * @property {LeaderboardRow[]} [friends]
 * @typedef {{at: number, level: number, room: string}} RatingPoint
 * @typedef {object} PoolRating
 * @property {RatingPool} pool
 * @property {number} level
 * @property {number} rating
 * @property {number} deviation
 * @property {number} games
 * @property {RatingPoint[]} history
 */

/**
 * Game review (issue 27): `GET /api/games/{id}/analysis` (docs/protocol.md, "Game review").
 * @typedef {'inaccuracy' | 'mistake' | 'blunder'} DecisionMark
 * @typedef {{step: number, turn: number, win: number}} WinPoint
 * @typedef {object} AnalysisPlayer
 * @property {number} seat
 * @property {string} name
 * @property {WinPoint[]} graph
 * @property {number} inaccuracies
 * @property {number} mistakes
 * @property {number} blunders
 * @typedef {{reply: Reply, win: number, diff: number, diff_se: number}} AnalysedCandidate
 * @typedef {object} AnalysedDecision
 * @property {number} step      the reply's index in the record: the replay step at which it was asked
 * @property {number} seat
 * @property {number} turn
 * @property {Reply} given
 * @property {Reply} best
 * @property {number} given_win
 * @property {number} best_win
 * @property {number} drop
 * @property {number} drop_se
 * @property {number} samples
 * @property {DecisionMark | null} mark
 * @property {AnalysedCandidate[]} candidates
 * @typedef {object} GameAnalysis
 * @property {number} format
 * @property {string} game
 * @property {number} playouts
 * @property {number} budget_ms
 * @property {AnalysisPlayer[]} players
 * @property {AnalysedDecision[]} decisions
 * @typedef {{status: 'queued', position: number} | {status: 'running', done: number, total: number}} AnalysisProgress
 */

/**
 * Card preferences and friends (docs/protocol.md, "Card preferences and friends").
 * @typedef {{bans?: CardKey[], dislikes?: CardKey[]}} CardPrefs
 * @typedef {{room: string, name: string}} FriendTable
 * @typedef {{name: string, bot: boolean, online: boolean, tables: FriendTable[]}} Friend
 */

export {};
