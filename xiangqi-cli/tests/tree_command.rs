//! `xiangqi tree` and `xiangqi compare --plot` driven as a user would: the spec's figure drawn from the synthetic
//! tree, the `--max-nodes` cut, the SVG chart, and bad input. None of these needs Graphviz.

#[path = "../../xiangqi-search/tests/support/dot.rs"]
mod dot;

use std::path::PathBuf;
use std::process::{Command, Output};

/// The spec's alpha-beta figure.
const SPEC_TREE: &str = "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))";

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi")).args(args).output().expect("the binary starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-tree-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read_dot(path: &PathBuf) -> dot::Dot {
    let text = std::fs::read_to_string(path).unwrap();
    dot::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn ids(g: &dot::Dot, prefix: char) -> Vec<&dot::Attrs> {
    g.nodes.iter().filter(|(n, _)| n.starts_with(prefix)).map(|(_, a)| a).collect()
}

/// The number in a "+N not drawn" or "N moves pruned" label.
fn leading_number(label: &str) -> u64 {
    label.trim_start_matches('+').split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn tree_draws_the_spec_figure_from_the_synthetic_tree() {
    let dir = scratch("spec");
    let out = dir.join("spec.dot");
    let o = xiangqi(&["tree", "--synthetic", SPEC_TREE, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(stdout.contains("value 6"), "{stdout}");
    assert!(stdout.contains("entered 25 nodes and pruned 3 moves"), "{stdout}");
    assert!(o.stderr.is_empty(), "nothing is cut: {}", text(&o.stderr));
    let g = read_dot(&out);
    // All 33 nodes of the figure, linked by 32 edges; the 25 searched nodes black, the other 8 grey.
    let tree = ids(&g, 'n');
    assert_eq!(tree.len(), 33);
    assert_eq!(g.edges.iter().filter(|(a, b, _)| a.starts_with('n') && b.starts_with('n')).count(), 32);
    let grey: Vec<&String> = g.nodes.iter().filter(|(_, a)| a.contains_key("fontcolor")).map(|(n, _)| n).collect();
    assert_eq!(grey.len(), 8);
    // The grey leaves carry the figure's grey values: 5 after 7 and 4, 9 after 6, and 9 8 6 at the end.
    let mut grey_leaves: Vec<i32> = grey
        .iter()
        .filter(|n| !g.edges.iter().any(|(a, _, _)| a == **n))
        .map(|n| g.node(n).unwrap()["label"].rsplit("\\n").next().unwrap().parse().unwrap())
        .collect();
    grey_leaves.sort();
    assert_eq!(grey_leaves, vec![5, 6, 8, 9, 9]);
    // Five nodes end in a cutoff (red border): three of them pruned moves, two cut on their last move.
    let red = tree.iter().filter(|a| a.get("color").map(String::as_str) == Some("#dc2626")).count();
    assert_eq!(red, 5);
    assert_eq!(g.node("n0").unwrap()["label"], "root (max)\\n[-∞, ∞] d=4\\n= 6");
}

#[test]
fn tree_honours_max_nodes_and_says_so() {
    let dir = scratch("cut");
    for (all_pruned, k) in [(true, 60u64), (false, 60), (true, 7)] {
        let out = dir.join(format!("start-{all_pruned}-{k}.dot"));
        let k_text = k.to_string();
        let mut args = vec!["tree", "--depth", "2", "--max-nodes", &k_text, "--out", out.to_str().unwrap()];
        if all_pruned {
            args.push("--all-pruned");
        }
        let o = xiangqi(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let note = text(&o.stderr);
        assert!(note.contains(&format!("cut at --max-nodes {k}: {k} of its ")), "{note}");
        let total: u64 = note.split("of its ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(total > k);
        let g = read_dot(&out);
        let single = ids(&g, 'n').len() as u64;
        let grouped: u64 = ids(&g, 'g').iter().map(|a| leading_number(&a["label"])).sum();
        if all_pruned {
            assert_eq!(grouped, 0);
        }
        assert_eq!(single + grouped, k, "every recorded node drawn, alone or in a group");
        let not_drawn: u64 = ids(&g, 'm').iter().map(|a| leading_number(&a["label"])).sum();
        assert_eq!(not_drawn, total - k);
        assert!(g.graph_attrs["label"].contains(&format!("tree cut: {k} of {total} nodes drawn")));
    }
}

#[test]
fn tree_rejects_bad_input_with_a_message() {
    let dir = scratch("bad");
    let dot = dir.join("x.dot");
    let dot = dot.to_str().unwrap();
    let png = dir.join("x.png");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["tree", "--fen", "rnbakabnr/9/9 w", "--out", dot], "error"),
        (vec!["tree", "--synthetic", "((1 2)", "--out", dot], "--synthetic: invalid tree"),
        (vec!["tree", "--synthetic", "(1 x)", "--out", dot], "--synthetic: invalid tree"),
        (vec!["tree", "--variant", "bogus", "--out", dot], "unknown variant part"),
        (vec!["tree", "--out", png.to_str().unwrap()], "must end in .dot, .gv (Graphviz DOT) or .svg"),
        (vec!["tree", "--out", "/nonexistent-dir/x.dot"], "cannot write /nonexistent-dir/x.dot"),
        (vec!["tree", "--synthetic", SPEC_TREE, "--fen", "9/9 w", "--out", dot], "cannot be used with"),
        (vec!["tree", "--max-nodes", "0", "--out", dot], "--max-nodes"),
        (vec!["tree", "--depth", "2"], "--out"),
    ];
    for (args, message) in cases {
        let o = xiangqi(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!dir.join("x.dot").exists() && !png.exists(), "nothing written on bad input");
}

#[test]
fn tree_svg_without_graphviz_says_how_to_get_it() {
    let dir = scratch("nodot");
    let out = dir.join("x.svg");
    // An empty PATH: `dot` cannot be found whether Graphviz is installed or not.
    let o = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["tree", "--synthetic", SPEC_TREE, "--out", out.to_str().unwrap()])
        .env("PATH", &dir)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("apt-get install graphviz") && err.contains("--out FILE.dot"), "{err}");
    assert!(!out.exists());
}

#[test]
fn compare_plot_draws_the_node_counts_of_each_variant() {
    let dir = scratch("plot");
    let out = dir.join("chart.svg");
    let o = xiangqi(&[
        "compare",
        "--depth",
        "3",
        "--variants",
        "minimax,alphabeta,pvs",
        "--plot",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The table (here JSON) is still printed, and says the same counts as the chart's legend.
    let v: serde_json::Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    for row in v["variants"].as_array().unwrap() {
        let nodes = row["nodes"].as_u64().unwrap();
        let digits = nodes.to_string();
        let mut grouped = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        let label = format!("{}: {grouped} at depth 3", row["variant"].as_str().unwrap());
        assert!(svg.contains(&label), "{label} not in the chart");
    }
    // One line per variant in each of the two panels, and the legends' sample lines.
    assert!(svg.matches("<polyline").count() >= 6, "{}", svg.matches("<polyline").count());
    assert!(svg.contains("effective branching factor") && svg.contains("log scale"));
}

#[test]
fn compare_plot_rejects_bad_paths() {
    let dir = scratch("plotbad");
    let png = dir.join("chart.png");
    for (path, message) in [
        (png.to_str().unwrap(), "must end in .svg"),
        ("/nonexistent-dir/chart.svg", "cannot write the chart /nonexistent-dir/chart.svg"),
    ] {
        let o = xiangqi(&["compare", "--depth", "1", "--variants", "alphabeta", "--plot", path]);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{path}");
        assert!(err.contains(message) && !err.contains("panicked"), "{path}: {err}");
    }
    assert!(!png.exists());
}

/// The step lines of `xiangqi tree --trace` (not the `#` header and summary, nor the `pruned` lines).
fn step_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| !l.starts_with('#') && !l.starts_with("      ")).collect()
}

/// The field `key=value` of a step line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(' ').find_map(|w| w.strip_prefix(key).and_then(|w| w.strip_prefix('='))).unwrap()
}

#[test]
fn tree_trace_counts_what_the_tree_counts_for_every_exact_variant() {
    for (variant, pruned) in [
        ("minimax", Some(0)),
        ("alphabeta", Some(3)),
        ("alphabeta-hard", Some(3)),
        ("negamax", Some(0)),
        ("negamax-ab", Some(3)),
        ("negamax-ab-hard", Some(3)),
        // PVS's zero windows prune on their own: the count is whatever the recorder says.
        ("negamax-ab+pvs+qs+order", None),
    ] {
        let o = xiangqi(&["tree", "--synthetic", SPEC_TREE, "--variant", variant, "--trace"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let stdout = text(&o.stdout);
        let steps = step_lines(&stdout);
        // Numbered from 1, one per line.
        for (i, l) in steps.iter().enumerate() {
            assert_eq!(l.split_whitespace().next().unwrap(), (i + 1).to_string(), "{variant}: {l}");
        }
        let entered = steps.iter().filter(|l| l.split_whitespace().nth(1) == Some("enter")).count();
        let pruned_lines = stdout.lines().filter(|l| l.starts_with("      pruned [")).count();
        // The summary line is the recorder's count, as `--out` reports it.
        let summary = format!("the search entered {entered} nodes and pruned {pruned_lines} moves");
        assert!(stdout.lines().last().unwrap().contains(&summary), "{variant}: {summary}\n{stdout}");
        // The spec's figure: three moves pruned by alpha-beta, none by minimax.
        if let Some(pruned) = pruned {
            assert_eq!(pruned_lines, pruned, "{variant}");
        }
        let out = scratch(&format!("trace-{variant}")).join("t.dot");
        let drawn = xiangqi(&["tree", "--synthetic", SPEC_TREE, "--variant", variant, "--out", out.to_str().unwrap()]);
        assert!(text(&drawn.stdout).contains(&summary), "{variant}: {}", text(&drawn.stdout));
        // The root returns the figure's value, 6.
        let last = steps.last().unwrap();
        assert_eq!((field(last, "node"), field(last, "value")), ("[root]", "6"), "{variant}");
    }
}

#[test]
fn tree_trace_labels_are_lines_of_the_pseudocode() {
    for variant in ["alphabeta", "negamax-ab-hard+pvs+qs+order", "negamax+qs"] {
        let listing = text(&xiangqi(&["tree", "--variant", variant, "--pseudocode"]).stdout);
        let labels: std::collections::BTreeSet<&str> = listing
            .lines()
            .filter_map(|l| l.trim_end().strip_suffix(']').and_then(|l| l.rsplit_once(" [")).map(|(_, x)| x))
            .collect();
        let o = xiangqi(&["tree", "--synthetic", SPEC_TREE, "--variant", variant, "--trace"]);
        for l in step_lines(&text(&o.stdout)) {
            let label = l.split_whitespace().nth(1).unwrap();
            assert!(labels.contains(label), "{variant}: {label} is not in the listing\n{listing}");
        }
    }
}

#[test]
fn tree_trace_json_has_the_steps_and_the_explanations() {
    let o = xiangqi(&["tree", "--synthetic", SPEC_TREE, "--trace", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let plain = text(&xiangqi(&["tree", "--synthetic", SPEC_TREE, "--trace"]).stdout);
    assert_eq!(doc["steps"].as_array().unwrap().len(), step_lines(&plain).len());
    assert_eq!((doc["searched"].as_u64(), doc["pruned"].as_u64(), doc["score"].as_i64()), (Some(25), Some(3), Some(6)));
    let last = &doc["pruned_moves"][2];
    assert_eq!(last["path"], "#2 #1");
    assert_eq!(last["text"], "not searched: at node [#2] (Black to move), after child #0 returned 5, β = 5 ≤ α = 6");
    let cut = &last["cutoff"];
    assert_eq!((cut["path"].as_str(), cut["child"].as_str()), (Some("#2"), Some("#2 #0")));
    assert_eq!((cut["value"].as_i64(), cut["alpha"].as_i64(), cut["beta"].as_i64()), (Some(5), Some(6), Some(5)));
    assert_eq!((cut["first_to_move"].as_bool(), cut["lowered_beta"].as_bool()), (Some(false), Some(true)));
    assert_eq!(doc["listing"][0]["name"], "two_sided");
}

#[test]
fn tree_without_out_or_trace_says_what_to_give() {
    let o = xiangqi(&["tree", "--synthetic", SPEC_TREE]);
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("give --out FILE (.dot or .svg), --trace or --pseudocode"), "{}", text(&o.stderr));
    let o = xiangqi(&["tree", "--json"]);
    assert!(!o.status.success(), "--json needs --trace");
}
