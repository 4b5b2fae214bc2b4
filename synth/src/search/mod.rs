//! The mutation-tree search (Algorithm 2): strategies pick mutations, the engine applies
//! them, runs the mutants in batches, scores each path with the oracle, updates the learning
//! table L, and keeps the best programs.
//!
//! Feedback is consumed in submission order and every random choice comes from one seeded
//! generator, so with a program budget (`--max-programs`) the same seed gives the same best
//! program whatever the number of workers. With a time budget the number of programs, and
//! therefore the result, may vary.

pub mod aco;
pub mod astar;
pub mod credit;
pub mod crossover;
pub mod fragment_probe;
pub mod fragment_shapes;
pub mod fresh;
pub mod fuelcap;
pub mod grow;
pub mod handles;
#[cfg(test)]
mod handles_tests;
pub mod initial;
pub mod learn;
pub mod mined;
pub mod mutate;
pub mod novelty;
pub mod objective;
pub mod probe;
pub mod random;
pub mod sides;
pub mod spans;
pub mod text;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::Result;
use perfsyn_profiler_ipc::check::check;
use perfsyn_profiler_ipc::{ApiSchema, Feedback, Outcome, Program};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::run::exec::Executor;
use crate::search::fresh::MutationConfig;
use crate::search::learn::LearningTable;
use crate::search::mutate::{apply, mutations, Mutation};
use crate::search::objective::{Objective, Obs};
use novelty::Archive;

/// Candidates per executor call inside [`Search::evaluate`] (the time budget is checked
/// between calls). Chunking never changes results under a program budget.
pub const EVAL_CHUNK: usize = 16;

/// Candidates per executor call under a time budget `budget` of which `elapsed` is spent
/// over `run` programs: the whole batch while the time left is at least four times what
/// the batch should take at the rate so far, else [`EVAL_CHUNK`].
fn time_chunk(batch: usize, elapsed: Duration, budget: Duration, run: u64) -> usize {
    if run == 0 {
        return EVAL_CHUNK.min(batch.max(1));
    }
    let expected = elapsed.mul_f64(batch as f64 / run as f64);
    if budget.saturating_sub(elapsed) >= expected * 4 {
        batch.max(1)
    } else {
        EVAL_CHUNK
    }
}

/// Which measured figure is the cost.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Metric {
    /// Edges plus bytes moved / 8 (deterministic; the default).
    Cost,
    Edges,
    BytesMoved,
    ProbeOps,
    Allocs,
    /// Thread CPU time (not deterministic).
    CpuNs,
    /// Wall-clock time (not deterministic).
    WallNs,
}

impl Metric {
    /// The metric's value in `f`.
    pub fn of(self, f: &Feedback) -> f64 {
        let c = &f.cost;
        (match self {
            Metric::Cost => c.combined(),
            Metric::Edges => c.edges,
            Metric::BytesMoved => c.bytes_moved,
            Metric::ProbeOps => c.probe_ops,
            Metric::Allocs => c.allocs,
            Metric::CpuNs => c.cpu_ns,
            Metric::WallNs => c.wall_ns,
        }) as f64
    }

    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Cost => "cost",
            Metric::Edges => "edges",
            Metric::BytesMoved => "bytes_moved",
            Metric::ProbeOps => "probe_ops",
            Metric::Allocs => "allocs",
            Metric::CpuNs => "cpu_ns",
            Metric::WallNs => "wall_ns",
        }
    }
}

/// When the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Time(Duration),
    Programs(u64),
}

/// Search settings.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub budget: Budget,
    pub seed: u64,
    pub metric: Metric,
    /// maxMuts: the deepest mutation path (default 32).
    pub max_depth: u32,
    pub mutation: MutationConfig,
    /// How many programs to keep as the best (k_best).
    pub keep_best: usize,
    /// Programs whose input is larger than this are not kept: a bottleneck shows long
    /// before, and larger inputs only spend the budget (and the workers' memory).
    pub max_input_size: u64,
    /// Time to expose (relative oracle): when set to t_rel, [`Stats::expose_ms`] records the
    /// first moment the best program's cost ratio new/old passes t_rel in either direction.
    pub expose_ratio: Option<f64>,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            budget: Budget::Time(Duration::from_secs(20)),
            seed: 0,
            metric: Metric::Cost,
            max_depth: 32,
            mutation: MutationConfig::default(),
            keep_best: 5,
            max_input_size: 1 << 16,
            expose_ratio: None,
        }
    }
}

