//! A server on 127.0.0.1 port 0 and WebSocket clients that wait for messages with generous timeouts.

#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async_with_config, MaybeTlsStream, WebSocketStream};
use xiangqi_web::Config;

#[path = "../../../xiangqi-search/tests/support/time_scale.rs"]
pub mod time_scale;

/// How long any awaited message may take: far beyond what it needs on a loaded machine (60 s times
/// `XIANGQI_TEST_TIME_SCALE`).
pub fn patience() -> Duration {
    time_scale::scaled(Duration::from_secs(60))
}

/// Starts a server with `config` on a free port of 127.0.0.1 and returns its address.
pub async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(xiangqi_web::serve(listener, config));
    addr
}

/// A server with `max_searches` slots and the handcrafted evaluator (the same searches as the network, faster to
/// set up in a test).
pub async fn start_with(max_searches: usize) -> SocketAddr {
    start(Config { max_searches, eval: xiangqi_eval::EvalChoice::Handcrafted, ..Config::default() }).await
}

/// A WebSocket client of the protocol.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Connects to the server at `addr` (without an `Origin`, as a program does).
    pub async fn connect(addr: SocketAddr) -> Client {
        let (ws, _) = connect_async_with_config(format!("ws://{addr}/ws"), None, true).await.unwrap();
        Client { ws }
    }

    /// Sends a message (JSON text, or any text).
    pub async fn send(&mut self, text: impl Into<String>) {
        self.ws.send(Message::Text(text.into().into())).await.unwrap();
    }

    /// Sends a JSON message.
    pub async fn send_json(&mut self, v: Value) {
        self.send(v.to_string()).await;
    }

    /// The next message from the server.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(patience(), self.ws.next())
                .await
                .expect("the server answers within the patience")
                .expect("the socket is open")
                .unwrap();
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// The next message of type `ty` (others are skipped).
    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] == ty {
                return m;
            }
        }
    }

    /// Sends `v` and returns the first answer that is not a search's report.
    pub async fn ask(&mut self, v: Value) -> Value {
        self.send_json(v).await;
        loop {
            let m = self.recv().await;
            if m["type"] != "info" && m["type"] != "bestmove" && m["type"] != "review_progress" {
                return m;
            }
        }
    }

    /// Sends any WebSocket message (a binary frame, a raw frame).
    pub async fn send_message(&mut self, message: Message) {
        self.ws.send(message).await.unwrap();
    }

    /// Whether the server closes the socket within the patience (messages before the close are skipped).
    pub async fn is_closed_by_server(&mut self) -> bool {
        let end = tokio::time::Instant::now() + patience();
        loop {
            match tokio::time::timeout_at(end, self.ws.next()).await {
                Err(_) => return false,
                Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}
