//! Plots (SVG and PNG, drawn with plotters): radar charts of pass@1 per
//! language / technique across models, horizontal grouped bar charts for
//! pass@k and failure distributions.
//!
//! Charts are laid out by hand in pixel coordinates (text sizes measured
//! with the backend) so long labels never overlap: categories are on the
//! vertical axis, one text line each, and the legend sits above the plot.

use crate::render::Report;
use crate::summary::{paper_language_order, RunSummary};
use anyhow::{anyhow, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use polyeval_core::technique::Technique;
use polyeval_core::Bench;
use std::collections::BTreeMap;
use std::path::Path;

/// What a chart shows; independent of the output format.
#[derive(Debug, Clone)]
pub enum ChartKind {
    /// Values in [0, 1] on each axis, one polygon per series.
    Radar {
        axes: Vec<String>,
        series: Vec<(String, Vec<Option<f64>>)>,
    },
    /// Horizontal grouped bars: one group per category, one bar per series.
    /// `fraction` = values are fractions shown as percentages.
    Bars {
        categories: Vec<String>,
        series: Vec<(String, Vec<Option<f64>>)>,
        fraction: bool,
        axis_label: String,
    },
}

#[derive(Debug, Clone)]
pub struct Chart {
    /// File stem (`radar-language`, …).
    pub id: String,
    pub title: String,
    pub kind: ChartKind,
}

/// Tableau-10: distinguishable, colour-blind-friendlier than the defaults.
const PALETTE: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

const FONT: &str = "sans-serif";

fn run_name(r: &RunSummary) -> String {
    if r.label.is_empty() || r.label == r.model {
        r.model.clone()
    } else {
        format!("{} ({})", r.model, r.label)
    }
}

/// The charts a report calls for (only those with data).
pub fn charts_for(report: &Report) -> Vec<Chart> {
    let mut charts = Vec::new();
    let runs_of = |b: Bench| {
        report
            .runs
            .iter()
            .filter(move |r| r.bench == b.key())
            .collect::<Vec<_>>()
    };
    let ipc = runs_of(Bench::CrossplIpc);
    if !ipc.is_empty() {
        let langs: Vec<String> = paper_language_order(Bench::CrossplIpc)
            .iter()
            .map(|l| l.display_name().to_string())
            .collect();
        charts.extend(radar(
            "radar-language",
            "CrossPL-IPC pass@1 by language",
            langs.clone(),
            ipc.iter()
                .map(|r| {
                    let v = langs
                        .iter()
                        .map(|l| {
                            r.by_language
                                .get(l)
                                .and_then(|g| g.metrics.get("pass@1"))
                                .map(|e| e.value)
                        })
                        .collect();
                    (run_name(r), v)
                })
                .collect(),
        ));
        let techs: Vec<String> = Technique::ALL.map(|t| t.to_string()).to_vec();
        charts.extend(radar(
            "radar-technique",
            "CrossPL-IPC pass@1 by technique",
            techs.clone(),
            ipc.iter()
                .map(|r| {
                    let v = techs
                        .iter()
                        .map(|t| {
                            r.by_technique
                                .get(t)
                                .and_then(|g| g.metrics.get("pass@1"))
                                .map(|e| e.value)
                        })
                        .collect();
                    (run_name(r), v)
                })
                .collect(),
        ));
        for r in &ipc {
            let Some(f) = &r.fsm else { continue };
            let max_step = f
                .deepest_step_by_language
                .values()
                .flat_map(|m| m.keys())
                .copied()
                .max()
                .unwrap_or(0);
            let categories: Vec<String> = (0..=max_step)
                .map(|k| format!("deepest step {k}"))
                .collect();
            let series = langs
                .iter()
                .filter_map(|l| {
                    let m = f.deepest_step_by_language.get(l)?;
                    let total: usize = m.values().sum();
                    Some((
                        format!("{l} (n={total})"),
                        (0..=max_step)
                            .map(|k| Some(*m.get(&k).unwrap_or(&0) as f64 / total.max(1) as f64))
                            .collect(),
                    ))
                })
                .collect();
            charts.push(Chart {
                id: format!("fsm-steps-{}", slug(&r.label)),
                title: format!(
                    "{}: deepest FSM step reached by rejected generations",
                    run_name(r)
                ),
                kind: ChartKind::Bars {
                    categories,
                    series,
                    fraction: true,
                    axis_label: "share of the language's rejected generations".into(),
                },
            });
        }
    }
    let ffi = runs_of(Bench::CrossplFfi);
    if !ffi.is_empty() {
        let categories: Vec<String> = ffi.iter().map(|r| run_name(r)).collect();
        let series = ["pass@1", "pass@5"]
            .iter()
            .map(|m| {
                (
                    m.to_string(),
                    ffi.iter()
                        .map(|r| r.overall.get(*m).map(|e| e.value))
                        .collect(),
                )
            })
            .collect();
        charts.push(Chart {
            id: "ffi-pass".into(),
            title: "CrossPL-FFI pass@1 and pass@5".into(),
            kind: ChartKind::Bars {
                categories,
                series,
                fraction: true,
                axis_label: "pass rate".into(),
            },
        });
        if let Some(c) = category_chart(
            "ffi-errors",
            "CrossPL-FFI failure classes",
            ffi.iter()
                .map(|r| (run_name(r), merged_categories(r)))
                .collect(),
            "share of failed samples",
        ) {
            charts.push(c);
        }
    }
    for bench in [Bench::MultiOop, Bench::Oop] {
        for r in runs_of(bench) {
            let order: Vec<String> = paper_language_order(bench)
                .iter()
                .map(|l| l.display_name().to_string())
                .collect();
            let per_lang: Vec<(String, BTreeMap<String, usize>)> = order
                .iter()
                .filter_map(|l| r.failure_categories.get(l).map(|m| (l.clone(), m.clone())))
                .collect();
            if let Some(c) = category_chart(
                &format!("{}-errors-{}", bench.key(), slug(&r.label)),
                &format!(
                    "{}: error types per language ({})",
                    run_name(r),
                    bench.key()
                ),
                per_lang,
                "share of the language's failed samples",
            ) {
                charts.push(c);
            }
        }
    }
    charts
}

/// A radar chart of the axes where every series has a value: a group with
/// no data (a language a run has no tasks or samples in) is left out, not
/// drawn as 0 %, and the title says which. `None` below three axes, where a
/// radar shows nothing a table does not.
fn radar(
    id: &str,
    title: &str,
    axes: Vec<String>,
    series: Vec<(String, Vec<Option<f64>>)>,
) -> Option<Chart> {
    let keep: Vec<usize> = (0..axes.len())
        .filter(|&i| {
            series
                .iter()
                .all(|(_, v)| v.get(i).copied().flatten().is_some())
        })
        .collect();
    if keep.len() < 3 {
        return None;
    }
    let left_out: Vec<&str> = (0..axes.len())
        .filter(|i| !keep.contains(i))
        .map(|i| axes[i].as_str())
        .collect();
    let title = if left_out.is_empty() {
        title.to_string()
    } else {
        format!("{title} (no data: {})", left_out.join(", "))
    };
    Some(Chart {
        id: id.into(),
        title,
        kind: ChartKind::Radar {
            axes: keep.iter().map(|&i| axes[i].clone()).collect(),
            series: series
                .into_iter()
                .map(|(name, v)| (name, keep.iter().map(|&i| v[i]).collect()))
                .collect(),
        },
    })
}

fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn merged_categories(r: &RunSummary) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for per in r.failure_categories.values() {
        for (c, n) in per {
            *m.entry(c.clone()).or_default() += n;
        }
    }
    m
}

