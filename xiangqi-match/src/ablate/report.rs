//! The report of an ablation: one row per technique, printed as a table or one JSON object.

use super::nodes::Nodes;
use super::results::Tally;
use super::{short, Pairing, Plan};
use crate::elo::{self, SprtState};
use crate::report::{json_number as number, thousands};
use std::collections::BTreeMap;
use std::io::Write;
use xiangqi_search::VariantConfig;

/// One line of the final table.
pub struct Row<'a> {
    /// The pairing.
    pub p: &'a Pairing,
    /// Its games.
    pub tally: &'a Tally,
    /// The nodes with and without the technique.
    pub nodes: Option<(&'a Nodes, &'a Nodes)>,
    /// The SPRT's LLR and state.
    pub sprt: Option<(f64, SprtState)>,
}

impl Row<'_> {
    /// Nodes without the technique over nodes with it: how many times more nodes its absence costs.
    pub fn saving(&self) -> Option<f64> {
        self.nodes.map(|(with, without)| without.total as f64 / with.total.max(1) as f64)
    }

    /// The variant that differs from the base.
    pub fn variant(&self, base: &VariantConfig) -> VariantConfig {
        if self.p.with == *base {
            self.p.without
        } else {
            self.p.with
        }
    }

    /// What the figures say.
    pub fn verdict(&self) -> &'static str {
        let (elo, err) = self.tally.elo();
        match self.sprt {
            Some((_, SprtState::AcceptH1)) => return "SPRT: H1",
            Some((_, SprtState::AcceptH0)) => return "SPRT: H0",
            _ => {}
        }
        let sign = |x: f64| if x > 0.0 { "helps" } else { "hurts" };
        if elo.is_nan() {
            "no games"
        } else if err.is_nan() {
            // Every pair won (or every one lost).
            sign(elo)
        } else if err.is_infinite() {
            // The interval reaches a score of 0 or 1: whether it holds 0.5 decides.
            let (lo, hi) = self.tally.pentanomial().score_interval();
            if lo > 0.5 || hi < 0.5 {
                sign(elo)
            } else {
                "within error"
            }
        } else if elo.abs() > err {
            sign(elo)
        } else {
            "within error"
        }
    }
}

/// The progress line after a batch: the pairing's games so far, its Elo, W/D/L and the SPRT's LLR.
pub fn progress_line(elapsed: f64, p: &Pairing, tally: &Tally, games: usize, sprt: Option<(f64, SprtState)>) -> String {
    let t = tally.trinomial();
    let (e, err) = tally.elo();
    let mut line = format!(
        "[{:>6.0} s] {:<18} {:>5}/{} games: Elo {} (W {} D {} L {})",
        elapsed,
        p.technique,
        tally.games(),
        games,
        elo::format_elo(e, err),
        t.wins,
        t.draws,
        t.losses
    );
    if let Some((llr, state)) = sprt {
        line.push_str(&format!(", LLR {llr:.2}"));
        if state != SprtState::Continue {
            line.push_str(&format!(" {state} accepted"));
        }
    }
    line
}

/// The report as one JSON object (`xiangqi ablate --json`).
pub fn json(plan: &Plan, rows: &[Row], nodes: Option<&BTreeMap<String, Nodes>>, elapsed: f64) -> serde_json::Value {
    let base_nodes = nodes.map(|n| &n[&plan.base.to_string()]);
    serde_json::json!({
        "base": plan.base.to_string(),
        "mode": if plan.build_up { "build-up" } else { "ablation" },
        "depth": plan.depth,
        "time_control": plan.tc.map(|tc| tc.to_string()),
        "games_per_pairing": plan.games,
        "seconds": elapsed,
        "base_nodes": base_nodes.map(|n| n.total),
        "base_positions": base_nodes.map(|n| n.per_position.clone()),
        "rows": rows.iter().map(|r| {
            let t = r.tally.trinomial();
            let (e, err) = r.tally.elo();
            let variant = r.variant(&plan.base);
            let vn = nodes.map(|n| &n[&variant.to_string()]);
            serde_json::json!({
                "technique": r.p.technique,
                "with": r.p.with.to_string(),
                "without": r.p.without.to_string(),
                "variant": short(&variant),
                "nodes": vn.map(|n| n.total),
                "positions": vn.map(|n| n.per_position.clone()),
                "seconds": vn.map(|n| n.seconds),
                "node_ratio": match (vn, base_nodes) {
                    (Some(v), Some(b)) => number(v.total as f64 / b.total.max(1) as f64),
                    _ => serde_json::Value::Null,
                },
                "nodes_with": r.nodes.map(|(w, _)| w.total),
                "nodes_without": r.nodes.map(|(_, wo)| wo.total),
                "games": r.tally.games(),
                "wins": t.wins, "draws": t.draws, "losses": t.losses,
                "pentanomial": r.tally.pentanomial().counts,
                "elo": number(e), "elo_error": number(err),
                "reasons": r.tally.reasons,
                "sprt": r.sprt.map(|(llr, s)| serde_json::json!({"llr": number(llr), "state": s.to_string()})),
                "verdict": r.verdict(),
            })
        }).collect::<Vec<_>>(),
    })
}

/// The report as a table, one row per technique.
pub fn table(
    out: &mut impl Write,
    plan: &Plan,
    rows: &[Row],
    nodes: Option<&BTreeMap<String, Nodes>>,
    elapsed: f64,
) -> std::io::Result<()> {
    let mode = if plan.build_up { "added alone to" } else { "taken alone from" };
    writeln!(out, "Techniques {mode} {}", short(&plan.base))?;
    let base_nodes = nodes.map(|n| &n[&plan.base.to_string()]);
    if let Some(b) = base_nodes {
        writeln!(
            out,
            "Nodes: the {} bench positions to depth {}, one thread, Hash {} MB; {}: {} nodes in {:.2} s",
            b.per_position.len(),
            plan.depth,
            plan.hash,
            short(&plan.base),
            thousands(b.total),
            b.seconds
        )?;
    }
    if let Some(tc) = plan.tc {
        writeln!(
            out,
            "Elo: the side with the technique over the side without it, {}, {} openings with both colours, 95% \
             error bars by game pairs",
            tc.describe(),
            plan.openings.len()
        )?;
    }
    writeln!(
        out,
        "{:<16} {:<32} {:>12} {:>8} {:>8} {:>16} {:>6} {:>14}  verdict",
        "technique", "variant", "nodes", "ratio", "time", "Elo", "games", "W/D/L"
    )?;
    for r in rows {
        let variant = r.variant(&plan.base);
        let vn = nodes.map(|n| &n[&variant.to_string()]);
        let t = r.tally.trinomial();
        let (e, err) = r.tally.elo();
        writeln!(
            out,
            "{:<16} {:<32} {:>12} {:>8} {:>8} {:>16} {:>6} {:>14}  {}",
            r.p.technique,
            short(&variant),
            vn.map_or("-".to_owned(), |n| thousands(n.total)),
            match (vn, base_nodes) {
                (Some(v), Some(b)) => format!("{:.3}", v.total as f64 / b.total.max(1) as f64),
                _ => "-".to_owned(),
            },
            vn.map_or("-".to_owned(), |n| format!("{:.2} s", n.seconds)),
            elo::format_elo(e, err),
            r.tally.games(),
            format!("{}/{}/{}", t.wins, t.draws, t.losses),
            r.verdict()
        )?;
    }
    writeln!(out, "Took {elapsed:.0} s")?;
    Ok(())
}
