//! Lunatic: a tiny process scheduler with rate-limited mailboxes.
pub mod bucket;
pub mod mailbox;

pub use bucket::TokenBucket;
pub use mailbox::{Mailbox, Message};
