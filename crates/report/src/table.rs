//! A small table model with Markdown and LaTeX renderers that mark the best
//! and second-best value of every ranked column, as the papers do.

use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Column {
    pub name: String,
    /// Mark best / second best in this column (higher is better).
    pub rank: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Cell {
    Empty,
    /// A fraction printed as a percentage with two decimals.
    Pct(f64),
    /// A CI of fractions printed as `[lo%, hi%]`.
    Ci([f64; 2]),
    /// A difference of fractions printed in percentage points with a sign.
    Delta(f64),
    /// A CI of a difference, in percentage points.
    DeltaCi([f64; 2]),
    Int(usize),
    Text(String),
}

impl Cell {
    fn number(&self) -> Option<f64> {
        match self {
            Cell::Pct(v) | Cell::Delta(v) => Some(*v),
            Cell::Int(n) => Some(*n as f64),
            _ => None,
        }
    }

    pub fn plain(&self) -> String {
        match self {
            Cell::Empty => "–".into(),
            Cell::Pct(v) => pct(*v),
            Cell::Ci([lo, hi]) => format!("[{}, {}]", pct(*lo), pct(*hi)),
            Cell::Delta(v) => format!("{:+.2}", v * 100.0),
            Cell::DeltaCi([lo, hi]) => format!("[{:+.2}, {:+.2}]", lo * 100.0, hi * 100.0),
            Cell::Int(n) => n.to_string(),
            Cell::Text(s) => s.clone(),
        }
    }
}

/// A fraction as a percentage with two decimals: `0.7381 → "73.81%"`.
pub fn pct(v: f64) -> String {
    format!("{:.2}%", v * 100.0)
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub name: String,
    pub cells: Vec<Cell>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub id: String,
    pub title: String,
    pub note: Option<String>,
    /// Header of the first (row name) column.
    pub row_header: String,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

/// Rank of a cell within its column: 1 best, 2 second best, 0 unmarked.
/// Marks only when at least two rows have a value; ties share the rank.
pub fn ranks(table: &Table) -> Vec<Vec<u8>> {
    let mut out = vec![vec![0u8; table.columns.len()]; table.rows.len()];
    if table.rows.len() < 2 {
        return out;
    }
    for (ci, col) in table.columns.iter().enumerate() {
        if !col.rank {
            continue;
        }
        // Compare at the printed precision so visibly equal values tie.
        let vals: Vec<Option<i64>> = table
            .rows
            .iter()
            .map(|r| {
                r.cells
                    .get(ci)
                    .and_then(|c| c.number())
                    .map(|v| (v * 10_000.0).round() as i64)
            })
            .collect();
        let mut distinct: Vec<i64> = vals.iter().flatten().copied().collect();
        if distinct.len() < 2 {
            continue;
        }
        distinct.sort_unstable_by(|a, b| b.cmp(a));
        distinct.dedup();
        for (ri, v) in vals.iter().enumerate() {
            if let Some(v) = v {
                if *v == distinct[0] {
                    out[ri][ci] = 1;
                } else if distinct.len() > 1 && *v == distinct[1] {
                    out[ri][ci] = 2;
                }
            }
        }
    }
    out
}

/// Text for a Markdown table cell: on one line, with `|` escaped.
pub(crate) fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

pub fn to_markdown(table: &Table) -> String {
    let mut s = format!("### {}\n\n", table.title);
    if let Some(n) = &table.note {
        s.push_str(&format!("{n}\n\n"));
    }
    s.push_str(&format!("| {} |", md_escape(&table.row_header)));
    for c in &table.columns {
        s.push_str(&format!(" {} |", md_escape(&c.name)));
    }
    s.push_str("\n|---|");
    for _ in &table.columns {
        s.push_str("---:|");
    }
    s.push('\n');
    let ranks = ranks(table);
    for (ri, r) in table.rows.iter().enumerate() {
        s.push_str(&format!("| {} |", md_escape(&r.name)));
        for (ci, c) in r.cells.iter().enumerate() {
            let text = md_escape(&c.plain());
            let text = match ranks[ri][ci] {
                1 => format!("**{text}**"),
                2 => format!("<u>{text}</u>"),
                _ => text,
            };
            s.push_str(&format!(" {text} |"));
        }
        s.push('\n');
    }
    if ranks.iter().flatten().any(|&r| r > 0) {
        s.push_str("\n**Bold**: best per column; <u>underlined</u>: second best.\n");
    }
    s.push('\n');
    s
}

pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            // What the tables print beyond ASCII, written as LaTeX itself
            // spells it (a plain LaTeX setup has no glyph for `Δ` or `−`).
            'Δ' => out.push_str("$\\Delta$"),
            '−' => out.push_str("$-$"),
            '–' => out.push_str("--"),
            '—' => out.push_str("---"),
            '±' => out.push_str("$\\pm$"),
            '×' => out.push_str("$\\times$"),
            '·' => out.push_str("$\\cdot$"),
            '≤' => out.push_str("$\\leq$"),
            '≥' => out.push_str("$\\geq$"),
            '→' => out.push_str("$\\rightarrow$"),
            '…' => out.push_str("\\ldots{}"),
            '<' => out.push_str("\\textless{}"),
            '>' => out.push_str("\\textgreater{}"),
            _ => out.push(ch),
        }
    }
    out
}

