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
use std::time::Duration;
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
    /// The longest search one request may run (`go`, and each position of a `review`): a longer one, or one
    /// without a time limit, is cut to it and its answer says so (`clamped`). `None`: no cap.
    pub max_movetime: Option<Duration>,
    /// The most nodes one request's search may take (`go`, and each position of a `review`), as
    /// [`Config::max_movetime`]. `None`: no cap.
    pub max_nodes: Option<u64>,
    /// Origins whose pages may open the WebSocket besides the server's own ([`origin_allowed`]): the public
    /// address of a server behind a proxy or an Ingress, a DNS name of a server bound to loopback.
    pub allowed_origins: Vec<AllowedOrigin>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_searches: DEFAULT_MAX_SEARCHES,
            host: "127.0.0.1".to_owned(),
            eval: EvalChoice::engine_default(),
            hash_mb: xiangqi_search::DEFAULT_HASH_MB,
            max_movetime: None,
            max_nodes: None,
            allowed_origins: Vec::new(),
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
    /// The port the server listens on.
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
        if !origin_allowed(origin, host, &app.config) {
            return (
                StatusCode::FORBIDDEN,
                "this socket serves only the pages of this server's own address (xiangqi serve --allow-origin adds one)",
            )
                .into_response();
        }
    }
    ws.max_message_size(MAX_MESSAGE).on_upgrade(move |socket| protocol::run(socket, app))
}

/// An origin whose pages may open the WebSocket (`xiangqi serve --allow-origin`): a scheme (`http` or `https`),
/// a host and a port (the scheme's own when not written), as a browser sends it in the `Origin` header.
///
/// ```
/// use xiangqi_web::AllowedOrigin;
///
/// let o: AllowedOrigin = "https://Xiangqi.School.example".parse().unwrap();
/// assert_eq!(o.to_string(), "https://xiangqi.school.example:443");
/// assert!("xiangqi.school.example".parse::<AllowedOrigin>().is_err()); // no scheme
/// assert!("https://a.example/page".parse::<AllowedOrigin>().is_err()); // an origin has no path
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedOrigin {
    /// `http` or `https`.
    pub scheme: String,
    /// The host, lowercase, without the brackets of an IPv6 address.
    pub host: String,
    /// The port.
    pub port: u16,
}

impl std::str::FromStr for AllowedOrigin {
    type Err = String;

    fn from_str(text: &str) -> Result<AllowedOrigin, String> {
        let uri: Uri = text.parse().map_err(|e| format!("{text:?} is not a URL: {e}"))?;
        let scheme = match uri.scheme_str().map(str::to_ascii_lowercase).as_deref() {
            Some("http") => "http",
            Some("https") => "https",
            _ => return Err(format!("{text:?}: an origin starts with http:// or https://")),
        };
        let authority = uri.authority().ok_or_else(|| format!("{text:?}: an origin names a host"))?;
        if authority.as_str().contains('@') {
            return Err(format!("{text:?}: an origin has no user name"));
        }
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return Err(format!("{text:?}: an origin is a scheme, a host and a port, without a path"));
        }
        let host = unbracket(authority.host()).to_ascii_lowercase();
        if host.is_empty() {
            return Err(format!("{text:?}: an origin names a host"));
        }
        let port = authority.port_u16().unwrap_or(if scheme == "https" { 443 } else { 80 });
        Ok(AllowedOrigin { scheme: scheme.to_owned(), host, port })
    }
}

impl std::fmt::Display for AllowedOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.contains(':') {
            write!(f, "{}://[{}]:{}", self.scheme, self.host, self.port)
        } else {
            write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
        }
    }
}

fn unbracket(host: &str) -> &str {
    host.trim_start_matches('[').trim_end_matches(']')
}

