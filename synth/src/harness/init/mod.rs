//! `perfsyn init`: writes the harness crate `perfsyn/` into a user's crate, the way `cargo
//! fuzz init` writes `fuzz/`: its own `[workspace]`, a path dependency on the crate and on the
//! harness runtime (`perfsyn-profiler-ipc` of this perfsyn build), a worker binary, and
//! registrations generated from the crate's public API ([`scan`] reads it with `syn`,
//! [`model`] decides what the program model can drive, [`gen`] prints it). It then builds the
//! instrumented worker, so a crate that does not compile is reported by `init`; a generated
//! registration the compiler rejects is dropped and listed as skipped ([`repair`]); what was
//! skipped, and why, is also written as data beside it ([`skips`]).
//!
//! The modules form layers, each importing only from those below it:
//! - helpers any layer uses: [`syntax`], [`value_traits`], [`cfg`](mod@cfg);
//! - the reader, which knows nothing of the model: [`scan`] with [`free_fn`], [`expand`],
//!   [`macro_types`], [`storage`], [`int_traits`], [`strext`], and the readers of classes
//!   in doc prose [`doc_classes`], [`sentences`], [`math`], with [`class_reader`] on top of
//!   them (qualifiers, footnotes, module docs, the sentence each class came from);
//! - the model's data: [`model_ty`], [`registrations`] and [`skips`];
//! - the families of parameters and instantiation: [`closures`] (with
//!   [`wrapped_returns`]), [`compound`] (with [`byte_arrays`]), [`sequence`],
//!   [`instantiate`], [`aliases`], [`variants`], [`readers`], [`slots`];
//! - resolution of one signature: [`resolve`] (with [`params`] and [`fn_generics`]), then
//!   the reach through borrowing types and free functions: [`chain`] (with [`handed_out`]:
//!   what a method's result hands out, and how far chains go), [`free`],
//!   [`borrowed_input`] (types borrowing a program string, built and consumed in one call),
//!   [`borrower_instantiation`] (a borrowing type handed out at its owner's instantiation),
//!   [`borrowed_impl_fixed`] (an unbounded parameter is the type its impl block names),
//!   [`string_trait_chains`] (what the crate's trait methods on strings hand out);
//! - the walk over a crate's types: [`model`];
//! - printing: [`gen`] (with [`hygiene`] and [`capacity_ladder`]), then [`repair`]; and this
//!   command on top.

pub mod aliases;
#[cfg(test)]
mod aliases_tests;
pub mod assoc_ties;
#[cfg(test)]
mod assoc_ties_tests;
#[cfg(test)]
mod associated_types_tests;
pub mod borrowed_impl_fixed;
pub mod borrowed_input;
pub mod borrower_instantiation;
#[cfg(test)]
mod borrowing_types_tests;
pub mod byte_arrays;
pub mod capacity_ladder;
#[cfg(test)]
mod capacity_ladder_tests;
pub mod cfg;
pub mod chain;
#[cfg(test)]
mod chained_calls_tests;
pub mod class_reader;
pub mod closures;
#[cfg(test)]
mod closures_tests;
pub mod compound;
#[cfg(test)]
mod const_generics_tests;
#[cfg(test)]
mod constructors_tests;
pub mod counted_once;
#[cfg(test)]
mod data_variants_tests;
pub mod doc_classes;
#[cfg(test)]
mod documented_classes_tests;
pub mod drop_registrations;
pub mod expand;
pub mod fixed_args;
#[cfg(test)]
mod fixed_args_tests;
pub mod fixed_instantiations;
#[cfg(test)]
mod fixed_instantiations_tests;
pub mod fn_generics;
pub mod free;
pub mod free_fn;
#[cfg(test)]
mod free_functions_tests;
#[cfg(test)]
mod function_generics_tests;
pub mod function_results;
#[cfg(test)]
mod function_results_tests;
pub mod gen;
#[cfg(test)]
mod generic_bounds_tests;
pub mod handed_out;
pub mod handed_out_args;
#[cfg(test)]
mod handed_out_tests;
#[cfg(test)]
mod handles_tests;
pub mod hygiene;
pub mod imports;
pub mod instantiate;
pub mod int_traits;
#[cfg(test)]
mod io_types_tests;
pub mod item_impls;
pub mod literals;
pub mod macro_types;
#[cfg(test)]
mod macro_written_items_tests;
pub mod math;
#[cfg(test)]
mod measured_calls_tests;
pub mod model;
pub mod model_ty;
#[cfg(test)]
mod module_scoped_names_tests;
pub mod other_instantiation;
#[cfg(test)]
mod other_instantiation_tests;
pub mod owning_iter;
#[cfg(test)]
mod owning_iterators_tests;
pub mod param_defaults;
#[cfg(test)]
mod parameter_kinds_tests;
pub mod params;
#[cfg(test)]
mod parsers_tests;
pub mod primitive_bounds;
#[cfg(test)]
mod primitive_bounds_tests;
pub mod projected_impls;
#[cfg(test)]
mod projected_impls_tests;
#[cfg(test)]
mod public_paths_tests;
#[cfg(test)]
mod pull_methods_tests;
#[cfg(test)]
mod ranges_tests;
pub mod readers;
pub mod registered_args;
pub mod registrations;
pub mod repair;
pub mod resolve;
pub mod result_generics;
#[cfg(test)]
mod result_generics_tests;
pub mod result_instantiation;
pub mod scan;
pub mod scoped_aliases;
pub mod sentences;
pub mod sequence;
pub mod several_sizes;
pub mod skips;
pub mod slots;
pub mod storage;
pub mod strext;
#[cfg(test)]
mod string_conversions_tests;
pub mod string_trait_chains;
pub mod syntax;
#[cfg(test)]
mod trait_bounded_generics_tests;
pub mod trait_decls;
pub mod trait_impls;
#[cfg(test)]
mod trait_methods_tests;
pub mod turbofish;
mod undo;
pub mod value_traits;
pub mod variants;
pub mod wrapped_returns;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use super::discovery::{crate_dir_of, HARNESS_DIR};
use super::Harness;