/// A node of the mutation tree: a program that ran to completion.
#[derive(Clone, Debug)]
pub struct Node {
    pub program: Program,
    pub parent: Option<usize>,
    pub mutation: Option<Mutation>,
    pub depth: u32,
    pub feedback: Feedback,
    pub feedback_ref: Option<Feedback>,
    pub obs: Obs,
    pub score: f64,
    /// Whether the node became the elite of its niche when it ran (see [`novelty`]).
    pub novel: bool,
    /// How many times a strategy chose this node for expansion through the archive.
    pub expansions: u32,
    /// Milliseconds from the start of the search until this node's program had run.
    pub found_ms: u64,
}

/// What applying a mutation gave.
#[derive(Clone, Debug)]
pub enum Mutant {
    /// A new program, to run.
    New(Candidate),
    /// A program already run: its node, or `None` if it failed.
    Known(Option<usize>),
    /// Not applicable or ill-formed.
    Rejected,
}

/// A mutant waiting to run.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub parent: usize,
    pub mutation: Mutation,
    pub program: Program,
}

/// Counts of what the search ran.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Stats {
    pub programs: u64,
    pub valid: u64,
    pub panics: u64,
    pub crashes: u64,
    pub timeouts: u64,
    pub oom: u64,
    pub invalid: u64,
    pub elapsed_ms: u64,
    /// Programs rejected before running (checker or closed set).
    pub rejected: u64,
    /// Milliseconds until the best program first passed `SearchConfig::expose_ratio`.
    #[serde(default)]
    pub expose_ms: Option<u64>,
    /// Milliseconds until any program first cost `SearchConfig::expose_ratio` times more on
    /// the version under analysis than on the reference (a regression passing t_rel).
    #[serde(default)]
    pub expose_slower_ms: Option<u64>,
    /// The same for a program costing that many times less (an improvement).
    #[serde(default)]
    pub expose_faster_ms: Option<u64>,
    /// (milliseconds, score) each time the best score improved, root first.
    #[serde(default)]
    pub best_history: Vec<(u64, f64)>,
    /// Distinct edge-hit counts among the valid programs: a cheap stand-in for the paths
    /// the search reached (the worker reports how many coverage edges a call hit, not which
    /// ones, so two programs with different counts took different paths through the code).
    #[serde(default)]
    pub distinct_edge_counts: u64,
}

/// Live progress, for the CLI's progress line.
#[derive(Clone, Debug)]
pub struct Progress {
    pub programs: u64,
    pub valid: u64,
    pub best_score: f64,
    pub elapsed: Duration,
    /// What the run is doing: the search reports `Search`; `explore` then announces its
    /// later phases once each, with the search's last figures.
    pub phase: Phase,
}

/// The phase of an explore a [`Progress`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Search,
    /// Sweeping sizes, fitting and shrinking the best program.
    Judge,
    /// Timing the top programs on the uninstrumented worker.
    Confirm,
}

/// The state shared by all strategies.
pub struct Search<'a> {
    exec: &'a mut dyn Executor,
    oracle: &'a dyn Objective,
    pub schema: ApiSchema,
    pub cfg: SearchConfig,
    pub nodes: Vec<Node>,
    pub learn: LearningTable,
    pub rng: StdRng,
    pub stats: Stats,
    /// Program hash -> node (None: ran but failed). The closed set of A*.
    known: HashMap<u64, Option<usize>>,
    /// The edge-hit counts of valid programs seen so far ([`Stats::distinct_edge_counts`]).
    edge_counts: std::collections::HashSet<u64>,
    /// Relative oracle: every program also runs on the old version of the pair executor.
    relative: bool,
    start: Instant,
    progress: Option<Box<dyn FnMut(&Progress) + 'a>>,
    /// Index of the best node so far.
    pub best: usize,
    /// The elite of each niche (see [`novelty`]).
    pub archive: Archive,
    /// The fuel of new programs (see [`crate::search::fuelcap`]).
    fuel_cap: crate::search::fuelcap::FuelCap,
    /// Nodes that reached new coverage, for crossovers (see [`crossover`]).
    pub explorers: crossover::Explorers,
}

