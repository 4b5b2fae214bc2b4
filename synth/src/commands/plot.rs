//! A picture of each run: cost against input size as an SVG, written next to the run file.
//!
//! Asymptotic runs show the measured points, the fitted curve of the empirical class and
//! the best curve of the expected class (the gap between the two is the bottleneck);
//! relative runs show both versions along the best program's mutation path.
//!
//! plotters is used without its default features (which pull freetype and fontconfig):
//! without a font backend it estimates text extents crudely and its SVG backend still
//! writes `<text>` elements, which any SVG viewer renders with its own fonts. A `<title>`
//! and a `<desc>` naming every series are added for viewers and tools that do not show text.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::explore::report::ExploreReport;
use crate::explore::OracleKind;
use crate::judge::oracle::fit::{fit_class_with_base, Points};
use crate::report::class::Class;

/// Size of the picture in pixels.
const SIZE: (u32, u32) = (900, 560);

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("nothing to plot: the run has no points")]
    Empty,
    #[error("drawing the plot failed: {0}")]
    Draw(String),
    #[error("cannot write the plot {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A named series of the plot.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Measured points (drawn as dots and joined) or a curve (a line only).
    pub measured: bool,
}

/// The series a report is drawn with (also what `<desc>` lists).
pub fn series(r: &ExploreReport) -> Vec<Series> {
    let as_f = |v: &[(u64, f64)]| {
        let mut p: Vec<(f64, f64)> = v.iter().map(|(n, c)| (*n as f64, *c)).collect();
        p.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        p
    };
    let mut out = Vec::new();
    if r.oracle == OracleKind::Relative {
        out.push(Series {
            name: format!("new ({})", r.new_type.as_deref().unwrap_or(&r.ty)),
            points: as_f(&r.points),
            measured: true,
        });
        if !r.ref_points.is_empty() {
            out.push(Series {
                name: format!("old ({})", r.ref_type.as_deref().unwrap_or("reference")),
                points: as_f(&r.ref_points),
                measured: true,
            });
        }
        return out;
    }
    let pts = as_f(&r.points);
    out.push(Series {
        name: format!("measured ({})", r.points_from),
        points: pts.clone(),
        measured: true,
    });
    let Some(p) = Points::new(pts.clone()) else {
        return out;
    };
    let (lo, hi) = (pts[0].0, pts[pts.len() - 1].0);
    // An exponential verdict's fitted base.
    let base = r.evidence.as_ref().and_then(|v| v.evidence.base);
    let curve = |class: Class, label: &str| {
        fit_class_with_base(&p, class, base).map(|f| Series {
            name: format!("{label} {} fit", class.label()),
            points: (0..=64)
                .map(|i| {
                    let x = lo + (hi - lo) * i as f64 / 64.0;
                    (x, f.at(x))
                })
                .collect(),
            measured: false,
        })
    };
    let (empirical, expected) = (r.empirical, r.expected);
    if let Some(s) = empirical.and_then(|c| curve(c, "empirical")) {
        out.push(s);
    }
    if let Some(c) = expected.filter(|c| Some(*c) != empirical) {
        if let Some(s) = curve(c, "expected") {
            out.push(s);
        }
    }
    out
}

/// The plot of `r` as an SVG document.
pub fn render_svg(r: &ExploreReport) -> Result<String, PlotError> {
    let all = series(r);
    let xs = all.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = all.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (x0, x1) = bounds(xs).ok_or(PlotError::Empty)?;
    let (_, y1) = bounds(ys).ok_or(PlotError::Empty)?;
    let (x0, x1) = if x1 > x0 {
        (x0, x1)
    } else {
        (x0 - 1.0, x1 + 1.0)
    };
    let y1 = if y1 > 0.0 { y1 * 1.08 } else { 1.0 };
    let title = match (r.oracle, r.ratio) {
        (OracleKind::Relative, Some(ratio)) => {
            format!("{}: new/old cost {ratio:.2} ({})", r.method, r.verdict)
        }
        _ => format!(
            "{}: {} (expected {})",
            r.method,
            r.empirical.map_or("?", Class::label),
            r.expected.map_or("undeclared", Class::label)
        ),
    };
    let mut svg = String::new();
    {
        let d = |e: &dyn std::fmt::Display| PlotError::Draw(e.to_string());
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| d(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&title, ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, 0f64..y1)
            .map_err(|e| d(&e))?;
        chart
            .configure_mesh()
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .x_desc("input size")
            .y_desc(format!("cost ({})", r.metric))
            .draw()
            .map_err(|e| d(&e))?;
        let colors = [BLUE, RED, GREEN, MAGENTA, CYAN];
        for (i, s) in all.iter().enumerate() {
            let color = colors[i % colors.len()];
            let style = if s.measured {
                color.stroke_width(2)
            } else {
                color.stroke_width(1)
            };
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), style))
                .map_err(|e| d(&e))?
                .label(s.name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            if s.measured {
                chart
                    .draw_series(s.points.iter().map(|p| Circle::new(*p, 3, color.filled())))
                    .map_err(|e| d(&e))?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(|e| d(&e))?;
        root.present().map_err(|e| d(&e))?;
    }
    Ok(with_description(&svg, &title, &all))
}

/// Writes the plot of `r` to `path` (atomically).
pub fn write(r: &ExploreReport, path: &Path) -> Result<(), PlotError> {
    let svg = render_svg(r)?;
    crate::explore::runfile::write_atomic(path, svg.as_bytes()).map_err(|source| PlotError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// The plot's path for a run file: the same name with `.svg`.
pub fn path_for(run_file: &Path) -> PathBuf {
    run_file.with_extension("svg")
}

fn bounds(v: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    v.filter(|x| x.is_finite()).fold(None, |acc, x| match acc {
        None => Some((x, x)),
        Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
    })
}

/// Inserts `<title>` and `<desc>` right after the opening `<svg ...>` tag.
fn with_description(svg: &str, title: &str, all: &[Series]) -> String {
    let desc: Vec<String> = all
        .iter()
        .map(|s| format!("{} ({} points)", s.name, s.points.len()))
        .collect();
    let insert = format!(
        "\n<title>{}</title>\n<desc>cost against input size; series: {}</desc>",
        escape(title),
        escape(&desc.join("; "))
    );
    match svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|j| i + j + 1))
    {
        Some(at) => format!("{}{}{}", &svg[..at], insert, &svg[at..]),
        None => svg.to_string(),
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