/// What `perfsyn init` was asked to do.
#[derive(Clone, Debug)]
pub struct InitConfig {
    /// The crate's `Cargo.toml` (or its directory); `None`: the current directory's crate.
    pub manifest_path: Option<PathBuf>,
    /// Overwrite an existing `perfsyn/`.
    pub force: bool,
    /// Build the instrumented worker after writing (the check that the harness compiles).
    pub build: bool,
    pub quiet: bool,
}

/// What `perfsyn init` wrote.
#[derive(Clone, Debug, Serialize)]
pub struct InitSummary {
    pub crate_name: String,
    pub harness_dir: PathBuf,
    pub types: usize,
    pub constructors: usize,
    pub methods: usize,
    /// What `hunt --all` explores: one per registered method, and one per chained call (a
    /// borrowing type's method reached through each method returning it), the rejected
    /// ones dropped; how many of them have a documented class.
    pub registrations: usize,
    pub documented: usize,
    pub skipped_items: usize,
    pub skipped_types: usize,
    /// Public methods seen: registered, skipped on registered types, and those of public
    /// types that do not register (iterators, entries, errors), which no program reaches.
    pub public_methods: usize,
    /// How many of `public_methods` belong to types that do not register.
    pub unregistered_methods: usize,
    /// A method spec to start with (`Type::method`), preferring a documented one.
    pub first_method: Option<String>,
    /// Registrations the compiler rejected, dropped and listed as skipped.
    pub rejected: usize,
    /// The three most common kinds of reason for skipping, with how many items each stopped.
    pub top_reasons: Vec<(String, usize)>,
    /// Public free functions registered (on namespaces, see [`free`]; counted in `methods`).
    pub free_fns: usize,
    /// Registered methods that build a type borrowing its input and consume it (see
    /// [`borrowed_input`]).
    pub borrowed_input: usize,
    /// Of `free_fns`, the methods of the crate's traits on strings (see [`strext`]).
    pub string_methods: usize,
}

