//! `xiangqi tree`: record the tree one search visits (through [`xiangqi_search::record::record`]) and write it as
//! Graphviz DOT, or as SVG through Graphviz's `dot` program; `--trace` prints the search line by line (text, or
//! JSON with `--json`), `--pseudocode` the variant's listing.

use crate::{parse_fen, CmdResult, UsageError};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use xiangqi_core::{Color, Move, START_FEN};
use xiangqi_search::record::pseudocode::{listing, Listing};
use xiangqi_search::record::{
    record, record_tree, trace_text, DotOptions, Explanation, RecordError, RecordOptions, Recorder, Recording, Sides,
    View, DEFAULT_CAPACITY,
};
use xiangqi_search::synthetic::Child;
use xiangqi_search::{SearchResult, VariantConfig};

/// Whose point of view windows and values are drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewArg {
    /// The root player's, with MAX and MIN levels, as in the spec's figure.
    Root,
    /// The side to move's at each node, as negamax sees them.
    Mover,
}

/// Arguments of `xiangqi tree`.
#[derive(clap::Args)]
pub struct TreeArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN, hide_default_value = true, conflicts_with = "synthetic")]
    pub fen: String,
    /// Search a synthetic tree written inline instead of a position: nested parentheses, leaves are values for
    /// the root player (MAX), e.g. the spec's figure "((((5 6) (7 4 5)) ((3))) (((6) (6 9)) ((7))) (((5)) ((9 8) (6))))".
    #[arg(long)]
    pub synthetic: Option<String>,
    /// Depth in plies (default: 2 for a position, the tree's height for --synthetic).
    #[arg(long, value_parser = crate::args::depth::<u32>(1), allow_hyphen_values = true)]
    pub depth: Option<u32>,
    /// The variant: a preset or parts joined with '+' (see `xiangqi search --list`).
    #[arg(long, default_value = "alphabeta")]
    pub variant: String,
    /// Draw at most this many nodes, the first ones in search order; the rest are counted in dashed boxes.
    #[arg(long, default_value_t = 400, value_parser = crate::args::range::<u64>(1, DEFAULT_CAPACITY as u64), allow_hyphen_values = true)]
    pub max_nodes: u64,
    /// Whose point of view windows and values are drawn from.
    #[arg(long, value_enum, default_value = "root")]
    pub view: ViewArg,
    /// Lay the tree out left to right (default: only when it is wide).
    #[arg(long)]
    pub left_to_right: bool,
    /// Draw each pruned move in its own grey box (default: three or more pruned sibling moves share one).
    #[arg(long)]
    pub all_pruned: bool,
    /// The file to write: FILE.dot (or .gv) for Graphviz DOT, FILE.svg for a picture (needs Graphviz's `dot`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the search line by line: one line per step of the pseudocode (label, ply, depth, alpha, beta, value,
    /// best, move, node), and after each cutoff why each pruned move was not searched.
    #[arg(long)]
    pub trace: bool,
    /// With --trace: print the trace, the listing and the explanations as one JSON document instead.
    #[arg(long, requires = "trace")]
    pub json: bool,
    /// Print the variant's pseudocode, whose labels the trace names, and search nothing.
    #[arg(long, conflicts_with_all = ["trace", "out"])]
    pub pseudocode: bool,
}

/// What to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Dot,
    Svg,
}

fn format_of(path: &Path) -> Result<Format, UsageError> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("dot" | "gv") => Ok(Format::Dot),
        Some("svg") => Ok(Format::Svg),
        _ => Err(UsageError::value(
            "out",
            &path.display().to_string(),
            "the file name must end in .dot, .gv (Graphviz DOT) or .svg",
        )),
    }
}

/// A synthetic tree's move: the index of the child.
fn child_label(c: &Child) -> String {
    format!("#{}", c.0)
}

/// What one recorded search gives to draw.
struct Drawn {
    dot: String,
    summary: String,
    kept: usize,
    total: u64,
}

/// A line about the search, before pruned subtrees are filled in.
fn summary<M: Copy>(r: &Recording<M>, label: impl Fn(&M) -> String) -> String {
    let (rec, result): (&Recorder<M>, &SearchResult<M>) = (&r.recorder, &r.result);
    let mut line = format!(
        "value {}, best move {}; the search entered {} nodes and pruned {} moves",
        result.score,
        result.best_move.map_or("(none)".to_owned(), |m| label(&m)),
        r.searched,
        r.pruned,
    );
    if rec.dropped() > 0 {
        line.push_str(&format!(" in the first {} it recorded, of {} in all", rec.len(), rec.total()));
    }
    line
}

