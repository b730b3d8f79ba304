//! The chart of a tuning run (`--svg`): one small panel per parameter, theta by iteration, with its start value,
//! in the style of the command's other charts ([`crate::chart`]).

use crate::CmdResult;
use std::path::Path;
use xiangqi_match::tune::Tuned;

/// Panels per row.
const COLUMNS: usize = 3;

/// Draws each parameter's path: `history[j][i]` is parameter `i`'s theta after `j` iterations.
pub(super) fn chart(path: &Path, params: &[Tuned], history: &[Vec<f64>], tc: &str) -> CmdResult {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("--svg {}: {e}", path.display());
    let n = params.len().max(1);
    let columns = n.min(COLUMNS);
    let rows = n.div_ceil(columns);
    let iterations = history.len().saturating_sub(1);
    let root = SVGBackend::new(path, (400 * columns as u32, 40 + 240 * rows as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let caption = format!("SPSA: theta by iteration ({iterations} iterations, {tc})");
    let root = root.titled(&caption, ("sans-serif", 18)).map_err(|e| fail(&e))?;
    let blue = RGBColor(40, 90, 170);
    for (i, (p, area)) in params.iter().zip(root.split_evenly((rows, columns))).enumerate() {
        let path_of: Vec<(f64, f64)> = history.iter().enumerate().map(|(j, h)| (j as f64, h[i])).collect();
        let (lo, hi) = path_of.iter().fold((p.start, p.start), |(lo, hi), &(_, y)| (lo.min(y), hi.max(y)));
        // At least a few steps of room either side of the start, so that a flat path reads as flat.
        let pad = ((hi - lo) * 0.15).max(p.c_end);
        let (lo, hi) = ((lo - pad).max(p.min), (hi + pad).min(p.max));
        let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, hi + 1.0) };
        let mut chart = ChartBuilder::on(&area)
            .caption(&p.name, ("sans-serif", 14))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(50)
            .build_cartesian_2d(0.0..iterations.max(1) as f64, lo..hi)
            .map_err(|e| fail(&e))?;
        chart
            .configure_mesh()
            .x_labels(6)
            .y_labels(6)
            .x_label_formatter(&|x: &f64| format!("{x:.0}"))
            .y_label_formatter(&|y: &f64| if hi - lo >= 5.0 { format!("{y:.0}") } else { format!("{y:.1}") })
            .label_style(("sans-serif", 12))
            .draw()
            .map_err(|e| fail(&e))?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, p.start), (iterations.max(1) as f64, p.start)],
                BLACK.mix(0.5),
            )))
            .map_err(|e| fail(&e))?
            .label("start")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], BLACK.mix(0.5)));
        chart
            .draw_series(LineSeries::new(path_of, blue.stroke_width(2)))
            .map_err(|e| fail(&e))?
            .label("theta")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 14, y)], blue.stroke_width(2)));
        if i == 0 {
            crate::chart::legend(&mut chart, SeriesLabelPosition::UpperRight).map_err(|e| fail(&e))?;
        }
    }
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}