/// Runs `perfsyn init`.
pub fn run(cfg: &InitConfig) -> Result<InitSummary> {
    let manifest = match &cfg.manifest_path {
        Some(m) => m.clone(),
        None => std::env::current_dir()?.join("Cargo.toml"),
    };
    let crate_dir = crate_dir_of(&manifest)?;
    let (package, lib, lib_rs, features) = library_of(&crate_dir)?;
    let out = crate_dir.join(HARNESS_DIR);
    if out.exists() && !cfg.force {
        bail!(
            "{} already exists; pass --force to regenerate it (your edits there are lost)",
            out.display()
        );
    }
    let say = |line: String| {
        if !cfg.quiet {
            eprintln!("{line}");
        }
    };
    say(format!("reading {}", lib_rs.display()));
    let scan = scan::scan(&lib_rs, &features)?;
    if !scan.types.iter().any(|t| t.reachable) && scan.free_fns.is_empty() {
        bail!(
            "{} has no public types or functions reachable from {} (perfsyn explores the public API of a library)",
            package,
            lib_rs.display(),
        );
    }
    let mut model = model::build(&lib, &scan);
    if model.types.is_empty() {
        bail!(
            "no public type of {package} can be registered: {}",
            model
                .skipped_types
                .iter()
                .map(|(t, why)| format!("{t} ({why})"))
                .collect::<Vec<_>>()
                .join("; ")
        );
    }
    say(format!(
        "generating {}: {} types, {} items skipped",
        out.display(),
        model.types.iter().filter(|t| t.free.is_none()).count(),
        model.skipped() + model.skipped_types.len()
    ));
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("profiler-ipc");
    // Undone on any error below, so a failed init leaves the crate as it found it.
    let existed = out.exists();
    let mut undo = undo::Undo::new(&out);
    let undone = |e: anyhow::Error| {
        let what = if existed {
            "its files were put back as they were; fix this and run perfsyn init --force again"
        } else {
            "it was removed; fix this and run perfsyn init again"
        };
        anyhow::anyhow!("{e:#} ({} not kept: {what})", out.display())
    };
    undo.create_dir_all(&out.join("src").join("bin"))?;
    undo.write(
        &out.join("Cargo.toml"),
        &gen::cargo_toml(&package, &runtime.display().to_string()),
    )?;
    undo.write(&out.join("src/bin/perfsyn-worker.rs"), gen::WORKER_MAIN)?;
    undo.write(&out.join(".gitignore"), "/target\nCargo.lock\n")?;
    undo.write(&out.join("src/lib.rs"), &gen::registrations(&lib, &model))?;
    let mut skipped = skips::SkippedFile {
        lib: lib.clone(),
        skipped: model.skipped_items(),
    };
    let skipped_path = out.join(skips::SKIPPED_FILE);
    undo.write(&skipped_path, &gen::skipped_json(&skipped))?;
    let mined = crate::harness::mine::index_json(&crate_dir); // TestMiner: harness/mine
    undo.write(&out.join(crate::harness::mine::MINED_FILE), &mined)?;
    undo.write(
        &out.join(class_reader::CLASSES_FILE),
        &class_reader::classes_json(&model.classes),
    )?;
    let mut rejected = Vec::new();
    // Methods only a fixed instantiation dropped from the harness registered.
    let mut unfixed_methods = 0;
    if cfg.build {
        let h = Harness::of_manifest(&crate_dir).map_err(undone)?;
        let lib_path = out.join("src").join("lib.rs");
        say("building the instrumented worker (the first build compiles the crate and its dependencies)".to_string());
        for round in 1.. {
            let Err(e) = crate::harness::worker_build::ensure_harness_worker(&h, cfg.quiet) else {
                break;
            };
            let dropped = e
                .downcast_ref::<crate::harness::worker_build::RejectedRegistrations>()
                .filter(|_| round <= repair::ROUNDS)
                .and_then(|r| {
                    let text = std::fs::read_to_string(&lib_path).ok()?;
                    repair::drop_rejected_as_skipped(&text, &r.lines)
                });
            let stripped = dropped
                .is_none()
                .then(|| std::fs::read_to_string(&lib_path).ok())
                .flatten()
                .and_then(|text| capacity_ladder::without_rungs(&text));
            if let Some(text) = stripped {
                // A capacity the crate checks when it compiles (see `capacity_ladder`).
                undo.write(&lib_path, &text).map_err(undone)?;
                say(format!(
                    "repairing: the harness does not compile at the smaller capacities of its capacity ladders ({}); building again at the main capacity only",
                    format!("{e:#}").lines().next().unwrap_or_default()
                ));
                continue;
            }
            let unfixed = dropped
                .is_none()
                .then(|| std::fs::read_to_string(&lib_path).ok())
                .flatten()
                .and_then(|text| fixed_instantiations::without_fixed(&text));
            if let Some((text, name)) = unfixed {
                unfixed_methods += fixed_instantiations::registered_only_by(&model, &name);
                // A check the crate compiles at one instantiation (see `fixed_instantiations`).
                undo.write(&lib_path, &text).map_err(undone)?;
                say(format!(
                    "repairing: the harness does not compile at the instantiations its impl blocks fix ({}); building again without them",
                    format!("{e:#}").lines().next().unwrap_or_default()
                ));
                continue;
            }
            let crate_fails = e
                .downcast_ref::<crate::harness::worker_build::BuildFailed>()
                .is_some_and(|b| b.crate_fails);
            if crate_fails {
                // The crate's own code is what to fix: the crate is left as init found it.
                return Err(undone(e));
            }
            let Some((text, items)) = dropped else {
                // Kept: the error names a place in it to fix.
                undo.keep();
                return Err(anyhow::anyhow!(
                    "{e:#} ({} kept: fix what the error names, then any perfsyn command builds it again; `perfsyn init --force` regenerates it)",
                    out.display()
                ));
            };
            undo.write(&lib_path, &text).map_err(undone)?;
            // A rung of a capacity ladder registers its main type's methods again (see
            // `capacity_ladder`): one rejection of each is listed.
            let mut items = items;
            let mut seen = std::collections::HashSet::new();
            items.retain(|s| !rejected.contains(&s.item) && seen.insert(s.item.clone()));
            say(format!(
                "repairing: the compiler rejected {} registrations ({}); they are skipped, building again",
                items.len(),
                items
                    .iter()
                    .map(|s| s.item.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            rejected.extend(items.iter().map(|s| s.item.clone()));
            skipped.skipped.extend(items);
            undo.write(&skipped_path, &gen::skipped_json(&skipped))
                .map_err(undone)?;
        }
    }
    undo.keep();
    let public_methods = model.methods()
        + model
            .types
            .iter()
            .map(|t| t.skipped.len() - t.skipped_not_methods)
            .sum::<usize>()
        + model.unregistered_methods;
    let first_method = model
        .types
        .iter()
        .flat_map(|t| t.methods.iter().map(move |m| (t, m)))
        .find(|(_, m)| m.expected.is_some())
        .or_else(|| {
            model
                .types
                .iter()
                .flat_map(|t| t.methods.iter().map(move |m| (t, m)))
                .next()
        })
        .map(|(t, m)| format!("{}::{}", t.path, m.name));
    model.vecs.clear();
    let kept: Vec<&registrations::Func> = model
        .types
        .iter()
        .flat_map(|t| t.methods.iter().map(move |m| (t, m)))
        .filter(|(t, m)| !rejected.contains(&format!("{}::{}", t.path, m.name)))
        .map(|(_, m)| m)
        .collect();
    // Registered methods of the namespaces (see `free`) whose call path meets `which`: a
    // module's free functions (`mycrate::util`), or a trait's methods on strings
    // (`<str as mycrate::Trait>`, see `strext`).
    let namespace_methods = |which: &dyn Fn(&str) -> bool| {
        model
            .types
            .iter()
            .filter(|t| !t.borrowed_input && t.free.as_deref().is_some_and(which))
            .flat_map(|t| {
                t.methods
                    .iter()
                    .map(move |m| format!("{}::{}", t.path, m.name))
            })
            .filter(|spec| !rejected.contains(spec))
            .count()
    };
    Ok(InitSummary {
        crate_name: package,
        harness_dir: out,
        types: model.types.iter().filter(|t| t.free.is_none()).count(),
        constructors: model
            .types
            .iter()
            .filter(|t| t.free.is_none())
            .map(|t| t.ctors.len())
            .sum(),
        methods: model.methods()
            - (fixed_instantiations::rejected_methods(&model, &rejected) + unfixed_methods)
                .min(model.methods()),
        registrations: kept.len(),
        documented: kept.iter().filter(|m| m.expected.is_some()).count(),
        skipped_items: model.skipped() + rejected.len() + unfixed_methods,
        free_fns: namespace_methods(&|_| true),
        string_methods: namespace_methods(&|call_path| call_path.starts_with('<')),
        borrowed_input: model
            .types
            .iter()
            .filter(|t| t.borrowed_input)
            .flat_map(|t| {
                t.methods
                    .iter()
                    .map(move |m| format!("{}::{}", t.path, m.name))
            })
            .filter(|spec| !rejected.contains(spec))
            .count(),
        rejected: rejected.len(),
        top_reasons: skips::top_reasons(&skipped.skipped)
            .into_iter()
            .map(|(k, n)| (k.to_string(), n))
            .collect(),
        skipped_types: model.skipped_types.len(),
        public_methods,
        unregistered_methods: model.unregistered_methods,
        first_method,
    })
}

/// The crate's package name, library name, library root and default features, from
/// `cargo metadata`.
fn library_of(
    crate_dir: &Path,
) -> Result<(String, String, PathBuf, std::collections::HashSet<String>)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(crate_dir.join("Cargo.toml"))
        .output()
        .context("cannot run `cargo metadata`")?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err
            .lines()
            .find(|l| l.starts_with("error"))
            .unwrap_or("")
            .trim();
        // A crate may pin a toolchain this machine lacks (skiplist 1.3: `rust-toolchain.toml`
        // asks for 1.99): rustup's environment variable overrides the file.
        let pinned = if first.contains("toolchain") && first.contains("is not installed") {
            ": the crate pins that toolchain (rust-toolchain.toml); install it with `rustup toolchain install`, or run perfsyn with RUSTUP_TOOLCHAIN=stable"
        } else {
            ""
        };
        bail!(
            "{} is not a crate cargo can read: {first}{pinned}",
            crate_dir.display()
        );
    }
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    let manifest = crate_dir.join("Cargo.toml");
    let pkg = meta["packages"]
        .as_array()
        .and_then(|ps| {
            ps.iter().find(|p| {
                p["manifest_path"]
                    .as_str()
                    .is_some_and(|m| Path::new(m) == manifest)
            })
        })
        .with_context(|| {
            format!(
                "{} is a workspace without a package; pass the member's Cargo.toml",
                manifest.display()
            )
        })?;
    let name = pkg["name"].as_str().unwrap_or_default().to_string();
    let lib = pkg["targets"].as_array().and_then(|ts| {
        ts.iter().find(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "lib" || k == "rlib"))
        })
    });
    let Some(lib) = lib else {
        bail!("{name} has no library target: perfsyn explores the public API of a library crate");
    };
    Ok((
        name,
        lib["name"].as_str().unwrap_or_default().to_string(),
        PathBuf::from(lib["src_path"].as_str().unwrap_or_default()),
        cfg::default_features(&pkg["features"]),
    ))
}

