//! The engine's handle: a search started with `go` reports, stops from another thread, ponders, and leaves the
//! engine ready for the next. Every wait is bounded, so that a regression fails instead of hanging.

use std::sync::mpsc;
use std::time::Duration;
use xiangqi_core::{Move, Position};
use xiangqi_eval::EvalChoice;
use xiangqi_search::{GoMode, Limits, SearchEngine, SearchHandle, SearchResult, Stopper};

#[path = "support/time_scale.rs"]
mod time_scale;

/// Generous: the machine running the tests may be busy (times `XIANGQI_TEST_TIME_SCALE`).
fn patience() -> Duration {
    time_scale::scaled(Duration::from_secs(60))
}

fn engine() -> SearchEngine<EvalChoice> {
    SearchEngine::new(EvalChoice::Handcrafted).unwrap()
}

/// The handle's result, or a failure when it does not come within [`patience`].
fn wait(handle: SearchHandle<Move>) -> SearchResult<Move> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(handle.wait());
    });
    rx.recv_timeout(patience()).expect("the search ends")
}

#[test]
fn handles_and_stoppers_cross_threads() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send::<SearchHandle<Move>>();
    send_sync::<Stopper>();
    send::<SearchEngine<EvalChoice>>();
}

#[test]
fn a_search_stopped_from_another_thread_returns_a_legal_move() {
    let mut engine = engine();
    let pos = Position::startpos();
    let handle = engine.go(&pos, Limits::default(), GoMode { infinite: true, ponder: false });
    let stopper = handle.stopper();
    // The first report says an iteration is done; then another thread stops the search.
    let (tx, rx) = mpsc::channel();
    let first = handle.reports().next().expect("an iteration completes");
    assert_eq!(first.result.depth, 1);
    std::thread::spawn(move || {
        stopper.stop();
        let _ = tx.send(());
    });
    rx.recv_timeout(patience()).unwrap();
    let r = wait(handle);
    assert!(pos.is_legal(r.best_move.expect("a move")), "{r:?}");
    assert!(r.depth >= 1);
}

#[test]
fn reports_arrive_one_per_iteration_and_end_with_the_result() {
    let mut engine = engine();
    let pos = Position::startpos();
    let handle = engine.go(&pos, Limits::depth(5), GoMode::default());
    let reports: Vec<_> = handle.reports().collect();
    let depths: Vec<u32> = reports.iter().map(|i| i.result.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes && w[0].elapsed <= w[1].elapsed));
    assert!(handle.try_report().is_none());
    let r = wait(handle);
    assert_eq!(r.best_move, reports.last().unwrap().result.best_move);
    assert_eq!(r.depth, 5);
}

#[test]
fn reports_can_be_polled_without_blocking() {
    let mut engine = engine();
    let pos = Position::startpos();
    let handle = engine.go(&pos, Limits::depth(4), GoMode::default());
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + patience();
    while !handle.is_finished() {
        assert!(std::time::Instant::now() < deadline, "the search ends");
        seen.extend(handle.try_report());
        std::thread::sleep(Duration::from_millis(1));
    }
    // Every report is in before the search counts as finished.
    seen.extend(std::iter::from_fn(|| handle.try_report()));
    let depths: Vec<u32> = seen.iter().map(|i| i.result.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_eq!(wait(handle).depth, 4);
}

#[test]
fn a_pondering_search_holds_its_result_until_ponderhit() {
    let mut engine = engine();
    let pos = Position::startpos();
    // Depth 2 ends at once; pondering, the result is held all the same.
    let handle = engine.go(&pos, Limits::depth(2), GoMode { infinite: false, ponder: true });
    let reports: Vec<_> = handle.reports().take(2).collect();
    assert_eq!(reports.len(), 2);
    std::thread::sleep(Duration::from_millis(100));
    assert!(!handle.is_finished(), "the result waits for ponderhit");
    handle.ponderhit();
    let r = wait(handle);
    assert!(pos.is_legal(r.best_move.unwrap()));
    assert_eq!(r.depth, 2);
}

#[test]
fn the_engine_is_usable_again_after_a_stopped_search() {
    let mut engine = engine();
    let pos = Position::startpos();
    let handle = engine.go(&pos, Limits::default(), GoMode { infinite: true, ponder: false });
    handle.reports().next().expect("an iteration completes");
    handle.stop();
    assert!(pos.is_legal(wait(handle).best_move.unwrap()));
    // A second search of the same engine, then a waited one; and a dropped handle stops its search too.
    let handle = engine.go(&pos, Limits::nodes(20_000), GoMode::default());
    assert!(pos.is_legal(wait(handle).best_move.unwrap()));
    let dropped = engine.go(&pos, Limits::default(), GoMode { infinite: true, ponder: false });
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        drop(dropped);
        let _ = tx.send(());
    });
    rx.recv_timeout(patience()).expect("dropping the handle stops the search");
    let r = engine.search(&pos, &Limits::depth(3));
    assert!(pos.is_legal(r.best_move.unwrap()));
}

#[test]
fn a_search_through_the_handle_visits_the_nodes_of_a_waited_one() {
    let pos = Position::startpos();
    let limits = Limits { depth: Some(5), iterative: true, ..Limits::default() };
    let waited = engine().search(&pos, &limits);
    let handle = engine().go(&pos, limits, GoMode::default());
    let r = wait(handle);
    assert_eq!((r.stats.nodes(), r.best_move, r.score), (waited.stats.nodes(), waited.best_move, waited.score));
}

#[test]
fn a_new_search_stops_the_one_still_running() {
    let mut engine = engine();
    let pos = Position::startpos();
    let first = engine.go(&pos, Limits::default(), GoMode { infinite: true, ponder: false });
    first.reports().next().expect("an iteration completes");
    let second = engine.go(&pos, Limits::depth(3), GoMode::default());
    assert!(first.is_finished(), "the first search was stopped before the second started");
    assert!(pos.is_legal(wait(first).best_move.unwrap()));
    assert_eq!(wait(second).depth, 3);
}
