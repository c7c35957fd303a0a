//! Server tests over real sockets: a server on 127.0.0.1 port 0 in this process, and
//! clients that speak raw JSON as any third-party client would.

mod abuse;
mod backup;
mod catalogue;
mod chaos;
mod chat_limits;
mod client_vp;
mod cluster;
mod common;
mod crash;
mod database;
mod deploy;
mod durable;
mod game;
mod history;
mod invalid;
mod levels;
mod limits;
mod logs;
mod process;
mod proxy;
mod python;
mod python_bot;
mod reactions;
mod reconnect;
mod rematch;
mod replay;
mod rust_version;
mod secrets;
mod shutdown;
mod social;
mod takeover;
mod undo;
mod upgrade;