/// The classes `init` read from the crate's docs, each with its sentence, by method (empty
/// for the built-in harness or one written before init recorded them).
pub fn class_sources(h: &Harness) -> std::collections::HashMap<String, class_reader::ClassRecord> {
    if h.builtin {
        return Default::default();
    }
    h.manifest
        .parent()
        .and_then(|d| std::fs::read_to_string(d.join(class_reader::CLASSES_FILE)).ok())
        .map(|t| class_reader::read_classes_json(&t))
        .unwrap_or_default()
}

/// Why `init` skipped `spec` (`Type::method` or `Type`), if the harness lists it.
pub fn skipped_reason(h: &Harness, spec: &str) -> Option<String> {
    if h.builtin {
        return None;
    }
    let text = std::fs::read_to_string(h.manifest.parent()?.join(skips::SKIPPED_FILE)).ok()?;
    let file: skips::SkippedFile = serde_json::from_str(&text).ok()?;
    skipped_reason_in(&file, spec)
}

/// [`skipped_reason`] in the list `init` wrote. A free function is found under the names
/// users write: `f` or `crate::f` at the crate root, `module::f`, each also after the
/// crate's name (`mycrate::f`).
fn skipped_reason_in(file: &skips::SkippedFile, spec: &str) -> Option<String> {
    let unprefixed = spec
        .strip_prefix(file.lib.as_str())
        .and_then(|rest| rest.strip_prefix("::"))
        .unwrap_or(spec);
    let names: Vec<String> = if unprefixed.contains("::") {
        vec![spec.to_string(), unprefixed.to_string()]
    } else {
        vec![format!("{}::{unprefixed}", free::ROOT)]
    };
    let ty = spec.rsplit_once("::").map(|(t, _)| t);
    file.skipped.iter().find_map(|s| {
        let (item, why) = (s.item.as_str(), &s.reason);
        if names.iter().any(|n| n == item) {
            return Some(format!(
                "{spec} was not registered by `perfsyn init`: {why}"
            ));
        }
        (Some(item) == ty)
            .then(|| format!("{spec}: its type {item} was not registered by `perfsyn init`: {why}"))
    })
}

