//! `perfsyn report DIR... --out DIR`: the partial result directories of one hunt (its
//! partitions, `hunt --partition k/N`, run on different machines) merged into one hunt
//! directory, whose report is the report of the unpartitioned hunt.
//!
//! Merging copies each finished run file, byte for byte, to the path the unpartitioned hunt
//! gives it (the run-file names come from the whole plan, so they never collide) and writes
//! the manifest of the whole hunt. The result is an ordinary hunt directory: `hunt --report`
//! regenerates it, and when partitions are missing `hunt --resume` could finish it. Parts of
//! different hunts are refused: a merge of those would rank findings that no single hunt
//! would have produced.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::dir::{HuntDir, HuntIdentity, Manifest, PlannedMethod};
use super::report::{write_reports, Summary};
use crate::commands::partition::Partition;
use crate::explore::runfile::write_atomic;

/// A partition none of the given directories holds.
#[derive(Clone, Debug)]
pub struct Missing {
    pub part: Partition,
    /// Its methods, as the hunt names them.
    pub methods: Vec<String>,
}

/// What a merge produced.
#[derive(Debug)]
pub struct Merged {
    pub summary: Summary,
    pub missing: Vec<Missing>,
    /// The command that ran the partitions, without `--partition` (the command of the whole
    /// hunt).
    pub hunt_command: Vec<String>,
}

