//! The house bots' accounts (issue 25, the bot ladder): one system account per bot
//! level the server offers — `house-easy`, `house-standard`, `house-search` — under
//! which our own bots are rated in pool `bots` when they play a bot account on the
//! ladder.
//!
//! They are ordinary rows of `accounts` (schema 8 needs nothing new): bot accounts
//! (`bot = 1`, so profiles and the leaderboard show them as bots) whose password hash is
//! [`HOUSE_MARK`], which is no PHC string — no password verifies against it, so nobody
//! signs in to them, and with no session nobody makes them an API token. The names are
//! reserved: registering one (or a name that folds to one) is refused as taken, and a
//! guest cannot sit down under them (they are registered). They are made at start-up,
//! idempotently (an existing house account is kept with its ratings); a name already
//! held by a player's account from before this release is left alone, and that level is
//! then not offered on the ladder (logged).
//!
//! A house bot's seat in a ladder room is an ordinary server-bot seat (`{"type":
//! "bot"}`), linked to its account in `seat_accounts` under the name such a seat is
//! stored with (empty): the store then finds every seat an account's, all bot accounts,
//! and rates the game in pool `bots`. Only the ladder makes that link, so a game where a
//! bot stands in for an absent player, or a room made with server bots, stays unrated.

use super::{Accounts, now_secs};
use dominion_store::{AccountRow, Created};

/// The password hash of a house account: not a PHC string, so it verifies nothing.
pub const HOUSE_MARK: &str = "!house-bot";

/// The prefix of every house account's name; the rest is the bot level.
pub const PREFIX: &str = "house-";

/// A house bot's account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseAccount {
    /// The server bot (`easy`, `standard`, `search`).
    pub bot: String,
    pub account: i64,
    pub name: String,
}

/// The account name of bot level `bot`.
pub fn name_of(bot: &str) -> String {
    format!("{PREFIX}{bot}")
}

/// Whether a folded name is a house bot's (reserved).
pub fn reserved(folded: &str) -> bool {
    dominion_engine::bots::LEVELS
        .iter()
        .any(|b| super::names::fold(&name_of(b)) == folded)
}

/// Whether an account is one of the house bots'.
pub fn is_house(account: &AccountRow) -> bool {
    account.bot && account.password_hash == HOUSE_MARK
}

/// Makes (or finds) the house accounts of every bot level, on the accounts' connection.
pub(super) fn ensure(store: &mut dominion_store::Accounts) -> Vec<HouseAccount> {
    let mut out = Vec::new();
    for bot in dominion_engine::bots::LEVELS {
        let name = name_of(bot);
        let folded = super::names::fold(&name);
        let found = match store.account_by_folded(&folded) {
            Ok(Some(row)) => Some(row),
            Ok(None) => match store.create_account(&name, &folded, HOUSE_MARK, true, now_secs()) {
                Ok(Created::Account(row)) => Some(row),
                // Made by another node at the same moment.
                Ok(Created::NameTaken) => store.account_by_folded(&folded).ok().flatten(),
                Err(e) => {
                    tracing::error!(bot, "cannot make the house bot's account: {e}");
                    None
                }
            },
            Err(e) => {
                tracing::error!(bot, "cannot read the house bot's account: {e}");
                None
            }
        };
        match found {
            Some(row) if is_house(&row) => out.push(HouseAccount {
                bot: bot.to_string(),
                account: row.id,
                name: row.name,
            }),
            Some(_) => tracing::warn!(
                bot,
                name,
                "a player's account holds the house bot's name: this bot is not offered on the bot ladder"
            ),
            None => {}
        }
    }
    out
}

impl Accounts {
    /// The house bots' accounts made at start-up.
    pub fn house(&self) -> &[HouseAccount] {
        &self.house
    }

    /// Links seat `seat` of `room` — a server-bot seat, stored with an empty name — to
    /// house account `account`, so that the game is rated in pool `bots`.
    pub async fn link_house_seat(
        &self,
        room: String,
        seat: u8,
        account: i64,
    ) -> Result<(), super::Refused> {
        self.db(move |s| s.link_seat(&room, seat, account, ""))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_house_names_are_reserved_in_every_look_alike() {
        for name in ["house-easy", "House-Standard", "HOUSE-SEARCH", "hоuse-easy"] {
            assert!(reserved(&super::super::names::fold(name)), "{name}");
        }
        assert!(!reserved(&super::super::names::fold("house-hard")));
        assert!(!reserved(&super::super::names::fold("easy")));
    }
}
