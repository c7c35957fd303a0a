//! A refused command: the error code a program branches on and a message for people.

use dominion_engine::InvalidReply;
use dominion_protocol::{ErrorCode, ServerMessage};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

impl Refusal {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The `error` message answering command `re`.
    pub fn to_message(&self, re: Option<u64>) -> ServerMessage {
        ServerMessage::Error {
            re,
            code: self.code,
            message: self.message.clone(),
        }
    }
}

impl From<InvalidReply> for Refusal {
    /// The engine's reasons map one-to-one onto error codes; its text is the message.
    fn from(e: InvalidReply) -> Refusal {
        let code = match &e {
            InvalidReply::GameOver => ErrorCode::GameOver,
            InvalidReply::NotYourDecision { .. } => ErrorCode::NotYourDecision,
            InvalidReply::NoSuchPlayer(_) => ErrorCode::Internal,
            InvalidReply::WrongKind { .. } => ErrorCode::WrongKind,
            InvalidReply::NotAnOption(_) => ErrorCode::NotAnOption,
            InvalidReply::WrongCount { .. } => ErrorCode::WrongCount,
            InvalidReply::TooMany(_) => ErrorCode::TooMany,
            InvalidReply::PileRequired => ErrorCode::PileRequired,
            InvalidReply::NotAPermutation => ErrorCode::NotAPermutation,
        };
        Refusal::new(code, e.to_string())
    }
}
