//! The chart of an ablation (`--svg`): per technique, the Elo with its error bar and the node factor its absence
//! costs.

use crate::CmdResult;
use std::path::Path;
use xiangqi_match::ablate::report::Row;
use xiangqi_match::ablate::{short, Plan};

/// The chart: per technique, the Elo with its error bar (left axis) and the node factor its absence costs (nodes
/// without it over nodes with it, log scale, right axis).
pub(super) fn chart(path: &Path, plan: &Plan, rows: &[Row]) -> CmdResult {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("--svg {}: {e}", path.display());
    let n = rows.len();
    let elo: Vec<(f64, f64)> = rows.iter().map(|r| r.tally.elo()).collect();
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    let top = elo.iter().map(|&(e, err)| finite(e).abs() + finite(err)).fold(50.0f64, f64::max) * 1.1;
    let savings: Vec<f64> = rows.iter().map(|r| r.saving().unwrap_or(1.0)).collect();
    // A log axis symmetric about 1, so that a factor of 1 (no saving) is level with 0 Elo.
    // Drawn as log2 of the factor on a linear axis (plotters labels no log axis below 1).
    let smax = (savings.iter().map(|s| s.max(1.0 / s)).fold(2.0f64, f64::max) * 1.3).log2();
    let root = SVGBackend::new(path, (1200, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mode = if plan.build_up { "added alone to" } else { "taken alone from" };
    let tc = plan.tc.map_or("no games".to_owned(), |tc| tc.describe());
    let caption = format!("Techniques {mode} {}: Elo ({tc}) and nodes (depth {})", short(&plan.base), plan.depth);
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 18))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .right_y_label_area_size(70)
        .build_cartesian_2d(-0.5..n as f64 - 0.5, -top..top)
        .map_err(|e| fail(&e))?
        .set_secondary_coord(-0.5..n as f64 - 0.5, -smax..smax);
    let names: Vec<String> = rows.iter().map(|r| r.p.technique.clone()).collect();
    let label = move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
            names[i as usize].clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n * 2 + 1)
        .x_label_formatter(&label)
        .x_label_style(("sans-serif", 12))
        .y_desc("Elo with the technique over without it (95% error bar)")
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .configure_secondary_axes()
        .y_desc("nodes without / nodes with (log)")
        .y_labels(16)
        .y_label_formatter(&|y: &f64| {
            let factor = y.exp2();
            if factor >= 10.0 {
                format!("{factor:.0}")
            } else if factor >= 1.0 {
                format!("{factor:.1}")
            } else {
                format!("{factor:.2}")
            }
        })
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(|e| fail(&e))?;
    chart
        .draw_series(std::iter::once(PathElement::new(vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)], BLACK.mix(0.6))))
        .map_err(|e| fail(&e))?;
    let blue = RGBColor(40, 90, 170);
    chart
        .draw_series(
            elo.iter().enumerate().filter(|(_, (e, _))| e.is_finite()).map(|(i, &(e, _))| {
                Rectangle::new([(i as f64 - 0.3, 0.0), (i as f64 + 0.05, e)], blue.mix(0.7).filled())
            }),
        )
        .map_err(|e| fail(&e))?
        .label("Elo")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], blue.mix(0.7).filled()));
    chart
        .draw_series(elo.iter().enumerate().filter(|(_, (e, err))| e.is_finite() && err.is_finite()).flat_map(
            |(i, &(e, err))| {
                // A vertical bar from e - err to e + err with a cap at each end.
                let (x, w) = (i as f64 - 0.125, 0.08);
                [
                    vec![(x, e - err), (x, e + err)],
                    vec![(x - w, e - err), (x + w, e - err)],
                    vec![(x - w, e + err), (x + w, e + err)],
                ]
                .map(|points| PathElement::new(points, BLACK.stroke_width(2)))
            },
        ))
        .map_err(|e| fail(&e))?;
    // Each Elo written beyond the end of its error bar.
    chart
        .draw_series(elo.iter().enumerate().filter(|(_, (e, _))| e.is_finite()).map(|(i, &(e, err))| {
            let reach = if err.is_finite() { err } else { 0.0 };
            let y = if e >= 0.0 { e + reach + top * 0.07 } else { e - reach - top * 0.02 };
            // Rounded first, so that a small negative Elo reads +0, never -0.
            let rounded = e.round() + 0.0;
            let text = if err.is_finite() { format!("{rounded:+.0}") } else { format!("{rounded:+.0} (±inf)") };
            Text::new(text, (i as f64 - 0.3, y), ("sans-serif", 12).into_font())
        }))
        .map_err(|e| fail(&e))?;
    let red = RGBColor(200, 60, 40);
    chart
        .draw_secondary_series(
            savings.iter().enumerate().filter(|(i, _)| rows[*i].nodes.is_some()).map(|(i, &s)| {
                Rectangle::new([(i as f64 + 0.05, 0.0), (i as f64 + 0.3, s.log2())], red.mix(0.6).filled())
            }),
        )
        .map_err(|e| fail(&e))?
        .label("nodes without / with")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], red.mix(0.6).filled()));
    crate::chart::legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
