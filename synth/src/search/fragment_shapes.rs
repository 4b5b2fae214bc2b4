//! A fragment whose probe reached new code (`credit.rs`, `fragment_probe.rs`) is tried in the
//! growing shapes at once: in the program it was probed in, its literal becomes the fragment
//! repeated, the fragment repeated after another text, and the two interleaved in both
//! orders; the other text is the one the fragment followed in its probe (the literal's own)
//! and one drawn among the literal's fragments by credited weight.
//!
//! Why: a token's single use seldom shows a slow path; its repetition does, and often only
//! where the parser reads it inside something else (after text on the same line, between
//! words), not where a line begins. Left to the draws, a winner waits for a text mutation of
//! the right shape with the right partner on the right node; here its shapes run within a
//! round of its win, and the one that grows the cost is kept and scaled like any node.

use perfsyn_profiler_ipc::check::check;
use perfsyn_profiler_ipc::{Literal, Stmt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{Candidate, Search};
use crate::search::credit::Followup;
use crate::search::fresh::Choice;
use crate::search::mutate::{Mutation, OpKind, Operand};
use crate::search::text;

/// Candidates a strategy's round adds for winners (a winner gives up to seven).
pub const FOLLOWUPS_PER_ROUND: usize = 8;

impl Search<'_> {
    /// Up to about `k` candidates that grow the fragments that won most recently (see the
    /// module doc). Empty, and no random number drawn, while no fragment waits.
    pub fn fragment_followups(&mut self, k: usize) -> Vec<Candidate> {
        let mut out = Vec::new();
        while out.len() < k {
            let Some(w) = self.cfg.mutation.credit.next_winner() else {
                break;
            };
            out.extend(self.shapes_of(&w));
        }
        out
    }

    /// The growing shapes of `w.fragment` in the literal `w.at` of `w.node`'s program.
    fn shapes_of(&mut self, w: &Followup) -> Vec<Candidate> {
        let Some(node) = self.nodes.get(w.node) else {
            return Vec::new();
        };
        let mut base = node.program.clone();
        let var = match base.body.get_mut(w.at) {
            Some(Stmt::Lit { out, value }) => {
                *value = Literal::Str(w.fragment.clone());
                *out
            }
            _ => return Vec::new(),
        };
        let mut rng = StdRng::seed_from_u64(self.rng.random());
        let mut choice = Choice::Random(&mut rng);
        let cfg = &self.cfg.mutation;
        let drawn = text::fragments(&base, &self.schema, cfg, w.at, "after", &mut choice)
            .and_then(|(_, o)| o);
        let mut partners: Vec<String> = w.partner.iter().chain(&drawn).cloned().collect();
        partners.retain(|o| !o.is_empty() && *o != w.fragment);
        partners.dedup();
        let n = cfg.loop_counts[cfg.loop_counts.len() / 2];
        let shapes = grown(&w.fragment, &partners, n, cfg.max_loop, cfg.span_shapes);
        let mut out: Vec<Candidate> = Vec::new();
        for (name, t) in shapes {
            let mut q = base.clone();
            if let Some(Stmt::Lit { value, .. }) = q.body.get_mut(w.at) {
                *value = t;
            }
            let fresh =
                !self.known.contains_key(&q.stable_hash()) && !out.iter().any(|c| c.program == q);
            if !fresh || check(&q, &self.schema).is_err() {
                continue;
            }
            out.push(Candidate {
                parent: w.node,
                mutation: Mutation {
                    op: OpKind::MutateValue,
                    target: format!("text:{name}"),
                    at: w.at,
                    inner: None,
                    operands: vec![Operand::Existing(var)],
                    count: n,
                },
                program: q,
            });
        }
        out
    }
}

/// The texts `frag` grows into, each with its shape's name: repeated `n` times, and for each
/// partner, repeated after it, and interleaved with it in both orders; and with `spans`,
/// `frag` (a whole value that reached new code: valid input) with each of its spans, and
/// pairs of spans, repeated in place, so it grows and stays valid.
pub fn grown(
    frag: &str,
    partners: &[String],
    n: u32,
    max: u32,
    spans: bool,
) -> Vec<(&'static str, Literal)> {
    let lit = |s: &str| Literal::Str(s.to_string());
    let mut shapes = vec![("repeat", lit(frag), None)];
    for o in partners {
        shapes.push(("after", lit(frag), Some(o.as_str())));
        shapes.push(("interleave", lit(o), Some(frag)));
        shapes.push(("interleave", lit(frag), Some(o.as_str())));
    }
    let mut out: Vec<(&'static str, Literal)> = shapes
        .into_iter()
        .filter_map(|(name, from, partner)| {
            Some((name, text::apply(&from, name, n, partner, max)?))
        })
        .collect();
    if spans {
        for name in [text::SPAN, text::SPAN_PAIR] {
            out.extend(
                text::in_place(frag, name, n, max)
                    .into_iter()
                    .map(|t| (name, t)),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use perfsyn_profiler_ipc::Literal;

    use super::grown;

    #[test]
    fn a_winner_grows_repeated_after_its_partner_and_interleaved_both_ways() {
        let texts: Vec<String> = grown("{%", &["x".to_string()], 3, 1 << 14, true)
            .into_iter()
            .map(|(_, t)| match t {
                Literal::Text { shape, a, b, n } => shape.eval(&a, &b, n),
                other => panic!("not a text: {other:?}"),
            })
            .collect();
        assert_eq!(texts, ["{%{%{%", "x{%{%{%", "x{%x{%x{%", "{%x{%x{%x"]);
    }
}
