//! A connection's automatch commands (docs/protocol.md, "Automatch"): checked here
//! (signed in, the pool allowed for the account, not in a room), then handed to the
//! node's automatch service (`net::automatch`), which answers.

use super::*;
use crate::net::automatch::Request;

impl Connection {
    pub(super) async fn on_automatch(&mut self, id: u64, msg: ClientMessage) {
        let Some(who) = self.signed_in.clone() else {
            self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::SignInRequired,
                    "automatch is for signed-in players: sign in (or use an API token in hello) first",
                ),
            );
            return;
        };
        let conn = crate::net::automatch::Peer::local(self.handle.clone());
        match msg {
            ClientMessage::FindMatch {
                pool,
                edition,
                sets,
                ..
            } => {
                if (pool == wire::MatchPool::Bots) != who.account.bot {
                    let message = if who.account.bot {
                        "a bot account plays in the bots pool only"
                    } else {
                        "the bots pool is for bot accounts only"
                    };
                    self.refuse(Some(id), Refusal::new(ErrorCode::BotAccountsOnly, message));
                    return;
                }
                if let Some(attached) = &self.room {
                    let message = format!(
                        "this connection is in room {}: leave it before asking for a match",
                        attached.room
                    );
                    self.refuse(Some(id), Refusal::new(ErrorCode::AlreadyInRoom, message));
                    return;
                }
                if let Some(sets) = &sets {
                    let distinct: std::collections::BTreeSet<String> =
                        sets.iter().map(|s| format!("{s:?}")).collect();
                    if sets.is_empty() || distinct.len() != sets.len() {
                        self.refuse(
                            Some(id),
                            Refusal::new(
                                ErrorCode::InvalidSettings,
                                "sets: name at least one set, each once",
                            ),
                        );
                        return;
                    }
                }
                let blocks = match self.accounts.blocks(&who).await {
                    Ok(blocks) => blocks,
                    Err(e) => {
                        tracing::warn!("cannot read an account's blocks: {}", e.message);
                        self.refuse(
                            Some(id),
                            Refusal::new(
                                ErrorCode::Internal,
                                "your account cannot be read just now; try again",
                            ),
                        );
                        return;
                    }
                };
                let level = match self.accounts.match_level(who.account.id, pool).await {
                    Ok(level) => level,
                    Err(e) => {
                        // Pairing by the default level is better than not pairing.
                        tracing::warn!("cannot read an account's rating: {}", e.message);
                        crate::matchmaking::default_level()
                    }
                };
                self.automatch.send(Request::Find {
                    conn,
                    who: Box::new(who),
                    level,
                    blocks,
                    pool,
                    edition,
                    sets,
                });
            }
            ClientMessage::CancelMatch { .. } => {
                self.automatch.send(Request::Cancel { conn, re: id })
            }
            ClientMessage::AcceptMatch { match_id, .. } => self.automatch.send(Request::Accept {
                conn,
                re: id,
                id: match_id,
            }),
            ClientMessage::DeclineMatch { match_id, .. } => self.automatch.send(Request::Decline {
                conn,
                re: id,
                id: match_id,
            }),
            _ => {}
        }
    }
}
