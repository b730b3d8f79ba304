//! One scale factor for every timeout of the tests: `XIANGQI_TEST_TIME_SCALE` (a positive number, 1 by default)
//! multiplies each wait, so that a loaded machine can give the timed tests more time without editing them.

#![allow(dead_code)]

use std::time::Duration;

/// The factor of `XIANGQI_TEST_TIME_SCALE`, or 1 when unset; a value that is not a positive number panics with
/// its text, so that a typo does not pass silently.
pub fn factor() -> f64 {
    match std::env::var("XIANGQI_TEST_TIME_SCALE") {
        Ok(text) => match text.trim().parse::<f64>() {
            Ok(f) if f > 0.0 && f.is_finite() => f,
            _ => panic!("XIANGQI_TEST_TIME_SCALE={text:?}: expected a positive number"),
        },
        Err(_) => 1.0,
    }
}

/// `d` times the factor.
pub fn scaled(d: Duration) -> Duration {
    d.mul_f64(factor())
}