/// Share of each failure class per series; the ten most common classes
/// overall, the rest folded into "other classes".
fn category_chart(
    id: &str,
    title: &str,
    series: Vec<(String, BTreeMap<String, usize>)>,
    axis_label: &str,
) -> Option<Chart> {
    let mut totals: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, m) in &series {
        for (c, n) in m {
            *totals.entry(c).or_default() += n;
        }
    }
    if totals.is_empty() {
        return None;
    }
    let mut classes: Vec<(&str, usize)> = totals.into_iter().collect();
    classes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    const TOP: usize = 10;
    let top: Vec<String> = classes.iter().take(TOP).map(|c| c.0.to_string()).collect();
    let has_rest = classes.len() > TOP;
    let mut categories = top.clone();
    if has_rest {
        categories.push("other classes".into());
    }
    let out_series = series
        .iter()
        .map(|(name, m)| {
            let total: usize = m.values().sum();
            let share = |n: usize| Some(n as f64 / total.max(1) as f64);
            let mut v: Vec<Option<f64>> =
                top.iter().map(|c| share(*m.get(c).unwrap_or(&0))).collect();
            if has_rest {
                v.push(share(
                    m.iter()
                        .filter(|(c, _)| !top.contains(c))
                        .map(|(_, n)| n)
                        .sum(),
                ));
            }
            (name.clone(), v)
        })
        .collect();
    Some(Chart {
        id: id.into(),
        title: title.into(),
        kind: ChartKind::Bars {
            categories,
            series: out_series,
            fraction: true,
            axis_label: axis_label.into(),
        },
    })
}

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing failed: {e:?}")
}

