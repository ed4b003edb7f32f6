//! The MultiOOP/OOP doctor's defect classes. Their names are what `doctor`
//! prints and writes (`--json`, the defect list `report --defects` reads),
//! so they must never change.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// Why no solution that follows the question can pass a task's tests.
/// Declared from most to least specific: when a task has several defects,
/// the first in this order names it ([`rank`](DefectClass::rank)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DefectClass {
    /// A Python `test_function` whose calls are malformed.
    GarbledTestFunction,
    /// The tests call a class the question does not name.
    ClassNameMismatch,
    /// The tests call a method the question does not name.
    MethodNameMismatch,
    /// A Python test passes more or fewer arguments than `test_function` takes.
    ArgumentCountMismatch,
    /// `True`/`False`/`None` in a test of a typed language.
    PythonLiteral,
    /// A char literal where the same argument is a string elsewhere.
    CharLiteralForString,
    /// C++: a vector of pairs built from plain integers.
    PairVectorFromInts,
    /// A bare `{…}` argument in C#, Java or PHP.
    BareBraceArgument,
    /// A test line that does not compile on its own.
    TestSyntaxError,
    /// A test variable used but never declared.
    UndeclaredTestVariable,
    /// A PHP double-quoted string that interpolates a variable.
    PhpStringInterpolation,
    /// A literal of the wrong type (any other error of the solution-free lines).
    LiteralTypeMismatch,
    /// Java `==` on strings (the judge repairs it: listed, not counted).
    StringIdentityComparison,
    /// Not produced by this release; read from lists earlier ones wrote.
    Other,
    /// A test line the judge cannot turn into an observation compared
    /// outside the program (a sample of its task never passes).
    NotJudgeable,
}

impl DefectClass {
    /// Every class, from most to least specific.
    pub const ALL: [DefectClass; 15] = [
        DefectClass::GarbledTestFunction,
        DefectClass::ClassNameMismatch,
        DefectClass::MethodNameMismatch,
        DefectClass::ArgumentCountMismatch,
        DefectClass::PythonLiteral,
        DefectClass::CharLiteralForString,
        DefectClass::PairVectorFromInts,
        DefectClass::BareBraceArgument,
        DefectClass::TestSyntaxError,
        DefectClass::UndeclaredTestVariable,
        DefectClass::PhpStringInterpolation,
        DefectClass::LiteralTypeMismatch,
        DefectClass::StringIdentityComparison,
        DefectClass::Other,
        DefectClass::NotJudgeable,
    ];

    /// The printed and stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            DefectClass::GarbledTestFunction => "garbled_test_function",
            DefectClass::ClassNameMismatch => "class_name_mismatch",
            DefectClass::MethodNameMismatch => "method_name_mismatch",
            DefectClass::ArgumentCountMismatch => "argument_count_mismatch",
            DefectClass::PythonLiteral => "python_literal",
            DefectClass::CharLiteralForString => "char_literal_for_string",
            DefectClass::PairVectorFromInts => "pair_vector_from_ints",
            DefectClass::BareBraceArgument => "bare_brace_argument",
            DefectClass::TestSyntaxError => "test_syntax_error",
            DefectClass::UndeclaredTestVariable => "undeclared_test_variable",
            DefectClass::PhpStringInterpolation => "php_string_interpolation",
            DefectClass::LiteralTypeMismatch => "literal_type_mismatch",
            DefectClass::StringIdentityComparison => "string_identity_comparison",
            DefectClass::Other => "other",
            DefectClass::NotJudgeable => "not_judgeable",
        }
    }

    /// Specificity: 0 is the most specific class.
    pub fn rank(self) -> usize {
        self as usize
    }
}

impl fmt::Display for DefectClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Ordered by name, as the per-class counts are listed; specificity is
/// [`DefectClass::rank`].
impl Ord for DefectClass {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for DefectClass {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_printed_strings_and_rank_is_the_declaration_order() {
        for (rank, class) in DefectClass::ALL.into_iter().enumerate() {
            assert_eq!(class.rank(), rank);
            let json = serde_json::to_string(&class).unwrap();
            assert_eq!(json, format!("\"{}\"", class.as_str()));
            assert_eq!(serde_json::from_str::<DefectClass>(&json).unwrap(), class);
            assert_eq!(class.to_string(), class.as_str());
            // Padded like the name in the doctor's table.
            assert_eq!(format!("{class:<30}|"), format!("{:<30}|", class.as_str()));
        }
        let mut names: Vec<&str> = DefectClass::ALL.iter().map(|c| c.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DefectClass::ALL.len());
        assert!(DefectClass::ClassNameMismatch.rank() < DefectClass::MethodNameMismatch.rank());
        // Maps list classes by name.
        assert!(DefectClass::BareBraceArgument < DefectClass::ClassNameMismatch);
    }
}
