//! Duplicate solutions: exact (the same tokens once comments and layout are
//! gone) and near (Jaccard similarity of their sets of 5-token shingles at
//! least [`NEAR`]), among the tasks of one language.

use std::collections::HashSet;

/// Shingle-set similarity from which two solutions are near-duplicates.
pub const NEAR: f64 = 0.85;
const SHINGLE: usize = 5;

/// A solution prepared for comparison.
#[derive(Debug, Clone)]
pub struct Fingerprint {
    tokens: Vec<String>,
    shingles: HashSet<u64>,
}

impl Fingerprint {
    pub fn new(tokens: Vec<String>) -> Fingerprint {
        let shingles = if tokens.len() < SHINGLE {
            HashSet::from([hash(&tokens)])
        } else {
            tokens.windows(SHINGLE).map(hash).collect()
        };
        Fingerprint { tokens, shingles }
    }

    /// `Some(1.0)` for an exact duplicate, `Some(similarity)` for a near one.
    pub fn duplicate_of(&self, other: &Fingerprint) -> Option<f64> {
        if self.tokens == other.tokens {
            return Some(1.0);
        }
        let common = self.shingles.intersection(&other.shingles).count();
        let union = self.shingles.len() + other.shingles.len() - common;
        let similarity = common as f64 / union.max(1) as f64;
        (similarity >= NEAR).then_some(similarity)
    }

    pub fn is_exact(&self, other: &Fingerprint) -> bool {
        self.tokens == other.tokens
    }
}

fn hash(tokens: &[String]) -> u64 {
    use polyeval_core::hash::{fnv1a, FNV_OFFSET};
    tokens
        .iter()
        .fold(FNV_OFFSET, |h, t| fnv1a(&[0xff], fnv1a(t.as_bytes(), h)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(code: &str) -> Fingerprint {
        Fingerprint::new(super::super::snippet::normalised_tokens(code, ".py"))
    }

    #[test]
    fn exact_near_and_different() {
        let base = "import socket\ndef send(host, port, data):\n    s = socket.socket()\n    s.connect((host, port))\n    s.sendall(data)\n    reply = s.recv(1024)\n    s.close()\n    return reply\n";
        let same = "import socket\n\ndef send(host, port, data):  # send it\n    s = socket.socket()\n    s.connect((host, port))\n    s.sendall(data)\n    reply = s.recv(1024)\n    s.close()\n    return reply\n";
        assert_eq!(fp(base).duplicate_of(&fp(same)), Some(1.0));
        assert!(fp(base).is_exact(&fp(same)));
        let longer = format!("{base}\n\ndef other():\n    return send('h', 1, b'x')\n");
        assert!(fp(base).duplicate_of(&fp(&longer)).is_none());
        assert!(fp(base).duplicate_of(&fp("def f():\n    pass\n")).is_none());
    }

    #[test]
    fn near_duplicates_by_shingle_similarity() {
        // 100 distinct tokens: 96 shingles; one token changed touches 5 of them.
        let tokens: Vec<String> = (0..100).map(|i| format!("t{i}")).collect();
        let changed = |at: &[usize]| {
            let mut t = tokens.clone();
            for &i in at {
                t[i] = format!("x{i}");
            }
            Fingerprint::new(t)
        };
        let base = Fingerprint::new(tokens.clone());
        let one = base.duplicate_of(&changed(&[50])).unwrap();
        assert!((one - 91.0 / 101.0).abs() < 1e-9, "{one}");
        assert!(!base.is_exact(&changed(&[50])));
        // Two changes far apart: 86 of 106 shingles shared, below the threshold.
        assert_eq!(base.duplicate_of(&changed(&[20, 70])), None);
    }
}
