use std::collections::VecDeque;

use crate::bucket::TokenBucket;

#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    Text(String),
    Signal(u8),
    Shutdown,
}

/// A bounded mailbox whose senders are throttled by a token bucket.
pub struct Mailbox {
    queue: VecDeque<Message>,
    limit: usize,
    throttle: TokenBucket,
}

impl Mailbox {
    pub fn new(limit: usize, throttle: TokenBucket) -> Self {
        Mailbox { queue: VecDeque::new(), limit, throttle }
    }

    /// Deliver a message unless the mailbox is full or the sender is throttled.
    pub fn deliver(&mut self, message: Message, now: std::time::Instant) -> Result<(), Message> {
        if self.queue.len() >= self.limit || !self.throttle.try_acquire(1, now) {
            return Err(message);
        }
        self.queue.push_back(message);
        Ok(())
    }

    pub fn receive(&mut self) -> Option<Message> {
        self.queue.pop_front()
    }
}
