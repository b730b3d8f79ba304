//! `xiangqi serve` as a user starts it: it prints its address, serves the page, refuses a foreign page's socket,
//! and warns when it listens beyond the loopback address.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A running `xiangqi serve`, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `xiangqi serve --port 0 ARGS` and returns it with the address it printed.
fn start(args: &[&str]) -> (Server, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["serve", "--port", "0"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("the address is printed");
    let addr = url.trim_start_matches("http://").trim_end_matches('/').to_owned();
    (server, addr)
}

fn request(addr: &str, head: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(format!("{head}Host: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serve_answers_on_the_loopback_address() {
    let (_server, addr) = start(&[]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let page = request(&addr, "GET /no-such-file HTTP/1.1\r\n");
    assert!(page.starts_with("HTTP/1.1 404"), "{page}");
    let upgrade = "GET /ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let foreign = request(&addr, &format!("{upgrade}Origin: http://evil.example\r\n"));
    assert!(foreign.starts_with("HTTP/1.1 403"), "{foreign}");
    let mut s = TcpStream::connect(&addr).unwrap();
    s.write_all(format!("{upgrade}Origin: http://{addr}\r\nHost: {addr}\r\n\r\n").as_bytes()).unwrap();
    let mut first = String::new();
    BufReader::new(s).read_line(&mut first).unwrap();
    assert!(first.starts_with("HTTP/1.1 101"), "{first}");
}

#[test]
fn an_allowed_origin_opens_the_socket() {
    let (_server, addr) = start(&["--allow-origin", "https://xiangqi.school.example", "--max-movetime", "5000"]);
    let upgrade = "GET /ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                   Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    let other = request(&addr, &format!("{upgrade}Origin: https://other.school.example\r\n"));
    assert!(other.starts_with("HTTP/1.1 403"), "{other}");
    // Behind a proxy that rewrote Host: the origin named on the command line is let in.
    let mut s = TcpStream::connect(&addr).unwrap();
    let head = format!("{upgrade}Origin: https://xiangqi.school.example\r\nHost: xiangqi.internal:8080\r\n\r\n");
    s.write_all(head.as_bytes()).unwrap();
    let mut first = String::new();
    BufReader::new(s).read_line(&mut first).unwrap();
    assert!(first.starts_with("HTTP/1.1 101"), "{first}");
}

#[test]
fn serve_warns_beyond_the_loopback_address() {
    let (mut server, addr) = start(&["--host", "0.0.0.0", "--max-searches", "2"]);
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let mut warning = String::new();
    BufReader::new(server.0.stderr.take().unwrap()).read_line(&mut warning).unwrap();
    assert!(warning.starts_with("warning: listening on 0.0.0.0"), "{warning}");
}

#[test]
fn bad_flags_are_usage_errors() {
    for args in [
        &["--port", "70000"][..],
        &["--max-searches", "0"],
        &["--host", "no.such.host.invalid"],
        &["--max-movetime", "0"],
        &["--max-nodes", "-5"],
        &["--allow-origin", "xiangqi.school.example"],
        &["--allow-origin", "https://xiangqi.school.example/page"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_xiangqi")).arg("serve").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn a_port_in_use_is_a_run_time_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(["serve", "--port", &port]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: cannot listen on 127.0.0.1:") && err.lines().count() == 1, "{err}");
}
