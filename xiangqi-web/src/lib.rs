//! # xiangqi-web: the engine in the browser
//!
//! `xiangqi serve` runs this crate: an HTTP server ([axum] on [tokio]) that serves one page, whose files are
//! embedded in the binary from `xiangqi-web/assets/` ([`Assets`]), and one WebSocket at `/ws` that speaks the JSON
//! protocol of `docs/serve-protocol.md` (the session in [`protocol`], the messages typed in [`message`], the
//! answers made in [`render`]): the rules (legal moves, check, the rule judge's verdict, notation), searches
//! through the engine handle ([`xiangqi_search::SearchEngine::go`], each on its own threads, so the server never
//! blocks), game records (PGN in any notation and encoding, XQF), whole-game reviews
//! ([`xiangqi_search::review`], what `xiangqi analyze` does) and the recorded tree of one search ([`xiangqi_search::record`]).
//!
//! Safety: the WebSocket refuses a handshake from a foreign `Origin` (403), every message is validated (an
//! `error` answers a bad one and the session goes on), uploads are capped at [`MAX_UPLOAD`] bytes, at most
//! [`Config::max_searches`] searches run at once over all sessions, and a closed socket stops its searches (a
//! `watch`, bounded by its depth, ends by itself). No route reads or writes the file system.
//!
//! ```
//! use xiangqi_web::{protocol::Session, router, Config};
//!
//! // The router (what `xiangqi serve` binds), and one message handled without a socket.
//! let _app = router(Config::default(), 8080);
//! let (mut session, mut out) = Session::for_test(Config::default());
//! session.handle_text(r#"{"type":"state","id":7,"fen":"4k4/9/9/9/9/9/9/9/9/3K1R3 w","moves":["f0f9"]}"#);
//! let answer: serde_json::Value = serde_json::from_str(&out.try_recv().unwrap()).unwrap();
//! assert_eq!(answer["type"], "state");
//! assert_eq!(answer["id"], 7);
//! assert_eq!(answer["check"], "e9");
//! assert_eq!(answer["moves"][0]["chinese"], "车四进九");
//! ```

pub mod message;
pub mod protocol;
pub mod render;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use rust_embed::RustEmbed;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;
use xiangqi_eval::EvalChoice;

/// The largest upload (`load_record`'s text or file bytes), in bytes.
pub const MAX_UPLOAD: usize = 1 << 20;

/// The largest WebSocket message accepted: an upload of [`MAX_UPLOAD`] bytes in base64, with room for the JSON
/// around it. A larger message closes the socket (the protocol's limit); an upload between the two gets an `error`.
pub const MAX_MESSAGE: usize = 4 << 20;

/// The most searches at once over all sessions unless configured otherwise ([`Config::max_searches`]).
pub const DEFAULT_MAX_SEARCHES: usize = 4;

/// The page's files, embedded in the binary at build time (also in debug builds).
#[derive(RustEmbed)]
#[folder = "assets/"]
pub struct Assets;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// At most this many searches (`go`, `review`, `watch`) at once over all sessions.
    pub max_searches: usize,
    /// The host name or address the server was bound to (`127.0.0.1` by default): an `Origin` naming it is the
    /// server's own.
    pub host: String,
    /// The evaluator of every search.
    pub eval: EvalChoice,
    /// The transposition table of each search, in MB.
    pub hash_mb: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_searches: DEFAULT_MAX_SEARCHES,
            host: "127.0.0.1".to_owned(),
            eval: EvalChoice::engine_default(),
            hash_mb: xiangqi_search::DEFAULT_HASH_MB,
        }
    }
}

/// What every session shares: the configuration and the search slots.
#[derive(Debug)]
pub struct App {
    /// The configuration.
    pub config: Config,
    /// One permit per search that may run.
    pub slots: Arc<Semaphore>,
    /// The port the server listens on (for the `Origin` check).
    pub port: u16,
}

impl App {
    /// The shared state of a server on `port`.
    pub fn new(config: Config, port: u16) -> App {
        App { slots: Arc::new(Semaphore::new(config.max_searches)), config, port }
    }
}

