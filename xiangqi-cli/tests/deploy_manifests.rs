//! The container image and the Kubernetes manifests of `deploy/` (they cannot be run here: no Docker, no cluster):
//! the manifests parse as YAML and fit together (labels, ports), and the command of the Deployment and of the
//! Dockerfile is one that the binary accepts: run with its address and port swapped for the loopback address and a
//! free port, it starts the server, which answers the readiness probe's path.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use yaml_rust2::{Yaml, YamlLoader};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn yaml(name: &str) -> Yaml {
    let text = std::fs::read_to_string(root().join("deploy").join(name)).unwrap();
    let mut docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(docs.len(), 1, "{name}: one document");
    docs.remove(0)
}

fn strings(v: &Yaml) -> Vec<String> {
    v.as_vec().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect()
}

/// The value after `flag` in `args`.
fn flag<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).map(String::as_str)
}

/// A running server, killed when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs the binary with `args` (after its program name), the `--host` and `--port` values swapped for
/// `127.0.0.1` and `0`, and asks the server for `path`: the answer's status line.
fn serve_and_get(args: &[String], path: &str) -> String {
    let mut args = args.to_vec();
    for (name, value) in [("--host", "127.0.0.1"), ("--port", "0")] {
        let i = args.iter().position(|a| a == name).unwrap_or_else(|| panic!("{args:?} sets {name}"));
        args[i + 1] = value.to_owned();
    }
    let child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap()).read_line(&mut line).unwrap();
    if line.is_empty() {
        let mut err = String::new();
        server.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        panic!("{args:?} did not start the server: {err}");
    }
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).expect("the address is printed");
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn the_deployment_and_service_fit_together_and_the_command_runs() {
    let deployment = yaml("deployment.yaml");
    let service = yaml("service.yaml");
    assert_eq!(deployment["kind"].as_str(), Some("Deployment"));
    assert_eq!(deployment["apiVersion"].as_str(), Some("apps/v1"));
    assert_eq!(service["kind"].as_str(), Some("Service"));
    let spec = &deployment["spec"];
    let labels = &spec["template"]["metadata"]["labels"];
    assert_eq!(spec["selector"]["matchLabels"], *labels);
    assert_eq!(service["spec"]["selector"], *labels);
    let containers = spec["template"]["spec"]["containers"].as_vec().unwrap();
    assert_eq!(containers.len(), 1);
    let c = &containers[0];
    assert_eq!(strings(&c["command"]), ["/xiangqi"]);
    let args = strings(&c["args"]);
    assert_eq!(args[0], "serve");
    // Every interface of the pod, on the port the container declares and the Service targets.
    assert_eq!(flag(&args, "--host"), Some("0.0.0.0"));
    let port = c["ports"][0]["containerPort"].as_i64().unwrap();
    assert_eq!(flag(&args, "--port"), Some(port.to_string().as_str()));
    let port_name = c["ports"][0]["name"].as_str().unwrap();
    let sp = &service["spec"]["ports"][0];
    assert_eq!(sp["targetPort"].as_str(), Some(port_name));
    // The page's socket accepts a page loaded from an IP address on the server's own port: the Service keeps it.
    assert_eq!(sp["port"].as_i64(), Some(port));
    for probe in ["readinessProbe", "livenessProbe"] {
        assert_eq!(c[probe]["httpGet"]["port"].as_str(), Some(port_name), "{probe}");
    }
    let probe_path = c["readinessProbe"]["httpGet"]["path"].as_str().unwrap();
    let status = serve_and_get(&args, probe_path);
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
}

#[test]
fn the_dockerfiles_command_runs() {
    let text = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let json_of = |word: &str| -> Vec<String> {
        let line = text.lines().rev().find(|l| l.starts_with(word)).unwrap_or_else(|| panic!("no {word}"));
        serde_json::from_str(line[word.len()..].trim()).unwrap_or_else(|e| panic!("{line}: {e}"))
    };
    assert_eq!(json_of("ENTRYPOINT"), ["/xiangqi"]);
    let cmd = json_of("CMD");
    assert_eq!(cmd[0], "serve");
    assert_eq!(flag(&cmd, "--host"), Some("0.0.0.0"));
    let expose = text.lines().find_map(|l| l.strip_prefix("EXPOSE ")).unwrap().trim();
    assert_eq!(flag(&cmd, "--port"), Some(expose));
    // The final stage holds the binary alone.
    let last_stage = &text[text.rfind("\nFROM ").unwrap()..];
    let copies: Vec<&str> = last_stage.lines().filter(|l| l.starts_with("COPY")).collect();
    assert_eq!(copies, ["COPY --from=build /xiangqi /xiangqi"]);
    let status = serve_and_get(&cmd, "/");
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
}