impl<'a> Search<'a> {
    /// A search from the initial program `p0` (which must run: see `init`). `relative`: each
    /// program also runs on the old version of `exec`, a pair (see `pair.rs`).
    pub fn new(
        exec: &'a mut dyn Executor,
        oracle: &'a dyn Objective,
        cfg: SearchConfig,
        relative: bool,
    ) -> Search<'a> {
        let schema = exec.schema().clone();
        Search {
            exec,
            oracle,
            schema,
            rng: StdRng::seed_from_u64(cfg.seed),
            cfg,
            nodes: Vec::new(),
            learn: LearningTable::default(),
            stats: Stats::default(),
            known: HashMap::new(),
            edge_counts: std::collections::HashSet::new(),
            relative,
            start: Instant::now(),
            progress: None,
            best: 0,
            archive: Archive::default(),
            fuel_cap: crate::search::fuelcap::FuelCap::from_env(),
            explorers: crossover::Explorers::default(),
        }
    }

    /// Whether every program also runs on the old version (the relative oracle).
    pub fn is_relative(&self) -> bool {
        self.relative
    }

    /// Reports progress to `f` after every batch.
    pub fn on_progress(&mut self, f: impl FnMut(&Progress) + 'a) {
        self.progress = Some(Box::new(f));
    }

    /// Runs the root program; `false` if it does not complete.
    pub fn root(&mut self, p0: Program) -> Result<bool> {
        self.start = Instant::now();
        let fb = self.execute(std::slice::from_ref(&p0))?;
        let (f, r) = fb.into_iter().next().expect("one");
        if !self.ok(&f, r.as_ref()) {
            return Ok(false);
        }
        self.known.insert(p0.stable_hash(), Some(0));
        let obs = self.obs(&f, r.as_ref());
        let score = self.oracle.score(&[obs]);
        self.nodes.push(Node {
            program: p0,
            parent: None,
            mutation: None,
            depth: 0,
            feedback: f,
            feedback_ref: r,
            obs,
            score,
            novel: true,
            expansions: 0,
            found_ms: self.start.elapsed().as_millis() as u64,
        });
        self.archive.offer(&obs, 0);
        let (edges, edges_ref) = (self.nodes[0].feedback.cost.edges, r_edges(&self.nodes[0]));
        self.explorers.offer(0, edges, edges_ref);
        self.best = 0;
        self.record_best();
        Ok(true)
    }

    /// Time-to-expose bookkeeping when the best node changes.
    fn record_best(&mut self) {
        let ms = self.start.elapsed().as_millis() as u64;
        let n = &self.nodes[self.best];
        self.stats.best_history.push((ms, n.score));
        if let (Some(t), None) = (self.cfg.expose_ratio, self.stats.expose_ms) {
            let r = crate::search::objective::ratio(&n.obs);
            if n.obs.cost_ref.is_some() && (r >= t || r <= 1.0 / t) {
                self.stats.expose_ms = Some(ms);
            }
        }
    }

    /// Whether budget remains.
    pub fn has_budget(&self) -> bool {
        match self.cfg.budget {
            Budget::Time(d) => self.start.elapsed() < d,
            Budget::Programs(n) => self.stats.programs < n,
        }
    }

    /// Runs the search with `strategy` until the budget is spent.
    pub fn run(&mut self, strategy: &mut dyn Strategy) -> Result<()> {
        probe::run(self)?;
        let mut idle = 0;
        while self.has_budget() {
            let before = self.stats.programs;
            strategy.round(self)?;
            if self.stats.programs == before {
                idle += 1;
                if idle > 50 {
                    break; // the strategy cannot propose anything new
                }
            } else {
                idle = 0;
            }
        }
        self.stats.elapsed_ms = self.start.elapsed().as_millis() as u64;
        let end = perfsyn_profiler_ipc::shm::monotonic_ns();
        perfsyn_profiler_ipc::trace::phase(
            "search",
            end.saturating_sub(self.start.elapsed().as_nanos() as u64),
            end,
        );
        Ok(())
    }

    /// The nodes along the path from the root to `node`, root first.
    fn path(&self, node: usize) -> Vec<usize> {
        let mut v = Vec::new();
        let mut cur = Some(node);
        while let Some(i) = cur {
            v.push(i);
            cur = self.nodes[i].parent;
        }
        v.reverse();
        v
    }

    /// The observations along the path from the root to `node`.
    pub fn path_obs(&self, node: usize) -> Vec<Obs> {
        self.path(node)
            .into_iter()
            .map(|i| self.nodes[i].obs)
            .collect()
    }

    /// The programs along the path from the root to `node`, root first.
    pub fn path_programs(&self, node: usize) -> Vec<Program> {
        self.path(node)
            .into_iter()
            .map(|i| self.nodes[i].program.clone())
            .collect()
    }

    /// The mutations along the path from the root to `node`.
    pub fn path_mutations(&self, node: usize) -> Vec<Mutation> {
        self.path(node)
            .into_iter()
            .filter_map(|i| self.nodes[i].mutation.clone())
            .collect()
    }

    /// The mutations applicable to `node`'s program.
    pub fn mutations_of(&self, node: usize) -> Vec<Mutation> {
        if self.nodes[node].depth >= self.cfg.max_depth {
            return Vec::new();
        }
        mutations(&self.nodes[node].program, &self.schema, &self.cfg.mutation)
    }

    /// Applies `m` to `node`'s program.
    pub fn mutant(&mut self, node: usize, m: &Mutation) -> Mutant {
        let mut rng = StdRng::seed_from_u64(self.rng.random());
        let p = apply(
            &self.nodes[node].program,
            m,
            &self.schema,
            &self.cfg.mutation,
            &mut rng,
        );
        let p = match p {
            Some(p) if check(&p, &self.schema).is_ok() => p,
            _ => {
                self.stats.rejected += 1;
                return Mutant::Rejected;
            }
        };
        if let Some(k) = self.known.get(&p.stable_hash()) {
            return Mutant::Known(*k);
        }
        Mutant::New(Candidate {
            parent: node,
            mutation: m.clone(),
            program: p,
        })
    }

    /// Runs candidates (truncated to the remaining program budget) and returns, per
    /// candidate run, the new node's index or `None` if the program failed.
    pub fn evaluate(&mut self, mut cands: Vec<Candidate>) -> Result<Vec<Option<usize>>> {
        if let Budget::Programs(n) = self.cfg.budget {
            let left = n.saturating_sub(self.stats.programs) as usize;
            cands.truncate(left);
        }
        if cands.is_empty() {
            return Ok(Vec::new());
        }
        // One call when possible, so that the pool balances the whole batch over the workers
        // (see `perfsyn_profiler_ipc::schedule`). A program budget is already applied above.
        // Under a time budget, small chunks near its end, so that it is not overrun by a
        // batch of slow programs.
        let chunk = match self.cfg.budget {
            Budget::Time(d) => {
                time_chunk(cands.len(), self.start.elapsed(), d, self.stats.programs)
            }
            Budget::Programs(_) => cands.len(),
        };
        let mut fb = Vec::with_capacity(cands.len());
        for chunk in cands.chunks(chunk) {
            if !fb.is_empty() && !self.has_budget() {
                break;
            }
            let programs: Vec<Program> = chunk.iter().map(|c| c.program.clone()).collect();
            fb.extend(self.execute(&programs)?);
        }
        cands.truncate(fb.len());
        let mut out = Vec::with_capacity(cands.len());
        for (c, (f, r)) in cands.into_iter().zip(fb) {
            let hash = c.program.stable_hash();
            let used = if self.cfg.mutation.credit.enabled {
                credit::introduced(&self.nodes[c.parent].program, &c.program)
            } else {
                Vec::new()
            };
            if !self.ok(&f, r.as_ref()) {
                self.learn.record(c.mutation.key(), false);
                self.cfg.mutation.credit.record(&used, false);
                self.known.insert(hash, None);
                out.push(None);
                continue;
            }
            let obs = self.obs(&f, r.as_ref());
            let mut path = self.path_obs(c.parent);
            path.push(obs);
            let score = self.oracle.score(&path);
            let improved = score > self.nodes[c.parent].score;
            self.learn.record(c.mutation.key(), improved);
            let depth = self.nodes[c.parent].depth + 1;
            self.nodes.push(Node {
                program: c.program,
                parent: Some(c.parent),
                mutation: Some(c.mutation),
                depth,
                feedback: f,
                feedback_ref: r,
                obs,
                score,
                novel: false,
                expansions: 0,
                found_ms: self.start.elapsed().as_millis() as u64,
            });
            let id = self.nodes.len() - 1;
            self.nodes[id].novel = self.archive.offer(&obs, id);
            let (edges, edges_ref) = (self.nodes[id].feedback.cost.edges, r_edges(&self.nodes[id]));
            let new_coverage = self.explorers.offer(id, edges, edges_ref);
            // A fragment's use wins when it reached new coverage or raised the cost to the
            // best so far (see `credit.rs`).
            let won = new_coverage || score > self.nodes[self.best].score;
            self.cfg.mutation.credit.record(&used, won);
            if let (Some(t), Some(_)) = (self.cfg.expose_ratio, obs.cost_ref) {
                let r = crate::search::objective::ratio(&obs);
                let ms = self.nodes[id].found_ms;
                if r >= t && self.stats.expose_slower_ms.is_none() {
                    self.stats.expose_slower_ms = Some(ms);
                }
                if r <= 1.0 / t && self.stats.expose_faster_ms.is_none() {
                    self.stats.expose_faster_ms = Some(ms);
                }
            }
            self.known.insert(hash, Some(id));
            if score > self.nodes[self.best].score {
                self.best = id;
                self.record_best();
            }
            out.push(Some(id));
        }
        if let Some(p) = self.progress.as_mut() {
            p(&Progress {
                programs: self.stats.programs,
                valid: self.stats.valid,
                best_score: self.nodes[self.best].score,
                elapsed: self.start.elapsed(),
                phase: Phase::Search,
            });
        }
        Ok(out)
    }

    /// A niche elite to expand next, even if its score is below its parent's: the one
    /// expanded least often through the archive (ties broken at random), among those with
    /// mutations left; its expansion count is incremented. `None` when there is none.
    pub fn novelty_pick(&mut self) -> Option<usize> {
        let elites: Vec<usize> = self
            .archive
            .elites()
            .into_iter()
            .filter(|&id| self.nodes[id].depth < self.cfg.max_depth)
            .collect();
        let least = elites.iter().map(|&id| self.nodes[id].expansions).min()?;
        let fewest: Vec<usize> = elites
            .into_iter()
            .filter(|&id| self.nodes[id].expansions == least)
            .collect();
        let id = fewest[self.rng.random_range(0..fewest.len())];
        self.nodes[id].expansions += 1;
        Some(id)
    }

    /// The best `k` nodes by score (ties: fewer mutations first).
    pub fn best_nodes(&self, k: usize) -> Vec<usize> {
        let mut ids: Vec<usize> = (0..self.nodes.len()).collect();
        ids.sort_by(|a, b| {
            self.nodes[*b]
                .score
                .total_cmp(&self.nodes[*a].score)
                .then(self.nodes[*a].depth.cmp(&self.nodes[*b].depth))
                .then(a.cmp(b))
        });
        ids.truncate(k);
        ids
    }

    /// Runs programs (on both versions for a relative search) and counts outcomes.
    fn execute(&mut self, programs: &[Program]) -> Result<Vec<(Feedback, Option<Feedback>)>> {
        let cap = self.fuel_cap.cap();
        let (main, refs): (Vec<Feedback>, Vec<Feedback>) = if self.relative {
            crate::run::exec::run_pairs_capped(self.exec, programs, cap)?
                .into_iter()
                .unzip()
        } else {
            let fb = match cap {
                Some(fuel) => self.exec.run_capped(programs, fuel)?,
                None => self.exec.run(programs)?,
            };
            anyhow::ensure!(fb.len() == programs.len(), "executor lost feedback");
            (fb, Vec::new())
        };
        for f in main.iter().chain(&refs) {
            self.fuel_cap.observe(f);
        }
        let mut out = Vec::with_capacity(programs.len());
        for (i, f) in main.iter().enumerate() {
            let r = (!refs.is_empty()).then(|| refs[i].clone());
            self.stats.programs += 1;
            for x in std::iter::once(f).chain(r.as_ref()) {
                match x.outcome {
                    Outcome::Ok => {}
                    Outcome::Panic { .. } => self.stats.panics += 1,
                    Outcome::Crash { .. } | Outcome::Exited { .. } => self.stats.crashes += 1,
                    Outcome::Timeout => self.stats.timeouts += 1,
                    Outcome::OutOfMemory => self.stats.oom += 1,
                    Outcome::Invalid { .. } => self.stats.invalid += 1,
                }
            }
            if f.is_ok() && r.as_ref().is_none_or(|r| r.is_ok()) {
                self.stats.valid += 1;
                self.edge_counts.insert(f.cost.edges);
                self.stats.distinct_edge_counts = self.edge_counts.len() as u64;
            }
            out.push((f.clone(), r));
        }
        Ok(out)
    }

    fn ok(&self, f: &Feedback, r: Option<&Feedback>) -> bool {
        f.is_ok()
            && f.calls > 0
            && f.input_size <= self.cfg.max_input_size
            && r.is_none_or(|r| r.is_ok() && r.calls > 0)
    }

    fn obs(&self, f: &Feedback, r: Option<&Feedback>) -> Obs {
        Obs {
            size: f.input_size,
            cost: self.cfg.metric.of(f),
            cost_ref: r.map(|r| self.cfg.metric.of(r)),
        }
    }
}

