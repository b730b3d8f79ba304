//! The Kubernetes manifests (`distributed/k8s/*.yaml`) name flags of this binary: each container's command line,
//! read from the manifest, is parsed by the binary's own argument parser (the `Cli` of `main.rs`), so a renamed or
//! removed flag, or a value out of its range, fails here rather than in a cluster.
//!
//! Compiled into the binary's unit tests (`cargo test -p xiangqi-cli --bin xiangqi`), the only place the parser is
//! visible. The manifests use two forms, both read here: `command: [..]` (a JSON-compatible flow list), and
//! `command: ["/bin/sh", "-c"]` with `args:` holding one folded (`>-`) shell line.

use clap::Parser;
use std::path::{Path, PathBuf};

/// The value an Indexed Job gives `$JOB_COMPLETION_INDEX` in these tests.
const INDEX: &str = "3";

fn manifests() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../distributed/k8s");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    files.sort();
    files
}

/// The indentation of a line.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A flow list `["a", "b"]` (the JSON subset the manifests use).
fn flow_list(text: &str, file: &Path) -> Vec<String> {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{}: {text}: not a flow list: {e}", file.display()))
}

/// The value of a key at `lines[i]` (`key: VALUE` or a block below it): a flow list, a block sequence of plain or
/// folded (`>-`, `>`) scalars.
fn value(lines: &[&str], i: usize, file: &Path) -> Vec<String> {
    let (_, rest) = lines[i].split_once(':').unwrap();
    if !rest.trim().is_empty() {
        return flow_list(rest, file);
    }
    let base = indent(lines[i]);
    let mut items: Vec<String> = Vec::new();
    let mut j = i + 1;
    while j < lines.len()
        && (lines[j].trim().is_empty() || indent(lines[j]) > base || lines[j].trim_start().starts_with("- "))
    {
        let line = lines[j].trim_start();
        if indent(lines[j]) <= base && !line.starts_with("- ") {
            break;
        }
        if let Some(item) = line.strip_prefix("- ") {
            match item.trim() {
                ">-" | ">" | "|" | "|-" => {
                    let item_indent = indent(lines[j]);
                    let mut text = Vec::new();
                    j += 1;
                    while j < lines.len() && indent(lines[j]) > item_indent && !lines[j].trim().is_empty() {
                        text.push(lines[j].trim());
                        j += 1;
                    }
                    items.push(text.join(" "));
                    continue;
                }
                plain => items.push(plain.trim_matches('"').to_owned()),
            }
        } else if indent(lines[j]) <= base {
            break;
        }
        j += 1;
    }
    items
}

/// Splits a shell line into words (double and single quotes, `$JOB_COMPLETION_INDEX` substituted), dropping a
/// leading `exec`.
fn shell_words(line: &str, file: &Path) -> Vec<String> {
    let line = line.replace("$JOB_COMPLETION_INDEX", INDEX).replace("${JOB_COMPLETION_INDEX}", INDEX);
    assert!(
        !line.contains(['$', '`', '|', ';', '&']),
        "{}: a shell line this test cannot read: {line}",
        file.display()
    );
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(quote.is_none(), "{}: an unclosed quote in {line}", file.display());
    if in_word {
        words.push(word);
    }
    if words.first().is_some_and(|w| w == "exec") {
        words.remove(0);
    }
    words
}

/// The command line of each container of a manifest (one per `image:`).
fn command_lines(file: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim_start().starts_with('#')).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim_start().starts_with("command:") {
            let command = value(&lines, i, file);
            let args_at = (i + 1..lines.len())
                .take_while(|&j| indent(lines[j]) >= indent(line))
                .find(|&j| indent(lines[j]) == indent(line) && lines[j].trim_start().starts_with("args:"));
            let args = args_at.map(|j| value(&lines, j, file)).unwrap_or_default();
            let argv = if command.len() == 2 && command[1] == "-c" && command[0].ends_with("sh") {
                assert_eq!(args.len(), 1, "{}: one shell line after sh -c", file.display());
                shell_words(&args[0], file)
            } else {
                [command, args].concat()
            };
            out.push(argv);
        }
    }
    let images = lines.iter().filter(|l| l.trim_start().trim_start_matches("- ").starts_with("image:")).count();
    assert_eq!(out.len(), images, "{}: a command line for each container", file.display());
    out
}

#[test]
fn every_command_line_of_the_kubernetes_manifests_parses() {
    let files = manifests();
    assert!(files.len() >= 2, "the manifests: {files:?}");
    let mut seen = Vec::new();
    for file in &files {
        let commands = command_lines(file);
        assert!(!commands.is_empty(), "{}: no command line", file.display());
        for argv in commands {
            assert_eq!(argv.first().map(String::as_str), Some("xiangqi"), "{}: {argv:?}", file.display());
            if let Err(e) = crate::Cli::try_parse_from(&argv) {
                panic!("{}: `{}` is refused by the binary's parser:\n{e}", file.display(), argv.join(" "));
            }
            seen.push(argv[1].clone());
        }
    }
    // The datagen Job and the merge Job after it.
    seen.sort();
    assert_eq!(seen, ["datagen", "merge"]);
}

#[test]
fn the_reader_sees_a_bad_flag() {
    let dir = std::env::temp_dir().join(format!("xiangqi-k8s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("job.yaml");
    let text = std::fs::read_to_string(manifests().iter().find(|f| f.ends_with("datagen-job.yaml")).unwrap()).unwrap();
    std::fs::write(&file, text.replace("--positions", "--positionz")).unwrap();
    let argv = &command_lines(&file)[0];
    assert!(argv.contains(&"--positionz".to_owned()) && argv.contains(&INDEX.to_owned()), "{argv:?}");
    assert!(crate::Cli::try_parse_from(argv).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
