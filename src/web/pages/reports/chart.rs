//! Bar charts as inline SVG: axes with labelled ticks, one bar per value (grouped when there
//! are several series), a legend, a `<title>` and `<desc>` for screen readers and a tooltip
//! per bar. Values are integers (money in minor units, per mille, seconds); `fmt` writes
//! them for people.

use std::fmt::Write;

pub struct Series {
    pub name: String,
    pub values: Vec<i64>,
    /// `s1`…`s4`: the colour (see `FILLS`).
    pub class: &'static str,
}

pub struct Bars<'a> {
    /// The element's id; the title and description get `{id}-title`, `{id}-desc`.
    pub id: &'a str,
    pub title: String,
    pub desc: String,
    pub x_label: String,
    pub y_label: String,
    /// Shown when every value is 0.
    pub empty: String,
    pub labels: Vec<String>,
    pub series: Vec<Series>,
    pub fmt: &'a dyn Fn(i64) -> String,
    /// The vertical axis reaches at least this (e.g. 1000 ‰ for occupancy).
    pub floor_max: i64,
}

/// Colours with enough contrast on white (presentation attributes: the CSP allows no
/// inline style).
const FILLS: [(&str, &str); 4] = [
    ("s1", "#1e7b4f"),
    ("s2", "#2b6cb0"),
    ("s3", "#b7791f"),
    ("s4", "#9b2c2c"),
];

const W: f64 = 640.0;
const H: f64 = 300.0;
const LEFT: f64 = 92.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 56.0;

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A tick step of 1, 2 or 5 × 10^k so that about four steps reach `max`; and the top of
/// the axis (a whole number of steps ≥ `max`).
pub fn ticks(max: i64) -> (i64, i64) {
    let max = max.max(1);
    let rough = (max + 3) / 4;
    let mut p = 1i64;
    while p.saturating_mul(10) <= rough {
        p *= 10;
    }
    // 1, 2, 2.5 (from 10 up), 5 × 10^k.
    let steps = [
        p,
        2 * p,
        if p >= 10 { p * 5 / 2 } else { 2 * p },
        5 * p,
        10 * p,
    ];
    let step = steps.into_iter().find(|s| *s >= rough).unwrap_or(10 * p);
    let top = (max + step - 1) / step * step;
    (step, top)
}

fn fill(class: &str) -> &'static str {
    FILLS
        .iter()
        .find(|(c, _)| *c == class)
        .map(|(_, f)| *f)
        .unwrap_or("#1e7b4f")
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}