/// The routes: `/ws` (the WebSocket), `/` (the page) and the page's other files by name.
pub fn router(config: Config, port: u16) -> Router {
    let app = Arc::new(App::new(config, port));
    Router::new().route("/ws", get(socket)).route("/", get(index)).route("/{*path}", get(asset)).with_state(app)
}

/// Serves `router` on `listener` until the process ends.
///
/// # Errors
/// When the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, config: Config) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    // Small messages go out at once (Nagle's algorithm would hold an answer back behind a delayed ACK).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router(config, port)).await
}

async fn index() -> Response {
    file("index.html")
}

async fn asset(uri: Uri) -> Response {
    file(uri.path().trim_start_matches('/'))
}

/// An embedded file with its content type, or 404 (also for a name with a part starting with a dot).
fn file(path: &str) -> Response {
    let hidden = path.split('/').any(|part| part.starts_with('.'));
    match Assets::get(path).filter(|_| !hidden) {
        Some(f) => (
            [(header::CONTENT_TYPE, f.metadata.mimetype().to_owned()), (header::CACHE_CONTROL, "no-cache".to_owned())],
            f.data,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, format!("no such file: /{path}")).into_response(),
    }
}

/// The WebSocket handshake: refused with 403 for a foreign `Origin`.
async fn socket(State(app): State<Arc<App>>, headers: HeaderMap, ws: WebSocketUpgrade) -> Response {
    let origin = headers.get(header::ORIGIN).map(|v| v.to_str().unwrap_or("\u{0}"));
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if let Some(origin) = origin {
        if !origin_allowed(origin, host, &app.config.host, app.port) {
            return (StatusCode::FORBIDDEN, "this socket serves only the page of this server").into_response();
        }
    }
    ws.max_message_size(MAX_MESSAGE).on_upgrade(move |socket| protocol::run(socket, app))
}

/// Whether a browser page at `origin` is the server's own: its port is the server's, and its host is a loopback
/// name or address, the host the server was bound to, or (for a server bound to all interfaces) the IP address the
/// request was sent to (`host`, the `Host` header; a name there is refused, so that a rebound DNS name cannot pass).
pub fn origin_allowed(origin: &str, host: Option<&str>, bound: &str, port: u16) -> bool {
    let Ok(uri) = origin.parse::<Uri>() else { return false };
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else { return false };
    let default_port = match scheme {
        "http" => 80,
        "https" => 443,
        _ => return false,
    };
    if authority.port_u16().unwrap_or(default_port) != port {
        return false;
    }
    let name = authority.host().trim_start_matches('[').trim_end_matches(']');
    let ip = name.parse::<IpAddr>().ok();
    if name.eq_ignore_ascii_case("localhost") || ip.is_some_and(|ip| ip.is_loopback()) {
        return true;
    }
    if name.eq_ignore_ascii_case(bound.trim_start_matches('[').trim_end_matches(']')) {
        return true;
    }
    let sent_to = host.and_then(|h| h.parse::<axum::http::uri::Authority>().ok());
    ip.is_some() && sent_to.is_some_and(|a| a.host().trim_start_matches('[').trim_end_matches(']') == name)
}

#[cfg(test)]
mod tests {
    use super::origin_allowed;

    #[test]
    fn origins() {
        let ok = |o: &str| origin_allowed(o, Some("127.0.0.1:8080"), "127.0.0.1", 8080);
        assert!(ok("http://127.0.0.1:8080"));
        assert!(ok("http://localhost:8080"));
        assert!(ok("http://[::1]:8080"));
        assert!(!ok("http://127.0.0.1:8081"));
        assert!(!ok("http://evil.example:8080"));
        assert!(!ok("https://evil.example"));
        assert!(!ok("null"));
        assert!(!ok("file://"));
        // Bound to every interface: the address the page was loaded from, never a name.
        assert!(origin_allowed("http://192.168.1.5:80", Some("192.168.1.5"), "0.0.0.0", 80));
        assert!(!origin_allowed("http://rebound.example:80", Some("rebound.example"), "0.0.0.0", 80));
        assert!(origin_allowed("http://box.lan:9000", Some("box.lan:9000"), "box.lan", 9000));
    }
}
