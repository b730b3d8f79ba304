//! A search running on the engine's threads, as [`crate::SearchEngine::go`] returns it: [`SearchHandle`] stops it,
//! tells it the opponent played the pondered move, hands out its reports ([`Info`], one per completed iteration)
//! without blocking, and gives its result. It is `Send` and owns what it needs, so that a front end (a UCI loop, an
//! async server) keeps reading its own input while the search runs.

use crate::limits::Signals;
use crate::stats::SearchResult;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

/// What a search reports after each completed iteration (a UCI engine's `info` lines).
#[derive(Debug, Clone)]
pub struct Info<M> {
    /// The iteration's result: depth, score, lines (one per MultiPV), the main thread's statistics.
    pub result: SearchResult<M>,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Time since the search's clock started.
    pub elapsed: Duration,
    /// How full the transposition table is, in permille (UCI's `hashfull`).
    pub hashfull: u32,
}

/// How `go` ends: as soon as its limits say, or (`infinite`, `ponder`) only when told.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GoMode {
    /// The result is held until [`SearchHandle::stop`] even when the search ends by itself (a depth or mate
    /// limit, or a position with one move): UCI's `go infinite`.
    pub infinite: bool,
    /// Pondering: time limits count only after [`SearchHandle::ponderhit`], and the result is held until then
    /// (or until [`SearchHandle::stop`]).
    pub ponder: bool,
}

/// Who hears a running search, on its thread: each completed iteration, then the result once it is released.
/// [`SearchHandle::is_finished`] is already true when [`Listener::finished`] is called, so that a front end printing
/// `bestmove` there handles any command sent after it as an idle engine's.
pub trait Listener<M>: Send + 'static {
    /// An iteration completed.
    fn iteration(&mut self, info: &Info<M>);

    /// The search is over with `result` (called once, on the search's thread).
    fn finished(&mut self, result: &SearchResult<M>) {
        let _ = result;
    }
}

/// The channel behind [`SearchHandle::try_report`] and [`SearchHandle::reports`].
impl<M: Clone + Send + 'static> Listener<M> for mpsc::Sender<Info<M>> {
    fn iteration(&mut self, info: &Info<M>) {
        let _ = self.send(info.clone());
    }
}

/// Listens to nothing: the search's result is all that is wanted.
impl<M> Listener<M> for () {
    fn iteration(&mut self, _: &Info<M>) {}
}

/// The state shared by a running search and its handle.
#[derive(Debug, Default)]
pub(crate) struct Control {
    /// The search's stop, ponder and node-count signals.
    pub(crate) signals: Arc<Signals>,
    /// Raised by [`SearchHandle::stop`]: releases a held result (the search's own stop signal cannot serve, the
    /// search raises it itself when it ends, to stop its helpers).
    pub(crate) released: AtomicBool,
    /// Raised once the result is known and released, before the listener hears it.
    pub(crate) done: AtomicBool,
}

impl Control {
    /// Stops the search and releases a held result.
    pub(crate) fn stop(&self) {
        self.released.store(true, Ordering::Release);
        self.signals.stop.store(true, Ordering::Relaxed);
        self.signals.ponder.store(false, Ordering::Release);
    }

    /// Waits while the result is to be held (`go infinite`, or pondering not yet hit), then marks the search done.
    pub(crate) fn hold_then_finish(&self, mode: GoMode) {
        while (mode.infinite || mode.ponder)
            && !self.released.load(Ordering::Acquire)
            && (mode.infinite || self.signals.ponder.load(Ordering::Acquire))
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.done.store(true, Ordering::Release);
    }
}

/// Marks a search done when its thread ends, however it ends (a panic included), so that nothing waits for it
/// for ever.
pub(crate) struct MarkDone(pub(crate) Arc<Control>);

impl Drop for MarkDone {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Release);
    }
}

/// Stops a running search, or passes it `ponderhit`, from any thread: a part of its [`SearchHandle`] that can be
/// cloned and shared (`Send` and `Sync`).
#[derive(Debug, Clone)]
pub struct Stopper(Arc<Control>);

impl Stopper {
    /// [`SearchHandle::stop`].
    pub fn stop(&self) {
        self.0.stop();
    }

    /// [`SearchHandle::ponderhit`].
    pub fn ponderhit(&self) {
        self.0.signals.ponder.store(false, Ordering::Release);
    }
}

/// A running search (see [`crate::SearchEngine::go`]). Dropping it stops the search and waits for its threads.
pub struct SearchHandle<M> {
    pub(crate) control: Arc<Control>,
    pub(crate) reports: Option<mpsc::Receiver<Info<M>>>,
    pub(crate) thread: Option<JoinHandle<SearchResult<M>>>,
}

impl<M> std::fmt::Debug for SearchHandle<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchHandle").field("finished", &self.is_finished()).finish_non_exhaustive()
    }
}

impl<M> SearchHandle<M> {
    /// Stops the search as soon as possible (and releases a held result); the result is that of the last completed
    /// iteration. Returns at once: [`SearchHandle::wait`] gives the result.
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The opponent played the pondered move: time limits count from now on (from the search's start), and the
    /// result is no longer held.
    pub fn ponderhit(&self) {
        self.control.signals.ponder.store(false, Ordering::Release);
    }

    /// A [`Stopper`] of this search, for another thread or task.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.control.clone())
    }

    /// Whether the result is ready ([`SearchHandle::wait`] will not block, but for the moment the thread takes to
    /// end).
    pub fn is_finished(&self) -> bool {
        self.control.done.load(Ordering::Acquire) || self.thread.as_ref().map_or(true, JoinHandle::is_finished)
    }

    /// The next report not yet taken, without blocking (`None` when there is none for now, or the search was started
    /// with a listener of its own).
    pub fn try_report(&self) -> Option<Info<M>> {
        self.reports.as_ref()?.try_recv().ok()
    }

    /// The reports in order, blocking for each: the iterator ends when the search does.
    pub fn reports(&self) -> impl Iterator<Item = Info<M>> + '_ {
        self.reports.iter().flat_map(mpsc::Receiver::iter)
    }

    /// Nodes searched so far by all threads (updated every few thousand nodes).
    pub fn nodes(&self) -> u64 {
        self.control.signals.nodes.load(Ordering::Relaxed)
    }

    /// Waits for the result.
    ///
    /// # Panics
    /// When the search panicked (the panic goes on here).
    pub fn wait(mut self) -> SearchResult<M> {
        let thread = self.thread.take().expect("a handle's thread is taken only here and in drop");
        thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }
}

impl<M> Drop for SearchHandle<M> {
    /// Stops the search (one under `go infinite` would never end) and waits for its threads.
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.stop();
            let _ = thread.join();
        }
    }
}
