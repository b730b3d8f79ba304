//! Search benchmarks (filled in by the search issue).
fn main() {}