/// The summary `perfsyn init` prints.
pub fn render(s: &InitSummary) -> String {
    let share = if s.public_methods > 0 {
        100.0 * s.methods as f64 / s.public_methods as f64
    } else {
        0.0
    };
    let mut out = format!(
        "wrote {} for {}\n{} methods registered of {} public ones ({share:.0}%), on {} types with {} constructors.\n",
        s.harness_dir.display(),
        s.crate_name,
        s.methods,
        s.public_methods,
        s.types,
        s.constructors,
    );
    if s.unregistered_methods > 0 {
        out.push_str(&format!(
            "{} of the public methods belong to types that do not register (iterators, entries, errors).\n",
            s.unregistered_methods
        ));
    }
    let skipped = s.skipped_items + s.skipped_types;
    if skipped > 0 {
        let reasons: Vec<String> = s
            .top_reasons
            .iter()
            .map(|(kind, n)| format!("{n} {kind}"))
            .collect();
        out.push_str(&format!(
            "{skipped} items skipped; the most common reasons: {}.\n",
            reasons.join("; ")
        ));
    }
    out.push_str(&format!(
        "{} registrations to explore (chained calls each count), {} with a documented class.\n",
        s.registrations, s.documented
    ));
    if s.rejected > 0 {
        out.push_str(&format!(
            "{} registrations the compiler rejected were dropped (listed as skipped with its message)\n",
            s.rejected
        ));
    }
    let plain = s.free_fns - s.string_methods.min(s.free_fns);
    if plain > 0 {
        out.push_str(&format!(
            "{plain} of the methods are free functions, named by module: crate::f at the root, module::f elsewhere\n",
        ));
    }
    if s.borrowed_input > 0 {
        out.push_str(&format!(
            "{} of the methods build a type that borrows its input and consume it in the same call, named Type::constructor_method\n",
            s.borrowed_input
        ));
    }
    if s.string_methods > 0 {
        out.push_str(&format!(
            "{} of the methods are the crate's traits' methods on strings, named by trait: Trait::f\n",
            s.string_methods
        ));
    }
    if s.skipped_items + s.skipped_types > 0 {
        out.push_str(&format!(
            "skipped items and reasons: the `// skipped:` lines of {}, and as data in {}\n",
            s.harness_dir.join("src").join("lib.rs").display(),
            s.harness_dir.join(skips::SKIPPED_FILE).display()
        ));
    }
    if let Some(m) = &s.first_method {
        out.push_str(&format!("next: perfsyn explore --method {m}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    /// The registrations `init` generates for a crate made of `files` (path, source).
    pub(super) fn generate(
        files: &[(&str, &str)],
        features: &[&str],
    ) -> (super::registrations::Model, String) {
        let dir = tempfile::tempdir().unwrap();
        for (p, text) in files {
            let path = dir.path().join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let features: HashSet<String> = features.iter().map(|s| s.to_string()).collect();
        let scan = super::scan::scan(&dir.path().join("lib.rs"), &features).unwrap();
        let model = super::model::build("demo", &scan);
        let text = super::gen::registrations("demo", &model);
        (model, text)
    }

    /// The list of skipped items `init` writes beside the registrations of [`generate`]
    /// (nothing is rejected by a compiler here).
    pub(super) fn skipped_file(m: &super::registrations::Model) -> super::skips::SkippedFile {
        super::skips::SkippedFile {
            lib: "demo".into(),
            skipped: m.skipped_items(),
        }
    }

    /// The summary says in short sentences how many methods registered, how many items
    /// were skipped, and the three most common kinds of reason.
    #[test]
    fn the_summary_gives_counts_and_the_top_three_skip_reasons_in_sentences() {
        let s = super::InitSummary {
            crate_name: "demo".into(),
            harness_dir: "/c/perfsyn".into(),
            types: 3,
            constructors: 4,
            methods: 140,
            registrations: 150,
            documented: 20,
            skipped_items: 50,
            skipped_types: 4,
            public_methods: 200,
            unregistered_methods: 12,
            first_method: None,
            rejected: 2,
            top_reasons: vec![
                ("generic parameters the harness cannot fill".into(), 30),
                ("types that borrow (a lifetime parameter)".into(), 10),
                ("rejected by the compiler".into(), 2),
            ],
            free_fns: 0,
            borrowed_input: 0,
            string_methods: 0,
        };
        let text = super::render(&s);
        let lines: Vec<&str> = text.lines().take(5).collect();
        assert_eq!(
            lines,
            [
                "wrote /c/perfsyn for demo",
                "140 methods registered of 200 public ones (70%), on 3 types with 4 constructors.",
                "12 of the public methods belong to types that do not register (iterators, entries, errors).",
                "54 items skipped; the most common reasons: 30 generic parameters the harness cannot fill; 10 types that borrow (a lifetime parameter); 2 rejected by the compiler.",
                "150 registrations to explore (chained calls each count), 20 with a documented class.",
            ]
        );
    }

    /// The kinds of reason counted over a skip list, most first, three at most.
    #[test]
    fn the_top_skip_reasons_are_counted_by_kind() {
        use super::skips::{top_reasons, SkipReason, Skipped};
        let item = |reason| Skipped {
            item: "T::m".into(),
            reason,
        };
        let list = vec![
            item(SkipReason::AsyncFunction),
            item(SkipReason::LifetimeParameter),
            item(SkipReason::UnsafeFunction),
            item(SkipReason::TypedReceiver),
            item(SkipReason::ReachedThrough {
                through: "T::get".into(),
                why: Box::new(SkipReason::LifetimeParameter),
            }),
            item(SkipReason::AsyncFunction),
        ];
        assert_eq!(
            top_reasons(&list),
            [
                ("async or unsafe functions", 3),
                ("types that borrow (a lifetime parameter)", 2),
                ("receivers the harness cannot pass", 1),
            ]
        );
    }

    const QUEUE: &str = r#"
        mod inner;
        pub use crate::inner::Queue;
        pub use crate::inner::iters::Tail;
        #[cfg(feature = "std")]
        pub struct Twice;
        #[cfg(not(feature = "std"))]
        pub struct Twice;
        impl Twice { pub fn new() -> Self { Twice } pub fn ping(&self) {} }
        pub mod a { #[derive(Default)] pub struct Tok; }
        pub mod b { #[derive(Default)] pub struct Tok; }
    "#;
    const INNER: &str = r#"
        pub mod iters {
            pub struct Iter<'a> { pub(crate) q: &'a super::Queue }
            impl<'a> Iterator for Iter<'a> { type Item = u64; fn next(&mut self) -> Option<u64> { None } }
            pub struct Entry<'a, T> { pub(crate) q: &'a mut super::Queue, pub(crate) t: T }
            impl<'a, T> Entry<'a, T> { pub fn insert(self, v: u64) {} pub fn key(&self) -> usize { 0 } }
            pub struct Tail;
            impl Tail { pub fn into_keys(self: Box<Self>) {} pub fn sum<R: std::ops::RangeBounds<usize>>(&self, range: R) {} }
        }
        pub struct Queue { v: Vec<u64> }
        impl Queue {
            pub fn new() -> Self { Queue { v: Vec::new() } }
            /// Runs in O(n).
            pub fn retain<F: FnMut(&u64) -> bool>(&mut self, f: F) {}
            pub fn get<Q: ?Sized + Eq>(&self, q: &Q) -> bool where u64: std::borrow::Borrow<Q> { false }
            pub fn iter(&self) -> iters::Iter<'_> { iters::Iter { q: self } }
            pub fn entry(&mut self, k: u64) -> iters::Entry<'_, u64> { iters::Entry { q: self, t: k } }
            pub fn take<const N: usize>(&self, k: [&u64; N]) {}
            pub unsafe fn raw(&self) {}
            pub fn sort_by<F>(&mut self, cmp: F) where F: FnMut(&u64, &u64) -> std::cmp::Ordering {}
            pub fn search_by<F: FnMut(&u64) -> Ordering>(&self, f: F) -> Result<usize, usize> { Ok(0) }
            pub fn sort_by_key<T: Ord, F: FnMut(&u64) -> T>(&mut self, f: F) {}
            pub fn search_by_key<B: Ord, F: FnMut(&u64) -> B>(&self, b: &B, f: F) -> usize { 0 }
            pub fn fill_with(&mut self, f: impl FnOnce() -> u64) {}
            pub fn drain<R>(&mut self, range: R) where R: std::ops::RangeBounds<usize> {}
            pub fn into_boxed(self, range: usize) -> Box<iters::Tail> { Box::new(iters::Tail) }
            pub fn boxed(self: Box<Self>) {}
        }
    "#;

    #[test]
    fn init_reaches_generic_closure_iterator_and_borrowing_methods() {
        let (m, text) = generate(&[("lib.rs", QUEUE), ("inner.rs", INNER)], &["std"]);
        // `pub use` from a private module: named by its root path, imported from there.
        assert!(text.contains("use ::demo::Queue;"), "{text}");
        // Two types of one name register under their module paths, each its own.
        assert!(text.contains("name: \"a::Tok\","), "{text}");
        assert!(text.contains("name: \"b::Tok\","), "{text}");
        // One `Twice` under the default features, not two.
        assert_eq!(m.types.iter().filter(|t| t.path == "Twice").count(), 1);
        assert!(
            text.contains("retain(mut self, f: copy u8) [\"O(n)\"] as"),
            "{text}"
        );
        assert!(
            text.contains("|r| r.iter().map(std::hint::black_box).count()"),
            "{text}"
        );
        assert!(
            text.contains("get(ref self, q: ref u64) -> bool;"),
            "{text}"
        );
        assert!(text.contains("entry_insert(mut self, k: copy u64, v: copy u64) as \"{self}.entry({k}).insert({v})\""), "{text}");
        assert!(
            text.contains("entry_key(mut self, k: copy u64) -> usize"),
            "{text}"
        );
        // A const-generic array gets two elements, each its own program value.
        assert!(
            text.contains("take(ref self, k: ref u64, k_1: ref u64) as \"{self}.take([&{k}, &{k_1}])\" => |r| r.take([k, k_1]);"),
            "{text}"
        );
        // Comparators, probes, keys and values: each chosen by a program value.
        assert!(
            text.contains("sort_by(mut self, cmp: copy u8) as \"{self}.sort_by(move |a0, a1| match {cmp} % 4 {"),
            "{text}"
        );
        assert!(
            text.contains("search_by(ref self, f: copy u64) {kept} as \"{self}.search_by(move |a0| std::cmp::Ord::cmp(a0, &{f}))\""),
            "{text}"
        );
        assert!(
            text.contains("sort_by_key(mut self) as \"{self}.sort_by_key(|a0| a0.clone())\""),
            "{text}"
        );
        assert!(
            text.contains("search_by_key(ref self, b: ref u64) -> usize as \"{self}.search_by_key(&{b}, |a0| a0.clone())\""),
            "{text}"
        );
        assert!(
            text.contains(
                "fill_with(mut self, f: copy u64) as \"{self}.fill_with(move || {f}.clone())\""
            ),
            "{text}"
        );
        assert!(
            text.contains("drain(mut self, range: copy usize, range_end: copy usize) as \"{self}.drain({range}..{range_end})\""),
            "{text}"
        );
        // `self: Box<Self>` is reached through a method returning a Box; not on a variable.
        assert!(
            text.contains("into_boxed_into_keys(val self, range: copy usize) as \"{self}.into_boxed({range}).into_keys()\""),
            "{text}"
        );
        assert!(
            text.contains("// skipped: Queue::boxed: a `self: Box<Self>` receiver"),
            "{text}"
        );
        // A clash of names between the two calls of a chain renames the second's, in its code too.
        assert!(
            text.contains("into_boxed_sum(val self, range: copy usize, then_range: copy usize, then_range_end: copy usize) as \"{self}.into_boxed({range}).sum({then_range}..{then_range_end})\""),
            "{text}"
        );
        assert!(
            text.contains("// skipped: Queue::raw: unsafe method"),
            "{text}"
        );
        // Queue: retain, get, iter, entry, take, sort_by, search_by, sort_by_key,
        // search_by_key, fill_with, drain, into_boxed; Twice: ping; Tail (no constructor):
        // into_keys, sum through into_boxed. Skipped: raw, boxed.
        // Iter has no inherent methods; Entry's and Tail's are reached but not counted (not
        // exported).
        assert_eq!(m.methods(), 15, "{text}");
        assert_eq!(m.unregistered_methods, 0);
    }
}
