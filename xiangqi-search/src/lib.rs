//! xiangqi-search: work in progress (see the issue tracker).
