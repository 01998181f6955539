use lunatic::{Mailbox, Message, TokenBucket};
use std::time::Instant;

#[test]
fn throttled_sender_gets_its_message_back() {
    let now = Instant::now();
    let mut mailbox = Mailbox::new(8, TokenBucket::new(1, 0.0));
    assert!(mailbox.deliver(Message::Signal(1), now).is_ok());
    assert_eq!(mailbox.deliver(Message::Shutdown, now), Err(Message::Shutdown));
}
