//! Evaluation and tuning cases as data. The lists live with the corpus
//! (`corpus/cases/*.json`, described in `corpus/cases/README.md`) and are read at run time
//! from the built-in harness's data files, so the engine names no corpus method or path in
//! its code and never links the corpus; a case names its method by spec and is checked
//! against the worker's schema before anything runs.
//!
//! A case's expectation is read only by the judge ([`super::judge`]); nothing of it reaches
//! the search or the oracles.

use anyhow::{bail, Context, Result};
use perfsyn_profiler_ipc::ApiSchema;
use serde::{Deserialize, Serialize};

use crate::harness::spec;
use crate::harness::Harness;
use crate::report::class::Class;

/// Which oracle a case uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseOracle {
    Relative,
    Asymptotic,
}

/// What a case's method truly does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Expected {
    /// The new version is slower (a regression, `-` in Table 3.2).
    Slower,
    /// The new version is faster (an improvement, `+` in Table 3.2).
    Faster,
    /// The method's true class, worse than its documented one.
    Class(Class),
    /// A negative control: nothing may be reported.
    None,
}

impl TryFrom<String> for Expected {
    type Error = String;
    fn try_from(s: String) -> Result<Expected, String> {
        Ok(match s.as_str() {
            "slower" => Expected::Slower,
            "faster" => Expected::Faster,
            "none" => Expected::None,
            c => Expected::Class(Class::parse(c).ok_or_else(|| {
                format!("`{c}` is not slower, faster, none or a class like O(n)")
            })?),
        })
    }
}

impl From<Expected> for String {
    fn from(e: Expected) -> String {
        e.label().to_string()
    }
}

impl Expected {
    /// As in the data and the JSON output: `slower`, `faster`, a class like `O(n)`, `none`.
    pub fn label(self) -> &'static str {
        match self {
            Expected::Slower => "slower",
            Expected::Faster => "faster",
            Expected::Class(c) => c.label(),
            Expected::None => "none",
        }
    }

    /// Whether the case is a positive one (something must be found).
    pub fn is_positive(self) -> bool {
        self != Expected::None
    }
}

/// One case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Table 3.2's ID, `M1`/`M2` for Listing 3.1, `T1`/`T2` for Toddler, `C…` for controls.
    pub id: String,
    /// The method spec, `Group::method` for version groups.
    pub method: String,
    pub oracle: CaseOracle,
    pub expected: Expected,
    /// Where the case comes from.
    pub source: String,
}

/// Parses a case list, checking that IDs are unique and that each expectation fits its
/// oracle (a direction for relative cases, a class for asymptotic ones).
pub fn parse(text: &str) -> Result<Vec<Case>> {
    let cases: Vec<Case> = serde_json::from_str(text).context("the case list is not valid")?;
    let mut ids = std::collections::HashSet::new();
    for c in &cases {
        if !ids.insert(c.id.as_str()) {
            bail!("case {} appears twice", c.id);
        }
        if !c.method.contains("::") {
            bail!("case {}: `{}` is not a method spec", c.id, c.method);
        }
        let fits = matches!(
            (c.oracle, c.expected),
            (_, Expected::None)
                | (CaseOracle::Relative, Expected::Slower | Expected::Faster)
                | (CaseOracle::Asymptotic, Expected::Class(_))
        );
        if !fits {
            bail!(
                "case {}: expectation {} does not fit the {:?} oracle",
                c.id,
                c.expected.label(),
                c.oracle
            );
        }
    }
    Ok(cases)
}

/// The suite's cases: the built-in corpus's `suite.json`.
pub fn suite_cases() -> Result<Vec<Case>> {
    read(&Harness::builtin().data_file("suite.json"))
}

/// The tuning cases of `bench search`: the built-in corpus's `bench_search.json`.
pub fn tuning_cases() -> Result<Vec<Case>> {
    read(&Harness::builtin().data_file("bench_search.json"))
}

/// The cases of the file at `path`; one line naming the file when it cannot be read.
pub fn read(path: &std::path::Path) -> Result<Vec<Case>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read the case list {}: {e}", path.display()))?;
    parse(&text).map_err(|e| anyhow::anyhow!("{}: {e:#}", path.display()))
}

/// The cases of `all` selected by `patterns` (comma-separated globs, `*` a wildcard; matched
/// against the ID and the method, case-insensitively).
pub fn select(all: &[Case], patterns: Option<&str>) -> Result<Vec<Case>> {
    let Some(p) = patterns else {
        return Ok(all.to_vec());
    };
    let mut set = globset::GlobSetBuilder::new();
    for pat in p.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let glob = globset::GlobBuilder::new(pat)
            .case_insensitive(true)
            .build()
            .map_err(|e| anyhow::anyhow!("--cases {p}: {e}"))?;
        set.add(glob);
    }
    let set = set
        .build()
        .map_err(|e| anyhow::anyhow!("--cases {p}: {e}"))?;
    let out: Vec<Case> = all
        .iter()
        .filter(|c| set.is_match(&c.id) || set.is_match(&c.method))
        .cloned()
        .collect();
    if out.is_empty() {
        let ids: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
        bail!(
            "--cases {p} matches no case; the IDs are {} (patterns may use *)",
            ids.join(", ")
        );
    }
    Ok(out)
}

