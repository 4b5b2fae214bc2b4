//! `perfsyn bench fit`: how often the asymptotic verdict names the right class.
//!
//! Labeled (size, cost) series are generated (seeded) from the 7 classes with the
//! distortions real measurements have: constant offsets, lower-order terms (n log n + 10n,
//! n^2 + 10^4 n), multiplicative noise, amortized resize spikes, one-off outliers, plateaus,
//! narrow and wide size ranges. Each is judged by `model_select::select` with no expected
//! class (pure classification). Accuracy counts an `inconclusive` answer as a miss; the
//! false-bottleneck rate counts series judged above their true class. `--write-series`
//! writes the same series for scripts/bench_fit_bigo.py, which runs the big_O package on them.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, Normal};
use serde::Serialize;

use crate::judge::oracle::model_select;
use crate::report::class::Class;

/// One labeled series.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub class: Class,
    /// The distortions applied, e.g. `wide offset noise=0.08 spike`.
    pub kind: String,
    pub points: Vec<(f64, f64)>,
}

/// The figures of one run.
#[derive(Clone, Debug, Serialize)]
pub struct BenchFit {
    pub seed: u64,
    pub cases: usize,
    /// Right class / all series (inconclusive counts as wrong).
    pub accuracy: f64,
    /// Series judged above their true class / all series.
    pub false_bottleneck_rate: f64,
    /// Inconclusive answers / all series.
    pub inconclusive_rate: f64,
    /// What a user sees: series whose verdict, documented as their true class, is a
    /// bottleneck (the judge's guards included) / all series.
    pub verdict_false_bottleneck_rate: f64,
    /// Series above O(1) whose verdict, documented one class below their true class, is a
    /// bottleneck / those series: the guards' price in missed findings.
    pub verdict_detection_rate: f64,
    /// Accuracy per true class, lowest class first.
    pub per_class: Vec<(String, f64)>,
    /// confusion[true][judged]; judged index 7 is `inconclusive`.
    pub confusion: Vec<Vec<usize>>,
    /// Every misjudged series, in generation order.
    pub misses: Vec<Miss>,
}

/// A misjudged series; `index` is its line in the `--write-series` file (from 0).
#[derive(Clone, Debug, Serialize)]
pub struct Miss {
    pub index: usize,
    pub class: String,
    pub judged: String,
    /// The distortions applied, as in [`Series::kind`].
    pub kind: String,
}

/// Generates `cases` labeled series (classes in turn) from `seed`.
///
/// Every other exponential series grows as `c^n` with `c` drawn from 1.4..3 (naive
/// Fibonacci recursion is 1.618^n), the others as 2^n. The base comes from a stream of its
/// own, so that the other series are those that earlier versions generated for the seed.
pub fn generate(seed: u64, cases: usize) -> Vec<Series> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut bases = StdRng::seed_from_u64(seed ^ 0xba5e);
    (0..cases)
        .map(|i| {
            let class = Class::ALL[i % Class::ALL.len()];
            let base = if class == Class::Exponential && (i / Class::ALL.len()) % 2 == 1 {
                bases.random_range(1.4..3.0)
            } else {
                2.0
            };
            one(&mut rng, class, base)
        })
        .collect()
}

