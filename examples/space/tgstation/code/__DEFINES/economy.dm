/// Credits a vending machine dispenses per refill cycle.
#define VEND_REFILL_TOKENS 5
/// Seconds between two refills of a vending machine's token bucket.
#define VEND_REFILL_DELAY (10 SECONDS)
