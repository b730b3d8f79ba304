//! Game record files on the command line: reading one ([`load`], for `xiangqi game --pgn`, `convert` and
//! `analyze`) and `xiangqi convert IN OUT` (write a file's games as PGN in another notation or encoding).

use crate::CmdResult;
use std::io::Write;
use std::path::Path;
use xiangqi_core::record::{encode, read_record, write_pgn, Notation, ReadOptions, RecordFile, TextEncoding};

/// Reads a PGN or XQF file ([`read_record`]: XQF recognised by its `XQ` magic, whatever the file's name); a file
/// that cannot be read, holds no game or is neither format is an error naming the file.
pub fn load(path: &Path) -> Result<RecordFile, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(read_record(&bytes, &ReadOptions::default()).map_err(|e| format!("{}: {e}", path.display()))?)
}

/// Arguments of `xiangqi convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {
    /// The record to read: PGN (any notation, UTF-8 or GBK) or XQF.
    pub input: std::path::PathBuf,
    /// The PGN file to write (`-` for standard output).
    pub output: std::path::PathBuf,
    /// The notation of the moves written: chinese, wxf, iccs or uci.
    #[arg(long, default_value = "chinese")]
    pub notation: Notation,
    /// The text encoding written: utf8 or gbk.
    #[arg(long, default_value = "utf8")]
    pub encoding: TextEncoding,
}

/// Writes `text` to `path` (`-`: standard output) in `encoding`.
pub fn write_text(path: &Path, text: &str, encoding: TextEncoding) -> CmdResult {
    let bytes = encode(text, encoding)?;
    if path == Path::new("-") {
        std::io::stdout().lock().write_all(&bytes)?;
    } else {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// `xiangqi convert IN OUT`: the games read are written; a game that could not be read is reported on standard
/// error and left out, and the exit code is then 1.
pub fn convert(args: &ConvertArgs) -> CmdResult {
    let loaded = load(&args.input)?;
    let total = loaded.games.len();
    let mut games = Vec::new();
    for g in loaded.games {
        match g {
            Ok(g) => games.push(g),
            Err(e) => eprintln!("skipped {e}"),
        }
    }
    write_text(&args.output, &write_pgn(&games, args.notation), args.encoding)?;
    let skipped = total - games.len();
    eprintln!(
        "converted {} of {total} game(s) from {} to {} in {} notation, {}",
        games.len(),
        loaded.format,
        args.output.display(),
        args.notation,
        args.encoding
    );
    if skipped > 0 {
        return Err(format!("{skipped} game(s) could not be read").into());
    }
    Ok(())
}