fn geo_sizes(rng: &mut StdRng, lo: f64, hi: f64, k: usize) -> Vec<f64> {
    let jitter = Normal::new(0.0, 0.03).expect("valid");
    let mut v: Vec<f64> = (0..k)
        .map(|i| {
            let t = i as f64 / (k - 1) as f64;
            ((lo.ln() + t * (hi / lo).ln() + jitter.sample(rng)).exp())
                .round()
                .max(1.0)
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    v
}

fn one(rng: &mut StdRng, class: Class, base: f64) -> Series {
    let mut kind: Vec<String> = Vec::new();
    let r: f64 = rng.random();
    let decades: f64 = if r < 0.3 {
        kind.push("narrow".into());
        rng.random_range(1.0..1.3)
    } else if r < 0.6 {
        kind.push("medium".into());
        rng.random_range(1.5..2.0)
    } else {
        kind.push("wide".into());
        rng.random_range(2.0..3.5)
    };
    let k = rng.random_range(6..17usize);
    let b = 10f64.powf(rng.random_range(-1.0..2.0));
    let mut sizes = if class == Class::Exponential {
        let lo = rng.random_range(1.0..3.5);
        let up: f64 = rng.random_range(1.0..1.3);
        geo_sizes(rng, lo, (lo * 10f64.powf(up)).min(45.0), k)
    } else {
        let lo = 10f64.powf(rng.random_range(0.5..3.0));
        geo_sizes(rng, lo, lo * 10f64.powf(decades), k)
    };
    let mut cost: Vec<f64> = if class == Class::Constant {
        let c = 10f64.powf(rng.random_range(1.0..5.0));
        vec![c; sizes.len()]
    } else if class == Class::Exponential {
        sizes.iter().map(|&n| b * base.powf(n)).collect()
    } else {
        sizes.iter().map(|&n| b * class.g(n)).collect()
    };
    // Lower-order terms, with a wide range whose top lies past the crossover.
    if class >= Class::Linear && rng.random::<f64>() < 0.35 {
        match class {
            Class::Linearithmic | Class::Quadratic => {
                let cross: f64 = if class == Class::Quadratic {
                    1e4
                } else {
                    1024.0
                };
                let top = cross * 10f64.powf(rng.random_range(1.0..1.5));
                let d = rng.random_range(2.0..3.0);
                kind[0] = "wide".into();
                sizes = geo_sizes(rng, top / 10f64.powf(d), top, k);
                cost = sizes
                    .iter()
                    .map(|&n| {
                        if class == Class::Quadratic {
                            b * (n * n + 1e4 * n)
                        } else {
                            b * (n * (n + 1.0).log2() + 10.0 * n)
                        }
                    })
                    .collect();
                kind.push(if class == Class::Quadratic {
                    "n^2+1e4n".into()
                } else {
                    "nlogn+10n".into()
                });
            }
            _ => {
                let low = match class {
                    Class::Linear => Class::Log,
                    Class::Cubic => Class::Quadratic,
                    _ => Class::Cubic,
                };
                let n0 = sizes[0];
                let m = rng.random_range(0.5..3.0) * class.g(n0) / low.g(n0).max(1e-9);
                for (c, &n) in cost.iter_mut().zip(&sizes) {
                    *c += b * m * low.g(n);
                }
                kind.push(format!("+{}", low.label()));
            }
        }
    }
    if rng.random::<f64>() < 0.6 {
        let off = cost[0] * 10f64.powf(rng.random_range(-1.0..0.7));
        cost.iter_mut().for_each(|c| *c += off);
        kind.push("offset".into());
    }
    if rng.random::<f64>() < 0.5 {
        let s: f64 = rng.random_range(0.02..0.15);
        let nd = Normal::new(0.0, s).expect("valid");
        cost.iter_mut().for_each(|c| *c *= f64::exp(nd.sample(rng)));
        kind.push(format!("noise={s:.2}"));
    }
    let len = cost.len();
    if len > 4 && rng.random::<f64>() < 0.2 {
        let i = rng.random_range(1..len);
        cost[i] += cost[i] * rng.random_range(0.5..3.0);
        kind.push("spike".into());
    }
    if len > 4 && rng.random::<f64>() < 0.2 {
        let i = rng.random_range(0..len);
        cost[i] *= rng.random_range(1.3..2.0);
        kind.push("outlier".into());
    }
    if len >= 8 && rng.random::<f64>() < 0.15 {
        let w = (len / 4).max(2);
        let i = rng.random_range(0..len - w);
        let v = cost[i];
        cost[i..i + w].iter_mut().for_each(|c| *c = v);
        kind.push("plateau".into());
    }
    if base != 2.0 {
        kind.push(format!("base={base:.2}"));
    }
    Series {
        class,
        kind: kind.join(" "),
        points: sizes.into_iter().zip(cost).collect(),
    }
}

/// Judges every series and gathers the figures.
pub fn run(seed: u64, cases: usize) -> BenchFit {
    let series = generate(seed, cases);
    let mut confusion = vec![vec![0usize; 8]; 7];
    let mut misses = Vec::new();
    let (mut right, mut above, mut inconclusive) = (0, 0, 0);
    let (mut verdict_above, mut detected, mut below_tries) = (0, 0, 0);
    for (index, s) in series.iter().enumerate() {
        if model_select::judge(&s.points, Some(s.class)).above_expected {
            verdict_above += 1;
        }
        if let Some(lower) = Class::ALL.iter().rev().find(|c| **c < s.class) {
            below_tries += 1;
            if model_select::judge(&s.points, Some(*lower)).above_expected {
                detected += 1;
            }
        }
        let got = model_select::select(&s.points).class;
        let t = s.class as usize;
        confusion[t][got.map_or(7, |c| c as usize)] += 1;
        let judged = match got {
            Some(c) if c == s.class => {
                right += 1;
                continue;
            }
            Some(c) => {
                if c > s.class {
                    above += 1;
                }
                c.label()
            }
            None => {
                inconclusive += 1;
                "inconclusive"
            }
        };
        misses.push(Miss {
            index,
            class: s.class.label().into(),
            judged: judged.into(),
            kind: s.kind.clone(),
        });
    }
    let n = series.len().max(1) as f64;
    let per_class = Class::ALL
        .iter()
        .map(|c| {
            let row = &confusion[*c as usize];
            let tot = row.iter().sum::<usize>().max(1) as f64;
            (c.label().to_string(), row[*c as usize] as f64 / tot)
        })
        .collect();
    BenchFit {
        seed,
        cases: series.len(),
        accuracy: right as f64 / n,
        false_bottleneck_rate: above as f64 / n,
        verdict_false_bottleneck_rate: verdict_above as f64 / n,
        verdict_detection_rate: detected as f64 / below_tries.max(1) as f64,
        inconclusive_rate: inconclusive as f64 / n,
        per_class,
        confusion,
        misses,
    }
}

/// The series as JSON lines `{"class": "O(n)", "kind": .., "points": [[n, c], ..]}`.
pub fn series_jsonl(seed: u64, cases: usize) -> String {
    generate(seed, cases)
        .iter()
        .map(|s| serde_json::to_string(s).expect("plain data") + "\n")
        .collect()
}

/// The text table.
pub fn render(r: &BenchFit) -> String {
    let mut s = format!(
        "bench fit: {} series (seed {}), no expected class given\n",
        r.cases, r.seed
    );
    s.push_str(&format!(
        "accuracy {:.1}% (inconclusive counts as wrong; {:.1}% inconclusive), false bottlenecks {:.1}%\n\n",
        r.accuracy * 100.0,
        r.inconclusive_rate * 100.0,
        r.false_bottleneck_rate * 100.0
    ));
    s.push_str(&format!(
        "verdicts: documented as its true class, {:.1}% called a bottleneck; documented one class below, {:.1}% called a bottleneck\n\n",
        r.verdict_false_bottleneck_rate * 100.0,
        r.verdict_detection_rate * 100.0
    ));
    s.push_str("true \\ judged   O(1) logn    O(n) nlogn   n^2   n^3   2^n  inc.  accuracy\n");
    for (i, row) in r.confusion.iter().enumerate() {
        s.push_str(&format!("{:<14}", Class::ALL[i].label()));
        for v in row {
            s.push_str(&format!("{v:>6}"));
        }
        s.push_str(&format!("  {:>6.1}%\n", r.per_class[i].1 * 100.0));
    }
    s
}