/// Checks that every case's method exists in the worker's schema, in the form its oracle
/// needs (a version group with the method in both versions, or a documented class).
pub fn check_cases(schema: &ApiSchema, cases: &[Case]) -> Result<()> {
    let mut problems = Vec::new();
    for c in cases {
        let (ty, method) = c.method.rsplit_once("::").unwrap_or((&c.method, ""));
        let types = spec::resolve_type(schema, ty);
        let with: Vec<_> = types
            .iter()
            .filter(|t| t.method(method).is_some())
            .collect();
        let problem = match c.oracle {
            CaseOracle::Relative => {
                let versions: Vec<_> = with.iter().filter_map(|t| t.version.as_ref()).collect();
                let ok = versions.len() == 2
                    && versions.iter().any(|v| v.version == "old")
                    && versions.iter().any(|v| v.version == "new");
                (!ok).then_some("needs a version group with the method in `old` and `new`")
            }
            CaseOracle::Asymptotic => match with.first() {
                None => Some("is not registered"),
                Some(t) if t.method(method).and_then(|m| m.expected.as_ref()).is_none() => {
                    Some("has no documented complexity")
                }
                Some(_) => None,
            },
        };
        if let Some(p) = problem {
            problems.push(format!("case {} `{}` {p}", c.id, c.method));
        }
    }
    if !problems.is_empty() {
        bail!(
            "the worker's API does not have what the cases need (is it an old or a foreign worker?):\n  {}",
            problems.join("\n  ")
        );
    }
    Ok(())
}

/// The documented class of a case's method, when it has one.
pub fn documented(schema: &ApiSchema, c: &Case) -> Option<String> {
    let (ty, method) = c.method.rsplit_once("::").unwrap_or((&c.method, ""));
    spec::resolve_type(schema, ty)
        .iter()
        .find_map(|t| t.method(method).and_then(|m| m.expected.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_list_is_well_formed() {
        let cases = suite_cases().unwrap();
        let positives = cases.iter().filter(|c| c.expected.is_positive()).count();
        assert_eq!(positives, 26);
        assert!(cases.len() - positives >= 10);
    }

    #[test]
    fn tuning_cases_are_disjoint_from_the_suite() {
        let suite: Vec<String> = suite_cases()
            .unwrap()
            .into_iter()
            .map(|c| c.method)
            .collect();
        let tuning = tuning_cases().unwrap();
        let count = |oracle: CaseOracle, positive: bool| {
            tuning
                .iter()
                .filter(|c| c.oracle == oracle && c.expected.is_positive() == positive)
                .count()
        };
        assert!(count(CaseOracle::Asymptotic, true) >= 4);
        // Relative tuning: regressions and an improvement, and controls.
        assert!(count(CaseOracle::Relative, true) >= 4);
        assert!(count(CaseOracle::Relative, false) >= 2);
        for c in &tuning {
            assert!(!suite.contains(&c.method), "{} is a suite case", c.method);
        }
        // A relative tuning case is a version group of its own: no suite case runs on its
        // type, so the relative verdict is never tuned on a type the suite evaluates.
        let ty = |m: &str| m.rsplit_once("::").map_or(m, |x| x.0).to_string();
        let suite_types: Vec<String> = suite.iter().map(|m| ty(m)).collect();
        for c in tuning.iter().filter(|c| c.oracle == CaseOracle::Relative) {
            assert!(
                !suite_types.contains(&ty(&c.method)),
                "{}: the suite evaluates a method of {}",
                c.id,
                ty(&c.method)
            );
        }
    }

    #[test]
    fn bad_lists_are_refused() {
        let ok =
            r#"[{"id":"1","method":"A::f","oracle":"relative","expected":"slower","source":"s"}]"#;
        assert_eq!(parse(ok).unwrap()[0].expected, Expected::Slower);
        let twice = format!("[{},{}]", &ok[1..ok.len() - 1], &ok[1..ok.len() - 1]);
        assert!(parse(&twice).unwrap_err().to_string().contains("twice"));
        let wrong = ok.replace("slower", "O(n)");
        assert!(parse(&wrong)
            .unwrap_err()
            .to_string()
            .contains("does not fit"));
        let bad_class = ok.replace("slower", "quick");
        assert!(parse(&bad_class).is_err());
    }

    #[test]
    fn patterns_select_by_id_or_method() {
        let all = suite_cases().unwrap();
        assert_eq!(select(&all, Some("9")).unwrap().len(), 1);
        assert_eq!(
            select(&all, Some("C1")).unwrap()[0].method,
            "MinStack::push"
        );
        assert_eq!(select(&all, Some("treelist::*")).unwrap().len(), 2);
        assert_eq!(select(&all, Some("c1*")).unwrap().len(), 6);
        assert!(select(&all, Some("nothing-like-this")).is_err());
        assert_eq!(
            select(&all, Some("C*")).unwrap(),
            select(&all, Some("c*")).unwrap()
        );
        assert!(select(&all, Some("[")).is_err());
    }
}
