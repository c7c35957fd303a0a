//! `invite`: a signed-in player seated at a table that has not started asks a friend
//! (an account it follows) to join; `accounts::social` checks the rest and sends
//! `invited` to the friend's connections on this node.

use super::*;

impl Connection {
    pub(super) async fn invite(&mut self, id: u64, room: String, name: String) {
        let Some(who) = self.signed_in.clone() else {
            return self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::SignInRequired,
                    "only a signed-in player may invite: sign in first",
                ),
            );
        };
        let seated = self
            .room
            .as_ref()
            .is_some_and(|a| a.room == room && matches!(a.role, Role::Seat(_)));
        if !seated {
            return self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::NotSeated,
                    format!("you do not sit in room {room:?}: invite to the table you sit at"),
                ),
            );
        }
        if self
            .hub
            .summary_of(&room)
            .is_some_and(|s| s.status != wire::RoomStatus::Lobby)
        {
            return self.refuse(
                Some(id),
                Refusal::new(
                    ErrorCode::GameAlreadyStarted,
                    "the game has started: invite before it starts",
                ),
            );
        }
        match self.accounts.invite(&who, &name, &room).await {
            Ok(()) => self.send(&ServerMessage::Ack { re: id }),
            Err(r) => {
                let code = match r.code {
                    "too_many_invites" => ErrorCode::TooManyInvites,
                    "unknown_player" => ErrorCode::UnknownPlayer,
                    "not_following" => ErrorCode::NotFollowing,
                    "player_offline" => ErrorCode::PlayerOffline,
                    _ => ErrorCode::Internal,
                };
                self.refuse(Some(id), Refusal::new(code, r.message));
            }
        }
    }
}