pub fn to_latex(table: &Table) -> String {
    let mut s = String::new();
    s.push_str("\\begin{table}[t]\n\\centering\n");
    s.push_str(&format!("\\caption{{{}}}\n", latex_escape(&table.title)));
    s.push_str(&format!("\\label{{tab:{}}}\n", table.id));
    s.push_str("\\resizebox{\\textwidth}{!}{%\n");
    s.push_str(&format!(
        "\\begin{{tabular}}{{l{}}}\n\\toprule\n",
        "r".repeat(table.columns.len())
    ));
    s.push_str(&latex_escape(&table.row_header));
    for c in &table.columns {
        s.push_str(&format!(" & {}", latex_escape(&c.name)));
    }
    s.push_str(" \\\\\n\\midrule\n");
    let ranks = ranks(table);
    for (ri, r) in table.rows.iter().enumerate() {
        s.push_str(&latex_escape(&r.name));
        for (ci, c) in r.cells.iter().enumerate() {
            let text = latex_escape(&c.plain());
            let text = match ranks[ri][ci] {
                1 => format!("\\textbf{{{text}}}"),
                2 => format!("\\underline{{{text}}}"),
                _ => text,
            };
            s.push_str(&format!(" & {text}"));
        }
        s.push_str(" \\\\\n");
    }
    s.push_str("\\bottomrule\n\\end{tabular}}\n");
    if let Some(n) = &table.note {
        s.push_str(&format!(
            "\\par\\smallskip{{\\footnotesize {}}}\n",
            latex_escape(n)
        ));
    }
    s.push_str("\\end{table}\n\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t() -> Table {
        Table {
            id: "x".into(),
            title: "T".into(),
            note: None,
            row_header: "Model".into(),
            columns: vec![
                Column {
                    name: "A".into(),
                    rank: true,
                },
                Column {
                    name: "CI".into(),
                    rank: false,
                },
            ],
            rows: vec![
                Row {
                    name: "m1".into(),
                    cells: vec![Cell::Pct(0.5), Cell::Ci([0.4, 0.6])],
                },
                Row {
                    name: "m_2".into(),
                    cells: vec![Cell::Pct(0.7), Cell::Ci([0.6, 0.8])],
                },
                Row {
                    name: "m3".into(),
                    cells: vec![Cell::Pct(0.6), Cell::Empty],
                },
            ],
        }
    }

    #[test]
    fn best_and_second_marked_only_in_ranked_columns() {
        let r = ranks(&t());
        assert_eq!(r, vec![vec![0, 0], vec![1, 0], vec![2, 0]]);
        let md = to_markdown(&t());
        assert!(
            md.contains("| m_2 | **70.00%** | [60.00%, 80.00%] |"),
            "{md}"
        );
        assert!(md.contains("<u>60.00%</u>"));
        let tex = to_latex(&t());
        assert!(tex.contains("m\\_2 & \\textbf{70.00\\%}"), "{tex}");
        assert!(tex.contains("\\underline{60.00\\%}"));
    }

    #[test]
    fn percentages_have_two_decimals() {
        assert_eq!(pct(0.738143), "73.81%");
        assert_eq!(Cell::Delta(-0.0123).plain(), "-1.23");
    }
}
