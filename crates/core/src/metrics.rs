//! pass@k metrics: the unbiased per-task estimator (Chen et al. 2021),
//! pooled and macro averages, percentile-bootstrap confidence intervals over
//! tasks and a paired bootstrap for comparing two runs on the same tasks.
//!
//! Every resampling function takes an explicit seed so reports are
//! reproducible; the default number of resamples is the papers' 5,000.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The papers' number of bootstrap resamples.
pub const DEFAULT_RESAMPLES: usize = 5_000;
/// Default bootstrap seed when the user gives none.
pub const DEFAULT_SEED: u64 = 20_240_601;

/// Unbiased pass@k of one task with `n` samples of which `c` passed:
/// `1 − C(n−c, k) / C(n, k)`, computed as `1 − Π_{i=n−c+1}^{n} (1 − k/i)`,
/// which never forms a binomial coefficient (no overflow, no cancellation
/// for large n). `None` when `k == 0`, `n == 0` or `k > n` (not estimable).
/// `c > n` is clamped to `n`.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || n == 0 || k > n {
        return None;
    }
    let c = c.min(n);
    if n - c < k {
        return Some(1.0);
    }
    let mut prob_all_fail = 1.0f64;
    for i in (n - c + 1)..=n {
        prob_all_fail *= 1.0 - k as f64 / i as f64;
    }
    Some(1.0 - prob_all_fail)
}

/// Arithmetic mean; `None` for an empty slice.
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

/// How a score over several groups is averaged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Averaging {
    /// Mean over all tasks of all groups (the papers' "Mean" column).
    Pooled,
    /// Mean of the per-group means (every group weighs the same).
    Macro,
}

impl Averaging {
    pub fn label(self) -> &'static str {
        match self {
            Averaging::Pooled => "pooled (mean over all tasks)",
            Averaging::Macro => "macro (mean of group means)",
        }
    }
}

/// Pooled average of per-task scores grouped arbitrarily: the mean over all tasks.
pub fn pooled_mean(groups: &[&[f64]]) -> Option<f64> {
    let total: usize = groups.iter().map(|g| g.len()).sum();
    if total == 0 {
        return None;
    }
    Some(groups.iter().flat_map(|g| g.iter()).sum::<f64>() / total as f64)
}

/// Macro average: the mean of the non-empty groups' means.
pub fn macro_mean(groups: &[&[f64]]) -> Option<f64> {
    let means: Vec<f64> = groups.iter().filter_map(|g| mean(g)).collect();
    mean(&means)
}

/// A point estimate with its 95 % percentile-bootstrap confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub value: f64,
    pub ci95: [f64; 2],
}

/// Linear-interpolated quantile of sorted data (`q` in [0, 1]): the
/// definition [`quantile_unsorted`] is tested against.
#[cfg(test)]
fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    debug_assert!(!sorted.is_empty());
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    sorted[lo] + (sorted[hi] - sorted[lo]) * frac
}

fn sort_f64(v: &mut [f64]) {
    v.sort_by(cmp_f64);
}

/// The bootstrap distribution of the mean of `n` draws with replacement from
/// a fixed set of values, sampled either by drawing every task index
/// (O(n) per resample) or, when the values take few distinct levels, by
/// drawing how many times each level is picked from the multinomial
/// distribution (O(levels) per resample). Both give exactly the same
/// distribution of resampled means: a resample's sum only depends on how
/// often each distinct value was drawn, and those counts are
/// Multinomial(n; count_i / n) whichever way they are generated. Per-task
/// pass@k values take few levels (0/1 for one sample, at most n+1 for n
/// samples), so reports over thousands of tasks become orders of magnitude
/// cheaper without changing what is estimated.
enum MeanResampler<'a> {
    /// Index resampling: the textbook procedure.
    Naive(&'a [f64]),
    /// Distinct values (sorted, so the order of draws is deterministic) with
    /// the number of tasks having each; `n` is the total.
    Levels {
        levels: Vec<(f64, u64)>,
        n: u64,
        /// Cumulative distribution of the first level's count,
        /// Binomial(n, count_0 / n), whose parameters are the same in every
        /// resample: one uniform draw and a table lookup replace a
        /// binomial sampler call (0/1 scores need nothing else).
        first_cdf: InverseCdf,
    },
}