/// The edges of the calls under test on the old version of a pair, for a relative node.
fn r_edges(n: &Node) -> Option<u64> {
    n.feedback_ref.as_ref().map(|r| r.cost.edges)
}

/// A search strategy: decides which mutations to try next.
///
/// Protocol: each `round` proposes candidates from existing nodes (through
/// [`Search::mutations_of`] and [`Search::mutant`]) and evaluates them with
/// [`Search::evaluate`]; the engine calls `round` until the budget is spent. A round that
/// evaluates nothing is allowed (for example, every proposal was already seen), but a
/// strategy must not loop without evaluating forever: after 50 idle rounds the engine stops.
pub trait Strategy {
    /// Name as on the command line.
    fn name(&self) -> &'static str;
    /// One round of proposals and evaluations.
    fn round(&mut self, search: &mut Search<'_>) -> Result<()>;
}

/// Which strategy to use.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
    strum::EnumMessage,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum StrategyKind {
    Astar,
    Aco,
    Random,
}

impl StrategyKind {
    /// A fresh strategy of this kind.
    pub fn build(self) -> Box<dyn Strategy> {
        match self {
            StrategyKind::Astar => Box::new(astar::AStar::default()),
            StrategyKind::Aco => Box::new(aco::Aco::default()),
            StrategyKind::Random => Box::new(random::RandomWalk::default()),
        }
    }