/// Merges the hunt directories `inputs` into the new directory `out`.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Merged> {
    if inputs.is_empty() {
        bail!("give at least one hunt directory to report on");
    }
    let dirs: Vec<HuntDir> = inputs
        .iter()
        .map(|p| HuntDir::open(p))
        .collect::<Result<_, _>>()?;
    check_same_hunt(inputs, &dirs)?;
    let first = &dirs[0];
    let plan: Vec<PlannedMethod> = first.manifest.plan().to_vec();
    let count = first.manifest.identity().partitions;

    if out.exists() && (!out.is_dir() || std::fs::read_dir(out)?.next().is_some()) {
        bail!(
            "{} is not empty; `perfsyn report` writes the merged hunt into a new directory, pick another --out",
            out.display()
        );
    }
    // The command of partition 1 (or the lowest given) with `--partition` left out is the
    // command of the whole hunt: it reproduces the merged findings.
    let lowest = dirs
        .iter()
        .min_by_key(|d| d.manifest.partition.as_ref().map_or(0, |p| p.part.index()))
        .expect("at least one directory");
    let hunt_command = without_partition(&lowest.manifest.command_line);
    let mut manifest = Manifest::new(
        hunt_command.clone(),
        first.manifest.schema_hash.clone(),
        first.manifest.settings.clone(),
        plan.clone(),
        None,
    );
    manifest.perfsyn_version = first.manifest.perfsyn_version.clone();
    let merged = HuntDir::create(out, manifest)?;

    for (dir, input) in dirs.iter().zip(inputs) {
        for (i, _) in dir.finished()? {
            let m = &dir.manifest.methods[i];
            if !plan.contains(m) {
                bail!(
                    "{}: method {} is not in the hunt's plan (the manifest was edited?)",
                    input.display(),
                    m.method
                );
            }
            copy(&dir.run_path(m), &merged.run_path(m))?;
            let plot = crate::commands::plot::path_for(&dir.run_path(m));
            if plot.exists() {
                copy(&plot, &crate::commands::plot::path_for(&merged.run_path(m)))?;
            }
        }
    }

    let present: Vec<Partition> = dirs
        .iter()
        .filter_map(|d| d.manifest.partition.as_ref().map(|p| p.part))
        .collect();
    let missing: Vec<Missing> = match Partition::new(1, count) {
        Some(p) if !present.is_empty() => p
            .siblings()
            .filter(|s| !present.contains(s))
            .map(|s| Missing {
                part: s,
                methods: s
                    .select(&plan, |m| m.method.clone())
                    .into_iter()
                    .map(|m| m.method)
                    .collect(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let summary = write_reports(&merged, &out.display().to_string())?;
    Ok(Merged {
        summary,
        missing,
        hunt_command,
    })
}

/// Refuses directories of different hunts, and a partition given twice.
fn check_same_hunt(inputs: &[PathBuf], dirs: &[HuntDir]) -> Result<()> {
    let first = dirs[0].manifest.identity();
    for (dir, path) in dirs.iter().zip(inputs).skip(1) {
        let other = dir.manifest.identity();
        let diff = differences(&first, &other);
        if !diff.is_empty() {
            bail!(
                "{} and {} are parts of different hunts ({}); merge only the partitions of one hunt",
                inputs[0].display(),
                path.display(),
                diff.join(", ")
            );
        }
    }
    for (a, (da, pa)) in dirs.iter().zip(inputs).enumerate() {
        for (db, pb) in dirs.iter().zip(inputs).skip(a + 1) {
            let part = |d: &HuntDir| d.manifest.partition.as_ref().map(|p| p.part);
            if part(da) == part(db) {
                bail!(
                    "{} and {} hold the same {}; give each partition once",
                    pa.display(),
                    pb.display(),
                    part(da).map_or("hunt".to_string(), |p| format!("partition {p}"))
                );
            }
        }
    }
    Ok(())
}

/// What differs between two hunts' identities, in words (empty when they are one hunt).
pub fn differences(a: &HuntIdentity<'_>, b: &HuntIdentity<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let (sa, sb) = (a.settings, b.settings);
    let mut differ = |what: &str, x: String, y: String| {
        if x != y {
            out.push(format!("{what} {x} vs {y}"));
        }
    };
    differ("seed", sa.seed.to_string(), sb.seed.to_string());
    differ("budget per method", sa.budget_text(), sb.budget_text());
    differ("strategy", sa.strategy.clone(), sb.strategy.clone());
    let what = |t: &Option<String>| {
        t.as_deref()
            .map_or("--all".into(), |t| format!("--type {t}"))
    };
    differ("methods", what(&sa.ty), what(&sb.ty));
    differ("t_rel", sa.t_rel.to_string(), sb.t_rel.to_string());
    differ(
        "partitions",
        a.partitions.to_string(),
        b.partitions.to_string(),
    );
    if out.is_empty() && a.plan_hash != b.plan_hash {
        out.push(format!("method list {} vs {}", a.plan_hash, b.plan_hash));
    }
    if a.schema_hash != b.schema_hash {
        out.push(format!("worker API {} vs {}", a.schema_hash, b.schema_hash));
    }
    out
}

/// `cl` without `--partition k/N` (or `--partition=k/N`).
pub fn without_partition(cl: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in cl {
        if skip {
            skip = false;
        } else if a == "--partition" {
            skip = true;
        } else if !a.starts_with("--partition=") {
            out.push(a.clone());
        }
    }
    out
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    let bytes = std::fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
    write_atomic(to, &bytes).with_context(|| format!("cannot write {}", to.display()))
}

#[cfg(test)]
mod tests {
    use super::super::dir::{run_file_name, HuntSettings};
    use super::*;

    fn settings(seed: u64) -> HuntSettings {
        HuntSettings {
            ty: Some("PrefixSums".into()),
            budget_per_method_ms: 0,
            max_programs_per_method: Some(20),
            strategy: "astar".into(),
            seed,
            t_rel: 1.2,
            switches: Default::default(),
        }
    }

    fn plan(names: &[&str]) -> Vec<PlannedMethod> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| PlannedMethod {
                method: n.to_string(),
                oracle: crate::explore::OracleKind::Asymptotic,
                file: run_file_name(i, n),
            })
            .collect()
    }

    /// Writes a partition directory (no run file: merging needs only the manifests here).
    fn part(root: &Path, name: &str, seed: u64, names: &[&str], p: &str) -> PathBuf {
        let path = root.join(name);
        let cl: Vec<String> = ["perfsyn", "hunt", "--partition", p, "--out", name]
            .map(String::from)
            .into();
        let m = Manifest::new(
            cl,
            "0".repeat(16),
            settings(seed),
            plan(names),
            Some(p.parse().unwrap()),
        );
        drop(HuntDir::create(&path, m).unwrap());
        path
    }

    fn merge_error(inputs: &[PathBuf], root: &Path) -> String {
        let e = merge(inputs, &root.join("merged")).unwrap_err();
        let e = format!("{e:#}");
        assert!(!e.contains('\n'), "{e}");
        e
    }

    #[test]
    fn parts_of_different_hunts_are_refused_in_one_line() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        let names = ["P::a", "P::b", "P::c"];
        let a = part(r, "a", 3, &names, "1/2");
        let seed = part(r, "seed", 4, &names, "2/2");
        let e = merge_error(&[a.clone(), seed], r);
        assert!(
            e.contains("different hunts") && e.contains("seed 3 vs 4"),
            "{e}"
        );
        let list = part(r, "list", 3, &["P::a", "P::b"], "2/2");
        let e = merge_error(&[a.clone(), list], r);
        assert!(e.contains("method list"), "{e}");
        let split = part(r, "split", 3, &names, "2/3");
        let e = merge_error(&[a.clone(), split], r);
        assert!(e.contains("partitions 2 vs 3"), "{e}");
        let twice = part(r, "twice", 3, &names, "1/2");
        let e = merge_error(&[a, twice], r);
        assert!(e.contains("partition 1/2") && e.contains("once"), "{e}");
        assert!(!r.join("merged").exists());
    }

    #[test]
    fn a_missing_partition_is_named_with_its_methods() {
        let tmp = tempfile::tempdir().unwrap();
        let r = tmp.path();
        let names = ["P::c", "P::a", "P::b"];
        let first = part(r, "p1", 3, &names, "1/3");
        let third = part(r, "p3", 3, &names, "3/3");
        let merged = merge(&[third, first], &r.join("merged")).unwrap();
        assert_eq!(merged.missing.len(), 1);
        assert_eq!(merged.missing[0].part.to_string(), "2/3");
        assert_eq!(merged.missing[0].methods, ["P::b"]);
        assert_eq!(merged.hunt_command, ["perfsyn", "hunt", "--out", "p1"]);
        assert!(!merged.summary.complete);
        assert_eq!(merged.summary.pending, ["P::c", "P::a", "P::b"]);
        let e = merge_error(&[r.join("p1")], r);
        assert!(e.contains("not empty"), "{e}");
    }
}
