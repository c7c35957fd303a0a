//! The store's side of the cluster, as the log provides it: claims, the rooms to take
//! over, one room rebuilt from its log, and the cluster's key.

use super::{Claim, Ledger};
use crate::gamelog::LogError;
use crate::gamelog::durable::{DurableLog, RecoverError, Recovered};
use futures_util::future::BoxFuture;
use std::time::Duration;

impl Ledger for DurableLog {
    fn claim<'a>(
        &'a self,
        room: &'a str,
        node: &'a str,
        token: i64,
    ) -> BoxFuture<'a, Result<Claim, LogError>> {
        Box::pin(async move {
            match DurableLog::claim(self, room, node, token).await {
                Ok(()) => Ok(Claim::Claimed),
                Err(LogError::Fenced { .. }) => {
                    let id = room.to_string();
                    let current = self.read(move |v| v.fence(&id)).await?;
                    Ok(Claim::Stale {
                        current: current.map_or(token, |f| f.token),
                    })
                }
                Err(e) => Err(e),
            }
        })
    }

    fn recover_one<'a>(
        &'a self,
        room: &'a str,
        finished_ttl: Duration,
    ) -> BoxFuture<'a, Result<Option<Recovered>, LogError>> {
        Box::pin(async move {
            match DurableLog::recover_one(self, room, finished_ttl).await {
                Ok(r) => Ok(r),
                // Marked broken in the store by now: nothing to run.
                Err(RecoverError::Broken(b)) => {
                    tracing::error!(room = %b.id, reason = %b.reason, "room taken over is broken");
                    Ok(None)
                }
                Err(RecoverError::Log(e)) => Err(e),
            }
        })
    }

    fn is_live<'a>(
        &'a self,
        room: &'a str,
        finished_ttl: Duration,
    ) -> BoxFuture<'a, Result<bool, LogError>> {
        Box::pin(DurableLog::is_live(self, room, finished_ttl))
    }

    fn cluster_key(&self, candidate: String) -> BoxFuture<'_, Result<String, LogError>> {
        Box::pin(DurableLog::cluster_key(self, candidate))
    }

    fn live_room_ids(
        &self,
        finished_ttl: Duration,
    ) -> BoxFuture<'_, Result<Vec<String>, LogError>> {
        Box::pin(DurableLog::live_room_ids(self, finished_ttl))
    }
}
