//! Elo and the SPRT of a match from its counts, with no engine: the figures `xiangqi match` prints.
//!
//! ```text
//! cargo run -p xiangqi-match --example sprt -- [WINS DRAWS LOSSES | P0 P1 P2 P3 P4] [--elo0 0] [--elo1 5]
//! ```
//!
//! Three numbers are wins, draws and losses game by game; five are colour-reversed pairs counted by their score 0,
//! ½, 1, 1½, 2 (pentanomial). Without numbers it shows 60 wins, 80 draws and 40 losses.

use xiangqi_match::elo::format_elo;
use xiangqi_match::{Pentanomial, Sprt, Trinomial};

/// The report for the command-line words `args`.
fn run(args: &[String]) -> Result<String, String> {
    let mut counts = Vec::new();
    let (mut elo0, mut elo1) = (0.0, 5.0);
    let mut words = args.iter();
    while let Some(a) = words.next() {
        let mut value = |flag: &str| -> Result<f64, String> {
            let v = words.next().ok_or(format!("{flag} needs a value"))?;
            v.parse().map_err(|_| format!("{flag}: {v:?} is not a number"))
        };
        match a.as_str() {
            "--elo0" => elo0 = value("--elo0")?,
            "--elo1" => elo1 = value("--elo1")?,
            n => counts.push(n.parse::<u64>().map_err(|_| format!("{n:?} is not a count"))?),
        }
    }
    let sprt = Sprt::parse(&[format!("elo0={elo0} elo1={elo1}")]).map_err(|e| format!("the SPRT: {e}"))?;
    let (elo, error, llr, what) = match counts[..] {
        [] => trinomial(Trinomial { wins: 60, draws: 80, losses: 40 }, &sprt),
        [wins, draws, losses] => trinomial(Trinomial { wins, draws, losses }, &sprt),
        [a, b, c, d, e] => {
            let p = Pentanomial { counts: [a, b, c, d, e] };
            let (elo, error) = p.elo();
            (elo, error, p.llr(elo0, elo1), format!("pairs {:?}", p.counts))
        }
        _ => return Err("give three counts (W D L) or five (pairs scoring 0, ½, 1, 1½, 2)".to_owned()),
    };
    let (lower, upper) = sprt.bounds();
    Ok(format!(
        "{what}\nElo {} (95% interval)\nSPRT [{elo0}, {elo1}]: LLR {llr:.3} ({lower:.3}, {upper:.3}): {}\n",
        format_elo(elo, error),
        sprt.state(llr)
    ))
}

/// Elo, its error, the LLR and the counts in words, game by game.
fn trinomial(t: Trinomial, sprt: &Sprt) -> (f64, f64, f64, String) {
    let (elo, error) = t.elo();
    let what = format!("W {} D {} L {}, score {:.3}", t.wins, t.draws, t.losses, t.score());
    (elo, error, t.llr(sprt.elo0, sprt.elo1), what)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn games_and_pairs_give_elo_and_llr_and_bad_words_an_error() {
        let text = run(&[]).unwrap();
        assert_eq!(
            text,
            "W 60 D 80 L 40, score 0.556\nElo +38.8 ± 38.0 (95% interval)\n\
             SPRT [0, 5]: LLR 0.485 (-2.944, 2.944): continue\n"
        );
        let text = run(&args("0 0 0 0 200 --elo1 10")).unwrap();
        assert!(text.ends_with("SPRT [0, 10]: LLR 5.674 (-2.944, 2.944): H1\n"), "{text}");
        assert!(run(&args("1 2")).unwrap_err().contains("three counts"));
        assert!(run(&args("--elo0")).unwrap_err().contains("needs a value"));
        assert_eq!(run(&args("--elo0 5 --elo1 0")).unwrap_err(), "the SPRT: elo1 (0) must be above elo0 (5)");
    }
}
