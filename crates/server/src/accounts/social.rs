//! Card preferences and friends (issue 25): the kingdom cards an account bans and
//! dislikes, the accounts it follows, and inviting one of them to a table.
//!
//! Beside the rest of `accounts`, on the same store connection (`dominion_store`'s
//! `card_prefs` and `follows` tables). The lists a player sends are checked by
//! `convert::kingdom_prefs` (known kingdom cards, at most 3 bans and 10 dislikes) and
//! replaced whole in one transaction. Whoever draws an automatch kingdom asks
//! [`Accounts::draw_prefs`] for its players' lists together.
//!
//! **Invitations.** An invitation goes only to an account the inviter follows, reaches
//! each of its signed-in connections on this node (`live::Live::notify`) — in a cluster
//! also on the other nodes, relayed through the cluster's presence
//! (`crate::presence`, `cluster::presence`) — and says only
//! who invites and to which room. An account that blocks the inviter is answered as if
//! it were offline, so an invitation never tells anyone they are blocked. Each account
//! may send [`INVITES`] per [`INVITE_WINDOW`], counted whether they reach anyone or not
//! (so probing who is online is bounded too), in a table of bounded size and, in a
//! cluster, also in the windows every node shares.

use super::throttle::Limit;
use super::{Accounts, Refused, SignedIn, now_secs};
use crate::convert::kingdom_prefs;
use dominion_engine::CardId;
use dominion_protocol as wire;
use dominion_store::{FollowRow, Followed};
use std::time::Duration;
use tokio::time::Instant;

/// Accounts one account may follow.
pub const MAX_FOLLOWS: u32 = 500;
/// Invitations one account may send per [`INVITE_WINDOW`].
pub const INVITES: u32 = 10;
pub const INVITE_WINDOW: Duration = Duration::from_secs(60);
/// Accounts the invitation limit remembers at most.
const INVITERS_KEPT: usize = 16_384;

/// The social state a node keeps in memory: the invitation counts (in a cluster also
/// counted in the windows every node shares, so the limit holds once across nodes).
pub struct Social {
    invites: Limit<i64>,
}

impl Default for Social {
    fn default() -> Social {
        Social {
            invites: Limit::new("invites", INVITES, INVITE_WINDOW, INVITERS_KEPT),
        }
    }
}

fn prefs(p: dominion_store::CardPrefs) -> wire::CardPrefs {
    wire::CardPrefs {
        bans: p.bans,
        dislikes: p.dislikes,
    }
}

impl Accounts {
    /// `GET /api/me/cards`.
    pub async fn card_prefs(&self, who: &SignedIn) -> Result<wire::CardPrefs, Refused> {
        let id = who.account.id;
        Ok(prefs(self.db(move |s| s.card_prefs(id)).await?))
    }

    /// `PUT /api/me/cards`: both lists replaced, or nothing changed.
    pub async fn set_card_prefs(
        &self,
        who: &SignedIn,
        new: wire::CardPrefs,
    ) -> Result<wire::CardPrefs, Refused> {
        if new.bans.len() + new.dislikes.len() > 200 {
            return Err(Refused::new("bad_request", "far too many cards"));
        }
        let (bans, dislikes) = kingdom_prefs::check_prefs(&new.bans, &new.dislikes)
            .map_err(|e| Refused::new(e.code(), e.to_string()))?;
        let keys = |cards: Vec<CardId>| -> Vec<String> {
            cards.into_iter().map(|c| c.key().to_string()).collect()
        };
        let (bans, dislikes) = (keys(bans), keys(dislikes));
        let id = who.account.id;
        let stored = self
            .db(move |s| {
                s.set_card_prefs(id, &bans, &dislikes)?;
                s.card_prefs(id)
            })
            .await?;
        Ok(prefs(stored))
    }

    /// The lists to draw an automatch kingdom with, for these accounts together: every
    /// card any of them bans, and every card any of them dislikes (a card banned by one
    /// and disliked by another counts as banned). Cards no longer known are skipped.
    pub async fn draw_prefs(
        &self,
        accounts: Vec<i64>,
    ) -> Result<(Vec<CardId>, Vec<CardId>), Refused> {
        let all = self.db(move |s| s.card_prefs_of(&accounts)).await?;
        let mut bans: Vec<CardId> = Vec::new();
        let mut dislikes: Vec<CardId> = Vec::new();
        for p in &all {
            bans.extend(kingdom_prefs::stored_cards(&p.bans));
            dislikes.extend(kingdom_prefs::stored_cards(&p.dislikes));
        }
        bans.sort_by_key(|c| c.key());
        bans.dedup();
        dislikes.retain(|c| !bans.contains(c));
        dislikes.sort_by_key(|c| c.key());
        dislikes.dedup();
        Ok((bans, dislikes))
    }

