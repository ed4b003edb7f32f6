//! Languages of a repository, from file extensions (the authors' table).

use std::collections::BTreeSet;

/// The authors' language table: a repository's languages are those of its
/// GitHub languages found here; offline, those with at least one file of
/// one of these extensions.
pub const LANGUAGES: [(&str, &[&str]); 22] = [
    ("c", &[".c"]),
    ("c++", &[".cpp", ".cc"]),
    ("c#", &[".cs"]),
    ("java", &[".java"]),
    ("javascript", &[".js"]),
    ("typescript", &[".ts"]),
    ("python", &[".py"]),
    ("html", &[".html"]),
    ("php", &[".php"]),
    ("go", &[".go"]),
    ("ruby", &[".rb"]),
    ("objective-c", &[".m", ".mm"]),
    ("css", &[".css"]),
    ("assembly", &[".as"]),
    ("kotlin", &[".kt"]),
    ("swift", &[".swift"]),
    ("rust", &[".rs"]),
    ("perl", &[".pl"]),
    ("r", &[".r"]),
    ("scala", &[".scala"]),
    ("dart", &[".dart"]),
    ("shell", &[".sh", ".zsh", ".bsh"]),
];

/// Strict mode: C and C++ sources and headers the authors' table misses
/// (their C++ machines never saw `.cc`, `.cxx`, `.h` or `.hpp` files).
pub const STRICT_EXTRA: [(&str, &str); 3] = [(".cxx", "c++"), (".hpp", "c++"), (".h", "c")];

/// Extensions that machines written for `.cpp` also read in strict mode.
pub const STRICT_CPP_EXTENSIONS: [&str; 4] = [".cc", ".cxx", ".h", ".hpp"];

/// A file's extension as the authors' miner saw it: Python's
/// `os.path.splitext(name)[1].lower()` (the last dot of the name, leading
/// dots ignored: `.bashrc` has none, `a.tar.GZ` has `.gz`).
pub fn extension(file_name: &str) -> String {
    let stem_start = file_name
        .bytes()
        .position(|b| b != b'.')
        .unwrap_or(file_name.len());
    match file_name[stem_start..].rfind('.') {
        Some(dot) => file_name[stem_start + dot..].to_lowercase(),
        None => String::new(),
    }
}

/// The table's language of an extension (strict mode adds [`STRICT_EXTRA`]).
pub fn language_of(ext: &str, strict: bool) -> Option<&'static str> {
    LANGUAGES
        .iter()
        .find(|(_, exts)| exts.contains(&ext))
        .map(|(lang, _)| *lang)
        .or_else(|| {
            strict
                .then(|| {
                    STRICT_EXTRA
                        .iter()
                        .find(|(e, _)| *e == ext)
                        .map(|(_, l)| *l)
                })
                .flatten()
        })
}

/// The languages witnessed by a set of extensions, in table order.
pub fn detect<'a>(exts: impl IntoIterator<Item = &'a str>, strict: bool) -> Vec<&'static str> {
    let present: BTreeSet<&'static str> = exts
        .into_iter()
        .filter_map(|e| language_of(e, strict))
        .collect();
    LANGUAGES
        .iter()
        .map(|(l, _)| *l)
        .filter(|l| present.contains(l))
        .collect()
}

/// Parse a `--lang` list (comma or space separated, any case).
pub fn parse_list(list: &str) -> anyhow::Result<Vec<&'static str>> {
    let mut out = Vec::new();
    for word in list.split([',', ' ']).filter(|w| !w.trim().is_empty()) {
        let word = word.trim().to_lowercase();
        let Some((lang, _)) = LANGUAGES.iter().find(|(l, _)| *l == word) else {
            anyhow::bail!(
                "unknown language `{word}` in --lang (known: {})",
                LANGUAGES.map(|(l, _)| l).join(", ")
            );
        };
        if !out.contains(lang) {
            out.push(*lang);
        }
    }
    Ok(out)
}

/// Whether a file with extension `ext` belongs to one of `languages`.
pub fn belongs(ext: &str, languages: &[&str], strict: bool) -> bool {
    let in_table = LANGUAGES
        .iter()
        .any(|(l, exts)| exts.contains(&ext) && languages.contains(l));
    in_table
        || (strict
            && STRICT_EXTRA.iter().any(|(e, l)| {
                *e == ext && (languages.contains(l) || (*e == ".h" && languages.contains(&"c++")))
            }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_follows_python_splitext_and_lower() {
        for (name, ext) in [
            ("a.py", ".py"),
            ("A.PY", ".py"),
            ("x.tar.gz", ".gz"),
            (".bashrc", ""),
            ("..x", ""),
            (".a.b", ".b"),
            ("a.", "."),
            ("Makefile", ""),
            ("x.\u{212A}t", ".kt"), // KELVIN SIGN lowercases to `k`, as in Python
        ] {
            assert_eq!(extension(name), ext, "{name}");
        }
    }

    #[test]
    fn detection_follows_the_table_and_its_order() {
        assert_eq!(
            detect([".sh", ".py", ".c", ".txt"], false),
            ["c", "python", "shell"]
        );
        assert_eq!(detect([".h", ".cc"], false), ["c++"]);
        assert_eq!(detect([".h", ".cc"], true), ["c", "c++"]);
        assert!(parse_list("C, Python go").unwrap() == ["c", "python", "go"]);
        assert!(parse_list("cobol")
            .unwrap_err()
            .to_string()
            .contains("unknown language `cobol`"));
        assert!(belongs(".cc", &["c++"], false));
        assert!(!belongs(".h", &["c++"], false));
        assert!(belongs(".h", &["c++"], true));
    }
}