pub fn bars(b: &Bars) -> String {
    let n = b.labels.len().max(1);
    let data_max = b
        .series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .max()
        .unwrap_or(0);
    let (step, top) = ticks(data_max.max(b.floor_max));
    let (pw, ph) = (W - LEFT - RIGHT, H - TOP - BOTTOM);
    let base = TOP + ph;
    let y_of = |v: i64| base - ph * (v.max(0) as f64) / (top as f64);
    let id = esc(b.id);
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{id}" viewBox="0 0 {W} {H}" role="img" aria-labelledby="{id}-title {id}-desc" font-family="system-ui, sans-serif" font-size="14"><title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc>"#,
        esc(&b.title),
        esc(&b.desc)
    );
    // Grid and vertical axis.
    let mut v = 0;
    while v <= top {
        let y = y_of(v);
        let _ = write!(
            o,
            r##"<line class="grid" x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#d9dedb" stroke-width="1"/><text class="tick" x="{}" y="{:.1}" text-anchor="end" fill="#4a5550" font-size="13">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            esc(&(b.fmt)(v))
        );
        v += step;
    }
    let _ = write!(
        o,
        r##"<line class="axis" x1="{LEFT}" x2="{}" y1="{base}" y2="{base}" stroke="#4a5550" stroke-width="1.5"/>"##,
        W - RIGHT
    );
    // Bars.
    let gw = pw / n as f64;
    let k = b.series.len().max(1) as f64;
    let bw = (gw * 0.8 / k).max(1.0);
    // Every label while they fit (about 26 px each), else every other one or fewer.
    let every = (n * 26).div_ceil(pw as usize).max(1);
    for (i, label) in b.labels.iter().enumerate() {
        let gx = LEFT + gw * i as f64 + gw * 0.1;
        for (j, s) in b.series.iter().enumerate() {
            let val = s.values.get(i).copied().unwrap_or(0);
            let y = y_of(val);
            let _ = write!(
                o,
                r#"<rect class="bar {}" data-value="{val}" x="{:.1}" y="{y:.1}" width="{bw:.1}" height="{:.1}" fill="{}"><title>{}: {} ({})</title></rect>"#,
                s.class,
                gx + bw * j as f64,
                (base - y).max(0.0),
                fill(s.class),
                esc(label),
                esc(&(b.fmt)(val)),
                esc(&s.name)
            );
        }
        if i % every == 0 {
            let _ = write!(
                o,
                r##"<text class="xlabel" x="{:.1}" y="{}" text-anchor="middle" fill="#4a5550" font-size="13">{}</text>"##,
                LEFT + gw * (i as f64 + 0.5),
                base + 16.0,
                esc(&short(label, if n > 8 { 4 } else { 16 }))
            );
        }
    }
    if data_max <= 0 {
        let _ = write!(
            o,
            r##"<text class="empty" x="{}" y="{}" text-anchor="middle" fill="#4a5550" font-size="15">{}</text>"##,
            LEFT + pw / 2.0,
            TOP + ph / 2.0,
            esc(&b.empty)
        );
    }
    // Axis labels.
    let _ = write!(
        o,
        r##"<text class="axis-label" x="{}" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600">{}</text>"##,
        LEFT + pw / 2.0,
        H - 8.0,
        esc(&b.x_label)
    );
    let _ = write!(
        o,
        r##"<text class="axis-label" x="16" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600" transform="rotate(-90 16 {})">{}</text>"##,
        TOP + ph / 2.0,
        TOP + ph / 2.0,
        esc(&b.y_label)
    );
    legend(&mut o, b, LEFT);
    o.push_str("</svg>");
    o
}

/// Room on the left of a lying chart for the category labels (a game's name).
const LABELS: f64 = 196.0;
/// Characters of a category label that fit in [`LABELS`] at 13 px; a longer name is cut
/// with "…" and given whole in the label's own `<title>`.
const LABEL_CHARS: usize = 24;
/// Height of one bar of a lying chart, and the gap between two categories.
const BAR: f64 = 13.0;
const GAP: f64 = 11.0;