fn is_loopback(host: &str) -> bool {
    let host = unbracket(host);
    host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether a browser page at `origin` may open the WebSocket of a server configured by `config`, the handshake
/// sent with the `Host` header `host`:
/// - an origin of [`Config::allowed_origins`] is allowed;
/// - otherwise the page must be the server's own: its host and port those of the `Host` header (the port the
///   origin's scheme implies when the header names none), as a page loaded from the address the browser sent the
///   handshake to has. A server bound to a loopback address (the default) takes only a loopback host there
///   (`localhost`, `127.0.0.1`, `[::1]`): a page of another DNS name resolved to the loopback address (DNS
///   rebinding) is refused; name such a host with `--allow-origin`.
///
/// ```
/// use xiangqi_web::{origin_allowed, Config};
///
/// let local = Config::default(); // bound to 127.0.0.1
/// assert!(origin_allowed("http://127.0.0.1:8080", Some("127.0.0.1:8080"), &local));
/// assert!(!origin_allowed("http://evil.example:8080", Some("evil.example:8080"), &local));
/// // Behind an Ingress: the browser's origin and Host header name the public address.
/// let class = Config { host: "0.0.0.0".into(), ..Config::default() };
/// assert!(origin_allowed("https://xiangqi.school.example", Some("xiangqi.school.example"), &class));
/// assert!(!origin_allowed("https://evil.example", Some("xiangqi.school.example"), &class));
/// ```
pub fn origin_allowed(origin: &str, host: Option<&str>, config: &Config) -> bool {
    let Ok(origin) = origin.parse::<AllowedOrigin>() else { return false };
    if config.allowed_origins.contains(&origin) {
        return true;
    }
    let Some(sent_to) = host.and_then(|h| h.parse::<axum::http::uri::Authority>().ok()) else { return false };
    let default_port = if origin.scheme == "https" { 443 } else { 80 };
    let same = unbracket(sent_to.host()).eq_ignore_ascii_case(&origin.host)
        && sent_to.port_u16().unwrap_or(default_port) == origin.port;
    same && (!is_loopback(&config.host) || is_loopback(&origin.host))
}

#[cfg(test)]
mod tests {
    use super::{origin_allowed, AllowedOrigin, Config};

    #[test]
    fn origins() {
        let local = Config::default();
        let ok = |o: &str| origin_allowed(o, Some("127.0.0.1:8080"), &local);
        assert!(ok("http://127.0.0.1:8080"));
        assert!(origin_allowed("http://localhost:8080", Some("localhost:8080"), &local));
        assert!(origin_allowed("http://[::1]:8080", Some("[::1]:8080"), &local));
        assert!(!ok("http://localhost:8080"), "not the host the handshake was sent to");
        assert!(!ok("http://127.0.0.1:8081"));
        assert!(!ok("http://evil.example:8080"));
        assert!(!ok("https://evil.example"));
        assert!(!ok("null"));
        assert!(!ok("file://"));
        assert!(!origin_allowed("http://127.0.0.1:8080", None, &local), "no Host header");
        // A loopback server refuses a page of a name rebound to it, unless the operator names it.
        assert!(!origin_allowed("http://rebound.example:8080", Some("rebound.example:8080"), &local));
        let named = Config { allowed_origins: vec!["http://rebound.example:8080".parse().unwrap()], ..local.clone() };
        assert!(origin_allowed("http://rebound.example:8080", Some("rebound.example:8080"), &named));
        assert!(origin_allowed("http://REBOUND.example:8080/", Some("127.0.0.1:8080"), &named));
        // Bound to every interface: the address the page was loaded from, a name or an IP address, on any port.
        let all = Config { host: "0.0.0.0".into(), ..Config::default() };
        assert!(origin_allowed("http://192.168.1.5", Some("192.168.1.5"), &all));
        assert!(origin_allowed("http://192.168.1.5:8080", Some("192.168.1.5:8080"), &all));
        assert!(origin_allowed("https://xiangqi.school.example", Some("xiangqi.school.example"), &all));
        assert!(origin_allowed("https://xiangqi.school.example", Some("xiangqi.school.example:443"), &all));
        assert!(!origin_allowed("https://xiangqi.school.example", Some("xiangqi.school.example:8080"), &all));
        assert!(!origin_allowed("http://evil.example", Some("192.168.1.5"), &all));
        assert!(origin_allowed("http://box.lan:9000", Some("box.lan:9000"), &Config { host: "box.lan".into(), ..all }));
    }

    #[test]
    fn allowed_origins_read_and_refused() {
        let o: AllowedOrigin = "http://[::1]:9000".parse().unwrap();
        assert_eq!((o.host.as_str(), o.port, o.to_string()), ("::1", 9000, "http://[::1]:9000".to_owned()));
        assert_eq!("HTTPS://A.example/".parse::<AllowedOrigin>().unwrap().to_string(), "https://a.example:443");
        for bad in [
            "",
            "a.example",
            "ftp://a.example",
            "https://a.example/x",
            "https://a.example?q",
            "https://u@a.example",
            "https://",
        ] {
            assert!(bad.parse::<AllowedOrigin>().is_err(), "{bad:?}");
        }
    }
}
