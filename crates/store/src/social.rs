//! What an account chooses about others and about the game (schema 8): the kingdom
//! cards it bans or dislikes (`card_prefs`) and the accounts it follows (`follows`).
//!
//! On the accounts' own connection ([`Accounts`]), beside sessions and blocks: a
//! preference is a player's setting, not part of any game's record. The card lists are
//! replaced as a whole in one transaction, so a reader sees either the old lists or the
//! new ones, never a mix. Card ids are stored as the engine's keys (`"village"`); the
//! server checks them (known kingdom cards) and the limits (3 bans, 10 dislikes) before
//! they get here, and this module keeps whatever it is given. Deleting an account
//! removes its preferences and its follows in both directions
//! ([`Accounts::delete_account`]).

use super::{Accounts, V};
use crate::Result;

/// The kingdom cards an account bans (never drawn for its automatch games) and
/// dislikes (avoided when enough other cards remain), each in card-id order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardPrefs {
    pub bans: Vec<String>,
    pub dislikes: Vec<String>,
}

/// An account another follows (or is followed by).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowRow {
    pub account_id: i64,
    pub name: String,
    pub bot: bool,
    /// When the follow was made.
    pub since: i64,
    /// Whether this account blocks the other one of the pair (for [`Accounts::following`]:
    /// the followed account blocks the follower; for [`Accounts::followers`]: the
    /// follower blocks the followed one).
    pub blocks: bool,
}

/// How a follow went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Followed {
    /// Now followed.
    Added,
    /// It was followed already (nothing changed).
    Already,
    /// The account follows `max` others already; nothing changed.
    TooMany,
}

impl Accounts {
    /// The account's banned and disliked cards (empty lists if it chose none).
    pub fn card_prefs(&mut self, account_id: i64) -> Result<CardPrefs> {
        let mut prefs = CardPrefs::default();
        for r in self.rows(
            "SELECT card, kind FROM card_prefs WHERE account_id = ?1 ORDER BY card",
            &[account_id.into()],
        )? {
            let (Some(card), Some(kind)) = (r[0].text(), r[1].text()) else {
                continue;
            };
            match kind.as_str() {
                "ban" => prefs.bans.push(card),
                _ => prefs.dislikes.push(card),
            }
        }
        Ok(prefs)
    }

    /// The preferences of several accounts at once (an automatch room's players), in
    /// the order of `account_ids`.
    pub fn card_prefs_of(&mut self, account_ids: &[i64]) -> Result<Vec<CardPrefs>> {
        account_ids.iter().map(|&id| self.card_prefs(id)).collect()
    }

    /// Replaces the account's lists with these, in one transaction. A card in both lists
    /// is refused by the database (the card is the key) and nothing changes.
    pub fn set_card_prefs(
        &mut self,
        account_id: i64,
        bans: &[String],
        dislikes: &[String],
    ) -> Result<()> {
        self.transaction(|a| {
            a.exec(
                "DELETE FROM card_prefs WHERE account_id = ?1",
                &[account_id.into()],
            )?;
            for (cards, kind) in [(bans, "ban"), (dislikes, "dislike")] {
                for card in cards {
                    a.exec(
                        "INSERT INTO card_prefs (account_id, card, kind) VALUES (?1, ?2, ?3)",
                        &[account_id.into(), card.into(), kind.into()],
                    )?;
                }
            }
            Ok(())
        })
    }

    /// `account_id` follows `followed_id`, unless it follows `max` accounts already.
    pub fn follow(
        &mut self,
        account_id: i64,
        followed_id: i64,
        now: i64,
        max: u32,
    ) -> Result<Followed> {
        self.transaction(|a| {
            if a.is_following(account_id, followed_id)? {
                return Ok(Followed::Already);
            }
            let count = a
                .one(
                    "SELECT COUNT(*) FROM follows WHERE account_id = ?1",
                    &[account_id.into()],
                )?
                .and_then(|r| r[0].int())
                .unwrap_or_default();
            if count >= i64::from(max) {
                return Ok(Followed::TooMany);
            }
            a.exec(
                "INSERT INTO follows (account_id, followed_id, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (account_id, followed_id) DO NOTHING",
                &[account_id.into(), followed_id.into(), now.into()],
            )?;
            Ok(Followed::Added)
        })
    }

    /// Stops following; false if it did not follow.
    pub fn unfollow(&mut self, account_id: i64, followed_id: i64) -> Result<bool> {
        Ok(self.exec(
            "DELETE FROM follows WHERE account_id = ?1 AND followed_id = ?2",
            &[account_id.into(), followed_id.into()],
        )? == 1)
    }

    /// Whether `account_id` follows `followed_id`.
    pub fn is_following(&mut self, account_id: i64, followed_id: i64) -> Result<bool> {
        Ok(self
            .one(
                "SELECT 1 FROM follows WHERE account_id = ?1 AND followed_id = ?2",
                &[account_id.into(), followed_id.into()],
            )?
            .is_some())
    }

    /// The accounts `account_id` follows, in name order.
    pub fn following(&mut self, account_id: i64) -> Result<Vec<FollowRow>> {
        self.follow_rows(
            "SELECT a.id, a.name, a.bot, f.created_at,
                    EXISTS (SELECT 1 FROM blocks b
                            WHERE b.account_id = f.followed_id AND b.blocked_id = f.account_id)
             FROM follows f JOIN accounts a ON a.id = f.followed_id
             WHERE f.account_id = ?1 ORDER BY a.folded",
            account_id,
        )
    }

    /// The accounts that follow `account_id`, in name order.
    pub fn followers(&mut self, account_id: i64) -> Result<Vec<FollowRow>> {
        self.follow_rows(
            "SELECT a.id, a.name, a.bot, f.created_at,
                    EXISTS (SELECT 1 FROM blocks b
                            WHERE b.account_id = f.account_id AND b.blocked_id = f.followed_id)
             FROM follows f JOIN accounts a ON a.id = f.account_id
             WHERE f.followed_id = ?1 ORDER BY a.folded",
            account_id,
        )
    }

    fn follow_rows(&mut self, sql: &str, account_id: i64) -> Result<Vec<FollowRow>> {
        Ok(self
            .rows(sql, &[account_id.into()])?
            .iter()
            .map(|r: &Vec<V>| FollowRow {
                account_id: r[0].int().unwrap_or_default(),
                name: r[1].text().unwrap_or_default(),
                bot: r[2].int().unwrap_or_default() != 0,
                since: r[3].int().unwrap_or_default(),
                blocks: r[4].int().unwrap_or_default() != 0,
            })
            .collect())
    }
}
