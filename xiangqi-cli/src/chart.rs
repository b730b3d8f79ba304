//! What the command's SVG charts (`search --chart`, `ablate --svg`, `analyze --svg`) and tables share.

use plotters::chart::{ChartContext, SeriesLabelPosition};
use plotters::coord::CoordTranslate;
use plotters::prelude::{DrawingBackend, BLACK, WHITE};
use plotters::style::Color;

pub use xiangqi_match::report::thousands;

/// Draws the legend of `chart`'s labelled series at `position`, in the one style of every chart: a white box with a
/// black border, 13-point text.
pub fn legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())
}
