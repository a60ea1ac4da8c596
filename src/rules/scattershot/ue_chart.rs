//! The UE chart (RULES.md §4.3): the seeds rely on it but do not print it, so each group
//! fills in its own rows. A row is an index with the Factor, Points and Bonus it gives and
//! the Magnitude it stands for (the group's words, e.g. "a room", "10 yards").
//!
//! - Factor is read at the action's Magnitude rating (what MIB × Factor takes off a resource).
//! - Points and Bonus are read at the roll's final MIB (a Telling Blow's or Catastrophic
//!   Failure's points; the residual modifier a success leaves).
//!
//! Rulings where the source is silent:
//! - A number reads the row with the greatest index at or below it; a number below every
//!   row (or an empty chart) reads the table's defaults (Factor 1, Points 1, Bonus 1 unless
//!   the table set others).
//! - A chart holds at most [`MAX_ROWS`] rows, each index once, kept in ascending order; each
//!   facet is 0 to [`MAX_FACET`], an index −[`MAX_INDEX`] to [`MAX_INDEX`].

use serde::{Deserialize, Serialize};

use super::name_problem;
use crate::error::{Error, Result};
use crate::Problem;

/// The largest facet (Factor, Points, Bonus).
pub const MAX_FACET: u32 = 100;

/// The facets of an action indexed on the UE chart (RULES.md §4.1), editable per roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facets {
    /// What the MIB is multiplied by before it comes off a resource.
    pub factor: u32,
    /// Per point of a Telling Blow's or Catastrophic Failure's lasting consequences.
    pub points: u32,
    /// The residual modifier a successful action may leave.
    pub bonus: u32,
}

impl Default for Facets {
    fn default() -> Facets {
        Facets { factor: 1, points: 1, bonus: 1 }
    }
}

/// The most rows a chart holds.
pub const MAX_ROWS: usize = 100;
/// The largest index, either way.
pub const MAX_INDEX: i32 = 1_000;

/// One row of the chart.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UeRow {
    pub index: i32,
    pub factor: u32,
    pub points: u32,
    pub bonus: u32,
    /// What the index stands for, in the group's words (may be empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub magnitude: String,
}

impl UeRow {
    pub fn facets(&self) -> Facets {
        Facets { factor: self.factor, points: self.points, bonus: self.bonus }
    }
}

/// The facets read at `number`: the row with the greatest index at or below it, else
/// `defaults`.
pub fn read(chart: &[UeRow], number: i32, defaults: Facets) -> Facets {
    chart.iter().rev().find(|r| r.index <= number).map_or(defaults, UeRow::facets)
}

/// Every broken rule of a chart, each at `path` + `[i]` + its field.
pub fn problems(chart: &[UeRow], path: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    if chart.len() > MAX_ROWS {
        out.push(Problem { path: path.to_owned(), message: format!("at most {MAX_ROWS} rows") });
    }
    for (i, row) in chart.iter().enumerate() {
        let at = format!("{path}[{i}]");
        if !(-MAX_INDEX..=MAX_INDEX).contains(&row.index) {
            out.push(Problem { path: format!("{at}.index"), message: format!("-{MAX_INDEX} to {MAX_INDEX}") });
        }
        if i > 0 && chart[i - 1].index >= row.index {
            out.push(Problem {
                path: format!("{at}.index"),
                message: format!("rows go up by index, each once ({} comes after {})", row.index, chart[i - 1].index),
            });
        }
        for (name, value) in [("factor", row.factor), ("points", row.points), ("bonus", row.bonus)] {
            if value > MAX_FACET {
                out.push(Problem { path: format!("{at}.{name}"), message: format!("0 to {MAX_FACET}") });
            }
        }
        if !row.magnitude.trim().is_empty() {
            if let Some(p) = name_problem(&row.magnitude) {
                out.push(Problem { path: format!("{at}.magnitude"), message: p });
            }
        }
    }
    out
}

/// A chart as the group typed it: sorted by index, magnitudes trimmed, refused (naming the
/// first problem's field) when it breaks a rule.
pub fn clean(rows: &[UeRow]) -> Result<Vec<UeRow>> {
    let mut chart: Vec<UeRow> =
        rows.iter().map(|r| UeRow { magnitude: r.magnitude.trim().to_owned(), ..r.clone() }).collect();
    chart.sort_by_key(|r| r.index);
    if let Some(p) = problems(&chart, "rows").into_iter().next() {
        return Err(Error::invalid(p.path, p.message));
    }
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(index: i32, factor: u32, points: u32, bonus: u32) -> UeRow {
        UeRow { index, factor, points, bonus, magnitude: String::new() }
    }

    #[test]
    fn a_number_reads_the_row_at_or_below_it_and_the_defaults_below_every_row() {
        let chart = clean(&[row(10, 3, 2, 2), row(1, 1, 1, 1), row(5, 2, 1, 2)]).unwrap();
        assert_eq!(chart.iter().map(|r| r.index).collect::<Vec<_>>(), [1, 5, 10], "sorted");
        let defaults = Facets::default();
        assert_eq!(read(&chart, 7, defaults), Facets { factor: 2, points: 1, bonus: 2 });
        assert_eq!(read(&chart, 10, defaults), Facets { factor: 3, points: 2, bonus: 2 });
        assert_eq!(read(&chart, 99, defaults).factor, 3);
        let odd = Facets { factor: 9, points: 9, bonus: 9 };
        assert_eq!(read(&chart, 0, odd), odd, "below every row: the defaults");
        assert_eq!(read(&[], 5, odd), odd, "an empty chart: the defaults");
    }

    #[test]
    fn a_chart_with_a_repeated_index_or_a_facet_out_of_range_is_refused_by_field() {
        assert_eq!(
            clean(&[row(2, 1, 1, 1), row(2, 1, 1, 1)]).unwrap_err().to_string(),
            "rows[1].index: rows go up by index, each once (2 comes after 2)"
        );
        assert_eq!(clean(&[row(2, 101, 1, 1)]).unwrap_err().to_string(), "rows[0].factor: 0 to 100");
        let bad = UeRow { magnitude: "a\u{0}b".into(), ..row(1, 1, 1, 1) };
        assert!(clean(&[bad]).unwrap_err().to_string().starts_with("rows[0].magnitude:"));
        let many: Vec<UeRow> = (0..=MAX_ROWS as i32).map(|i| row(i, 1, 1, 1)).collect();
        assert_eq!(clean(&many).unwrap_err().to_string(), "rows: at most 100 rows");
    }
}