fn draw<M: Copy + std::fmt::Display>(
    rec: Recorder<M>,
    max_nodes: usize,
    opts: &DotOptions,
    label: impl Fn(&M) -> String,
    summary: String,
) -> Drawn {
    if rec.unbalanced() > 0 {
        eprintln!(
            "warning: {} search events did not fit the recorded tree; the picture may be wrong",
            rec.unbalanced()
        );
    }
    let total = rec.total();
    let cut = rec.cut(max_nodes);
    Drawn { dot: cut.to_dot_with(opts, label), summary, kept: cut.len(), total }
}

/// Runs the command.
pub fn run(args: &TreeArgs) -> CmdResult {
    let format = args.out.as_deref().map(format_of).transpose()?;
    let spec: VariantConfig = args
        .variant
        .parse()
        .map_err(|e: xiangqi_search::VariantError| UsageError::value("variant", &args.variant, e))?;
    if args.pseudocode {
        write!(std::io::stdout(), "{}", listing(&spec).to_text())?;
        return Ok(());
    }
    if format.is_none() && !args.trace {
        return Err(UsageError::new(
            "nothing to do: give --out FILE (.dot or .svg), --trace or --pseudocode".to_owned(),
        )
        .into());
    }
    let max_nodes = args.max_nodes as usize;
    let view = match args.view {
        ViewArg::Root => View::Root,
        ViewArg::Mover => View::Mover,
    };
    let mut opts = DotOptions {
        view,
        left_to_right: args.left_to_right.then_some(true),
        group_pruned: if args.all_pruned { 0 } else { 3 },
        ..DotOptions::default()
    };
    // Grey subtrees under the pruned moves (as the spec's figure draws them) only for a picture.
    let fill = if format.is_some() { max_nodes } else { 0 };
    let options = RecordOptions { fill_pruned: fill, ..RecordOptions::default() };
    let drawn = if let Some(text) = &args.synthetic {
        let r = record_tree(text, &args.variant, args.depth, &options).map_err(|e| match e {
            RecordError::Tree(e) => UsageError::value("synthetic", text, e),
            RecordError::Variant(e) => UsageError::value("variant", &args.variant, e),
        })?;
        let header = format!("{spec}, depth {}, on the tree {}", r.depth, text.trim());
        if args.trace {
            print_trace(&r, &header, child_label, args.json)?;
        }
        opts.title = format!("{header}\nleaves: values for MAX, the root player");
        let line = summary(&r, child_label);
        format.is_some().then(|| draw(r.recorder, max_nodes, &opts, child_label, line))
    } else {
        let pos = parse_fen(&args.fen)?;
        let depth = args.depth.unwrap_or(2);
        let eval = xiangqi_eval::ChosenEval::new(&pos);
        let r = record(pos.clone(), eval, &spec, depth, &options);
        let side = if pos.turn() == Color::Red { "Red" } else { "Black" };
        let header = format!("{spec}, depth {depth}, on {}", pos.fen());
        if args.trace {
            print_trace(&r, &header, Move::to_string, args.json)?;
        }
        opts.title = format!("{header}\nthe root player (MAX) is {side}");
        let line = summary(&r, Move::to_string);
        format.is_some().then(|| draw(r.recorder, max_nodes, &opts, Move::to_string, line))
    };
    let (Some(drawn), Some(format), Some(out)) = (drawn, format, &args.out) else { return Ok(()) };
    let bytes = match format {
        Format::Dot => drawn.dot.into_bytes(),
        Format::Svg => to_svg(&drawn.dot)?,
    };
    std::fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if (drawn.kept as u64) < drawn.total {
        eprintln!(
            "note: the tree was cut at --max-nodes {max_nodes}: {} of its {} nodes are drawn, the first in search \
             order; the dashed '+N not drawn' boxes count the rest",
            drawn.kept, drawn.total
        );
    }
    writeln!(std::io::stdout(), "wrote {} ({} nodes drawn): {}", out.display(), drawn.kept, drawn.summary)?;
    Ok(())
}

/// Prints the trace of a recording: a header line (`# ` and the variant, depth and tree or position), the steps
/// ([`trace_text`]) and a summary line (`# ` and [`summary`]); or the JSON document ([`TraceJson`]).
fn print_trace<M: Copy>(r: &Recording<M>, header: &str, label: impl Fn(&M) -> String, json: bool) -> CmdResult {
    let mut out = std::io::stdout().lock();
    if json {
        let doc = trace_json(r, header, &label);
        serde_json::to_writer_pretty(&mut out, &doc).map_err(|e| format!("cannot write the JSON: {e}"))?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "# {header}")?;
    write!(out, "{}", trace_text(&r.recorder, &label, Sides::default()))?;
    writeln!(out, "# {}", summary(r, &label))?;
    Ok(())
}