/// Pixel size of a chart (depends on how many bars it has).
pub fn chart_size(chart: &Chart) -> (u32, u32) {
    match &chart.kind {
        ChartKind::Radar { series, .. } => {
            (960, 720 + 24 * (series.len() as u32).saturating_sub(6))
        }
        ChartKind::Bars {
            categories, series, ..
        } => {
            let bars = (categories.len() * series.len().max(1)) as u32;
            let legend_rows = (series.len() as u32).div_ceil(3);
            (
                960,
                130 + 22 * legend_rows + bars * 16 + categories.len() as u32 * 14 + 40,
            )
        }
    }
}

pub fn render_svg(chart: &Chart) -> Result<String> {
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, chart_size(chart)).into_drawing_area();
        draw(&root, chart)?;
        root.present().map_err(err)?;
    }
    Ok(s)
}

pub fn render_png(chart: &Chart, path: &Path) -> Result<()> {
    let root = BitMapBackend::new(path, chart_size(chart)).into_drawing_area();
    draw(&root, chart).map_err(|e| e.context(format!("rendering {}", path.display())))?;
    root.present()
        .map_err(|e| anyhow!("writing {}: {e:?}", path.display()))?;
    Ok(())
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<()> {
    root.fill(&WHITE).map_err(err)?;
    let (w, _) = root.dim_in_pixel();
    let title = TextStyle::from((FONT, 24).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top))
        .color(&BLACK);
    root.draw(&Text::new(chart.title.clone(), (w as i32 / 2, 14), title))
        .map_err(err)?;
    match &chart.kind {
        ChartKind::Radar { axes, series } => draw_radar(root, axes, series),
        ChartKind::Bars {
            categories,
            series,
            fraction,
            axis_label,
        } => draw_bars(root, categories, series, *fraction, axis_label),
    }
}

