//! [`Dialect`]: the one trait a language folder implements. Everything
//! polyeval knows about a language is reached through it (from
//! [`Language::dialect`](crate::Language::dialect)), so a language is one
//! folder plus one registry line at the end of `lib.rs`. The trait has no default
//! methods: a language that leaves one out does not compile.
//!
//! Each concern is its own trait in its own file (identity here; the others
//! are supertraits of [`Dialect`]), implemented in a file of the same name in
//! every language folder.

use crate::emit::Translation;
use crate::ipc::CrossPlIpc;
use crate::judging::Judging;
use crate::literal::LiteralSyntax;
use crate::oop::MultiOop;
use crate::toolchain::Toolchain;
use crate::LanguageInfo;

/// Everything polyeval knows about one language.
pub trait Dialect:
    Judging + LiteralSyntax + Toolchain + MultiOop + Translation + CrossPlIpc + Send + Sync + 'static
{
    /// Its identity: names, spellings, extensions, fence tags, lexer syntax.
    fn info(&self) -> &'static LanguageInfo;
    /// The judge's observer prelude: what a judged program links or includes
    /// to report observations (values with their types, exceptions) on the
    /// observation channel. Compared outside, never in the program.
    fn observer(&self) -> &'static str;
}
