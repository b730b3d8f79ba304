//! The loss curve as an SVG chart.

use std::path::Path;

/// One point of the loss curve: after `epoch` epochs (fractional for a point within an epoch), the training loss
/// and, at the end of an epoch, the validation loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossPoint {
    /// Epochs done.
    pub epoch: f64,
    /// Mean training loss since the previous point.
    pub train: f64,
    /// Validation loss, where measured.
    pub validation: Option<f64>,
}

/// Draws the training and validation loss against epochs as an SVG file (text as SVG text: no font needed).
pub fn draw_loss(path: &Path, title: &str, points: &[LossPoint]) -> Result<(), String> {
    use plotters::prelude::*;
    let fail = |e: &dyn std::fmt::Display| format!("cannot write the loss chart {}: {e}", path.display());
    let max_x = points.iter().map(|p| p.epoch).fold(1.0, f64::max);
    let values = || points.iter().flat_map(|p| std::iter::once(p.train).chain(p.validation));
    let max_y = values().fold(f64::MIN, f64::max);
    let min_y = values().fold(f64::MAX, f64::min);
    let (min_y, max_y) = if min_y <= max_y { (min_y, max_y) } else { (0.0, 1.0) };
    let pad = ((max_y - min_y) * 0.08).max(1e-6);

    let root = SVGBackend::new(path, (900, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0.0..max_x, (min_y - pad).max(0.0)..max_y + pad)
        .map_err(|e| fail(&e))?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc("loss (mean squared error of the win probability)")
        .y_label_formatter(&|y| format!("{y:.5}"))
        .draw()
        .map_err(|e| fail(&e))?;
    let train_style = ShapeStyle { color: BLUE.to_rgba(), filled: true, stroke_width: 2 };
    chart
        .draw_series(LineSeries::new(points.iter().map(|p| (p.epoch, p.train)), train_style))
        .map_err(|e| fail(&e))?
        .label("training loss")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], train_style));
    let val: Vec<(f64, f64)> = points.iter().filter_map(|p| p.validation.map(|v| (p.epoch, v))).collect();
    let val_style = ShapeStyle { color: RED.to_rgba(), filled: true, stroke_width: 2 };
    chart
        .draw_series(LineSeries::new(val.iter().copied(), val_style))
        .map_err(|e| fail(&e))?
        .label("validation loss (held-out positions)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], val_style));
    chart.draw_series(val.iter().map(|&p| Circle::new(p, 4, RED.filled()))).map_err(|e| fail(&e))?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_both_curves() {
        let path = std::env::temp_dir().join(format!("xiangqi-train-loss-{}.svg", std::process::id()));
        let points: Vec<LossPoint> = (1..=6)
            .map(|i| LossPoint {
                epoch: f64::from(i) / 2.0,
                train: 0.05 / f64::from(i),
                validation: (i % 2 == 0).then(|| 0.06 / f64::from(i)),
            })
            .collect();
        draw_loss(&path, "test run", &points).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("training loss") && svg.contains("validation loss"));
        assert!(svg.contains("test run"));
        // The training curve (blue) has a vertex per point, the validation curve (red) one per epoch end.
        let vertices = |colour: &str| {
            svg.lines()
                .filter(|l| l.contains("<polyline") && l.contains(colour))
                .map(|l| l.matches(',').count())
                .max()
                .unwrap_or(0)
        };
        assert_eq!(vertices("#0000FF"), 6);
        assert_eq!(vertices("#FF0000"), 3);
    }
}