/// `xiangqi tree --trace --json`: the search, the listing, the steps and the pruned moves.
#[derive(Serialize)]
struct TraceJson {
    /// The header line of the text form.
    title: String,
    variant: String,
    depth: u32,
    score: i32,
    best_move: Option<String>,
    /// The recorder's counts: nodes entered, moves pruned (before any filling).
    searched: usize,
    pruned: usize,
    /// Steps not kept (over the trace's capacity).
    steps_dropped: u64,
    listing: Vec<FunctionJson>,
    steps: Vec<StepJson>,
    pruned_moves: Vec<PrunedJson>,
}

#[derive(Serialize)]
struct FunctionJson {
    name: &'static str,
    lines: Vec<LineJson>,
}

#[derive(Serialize)]
struct LineJson {
    indent: u8,
    text: &'static str,
    label: Option<&'static str>,
}

#[derive(Serialize)]
struct StepJson {
    label: &'static str,
    ply: usize,
    depth: i32,
    alpha: i32,
    beta: i32,
    value: Option<i32>,
    best: Option<i32>,
    #[serde(rename = "move")]
    mv: Option<String>,
    first_to_move: bool,
    /// The node's index in the recorder and its name (the moves from the root).
    node: Option<usize>,
    path: Option<String>,
}

#[derive(Serialize)]
struct PrunedJson {
    node: usize,
    path: String,
    /// The English sentence.
    text: String,
    /// Its parts (the cutoff's): for translating it.
    cutoff: Option<CutoffJson>,
}

#[derive(Serialize)]
struct CutoffJson {
    node: usize,
    path: String,
    child: Option<String>,
    value: i32,
    alpha: i32,
    beta: i32,
    first_to_move: bool,
    lowered_beta: bool,
}

fn listing_json(l: &Listing) -> Vec<FunctionJson> {
    l.functions
        .iter()
        .map(|f| FunctionJson {
            name: f.name,
            lines: f
                .lines
                .iter()
                .map(|l| LineJson { indent: l.indent, text: l.text, label: l.label.map(|x| x.name()) })
                .collect(),
        })
        .collect()
}

fn trace_json<M: Copy>(r: &Recording<M>, header: &str, label: &impl Fn(&M) -> String) -> TraceJson {
    let rec = &r.recorder;
    let steps = rec
        .trace()
        .iter()
        .map(|t| {
            let s = &t.step;
            StepJson {
                label: s.label.name(),
                ply: s.ply,
                depth: s.depth,
                alpha: s.alpha,
                beta: s.beta,
                value: s.value,
                best: s.best,
                mv: s.mv.as_ref().map(label),
                first_to_move: s.first_to_move,
                node: t.node,
                path: t.node.map(|n| rec.node_name(n, label)),
            }
        })
        .collect();
    let pruned_moves = (0..rec.len())
        .filter_map(|id| {
            let text = rec.explain_text(id, label, Sides::default())?;
            let cutoff = match rec.explain(id) {
                Some(Explanation::Cutoff(c)) => Some(CutoffJson {
                    node: c.node,
                    path: rec.node_name(c.node, label),
                    child: c.child.map(|ch| rec.node_name(ch, label)),
                    value: c.value,
                    alpha: c.alpha,
                    beta: c.beta,
                    first_to_move: c.first_to_move,
                    lowered_beta: c.lowered_beta,
                }),
                _ => None,
            };
            Some(PrunedJson { node: id, path: rec.node_name(id, label), text, cutoff })
        })
        .collect();
    TraceJson {
        title: header.to_owned(),
        variant: r.variant.to_string(),
        depth: r.depth,
        score: r.result.score,
        best_move: r.result.best_move.as_ref().map(label),
        searched: r.searched,
        pruned: r.pruned,
        steps_dropped: rec.trace_dropped(),
        listing: listing_json(&listing(&r.variant)),
        steps,
        pruned_moves,
    }
}

/// Renders DOT as SVG with Graphviz's `dot`.
fn to_svg(dot: &str) -> Result<Vec<u8>, String> {
    let mut child = match Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("SVG output needs Graphviz's `dot` program, which was not found: install Graphviz \
                        (apt-get install graphviz) or write DOT with --out FILE.dot"
                .to_owned())
        }
        Err(e) => return Err(format!("cannot run Graphviz's `dot`: {e}")),
    };
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Write on another thread: `dot` may start writing before it has read everything.
    let input = dot.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| format!("Graphviz's `dot` failed: {e}"))?;
    let written = writer.join().map_err(|_| "writing to Graphviz's `dot` failed".to_owned())?;
    if !out.status.success() {
        return Err(format!(
            "Graphviz's `dot` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    written.map_err(|e| format!("writing to Graphviz's `dot` failed: {e}"))?;
    Ok(out.stdout)
}
