//! xiangqi-eval: work in progress (see the issue tracker).