    /// Name as on the command line.
    pub fn name(self) -> &'static str {
        match self {
            StrategyKind::Astar => "astar",
            StrategyKind::Aco => "aco",
            StrategyKind::Random => "random",
        }
    }
}

/// Weighted sampling without replacement (Efraimidis-Spirakis): up to `k` indices of
/// `weights`, heavier ones more likely first.
pub fn sample_weighted(rng: &mut StdRng, weights: &[f64], k: usize) -> Vec<usize> {
    let mut keyed: Vec<(f64, usize)> = weights
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let u: f64 = rng.random_range(1e-12..1.0);
            (u.powf(1.0 / w.max(1e-9)), i)
        })
        .collect();
    keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().take(k).map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_budget_runs_whole_batches_until_its_end_nears() {
        let s = Duration::from_secs;
        // 100 programs in 1 s: a batch of 32 takes about 0.32 s.
        assert_eq!(time_chunk(32, s(1), s(20), 100), 32);
        assert_eq!(time_chunk(32, s(1), s(2), 100), EVAL_CHUNK);
        // Nothing run yet: no rate to go by.
        assert_eq!(time_chunk(32, Duration::ZERO, s(20), 0), EVAL_CHUNK);
        assert_eq!(time_chunk(4, Duration::ZERO, s(20), 0), 4);
    }
}