/// The same chart lying down: one row per label, its name on the left, the bars growing
/// to the right and the values' axis below. For named categories (the games): a row per
/// name keeps every name readable however many there are, where names side by side under
/// upright bars would run into each other. The chart grows taller with the rows.
pub fn hbars(b: &Bars) -> String {
    let n = b.labels.len().max(1);
    let k = b.series.len().max(1);
    let data_max = b
        .series
        .iter()
        .flat_map(|s| s.values.iter().copied())
        .max()
        .unwrap_or(0);
    let (step, top) = ticks(data_max.max(b.floor_max));
    let row = BAR * k as f64 + GAP;
    let ph = (row * n as f64).max(120.0);
    let pw = W - LABELS - RIGHT;
    let base = TOP + ph;
    let h = base + BOTTOM;
    let x_of = |v: i64| LABELS + pw * (v.max(0) as f64) / (top as f64);
    let id = esc(b.id);
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart chart-lying" id="{id}" viewBox="0 0 {W} {h}" role="img" aria-labelledby="{id}-title {id}-desc" font-family="system-ui, sans-serif" font-size="14"><title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc>"#,
        esc(&b.title),
        esc(&b.desc)
    );
    // Grid and the values' axis (below).
    let mut v = 0;
    while v <= top {
        let x = x_of(v);
        let _ = write!(
            o,
            r##"<line class="grid" x1="{x:.1}" x2="{x:.1}" y1="{TOP}" y2="{base}" stroke="#d9dedb" stroke-width="1"/><text class="tick" x="{x:.1}" y="{}" text-anchor="{}" fill="#4a5550" font-size="13">{}</text>"##,
            base + 18.0,
            // The last tick ends at the chart's edge rather than past it.
            if v == top { "end" } else { "middle" },
            esc(&(b.fmt)(v))
        );
        v += step;
    }
    let _ = write!(
        o,
        r##"<line class="axis" x1="{LABELS}" x2="{LABELS}" y1="{TOP}" y2="{base}" stroke="#4a5550" stroke-width="1.5"/>"##
    );
    // One row per label: the name on the left, a bar per series.
    for (i, label) in b.labels.iter().enumerate() {
        let gy = TOP + row * i as f64 + GAP / 2.0;
        for (j, s) in b.series.iter().enumerate() {
            let val = s.values.get(i).copied().unwrap_or(0);
            let _ = write!(
                o,
                r#"<rect class="bar {}" data-value="{val}" x="{LABELS}" y="{:.1}" width="{:.1}" height="{BAR}" fill="{}"><title>{}: {} ({})</title></rect>"#,
                s.class,
                gy + BAR * j as f64,
                x_of(val) - LABELS,
                fill(s.class),
                esc(label),
                esc(&(b.fmt)(val)),
                esc(&s.name)
            );
        }
        let _ = write!(
            o,
            r##"<text class="category" x="{}" y="{:.1}" text-anchor="end" dominant-baseline="middle" fill="#1f2a24" font-size="13"><title>{}</title>{}</text>"##,
            LABELS - 8.0,
            gy + BAR * k as f64 / 2.0,
            esc(label),
            esc(&short(label, LABEL_CHARS))
        );
    }
    if data_max <= 0 {
        let _ = write!(
            o,
            r##"<text class="empty" x="{}" y="{}" text-anchor="middle" fill="#4a5550" font-size="15">{}</text>"##,
            LABELS + pw / 2.0,
            TOP + ph / 2.0,
            esc(&b.empty)
        );
    }
    // Axis labels: the values' below, the categories' up the left edge.
    let _ = write!(
        o,
        r##"<text class="axis-label" x="{}" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600">{}</text>"##,
        LABELS + pw / 2.0,
        h - 8.0,
        esc(&b.y_label)
    );
    let _ = write!(
        o,
        r##"<text class="axis-label" x="16" y="{}" text-anchor="middle" fill="#1f2a24" font-weight="600" transform="rotate(-90 16 {})">{}</text>"##,
        TOP + ph / 2.0,
        TOP + ph / 2.0,
        esc(&b.x_label)
    );
    legend(&mut o, b, LABELS);
    o.push_str("</svg>");
    o
}