impl<'a> MeanResampler<'a> {
    fn new(values: &'a [f64]) -> Self {
        let mut sorted: Vec<f64> = values.to_vec();
        sort_f64(&mut sorted);
        let mut levels: Vec<(f64, u64)> = Vec::new();
        for v in sorted {
            match levels.last_mut() {
                // Bitwise equality: only identical values are merged.
                Some((last, count)) if last.to_bits() == v.to_bits() => *count += 1,
                _ => levels.push((v, 1)),
            }
        }
        // A binomial draw costs roughly as much as a handful of index draws;
        // keep the plain procedure when there is little to gain.
        if levels.len() * 8 <= values.len() {
            let n = values.len() as u64;
            let first_cdf = InverseCdf::new(binomial_cdf(n, levels[0].1 as f64 / n as f64));
            MeanResampler::Levels {
                levels,
                n,
                first_cdf,
            }
        } else {
            MeanResampler::Naive(values)
        }
    }

    /// The mean of one resample of all the values with replacement.
    fn resample_mean(&self, rng: &mut StdRng) -> f64 {
        match self {
            MeanResampler::Naive(values) => {
                let n = values.len();
                let mut sum = 0.0;
                for _ in 0..n {
                    sum += values[rng.gen_range(0..n)];
                }
                sum / n as f64
            }
            MeanResampler::Levels {
                levels,
                n,
                first_cdf,
            } => {
                // Multinomial counts by sequential conditional binomials:
                // the count of level i given the draws left over for levels
                // i.. is Binomial(left, count_i / tasks_left).
                let mut draws_left = *n;
                let mut tasks_left = *n;
                let mut sum = 0.0;
                for (i, &(value, count)) in levels.iter().enumerate() {
                    if draws_left == 0 {
                        break;
                    }
                    let picked = if i + 1 == levels.len() {
                        draws_left
                    } else if i == 0 {
                        let u: f64 = rng.gen();
                        (first_cdf.first_above(u) as u64).min(draws_left)
                    } else {
                        binomial(rng, draws_left, count as f64 / tasks_left as f64)
                    };
                    sum += picked as f64 * value;
                    draws_left -= picked;
                    tasks_left -= count;
                }
                sum / *n as f64
            }
        }
    }
}

/// Inversion sampling from a tabulated CDF with a guide table (Chen & Asau's
/// indexed search): bucket `j` of the guide holds the first index whose CDF
/// exceeds `j / buckets`, so a draw starts next to its answer instead of
/// binary-searching the whole table (the search dominated report time).
struct InverseCdf {
    cdf: Vec<f64>,
    guide: Vec<u32>,
}

impl InverseCdf {
    fn new(cdf: Vec<f64>) -> Self {
        let buckets = cdf.len().max(1);
        let guide = (0..buckets)
            .map(|j| {
                let edge = j as f64 / buckets as f64;
                cdf.partition_point(|&c| c <= edge) as u32
            })
            .collect();
        InverseCdf { cdf, guide }
    }

    /// The smallest index `k` with `cdf[k] > u` (the table's length if none):
    /// exactly `cdf.partition_point(|&c| c <= u)`.
    fn first_above(&self, u: f64) -> usize {
        let bucket = ((u * self.guide.len() as f64) as usize).min(self.guide.len() - 1);
        let mut k = self.guide[bucket] as usize;
        // Rounding in `u * buckets` can land one bucket high: step back.
        while k > 0 && self.cdf[k - 1] > u {
            k -= 1;
        }
        while k < self.cdf.len() && self.cdf[k] <= u {
            k += 1;
        }
        k
    }
}

/// CDF of Binomial(trials, p) at 0..=trials. The probabilities are built
/// by the ratio recurrence outward from the mode (weight 1 there) and then
/// normalised, so nothing underflows for large `trials` the way (1 − p)^n
/// would.
fn binomial_cdf(trials: u64, p: f64) -> Vec<f64> {
    let n = trials as usize;
    let mut weights = vec![0.0f64; n + 1];
    if p <= 0.0 {
        weights[0] = 1.0;
    } else if p >= 1.0 {
        weights[n] = 1.0;
    } else {
        let odds = p / (1.0 - p);
        let mode = (((trials + 1) as f64 * p).floor() as usize).min(n);
        weights[mode] = 1.0;
        // w(k+1) / w(k) = (n − k) / (k + 1) · p / (1 − p)
        for k in mode..n {
            weights[k + 1] = weights[k] * (n - k) as f64 / (k + 1) as f64 * odds;
            if weights[k + 1] < 1e-300 {
                break;
            }
        }
        for k in (1..=mode).rev() {
            weights[k - 1] = weights[k] * k as f64 / (n - k + 1) as f64 / odds;
            if weights[k - 1] < 1e-300 {
                break;
            }
        }
    }
    let total: f64 = weights.iter().sum();
    let mut acc = 0.0;
    for w in weights.iter_mut() {
        acc += *w / total;
        *w = acc;
    }
    weights
}

