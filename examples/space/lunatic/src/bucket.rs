use std::time::{Duration, Instant};

/// A token bucket: `capacity` tokens, refilled at `rate` tokens per second.
pub struct TokenBucket {
    tokens: f64,
    capacity: f64,
    rate: f64,
    last_refill: Instant,
}

impl TokenBucket {
    pub fn new(capacity: u32, rate: f64) -> Self {
        TokenBucket { tokens: capacity as f64, capacity: capacity as f64, rate, last_refill: Instant::now() }
    }

    /// Add the tokens earned since the last refill, never beyond capacity.
    pub fn refill_tokens(&mut self, now: Instant) {
        let elapsed: Duration = now.saturating_duration_since(self.last_refill);
        self.tokens = (self.tokens + elapsed.as_secs_f64() * self.rate).min(self.capacity);
        self.last_refill = now;
    }

    /// Take `n` tokens if available; returns whether the caller may proceed.
    pub fn try_acquire(&mut self, n: u32, now: Instant) -> bool {
        self.refill_tokens(now);
        if self.tokens >= n as f64 {
            self.tokens -= n as f64;
            true
        } else {
            false
        }
    }
}
