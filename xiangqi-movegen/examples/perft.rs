//! Counts the leaves of the move tree (perft), move by move (divide), on all cores.
//!
//! ```sh
//! cargo run --release -p xiangqi-movegen --example perft -- [FEN] [--depth N] [--threads T]
//! ```

use std::error::Error;
use std::time::Instant;
use xiangqi_core::Position;
use xiangqi_movegen::divide;

/// What the example prints, from its arguments.
fn run(args: &[String]) -> Result<String, Box<dyn Error>> {
    let (mut fen, mut depth, mut threads) = (None, 4, std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--depth" => depth = value()?.parse()?,
            "--threads" => threads = value()?.parse()?,
            _ if fen.is_none() => fen = Some(a.clone()),
            _ => return Err(format!("unexpected argument {a:?}").into()),
        }
    }
    if !(1..=8).contains(&depth) {
        return Err(format!("depth {depth}: from 1 to 8").into());
    }
    let pos = match fen {
        Some(f) => Position::from_fen(&f)?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    let rows = divide(&pos, depth, threads);
    let secs = start.elapsed().as_secs_f64();
    let total: u64 = rows.iter().map(|(_, n)| n).sum();
    let mut out = String::new();
    for (m, n) in &rows {
        out.push_str(&format!("{m}: {n}\n"));
    }
    out.push_str(&format!("\nperft {depth}: {total} in {secs:.3} s ({:.0} leaves/s)\n", total as f64 / secs.max(1e-9)));
    Ok(out)
}

fn main() -> Result<(), Box<dyn Error>> {
    print!("{}", run(&std::env::args().skip(1).collect::<Vec<_>>())?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::run;

    #[test]
    fn counts_the_reference_perft() {
        // ../shared/data/perft.txt: 79,666 leaves at depth 3 from the start position, 44 first moves.
        let text = run(&["--depth".to_owned(), "3".to_owned()]).unwrap();
        assert!(text.contains("perft 3: 79666 in"), "{text}");
        assert_eq!(text.lines().filter(|l| l.contains(": ") && !l.starts_with("perft")).count(), 44);
        assert!(run(&["--depth".to_owned(), "0".to_owned()]).is_err());
    }
}
