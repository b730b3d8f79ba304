//! `xiangqi eval`: the static evaluation of a position, with its breakdown by term and side.

use crate::CmdResult;
use serde_json::{json, Map, Value};
use std::io::Write;
use xiangqi_core::{Color, Position};
use xiangqi_eval::{EvalChoice, Handcrafted, TaperedScore, Term, Trace};

/// Arguments of `xiangqi eval`.
#[derive(clap::Args)]
pub struct EvalArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = xiangqi_core::START_FEN, hide_default_value = true)]
    pub fen: String,
    /// Print one JSON object: `total` (for the side to move) and `terms` (each per side, mg/eg, and its tapered value
    /// from Red's view).
    #[arg(long)]
    pub json: bool,
    /// The evaluator: by default the handcrafted breakdown by term and the built-in network's total; `--nnue FILE`
    /// that network's total only; `--handcrafted` the breakdown only.
    #[command(flatten)]
    pub eval: crate::evalopt::EvalOpts,
}

/// Runs the command.
pub fn run(args: &EvalArgs) -> CmdResult {
    let pos = crate::parse_fen(&args.fen)?;
    if args.eval.nnue.is_some() {
        return nnue_eval(&args.eval.choice()?, &pos, args.json);
    }
    // The breakdown is the handcrafted evaluator's; by default the network the engine plays with is shown too.
    let network = (!args.eval.handcrafted).then(EvalChoice::engine_default);
    let trace = Handcrafted::default().trace(&pos);
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut obj = to_json(&pos.fen(), &trace);
        if let (Some(net), Value::Object(map)) = (&network, &mut obj) {
            map.insert("network".into(), json!({ "evaluator": net.describe(), "total": net.evaluate(&pos) }));
        }
        writeln!(out, "{}", serde_json::to_string_pretty(&obj)?)?;
    } else {
        write!(out, "{}", trace.table(&pos.fen()))?;
        if let Some(net) = &network {
            writeln!(
                out,
                "Network evaluation ({}, the engine's default): {:+} for {} (side to move)",
                net.describe(),
                net.evaluate(&pos),
                pos.turn()
            )?;
        }
    }
    Ok(())
}

/// The network's evaluation: for the side to move and from Red's view.
fn nnue_eval(choice: &EvalChoice, pos: &Position, json: bool) -> CmdResult {
    let total = choice.evaluate(pos);
    let red = if pos.turn() == Color::Red { total } else { -total };
    let mut out = std::io::stdout().lock();
    if json {
        let obj = json!({
            "fen": pos.fen(), "side_to_move": pos.turn().to_string(), "evaluator": choice.describe(),
            "total": total, "total_red": red,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&obj)?)?;
    } else {
        writeln!(out, "Position: {}", pos.fen())?;
        writeln!(out, "Evaluator: {}", choice.describe())?;
        writeln!(out, "Evaluation: {total:+} for {} (side to move), {red:+} from Red's view", pos.turn())?;
    }
    Ok(())
}

fn score_json(s: TaperedScore) -> Value {
    json!({ "mg": s.mg, "eg": s.eg })
}

/// The trace as one JSON object.
fn to_json(fen: &str, t: &Trace) -> Value {
    let mut terms = Map::new();
    for term in Term::ALL {
        terms.insert(
            term.name().to_owned(),
            json!({
                "red": score_json(t.get(term, Color::Red)),
                "black": score_json(t.get(term, Color::Black)),
                "net": score_json(t.net(term)),
                "value": t.value(term),
            }),
        );
    }
    json!({
        "fen": fen,
        "side_to_move": t.turn.to_string(),
        "total": t.total,
        "total_red": t.red_view(),
        "phase": t.phase,
        "phase_max": t.phase_max,
        "terms": terms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_total_and_every_term() {
        let pos = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
        let t = Handcrafted::default().trace(&pos);
        let v = to_json(&pos.fen(), &t);
        assert_eq!(v["total"], t.total);
        assert!(v["total"].as_i64().unwrap() < -700, "Black to move, a chariot down");
        assert_eq!(v["total_red"].as_i64().unwrap(), -v["total"].as_i64().unwrap());
        assert_eq!(v["side_to_move"], "black");
        let terms = v["terms"].as_object().unwrap();
        assert_eq!(terms.len(), Term::NUM);
        assert_eq!(terms["material"]["red"]["mg"], t.get(Term::Material, Color::Red).mg);
        assert!(terms["material"]["value"].as_i64().unwrap() > 700);
    }

    #[test]
    fn table_names_every_term_and_the_total() {
        let pos = Position::startpos();
        let t = Handcrafted::default().trace(&pos);
        let text = t.table(&pos.fen());
        for term in Term::ALL {
            assert!(text.contains(term.name()), "{text}");
        }
        assert!(text.contains(&format!("Evaluation: {:+} for red", t.total)), "{text}");
    }

    #[test]
    fn a_bad_fen_is_an_error() {
        let args = EvalArgs { fen: "rnbakabnr/9 w".into(), json: false, eval: Default::default() };
        assert!(run(&args).is_err());
        let args = EvalArgs { fen: "4k4/9/9/9/9/9/9/9/9/4K4 w".into(), json: true, eval: Default::default() };
        let err = run(&args).unwrap_err().to_string();
        assert!(err.contains("face"), "{err}");
    }
}
