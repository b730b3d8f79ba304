//! `xiangqi serve`: the engine in the browser (the `xiangqi-web` crate), one page and its WebSocket.

use crate::{args, CmdResult, UsageError};
use std::net::IpAddr;
use xiangqi_web::Config;

/// Arguments of `xiangqi serve`.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines drive the engine.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// At most this many searches at once over all the pages connected.
    #[arg(
        long,
        default_value_t = xiangqi_web::DEFAULT_MAX_SEARCHES as u64,
        value_parser = args::range::<u64>(1, 256),
        allow_hyphen_values = true
    )]
    pub max_searches: u64,
    /// The longest search one request may run, in milliseconds (a `go`, each position of a review): a longer one,
    /// or one without a time limit (infinite analysis, a depth), is cut to it and its answer says so. No cap when
    /// not given.
    #[arg(long, value_name = "MS", value_parser = args::range::<u64>(1, 86_400_000), allow_hyphen_values = true)]
    pub max_movetime: Option<u64>,
    /// The most nodes one request's search may take (a `go`, each position of a review), as --max-movetime. No
    /// cap when not given.
    #[arg(long, value_name = "N", value_parser = args::at_least::<u64>(1), allow_hyphen_values = true)]
    pub max_nodes: Option<u64>,
    /// An origin whose pages may open the WebSocket besides the server's own address (the host and port the
    /// browser sent the request to): the public URL of a server behind a proxy or an Ingress, e.g.
    /// `https://xiangqi.school.example`. Repeatable.
    #[arg(long, value_name = "URL")]
    pub allow_origin: Vec<xiangqi_web::AllowedOrigin>,
}

/// Runs the server until the process is ended.
pub fn run(args: &ServeArgs) -> CmdResult {
    let loopback = args.host == "localhost" || args.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        // An address that does not resolve is the command line's error; one that cannot be bound (a port in use, a
        // port the user may not bind) is the run's.
        let addrs: Vec<std::net::SocketAddr> = tokio::net::lookup_host((args.host.as_str(), args.port))
            .await
            .map_err(|e| UsageError(format!("--host {}: not an address: {e}", args.host)))?
            .collect();
        let listener = tokio::net::TcpListener::bind(addrs.as_slice())
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
        let port = listener.local_addr()?.port();
        // A server on every interface is reached here through the loopback address.
        let shown = match args.host.parse::<IpAddr>() {
            Ok(ip) if ip.is_unspecified() && ip.is_ipv4() => "127.0.0.1".to_owned(),
            Ok(ip) if ip.is_unspecified() => "[::1]".to_owned(),
            Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
            _ => args.host.clone(),
        };
        let url = format!("http://{shown}:{port}/");
        if !loopback {
            eprintln!(
                "warning: listening on {}, not a loopback address: other machines that reach it can use the engine",
                args.host
            );
        }
        println!("xiangqi serve: {url} (Ctrl-C to stop)");
        if args.open {
            println!("opening {url} in the browser");
            open(&url);
        }
        let config = Config {
            max_searches: args.max_searches as usize,
            host: args.host.clone(),
            max_movetime: args.max_movetime.map(std::time::Duration::from_millis),
            max_nodes: args.max_nodes,
            allowed_origins: args.allow_origin.clone(),
            ..Config::default()
        };
        xiangqi_web::serve(listener, config).await?;
        Ok(())
    })
}

/// Opens `url` with the system's opener (on its own thread: an opener may wait for the browser), or says why it
/// could not.
fn open(url: &str) {
    let openers: &[&str] = if cfg!(target_os = "macos") { &["open"] } else { &["xdg-open", "open"] };
    let url = url.to_owned();
    std::thread::spawn(move || {
        for opener in openers {
            let status = std::process::Command::new(opener)
                .arg(&url)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            match status {
                Ok(s) if s.success() => return,
                Ok(s) => {
                    eprintln!("note: {opener} could not open a browser ({s}): open {url} yourself");
                    return;
                }
                Err(_) => {}
            }
        }
        eprintln!("note: no browser opener found ({}): open {url} yourself", openers.join(" or "));
    });
}
