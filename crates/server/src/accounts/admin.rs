//! `dominion-server admin …`: operators' account commands, run on the database while the
//! server runs (a connection of their own, as the server's accounts have): list accounts,
//! ban and unban, mark a bot account, reset a password, list reported chat lines.
//!
//! A ban takes effect at once for new sign-ins and requests (they read the database);
//! live connections of the account close within `SWEEP_EVERY` on every node, each node
//! re-checking its signed-in connections. A reset password is printed once, here, and
//! never stored but as its hash; every session of the account ends.

use super::{names, password};
use crate::config::{Admin, Config};
use base64::Engine;
use std::fmt::Write;

fn date(secs: i64) -> String {
    // Days since the epoch as a calendar date (UTC), without a time crate.
    let days = secs.div_euclid(86_400);
    let (mut y, mut d) = (1970i64, days);
    loop {
        let len = if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
            366
        } else {
            365
        };
        if d < len {
            break;
        }
        d -= len;
        y += 1;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let months = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut m = 0;
    while d >= months[m] {
        d -= months[m];
        m += 1;
    }
    format!("{y:04}-{:02}-{:02}", m + 1, d + 1)
}

/// Runs one admin command; the text to print, or what went wrong.
pub fn run(config: &Config, command: &Admin) -> Result<String, String> {
    let database = config.store_database().map_err(|e| e.to_string())?;
    // The games' store first: it creates the database or brings its schema up to date.
    drop(dominion_store::Store::open_database(&database).map_err(|e| e.to_string())?);
    let mut store = dominion_store::Accounts::open(&database).map_err(|e| e.to_string())?;
    let err = |e: dominion_store::StoreError| e.to_string();
    let mut out = String::new();
    let find = |store: &mut dominion_store::Accounts, name: &str| {
        store
            .account_by_folded(&names::fold(name.trim()))
            .map_err(err)?
            .ok_or_else(|| format!("no account is registered under {name:?}"))
    };
    let now = super::now_secs();
    match command {
        Admin::Accounts { limit } => {
            for a in store.list_accounts(*limit).map_err(err)? {
                let _ = writeln!(
                    out,
                    "{}\t{}\tcreated {}{}{}",
                    a.id,
                    a.name,
                    date(a.created_at),
                    if a.bot { "\tbot" } else { "" },
                    a.banned_at
                        .map(|b| format!("\tbanned since {}", date(b)))
                        .unwrap_or_default()
                );
            }
        }
        Admin::Ban { name } => {
            let a = find(&mut store, name)?;
            store.set_banned(a.id, Some(now)).map_err(err)?;
            let _ = writeln!(
                out,
                "{} is banned: its sessions ended, its connections close within seconds",
                a.name
            );
        }
        Admin::Unban { name } => {
            let a = find(&mut store, name)?;
            store.set_banned(a.id, None).map_err(err)?;
            let _ = writeln!(out, "{} is no longer banned", a.name);
        }
        Admin::BotAccount { name } => {
            let a = find(&mut store, name)?;
            store.set_bot(a.id, true).map_err(err)?;
            let _ = writeln!(
                out,
                "{} is a bot account: it plays only through API tokens",
                a.name
            );
        }
        Admin::ResetPassword { name } => {
            let a = find(&mut store, name)?;
            let mut bytes = [0u8; 15];
            getrandom::fill(&mut bytes).map_err(|e| e.to_string())?;
            let code = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
            let cost = password::Cost {
                memory_kib: config.argon2_memory_kib,
                iterations: config.argon2_iterations,
            };
            let hash = password::hash(&code, cost)?;
            store.set_password(a.id, &hash).map_err(err)?;
            store.delete_other_sessions(a.id, None).map_err(err)?;
            let _ = writeln!(
                out,
                "{}'s new password (shown once; every session ended): {code}",
                a.name
            );
        }
        Admin::Reports { limit } => {
            for r in store.reports(*limit).map_err(err)? {
                let _ = writeln!(
                    out,
                    "{}\t{}\troom {} line {}\t{}: {:?}\treported by {}{}",
                    r.id,
                    date(r.created_at),
                    r.room_id,
                    r.line,
                    r.speaker,
                    r.text,
                    r.reporter.as_deref().unwrap_or("(deleted)"),
                    r.reason.map(|x| format!(": {x:?}")).unwrap_or_default()
                );
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_calendar_dates() {
        assert_eq!(super::date(0), "1970-01-01");
        assert_eq!(super::date(951_782_400), "2000-02-29");
        assert_eq!(super::date(1_795_737_600), "2026-11-27");
    }
}