    /// `PUT /api/me/follows/{name}` (`follow`) and `DELETE` (`!follow`).
    pub async fn set_follow(
        &self,
        who: &SignedIn,
        name: &str,
        follow: bool,
    ) -> Result<(), Refused> {
        let other = self.player(name).await?;
        let account = who.account.id;
        if other.id == account {
            return Err(Refused::new("bad_request", "you cannot follow yourself"));
        }
        if !follow {
            self.db(move |s| s.unfollow(account, other.id)).await?;
            return Ok(());
        }
        match self
            .db(move |s| s.follow(account, other.id, now_secs(), MAX_FOLLOWS))
            .await?
        {
            Followed::Added | Followed::Already => Ok(()),
            Followed::TooMany => Err(Refused::new(
                "too_many_follows",
                format!("you follow {MAX_FOLLOWS} players already; unfollow one first"),
            )),
        }
    }

    /// The accounts `who` follows, in name order (`GET /api/me/follows` adds who is
    /// online and their open tables).
    pub async fn following(&self, who: &SignedIn) -> Result<Vec<FollowRow>, Refused> {
        let id = who.account.id;
        self.db(move |s| s.following(id)).await
    }

    /// `invite`: sends `invited` to each signed-in connection here of the account
    /// registered as `name`, which `who` must follow. Refusal codes: `too_many_invites`,
    /// `unknown_player`, `not_following`, `player_offline` (also when that account
    /// blocks `who`), `busy`, `internal`.
    pub async fn invite(&self, who: &SignedIn, name: &str, room: &str) -> Result<(), Refused> {
        let me = who.account.id;
        {
            let now = Instant::now();
            let label = me.to_string();
            let shared = self.shared.get();
            let invites = &self.social.invites;
            if let Some(wait) = invites.blocked(&me, &label, shared, now).await {
                return Err(Refused {
                    retry_after: Some(wait),
                    ..Refused::new(
                        "too_many_invites",
                        format!(
                            "at most {INVITES} invitations a minute; try again in {} s",
                            wait.as_secs().max(1)
                        ),
                    )
                });
            }
            invites.count(me, &label, shared, now).await;
        }
        let other = self.player(name).await?;
        let other_id = other.id;
        let (following, blocked_by) = self
            .db(move |s| Ok((s.is_following(me, other_id)?, s.blocks(other_id)?)))
            .await?;
        if !following {
            return Err(Refused::new(
                "not_following",
                format!(
                    "you do not follow {:?}: follow them first to invite them",
                    other.name
                ),
            ));
        }
        let offline = || {
            Refused::new(
                "player_offline",
                format!("{:?} is not online on this server", other.name),
            )
        };
        if other.banned_at.is_some() || blocked_by.contains(&who.account.name) {
            return Err(offline());
        }
        let invited = wire::ServerMessage::Invited {
            from: who.account.name.clone(),
            room: room.to_string(),
        };
        let Some(presence) = self.presence.get() else {
            if self.live.notify(other.id, &invited) == 0 {
                return Err(offline());
            }
            return Ok(());
        };
        // In a cluster: the friend's connections here, and those of the other nodes it
        // is signed in on, through the node that holds them.
        let here = self.live.notify_direct(other.id, &invited);
        let elsewhere = self
            .online_elsewhere(vec![other.id])
            .await
            .contains(&other.id);
        let relayed = elsewhere
            && match serde_json::to_string(&invited) {
                Ok(frame) => match presence.send_elsewhere(other.id, frame).await {
                    Ok(()) => true,
                    Err(e) => {
                        tracing::warn!("cannot relay an invitation to another node: {e}");
                        false
                    }
                },
                Err(_) => false,
            };
        if here == 0 && !relayed {
            return Err(offline());
        }
        Ok(())
    }

    /// What `GET /api/me/data` lists of this: the card lists and whom the account
    /// follows (names and since when).
    pub(super) async fn social_data(&self, id: i64) -> Result<serde_json::Value, Refused> {
        let (cards, following) = self
            .db(move |s| Ok((s.card_prefs(id)?, s.following(id)?)))
            .await?;
        Ok(serde_json::json!({
            "cards": prefs(cards),
            "following": following.iter().map(|f| serde_json::json!({
                "name": f.name, "since": f.since,
            })).collect::<Vec<_>>(),
        }))
    }
}