/// Legend entries laid out in rows of up to `per_row`, starting at `top`;
/// returns the y below the legend.
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[String],
    top: i32,
    left: i32,
    width: i32,
    per_row: usize,
) -> Result<i32> {
    let style = TextStyle::from((FONT, 15).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center))
        .color(&BLACK);
    let cell = width / per_row as i32;
    let mut y = top;
    for (i, name) in names.iter().enumerate() {
        let col = (i % per_row) as i32;
        if i > 0 && col == 0 {
            y += 22;
        }
        let x = left + col * cell;
        root.draw(&Rectangle::new(
            [(x, y - 6), (x + 14, y + 6)],
            color(i).filled(),
        ))
        .map_err(err)?;
        // Shorten names that would run into the next legend cell.
        let mut label = name.clone();
        while label.chars().count() > 4 && text_width(root, &label, 15) > (cell - 28) as u32 {
            label = format!(
                "{}…",
                label
                    .chars()
                    .take(label.chars().count() - 2)
                    .collect::<String>()
            );
        }
        root.draw(&Text::new(label, (x + 20, y), style.clone()))
            .map_err(err)?;
    }
    Ok(y + 22)
}

fn text_width<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, text: &str, size: u32) -> u32 {
    root.estimate_text_size(text, &TextStyle::from((FONT, size).into_font()))
        .map(|(w, _)| w)
        .unwrap_or(text.len() as u32 * size / 2)
}

fn fmt_value(v: f64, fraction: bool) -> String {
    if fraction {
        crate::table::pct(v)
    } else {
        format!("{v:.0}")
    }
}

fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    categories: &[String],
    series: &[(String, Vec<Option<f64>>)],
    fraction: bool,
    axis_label: &str,
) -> Result<()> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let names: Vec<String> = series.iter().map(|s| s.0.clone()).collect();
    let legend_bottom = draw_legend(root, &names, 58, 40, w - 80, 3)?;
    let label_w = categories
        .iter()
        .map(|c| text_width(root, c, 15))
        .max()
        .unwrap_or(40) as i32;
    let left = (label_w + 24).min(w / 2);
    let right = w - 90; // room for value labels past the longest bar
    let top = legend_bottom + 10;
    let bottom = h - 52;
    let max_v = series
        .iter()
        .flat_map(|s| s.1.iter().flatten())
        .copied()
        .fold(0.0f64, f64::max);
    // Round tick steps (10 % or 20 % for fractions; 1-2-5 steps for counts)
    // and an axis end one step above the largest bar, so its label fits.
    let step = if fraction {
        if max_v <= 0.45 {
            0.1
        } else {
            0.2
        }
    } else {
        let raw = (max_v / 5.0).max(1.0);
        let mag = 10f64.powf(raw.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * mag)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * mag)
    };
    let x_max = {
        let end = ((max_v / step).floor() + 1.0) * step;
        if fraction {
            end.min(1.0)
        } else {
            end
        }
    };
    let ticks = (x_max / step).round() as usize;
    let xpix = |v: f64| left + ((right - left) as f64 * (v / x_max)).round() as i32;
    // Grid and ticks.
    let tick_style = TextStyle::from((FONT, 13).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top))
        .color(&BLACK);
    for i in 0..=ticks {
        let v = step * i as f64;
        let x = xpix(v);
        root.draw(&PathElement::new(
            vec![(x, top), (x, bottom)],
            RGBColor(220, 220, 220),
        ))
        .map_err(err)?;
        let label = if fraction {
            format!("{:.0}%", v * 100.0)
        } else {
            format!("{v:.0}")
        };
        root.draw(&Text::new(label, (x, bottom + 6), tick_style.clone()))
            .map_err(err)?;
    }
    let axis_style = TextStyle::from((FONT, 15).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top))
        .color(&BLACK);
    root.draw(&Text::new(
        axis_label.to_string(),
        ((left + right) / 2, bottom + 26),
        axis_style,
    ))
    .map_err(err)?;
    root.draw(&PathElement::new(vec![(left, top), (left, bottom)], BLACK))
        .map_err(err)?;
    // Bars.
    let n_series = series.len().max(1) as i32;
    let group_h = (bottom - top) / categories.len().max(1) as i32;
    let bar_h = ((group_h - 10) / n_series).max(2);
    let cat_style = TextStyle::from((FONT, 15).into_font())
        .pos(Pos::new(HPos::Right, VPos::Center))
        .color(&BLACK);
    let val_style = TextStyle::from((FONT, 12).into_font())
        .pos(Pos::new(HPos::Left, VPos::Center))
        .color(&BLACK);
    for (ci, cat) in categories.iter().enumerate() {
        let gy = top + ci as i32 * group_h + 5;
        root.draw(&Text::new(
            cat.clone(),
            (left - 8, gy + (bar_h * n_series) / 2),
            cat_style.clone(),
        ))
        .map_err(err)?;
        for (si, (_, values)) in series.iter().enumerate() {
            let y0 = gy + si as i32 * bar_h;
            match values.get(ci).copied().flatten() {
                Some(v) => {
                    let x1 = xpix(v.clamp(0.0, x_max)).max(left + 1);
                    root.draw(&Rectangle::new(
                        [(left, y0), (x1, y0 + bar_h - 1)],
                        color(si).filled(),
                    ))
                    .map_err(err)?;
                    // Zero bars get no label: a column of "0.00%" is noise.
                    if bar_h >= 10 && v > 0.0 {
                        root.draw(&Text::new(
                            fmt_value(v, fraction),
                            (x1 + 4, y0 + bar_h / 2),
                            val_style.clone(),
                        ))
                        .map_err(err)?;
                    }
                }
                None => {
                    root.draw(&Text::new(
                        "n/a",
                        (left + 4, y0 + bar_h / 2),
                        val_style.clone(),
                    ))
                    .map_err(err)?;
                }
            }
        }
    }
    Ok(())
}

