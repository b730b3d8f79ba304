//! `xiangqi tree`: record the tree one search visits and write it as Graphviz DOT, or as SVG through Graphviz's
//! `dot` program.

use crate::{parse_fen, CmdResult, UsageError};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use xiangqi_core::{Color, Move, START_FEN};
use xiangqi_search::record::{DotOptions, Recorder, View, DEFAULT_CAPACITY};
use xiangqi_search::synthetic::{Child, Tree, TreeEval};
use xiangqi_search::{Limits, RunSetup, SearchResult, VariantConfig};

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
    #[arg(long, value_parser = crate::args::range::<u32>(1, 12), allow_hyphen_values = true)]
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
    pub out: PathBuf,
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
fn summary<M: Copy>(rec: &Recorder<M>, result: &SearchResult<M>, label: impl Fn(&M) -> String) -> String {
    let mut line = format!(
        "value {}, best move {}; the search entered {} nodes and pruned {} moves",
        result.score,
        result.best_move.map_or("(none)".to_owned(), |m| label(&m)),
        rec.searched_count(),
        rec.pruned_count(),
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
    let format = format_of(&args.out)?;
    let spec: VariantConfig = args
        .variant
        .parse()
        .map_err(|e: xiangqi_search::VariantError| UsageError::value("variant", &args.variant, e))?;
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
    let drawn = if let Some(text) = &args.synthetic {
        let tree = Tree::parse(text).map_err(|e| UsageError::value("synthetic", text, e))?;
        let depth = args.depth.unwrap_or_else(|| tree.height().max(1));
        let limits = Limits::depth(depth);
        let (result, mut rec) = spec.run_observed::<Tree, TreeEval, Recorder<Child>>(
            tree.clone(),
            TreeEval,
            &limits,
            &RunSetup::default(),
            |_| {},
        );
        let line = summary(&rec, &result, child_label);
        // Grey subtrees under the pruned moves, as the spec's figure draws them.
        rec.fill_pruned(&tree, &mut TreeEval, max_nodes);
        opts.title =
            format!("{spec}, depth {depth}, on the tree {}\nleaves: values for MAX, the root player", text.trim());
        draw(rec, max_nodes, &opts, child_label, line)
    } else {
        let pos = parse_fen(&args.fen)?;
        let depth = args.depth.unwrap_or(2);
        let eval = xiangqi_eval::EngineEval::new(&pos);
        let (result, rec) = spec.run_observed::<_, _, Recorder<Move>>(
            pos.clone(),
            eval,
            &Limits::depth(depth),
            &xiangqi_search::RunSetup::default(),
            |_| {},
        );
        let side = if pos.turn() == Color::Red { "Red" } else { "Black" };
        opts.title = format!("{spec}, depth {depth}, on {}\nthe root player (MAX) is {side}", pos.fen());
        let line = summary(&rec, &result, Move::to_string);
        draw(rec, max_nodes, &opts, Move::to_string, line)
    };
    let bytes = match format {
        Format::Dot => drawn.dot.into_bytes(),
        Format::Svg => to_svg(&drawn.dot)?,
    };
    std::fs::write(&args.out, bytes).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    if (drawn.kept as u64) < drawn.total {
        eprintln!(
            "note: the tree was cut at --max-nodes {max_nodes}: {} of its {} nodes are drawn, the first in search \
             order; the dashed '+N not drawn' boxes count the rest",
            drawn.kept, drawn.total
        );
    }
    writeln!(std::io::stdout(), "wrote {} ({} nodes drawn): {}", args.out.display(), drawn.kept, drawn.summary)?;
    Ok(())
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