fn legend(o: &mut String, b: &Bars, from: f64) {
    let mut x = from;
    for s in &b.series {
        let _ = write!(
            o,
            r##"<rect class="legend {}" x="{x:.1}" y="9" width="14" height="14" fill="{}"/><text x="{:.1}" y="21" fill="#1f2a24">{}</text>"##,
            s.class,
            fill(s.class),
            x + 16.0,
            esc(&s.name)
        );
        x += 28.0 + 8.0 * s.name.chars().count() as f64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(v: i64) -> String {
        v.to_string()
    }

    #[test]
    fn ticks_are_round_and_cover_the_maximum() {
        assert_eq!(ticks(0), (1, 1));
        assert_eq!(ticks(7), (2, 8));
        assert_eq!(ticks(1000), (250, 1000));
        assert_eq!(ticks(12_345), (5000, 15_000));
        assert_eq!(ticks(100), (25, 100));
        assert_eq!(ticks(101), (50, 150));
    }

    #[test]
    fn a_chart_has_an_accessible_title_axes_and_one_bar_per_value() {
        let f = fmt;
        let svg = bars(&Bars {
            id: "c1",
            title: "Cagnotte <per> hour".into(),
            desc: "Total & more".into(),
            x_label: "Hour".into(),
            y_label: "Amount".into(),
            empty: "No data".into(),
            labels: vec!["06".into(), "07".into(), "08".into()],
            series: vec![Series {
                name: "Taken".into(),
                values: vec![0, 50, 100],
                class: "s1",
            }],
            fmt: &f,
            floor_max: 0,
        });
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains(r#"role="img" aria-labelledby="c1-title c1-desc""#));
        assert!(
            svg.contains(r#"<title id="c1-title">Cagnotte &lt;per&gt; hour</title>"#),
            "{svg}"
        );
        assert!(svg.contains("Total &amp; more"));
        assert_eq!(svg.matches(r#"<rect class="bar s1""#).count(), 3);
        assert!(svg.contains(r#"data-value="100""#));
        // The highest bar reaches the top of the axis (100 is a whole number of steps).
        assert!(
            svg.contains(r#"data-value="100" x="#) && svg.contains(&format!(r#"y="{:.1}""#, TOP)),
            "{svg}"
        );
        assert!(svg.contains(">Hour</text>") && svg.contains(">Amount</text>"));
        assert!(!svg.contains("No data"));
        assert!(!svg.contains("style="), "no inline style (CSP)");
        assert!(svg.ends_with("</svg>"));
    }

    #[test]
    fn a_lying_chart_gives_every_name_its_own_row() {
        let f = fmt;
        let labels: Vec<String> = (1..=9)
            .map(|i| format!("Pot-Limit Omaha Hi-Lo {i}/{}", i * 2))
            .collect();
        let svg = hbars(&Bars {
            id: "c3",
            title: "Waits".into(),
            desc: "d".into(),
            x_label: "Game".into(),
            y_label: "Wait (minutes)".into(),
            empty: "No data".into(),
            labels: labels.clone(),
            series: vec![
                Series {
                    name: "Median".into(),
                    values: (1..=9).map(|i| i * 60).collect(),
                    class: "s3",
                },
                Series {
                    name: "90th".into(),
                    values: (1..=9).map(|i| i * 90).collect(),
                    class: "s4",
                },
            ],
            fmt: &f,
            floor_max: 0,
        });
        assert_eq!(svg.matches(r#"<text class="category""#).count(), 9);
        assert_eq!(svg.matches(r#"<rect class="bar "#).count(), 18);
        // Rows one below the other, each taller than the 13 px of its name.
        let ys: Vec<f64> = svg
            .split(r#"<text class="category" x="188" y=""#)
            .skip(1)
            .map(|t| t[..t.find('"').unwrap()].parse().unwrap())
            .collect();
        assert_eq!(ys.len(), 9, "{svg}");
        assert!(ys.windows(2).all(|w| w[1] - w[0] >= 13.0 + GAP), "{ys:?}");
        // A long name is cut, and given whole in its title.
        assert!(
            svg.contains("<title>Pot-Limit Omaha Hi-Lo 9/18</title>"),
            "{svg}"
        );
        assert!(svg.contains(">Pot-Limit Omaha Hi-Lo 9…</text>"), "{svg}");
        // Bars start at the categories' axis, after the names.
        assert!(svg.contains(r#"data-value="810" x="196" "#), "{svg}");
        assert!(svg.contains(">Game</text>") && svg.contains(">Wait (minutes)</text>"));
        assert!(!svg.contains("style="), "no inline style (CSP)");
    }

    #[test]
    fn an_empty_chart_says_so() {
        let f = fmt;
        let svg = bars(&Bars {
            id: "c2",
            title: "t".into(),
            desc: "d".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            empty: "No data".into(),
            labels: vec!["NL 1/2".into()],
            series: vec![
                Series {
                    name: "a".into(),
                    values: vec![0],
                    class: "s3",
                },
                Series {
                    name: "b".into(),
                    values: vec![0],
                    class: "s4",
                },
            ],
            fmt: &f,
            floor_max: 0,
        });
        assert!(svg.contains(">No data</text>"));
        assert_eq!(svg.matches("<rect class=\"bar ").count(), 2);
    }
}