fn draw_radar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    axes: &[String],
    series: &[(String, Vec<Option<f64>>)],
) -> Result<()> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let names: Vec<String> = series.iter().map(|s| s.0.clone()).collect();
    let legend_bottom = draw_legend(root, &names, 58, 40, w - 80, 3)?;
    let cx = w / 2;
    let cy = (legend_bottom + h) / 2 + 4;
    let radius = ((h - legend_bottom) / 2 - 60).min(w / 2 - 160) as f64;
    let n = axes.len().max(3);
    let point = |i: usize, r: f64| -> (i32, i32) {
        // Axis 0 points straight up; clockwise.
        let a = -std::f64::consts::FRAC_PI_2 + 2.0 * std::f64::consts::PI * i as f64 / n as f64;
        (
            cx + (r * a.cos()).round() as i32,
            cy + (r * a.sin()).round() as i32,
        )
    };
    let grid = RGBColor(200, 200, 200);
    let ring_style = TextStyle::from((FONT, 12).into_font())
        .pos(Pos::new(HPos::Right, VPos::Center))
        .color(&RGBColor(90, 90, 90));
    for ring in 1..=5 {
        let r = radius * ring as f64 / 5.0;
        let mut pts: Vec<(i32, i32)> = (0..n).map(|i| point(i, r)).collect();
        pts.push(pts[0]);
        root.draw(&PathElement::new(pts, grid)).map_err(err)?;
    }
    for (i, axis) in axes.iter().enumerate() {
        root.draw(&PathElement::new(vec![(cx, cy), point(i, radius)], grid))
            .map_err(err)?;
        let (x, y) = point(i, radius + 18.0);
        let hpos = if (x - cx).abs() < 10 {
            HPos::Center
        } else if x > cx {
            HPos::Left
        } else {
            HPos::Right
        };
        let vpos = if (y - cy).abs() < 10 {
            VPos::Center
        } else if y > cy {
            VPos::Top
        } else {
            VPos::Bottom
        };
        let style = TextStyle::from((FONT, 17).into_font())
            .pos(Pos::new(hpos, vpos))
            .color(&BLACK);
        root.draw(&Text::new(axis.clone(), (x, y), style))
            .map_err(err)?;
    }
    for (si, (_, values)) in series.iter().enumerate() {
        let pts: Vec<(i32, i32)> = (0..axes.len())
            .map(|i| {
                point(
                    i,
                    radius
                        * values
                            .get(i)
                            .copied()
                            .flatten()
                            .unwrap_or(0.0)
                            .clamp(0.0, 1.0),
                )
            })
            .collect();
        root.draw(&Polygon::new(pts.clone(), color(si).mix(0.12)))
            .map_err(err)?;
        let mut closed = pts.clone();
        closed.push(pts[0]);
        root.draw(&PathElement::new(closed, color(si).stroke_width(2)))
            .map_err(err)?;
        for p in pts {
            root.draw(&Circle::new(p, 3, color(si).filled()))
                .map_err(err)?;
        }
    }
    // Ring labels last, on a white box just left of the top axis, so the
    // series' lines never hide them.
    for ring in 1..=5 {
        let (x, y) = point(0, radius * ring as f64 / 5.0);
        let label = format!("{}%", ring * 20);
        let tw = text_width(root, &label, 12) as i32;
        root.draw(&Rectangle::new(
            [(x - tw - 8, y - 8), (x - 3, y + 7)],
            WHITE.mix(0.85).filled(),
        ))
        .map_err(err)?;
        root.draw(&Text::new(label, (x - 5, y), ring_style.clone()))
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars() -> Chart {
        Chart {
            id: "t".into(),
            title: "Test <chart> & co".into(),
            kind: ChartKind::Bars {
                categories: vec!["a".into(), "b".into()],
                series: vec![
                    ("m1".into(), vec![Some(0.5), None]),
                    ("m2".into(), vec![Some(0.25), Some(1.0)]),
                ],
                fraction: true,
                axis_label: "rate".into(),
            },
        }
    }

    #[test]
    fn svg_has_escaped_title_labels_and_bars() {
        let svg = render_svg(&bars()).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        assert!(svg.contains("Test &lt;chart&gt; &amp; co"));
        assert!(svg.contains("50.00%") && svg.contains("100.00%") && svg.contains("n/a"));
        assert!(svg.contains("\nm1\n") && svg.contains("\nm2\n"), "{svg}");
        // Three filled bars with the first two palette colours.
        assert!(
            svg.matches("fill=\"#1F77B4\"").count() >= 2,
            "legend + bar of series 1"
        );
    }

    #[test]
    fn radar_axes_without_data_are_left_out_and_named() {
        let axes: Vec<String> = ["Java", "Python", "Go", "PHP"].map(String::from).to_vec();
        let c = radar(
            "r",
            "pass@1",
            axes.clone(),
            vec![
                ("a".into(), vec![Some(0.5), Some(0.4), None, Some(0.1)]),
                ("b".into(), vec![Some(0.2), Some(0.3), Some(0.9), Some(0.0)]),
            ],
        )
        .unwrap();
        assert_eq!(c.title, "pass@1 (no data: Go)");
        let ChartKind::Radar { axes: kept, series } = &c.kind else {
            panic!()
        };
        assert_eq!(kept, &["Java", "Python", "PHP"]);
        assert_eq!(series[0].1, [Some(0.5), Some(0.4), Some(0.1)]);
        assert_eq!(series[1].1, [Some(0.2), Some(0.3), Some(0.0)]);
        // A measured 0 % stays; with fewer than three groups there is no radar.
        let few = vec![("a".into(), vec![Some(0.5), None, None, Some(0.0)])];
        assert!(radar("r", "t", axes, few).is_none());
    }

    #[test]
    fn png_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.png");
        let radar = Chart {
            id: "r".into(),
            title: "Radar".into(),
            kind: ChartKind::Radar {
                axes: vec!["A".into(), "B".into(), "C".into()],
                series: vec![("m".into(), vec![Some(0.5), Some(0.9), None])],
            },
        };
        render_png(&radar, &p).unwrap();
        let bytes = std::fs::read(&p).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }
}
