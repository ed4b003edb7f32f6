//! A file's bytes as the authors' miner read them: Python's
//! `open(path, encoding="utf-8", errors="ignore")` iterated line by line.

use std::borrow::Cow;

/// Decode `bytes` as UTF-8 dropping every byte that is not part of a valid
/// sequence (Python's `errors="ignore"`; both follow Unicode's "maximal
/// subpart" rule, and dropping makes the grouping moot), then apply
/// universal newlines (`\r\n` and a lone `\r` become `\n`; decoding comes
/// first, so `\r`, an invalid byte and `\n` make one line break, as in
/// Python). Lines are then the `\n`-separated pieces, numbered as Python
/// numbers them. A byte-order mark stays (it is not whitespace for
/// `str.strip` either).
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let text: Cow<'_, str> = match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => {
            let mut out = String::with_capacity(bytes.len());
            for chunk in bytes.utf8_chunks() {
                out.push_str(chunk.valid());
            }
            Cow::Owned(out)
        }
    };
    if memchr::memchr(b'\r', text.as_bytes()).is_none() {
        return text;
    }
    let src = text.as_bytes();
    let mut out = Vec::with_capacity(src.len());
    let mut start = 0;
    for cr in memchr::memchr_iter(b'\r', src) {
        out.extend_from_slice(&src[start..cr]);
        out.push(b'\n');
        start = if src.get(cr + 1) == Some(&b'\n') {
            cr + 2
        } else {
            cr + 1
        };
    }
    if start < src.len() {
        out.extend_from_slice(&src[start..]);
    }
    // Only ASCII bytes were replaced, between whole characters.
    Cow::Owned(String::from_utf8(out).expect("newline translation keeps UTF-8 valid"))
}

/// Number of lines Python's line iteration yields for decoded `text`.
pub fn line_count(text: &str) -> u64 {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64;
    newlines + u64::from(!text.is_empty() && !text.ends_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_bytes_are_dropped_and_newlines_unified() {
        assert_eq!(decode(b"a\xffb\r\nc\rd\n"), "ab\nc\nd\n");
        assert_eq!(decode(b"\r\r\n\n"), "\n\n\n");
        assert_eq!(decode(b"x\r\xff\ny"), "x\ny");
        assert_eq!(decode(b"\xef\xbb\xbfok"), "\u{feff}ok");
        assert_eq!(decode(b"\xf0\x9f\x98A\xed\xa0\x80B"), "AB");
        assert_eq!(line_count(""), 0);
        assert_eq!(line_count("a"), 1);
        assert_eq!(line_count("a\n"), 1);
        assert_eq!(line_count("a\n\nb"), 3);
    }
}