/// One Binomial(trials, p) draw (`p` in [0, 1]).
fn binomial(rng: &mut StdRng, trials: u64, p: f64) -> u64 {
    if p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return trials;
    }
    match rand_distr::Binomial::new(trials, p) {
        Ok(dist) => rng.sample(dist),
        // Unreachable for p in (0, 1); fall back to counting Bernoulli trials.
        Err(_) => (0..trials).filter(|_| rng.gen_bool(p)).count() as u64,
    }
}

fn cmp_f64(a: &f64, b: &f64) -> std::cmp::Ordering {
    a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal)
}

/// What [`quantile_sorted`] returns for `q`, found by selection instead of a
/// full sort (linear time; reports compute thousands of these intervals).
/// Reorders `values`.
fn quantile_unsorted(values: &mut [f64], q: f64) -> f64 {
    debug_assert!(!values.is_empty());
    let pos = q * (values.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    let (_, &mut at_lo, above) = values.select_nth_unstable_by(lo, cmp_f64);
    // The element of rank `lo + 1` is the smallest of those ranked above.
    let at_hi = if hi == lo {
        at_lo
    } else {
        above.iter().copied().min_by(cmp_f64).unwrap_or(at_lo)
    };
    at_lo + (at_hi - at_lo) * frac
}

fn percentile_ci(stats: &mut [f64]) -> [f64; 2] {
    [
        quantile_unsorted(stats, 0.025),
        quantile_unsorted(stats, 0.975),
    ]
}

/// Mean of per-task scores with a 95 % percentile-bootstrap CI (`resamples`
/// resamples of the tasks with replacement). `None` for no tasks.
pub fn bootstrap_mean(values: &[f64], resamples: usize, seed: u64) -> Option<Estimate> {
    let value = mean(values)?;
    if resamples == 0 || values.len() == 1 {
        return Some(Estimate {
            value,
            ci95: [value, value],
        });
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let resampler = MeanResampler::new(values);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| resampler.resample_mean(&mut rng))
        .collect();
    Some(Estimate {
        value,
        ci95: percentile_ci(&mut means),
    })
}

/// Macro average (mean of group means) with a stratified bootstrap CI:
/// each resample draws tasks with replacement within every group.
pub fn bootstrap_macro(groups: &[&[f64]], resamples: usize, seed: u64) -> Option<Estimate> {
    let groups: Vec<&[f64]> = groups.iter().copied().filter(|g| !g.is_empty()).collect();
    let value = macro_mean(&groups)?;
    if resamples == 0 {
        return Some(Estimate {
            value,
            ci95: [value, value],
        });
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let resamplers: Vec<MeanResampler> = groups.iter().map(|g| MeanResampler::new(g)).collect();
    let mut stats: Vec<f64> = (0..resamples)
        .map(|_| {
            let sum_of_means: f64 = resamplers.iter().map(|r| r.resample_mean(&mut rng)).sum();
            sum_of_means / resamplers.len() as f64
        })
        .collect();
    Some(Estimate {
        value,
        ci95: percentile_ci(&mut stats),
    })
}

/// Result of comparing run B against run A on the same tasks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PairedComparison {
    /// mean(B) − mean(A).
    pub delta: f64,
    /// 95 % percentile-bootstrap CI of the delta.
    pub ci95: [f64; 2],
    /// Two-sided bootstrap p-value for "no difference":
    /// 2 · min(P*(Δ ≤ 0), P*(Δ ≥ 0)), capped at 1.
    pub p_value: f64,
    pub tasks: usize,
}

impl PairedComparison {
    /// Significant at the 5 % level (the CI excludes zero).
    pub fn significant(&self) -> bool {
        self.ci95[0] > 0.0 || self.ci95[1] < 0.0
    }
}

/// Paired bootstrap over tasks: `a[i]` and `b[i]` are the two runs' scores on
/// the same task `i`; each resample draws task indices with replacement and
/// recomputes the mean difference. `None` when the slices are empty or differ in length.
pub fn paired_bootstrap(
    a: &[f64],
    b: &[f64],
    resamples: usize,
    seed: u64,
) -> Option<PairedComparison> {
    if a.is_empty() || a.len() != b.len() {
        return None;
    }
    let diffs: Vec<f64> = b.iter().zip(a).map(|(y, x)| y - x).collect();
    let delta = mean(&diffs)?;
    if resamples == 0 {
        return Some(PairedComparison {
            delta,
            ci95: [delta, delta],
            p_value: 1.0,
            tasks: a.len(),
        });
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let n = diffs.len();
    let resampler = MeanResampler::new(&diffs);
    let mut stats = Vec::with_capacity(resamples);
    let (mut at_most_zero, mut at_least_zero) = (0usize, 0usize);
    for _ in 0..resamples {
        let m = resampler.resample_mean(&mut rng);
        // A small tolerance so that exactly-zero deltas count on both sides.
        if m <= 1e-12 {
            at_most_zero += 1;
        }
        if m >= -1e-12 {
            at_least_zero += 1;
        }
        stats.push(m);
    }
    let p = 2.0 * (at_most_zero.min(at_least_zero) as f64) / resamples as f64;
    Some(PairedComparison {
        delta,
        ci95: percentile_ci(&mut stats),
        p_value: p.min(1.0),
        tasks: n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Exact binomial coefficient as f64 via u128 products (fine for n ≤ 60).
    fn binom(n: u64, k: u64) -> f64 {
        if k > n {
            return 0.0;
        }
        let k = k.min(n - k);
        let mut r: u128 = 1;
        for i in 0..k {
            r = r * (n - i) as u128 / (i + 1) as u128;
        }
        r as f64
    }

    fn closed_form(n: u64, c: u64, k: u64) -> f64 {
        1.0 - binom(n - c, k) / binom(n, k)
    }

    #[test]
    fn known_values() {
        assert_eq!(pass_at_k(1, 1, 1), Some(1.0));
        assert_eq!(pass_at_k(1, 0, 1), Some(0.0));
        assert_eq!(pass_at_k(10, 0, 5), Some(0.0));
        assert!((pass_at_k(10, 3, 1).unwrap() - 0.3).abs() < 1e-12);
        // 1 - C(7,5)/C(10,5) = 1 - 21/252
        assert!((pass_at_k(10, 3, 5).unwrap() - (1.0 - 21.0 / 252.0)).abs() < 1e-12);
        assert_eq!(pass_at_k(10, 6, 5), Some(1.0));
        assert_eq!(pass_at_k(4, 1, 5), None);
        assert_eq!(pass_at_k(0, 0, 1), None);
        assert_eq!(pass_at_k(5, 1, 0), None);
    }

    #[test]
    fn large_n_is_finite_and_monotone() {
        let a = pass_at_k(100_000, 10, 100).unwrap();
        let b = pass_at_k(100_000, 11, 100).unwrap();
        assert!(a.is_finite() && b.is_finite() && a < b && a > 0.0 && b < 1.0);
    }

    #[test]
    fn pooled_and_macro_differ_on_unequal_groups() {
        let g1 = [1.0, 1.0, 1.0, 1.0];
        let g2 = [0.0];
        assert!((pooled_mean(&[&g1, &g2]).unwrap() - 0.8).abs() < 1e-12);
        assert!((macro_mean(&[&g1, &g2]).unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(pooled_mean(&[]), None);
    }

    #[test]
    fn bootstrap_is_seeded_and_brackets_the_mean() {
        let v: Vec<f64> = (0..200)
            .map(|i| if i % 3 == 0 { 1.0 } else { 0.0 })
            .collect();
        let e1 = bootstrap_mean(&v, 2000, 7).unwrap();
        let e2 = bootstrap_mean(&v, 2000, 7).unwrap();
        let e3 = bootstrap_mean(&v, 2000, 8).unwrap();
        assert_eq!(e1, e2);
        assert_ne!(e1.ci95, e3.ci95);
        assert!(e1.ci95[0] < e1.value && e1.value < e1.ci95[1]);
        // Normal approximation: sd = sqrt(p(1-p)/n) ≈ 0.0334, so half-width ≈ 0.065.
        let half = (e1.ci95[1] - e1.ci95[0]) / 2.0;
        assert!((half - 0.065).abs() < 0.012, "half width {half}");
    }

    #[test]
    fn paired_bootstrap_detects_a_clear_improvement_and_not_noise() {
        let a: Vec<f64> = (0..300)
            .map(|i| if i % 2 == 0 { 1.0 } else { 0.0 })
            .collect();
        let mut b = a.clone();
        for x in b.iter_mut().skip(1).step_by(2).take(60) {
            *x = 1.0; // B fixes 60 tasks A failed
        }
        let cmp = paired_bootstrap(&a, &b, 2000, 1).unwrap();
        assert!((cmp.delta - 0.2).abs() < 1e-12);
        assert!(cmp.significant() && cmp.p_value < 0.01);
        let same = paired_bootstrap(&a, &a, 2000, 1).unwrap();
        assert_eq!(same.delta, 0.0);
        assert!(!same.significant() && same.p_value == 1.0);
        assert!(paired_bootstrap(&a, &b[..10], 10, 1).is_none());
    }

    /// Percentile CI of one resampler (the fast or the naive procedure).
    fn ci_of(resampler: &MeanResampler, resamples: usize, seed: u64) -> [f64; 2] {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut means: Vec<f64> = (0..resamples)
            .map(|_| resampler.resample_mean(&mut rng))
            .collect();
        percentile_ci(&mut means)
    }

    #[test]
    fn few_levels_use_multinomial_counts_and_many_levels_do_not() {
        let binary: Vec<f64> = (0..100).map(|i| f64::from(i % 2)).collect();
        match MeanResampler::new(&binary) {
            MeanResampler::Levels {
                levels,
                n,
                first_cdf,
            } => {
                assert_eq!(n, 100);
                assert_eq!(levels, vec![(0.0, 50), (1.0, 50)]);
                assert_eq!(first_cdf.cdf.len(), 101);
            }
            MeanResampler::Naive(_) => panic!("0/1 scores over 100 tasks should use levels"),
        }
        let distinct: Vec<f64> = (0..100).map(|i| i as f64 / 100.0).collect();
        assert!(matches!(
            MeanResampler::new(&distinct),
            MeanResampler::Naive(_)
        ));
    }

    #[test]
    fn binomial_cdf_matches_the_closed_form() {
        let cdf = binomial_cdf(10, 0.3);
        let mut acc = 0.0;
        for (k, c) in cdf.iter().enumerate() {
            acc += binom(10, k as u64) * 0.3f64.powi(k as i32) * 0.7f64.powi(10 - k as i32);
            assert!((c - acc).abs() < 1e-12, "k={k}: {c} vs {acc}");
        }
        // Large n: no underflow, ends at 1, median near n·p.
        let big = binomial_cdf(5_000, 0.7);
        assert!((big[5_000] - 1.0).abs() < 1e-12);
        let median = big.partition_point(|&c| c < 0.5);
        assert!((3_495..=3_505).contains(&median), "median {median}");
        assert_eq!(binomial_cdf(4, 0.0)[0], 1.0);
        assert_eq!(binomial_cdf(4, 1.0)[3], 0.0);
    }

    #[test]
    fn multinomial_resample_means_have_the_bootstrap_moments() {
        // Bootstrap mean of n draws: expectation = sample mean, variance =
        // population variance / n. 0/1 values with p = 0.3, n = 400.
        let v: Vec<f64> = (0..400).map(|i| f64::from(i % 10 < 3)).collect();
        let r = MeanResampler::new(&v);
        assert!(matches!(r, MeanResampler::Levels { .. }));
        let mut rng = StdRng::seed_from_u64(3);
        let draws: Vec<f64> = (0..20_000).map(|_| r.resample_mean(&mut rng)).collect();
        let m = mean(&draws).unwrap();
        let var = draws.iter().map(|x| (x - m).powi(2)).sum::<f64>() / draws.len() as f64;
        let want_var = 0.3 * 0.7 / 400.0;
        assert!((m - 0.3).abs() < 0.001, "mean {m}");
        assert!(
            (var / want_var - 1.0).abs() < 0.05,
            "variance {var} vs {want_var}"
        );
    }

    proptest! {
        #[test]
        fn guided_inversion_equals_binary_search(
            trials in 0u64..400,
            p in prop_oneof![Just(0.0), Just(1.0), 0.0f64..=1.0],
            us in proptest::collection::vec(prop_oneof![Just(0.0), Just(0.5), Just(1.0 - f64::EPSILON), 0.0f64..1.0], 1..50),
        ) {
            let cdf = binomial_cdf(trials, p);
            let inverse = InverseCdf::new(cdf.clone());
            for u in us {
                prop_assert_eq!(inverse.first_above(u), cdf.partition_point(|&c| c <= u), "u = {}", u);
            }
            // Draws exactly at the bucket edges and at the CDF's own values.
            for u in inverse.cdf.iter().copied().chain((0..cdf.len()).map(|j| j as f64 / cdf.len() as f64)) {
                prop_assert_eq!(inverse.first_above(u), cdf.partition_point(|&c| c <= u), "u = {}", u);
            }
        }

        #[test]
        fn selection_quantiles_equal_sorted_quantiles(
            v in proptest::collection::vec(prop_oneof![(-3i32..3).prop_map(|x| x as f64 / 2.0), -1.0f64..1.0], 1..300),
            q in prop_oneof![Just(0.0), Just(0.025), Just(0.5), Just(0.975), Just(1.0), 0.0f64..=1.0],
        ) {
            let mut sorted = v.clone();
            sort_f64(&mut sorted);
            let mut scratch = v.clone();
            prop_assert_eq!(quantile_unsorted(&mut scratch, q), quantile_sorted(&sorted, q));
        }

        #[test]
        fn matches_closed_form(n in 1u64..60, c_frac in 0.0f64..=1.0, k_frac in 0.0f64..=1.0) {
            let c = ((n as f64) * c_frac).round() as u64;
            let k = (((n as f64) * k_frac).round() as u64).clamp(1, n);
            let ours = pass_at_k(n, c, k).unwrap();
            let exact = closed_form(n, c, k);
            prop_assert!((ours - exact).abs() < 1e-9, "n={} c={} k={} ours={} exact={}", n, c, k, ours, exact);
            prop_assert!((0.0..=1.0).contains(&ours));
        }

        #[test]
        fn monotone_in_c_and_k(n in 2u64..80, c in 0u64..80, k in 1u64..80) {
            let c = c.min(n - 1);
            let k = k.min(n - 1).max(1);
            let base = pass_at_k(n, c, k).unwrap();
            prop_assert!(pass_at_k(n, c + 1, k).unwrap() >= base - 1e-12);
            prop_assert!(pass_at_k(n, c, k + 1).unwrap() >= base - 1e-12);
        }

        #[test]
        fn pass_at_1_is_the_pass_fraction(n in 1u64..500, c in 0u64..500) {
            let c = c.min(n);
            prop_assert!((pass_at_k(n, c, 1).unwrap() - c as f64 / n as f64).abs() < 1e-9);
        }

        #[test]
        fn bootstrap_ci_contains_point_and_stays_in_range(v in proptest::collection::vec(0.0f64..=1.0, 1..60), seed in any::<u64>()) {
            let e = bootstrap_mean(&v, 300, seed).unwrap();
            prop_assert!(e.ci95[0] <= e.value + 1e-9 && e.value <= e.ci95[1] + 1e-9);
            prop_assert!(e.ci95[0] >= -1e-12 && e.ci95[1] <= 1.0 + 1e-12);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        /// The multinomial shortcut and index resampling estimate the same
        /// bootstrap distribution: on random pass@k-like inputs (few levels)
        /// their CIs agree up to Monte-Carlo error (about 0.06 σ per end at
        /// 2,000 resamples; we allow 0.4 σ plus one level step).
        #[test]
        fn multinomial_ci_matches_index_resampling(
            n_samples in 1u64..6,
            passes in proptest::collection::vec(0u64..6, 40..250),
            seed in any::<u64>(),
        ) {
            let v: Vec<f64> = passes
                .iter()
                .map(|&c| pass_at_k(n_samples, c.min(n_samples), 1).unwrap())
                .collect();
            let fast = MeanResampler::new(&v);
            prop_assume!(matches!(fast, MeanResampler::Levels { .. }));
            let naive = MeanResampler::Naive(&v);
            let m = mean(&v).unwrap();
            let sd = (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
                / (v.len() as f64).sqrt();
            let tolerance = 0.4 * sd + 1.0 / v.len() as f64;
            let a = ci_of(&fast, 2000, seed);
            let b = ci_of(&naive, 2000, seed ^ 0x9e37_79b9_7f4a_7c15);
            prop_assert!((a[0] - b[0]).abs() <= tolerance, "lower {:?} vs {:?} (tol {})", a, b, tolerance);
            prop_assert!((a[1] - b[1]).abs() <= tolerance, "upper {:?} vs {:?} (tol {})", a, b, tolerance);
        }
    }
}
