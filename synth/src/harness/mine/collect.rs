//! The static analysis of TestMiner (section 4.2.1): the literal arguments of call sites in a
//! crate's own tests, with the words of the callee as their context.
//!
//! Read with syn: every file of `tests/`, `examples/` and `benches/`; in `src/`, the
//! `#[cfg(test)]` modules, the `#[test]` functions and the code blocks of doc comments. A
//! call site is a path call (`TagParser::parse("<a>")`: context `tag parser parse`) or a
//! method call (`parser.feed("<a>")`: the method's words and the receiver's, when the
//! receiver is a name or a path call). Macro arguments (`assert_eq!(parse("x"), ..)`) are
//! read as expressions. An argument is a literal when it is one, a reference to one, one
//! turned into an owned value (`"x".to_string()`, `String::from("x")`, `.into()`), or a name
//! a `let` of the same function bound to a literal (the one propagation worth its cost:
//! tests name their inputs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use syn::visit::Visit;

use crate::harness::legacy_syntax::parse_file;
use crate::harness::mine::words::{bag, Bag};

/// A mined literal value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MinedValue {
    Str(String),
    Bytes(Vec<u8>),
    Int(i64),
    Char(char),
}

/// A context-value pair (Definition 13): the callee's words and one literal argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub context: Bag,
    pub value: MinedValue,
}

/// Every context-value pair of the crate at `dir`, in file order (files sorted by path).
pub fn crate_pairs(dir: &Path) -> Vec<Pair> {
    let mut out = Vec::new();
    let files: Vec<syn::File> = ["tests", "examples", "benches"]
        .iter()
        .flat_map(|sub| rust_files(&dir.join(sub)))
        .filter_map(|f| read(&f).and_then(|t| parse_file(&t).ok()))
        .collect();
    // A test helper is often in a file of its own (`tests/common/mod.rs`, a suite's
    // `lib.rs`) and called from the others: the helpers of all test files together.
    let shared = helpers(&files);
    for file in &files {
        let mut c = Collector {
            helpers: shared.clone(),
            ..Collector::new(true)
        };
        c.visit_file(file);
        out.extend(c.pairs);
    }
    out.extend(source_pairs(&dir.join("src")));
    out
}

/// The pairs of the library sources under `src`: its `#[cfg(test)]` modules, `#[test]`
/// functions and doc tests.
pub fn source_pairs(src: &Path) -> Vec<Pair> {
    let mut out = Vec::new();
    for f in rust_files(src) {
        let Some(text) = read(&f) else { continue };
        if let Ok(file) = parse_file(&text) {
            let mut c = Collector::for_file(false, &file);
            c.visit_file(&file);
            out.extend(c.pairs);
        }
        out.extend(doc_test_pairs(&text));
    }
    out
}

/// The pairs of the code blocks in the doc comments (`///`, `//!`) of `text`.
pub fn doc_test_pairs(text: &str) -> Vec<Pair> {
    let mut out = Vec::new();
    for block in doc_blocks(text) {
        let parsed = syn::parse_file(&block)
            .ok()
            .filter(|f| !f.items.is_empty())
            .or_else(|| syn::parse_file(&format!("fn __doc_test() {{\n{block}\n}}")).ok());
        if let Some(file) = parsed {
            let mut c = Collector::for_file(true, &file);
            c.visit_file(&file);
            out.extend(c.pairs);
        }
    }
    out
}

/// The Rust code blocks of the doc comments of `text`: fenced with no language, `rust` or a
/// doc-test attribute, hidden lines (`# `) kept as the compiler keeps them.
fn doc_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        let Some(doc) = t.strip_prefix("///").or_else(|| t.strip_prefix("//!")) else {
            cur = None;
            continue;
        };
        let doc = doc.strip_prefix(' ').unwrap_or(doc);
        if let Some(info) = doc.trim_start().strip_prefix("```") {
            match cur.take() {
                Some(code) => out.push(code),
                None if is_rust_block(info) => cur = Some(String::new()),
                None => cur = None,
            }
            continue;
        }
        if let Some(code) = cur.as_mut() {
            let l = doc
                .strip_prefix("# ")
                .unwrap_or(if doc == "#" { "" } else { doc });
            code.push_str(l);
            code.push('\n');
        }
    }
    out
}

fn is_rust_block(info: &str) -> bool {
    info.split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .all(|w| {
            matches!(
                w,
                "rust" | "ignore" | "no_run" | "should_panic" | "edition2018" | "edition2021"
            ) || w.starts_with("edition")
        })
}

fn read(f: &Path) -> Option<String> {
    std::fs::read_to_string(f).ok()
}

/// The `.rs` files under `dir`, sorted, recursively.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The visitor: collects pairs while inside test code.
struct Collector {
    /// Depth of test code around the visitor (a file of `tests/` starts inside).
    test_depth: u32,
    /// Literals bound by `let` in the current function.
    locals: HashMap<String, MinedValue>,
    /// The file's helper functions: per parameter, the contexts of the calls it is passed
    /// to ([`helpers`]).
    helpers: Helpers,
    pairs: Vec<Pair>,
}

impl Collector {
    fn new(all_test: bool) -> Collector {
        Collector {
            test_depth: u32::from(all_test),
            locals: HashMap::new(),
            helpers: Helpers::new(),
            pairs: Vec::new(),
        }
    }

    /// A collector for `file`, knowing its helper functions.
    fn for_file(all_test: bool, file: &syn::File) -> Collector {
        Collector {
            helpers: helpers(std::slice::from_ref(file)),
            ..Collector::new(all_test)
        }
    }

    /// The pairs of a call to a helper function of the file: each literal argument in the
    /// contexts of the calls its parameter is passed to.
    fn record_helper(&mut self, name: &str, args: &[&syn::Expr]) {
        if self.test_depth == 0 {
            return;
        }
        let Some(params) = self.helpers.get(name).cloned() else {
            return;
        };
        for (a, contexts) in args.iter().zip(params) {
            if let Some(value) = self.literal(a) {
                for context in contexts {
                    self.pairs.push(Pair {
                        context,
                        value: value.clone(),
                    });
                }
            }
        }
    }

    fn record<'a>(&mut self, words: Vec<String>, args: impl Iterator<Item = &'a syn::Expr>) {
        if self.test_depth == 0 {
            return;
        }
        let values: Vec<MinedValue> = args.filter_map(|a| self.literal(a)).collect();
        if values.is_empty() {
            return;
        }
        let context = bag(words.iter().map(String::as_str));
        if context.is_empty() {
            return;
        }
        for value in values {
            self.pairs.push(Pair {
                context: context.clone(),
                value,
            });
        }
    }

    /// The literal `e` stands for, if it stands for one.
    fn literal(&self, e: &syn::Expr) -> Option<MinedValue> {
        match e {
            syn::Expr::Lit(l) => lit_value(&l.lit, false),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
                syn::Expr::Lit(l) => lit_value(&l.lit, true),
                _ => None,
            },
            syn::Expr::Reference(r) => self.literal(&r.expr),
            syn::Expr::Paren(p) => self.literal(&p.expr),
            syn::Expr::MethodCall(m)
                if m.args.is_empty()
                    && matches!(
                        m.method.to_string().as_str(),
                        "to_string" | "to_owned" | "into" | "as_bytes" | "as_str" | "to_vec"
                    ) =>
            {
                self.literal(&m.receiver)
            }
            syn::Expr::Call(c) if c.args.len() == 1 => match &*c.func {
                syn::Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from") => {
                    self.literal(&c.args[0])
                }
                _ => None,
            },
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| self.locals.get(&i.to_string()))
                .cloned(),
            _ => None,
        }
    }
}

fn lit_value(l: &syn::Lit, negative: bool) -> Option<MinedValue> {
    Some(match l {
        syn::Lit::Str(s) if !negative => MinedValue::Str(s.value()),
        syn::Lit::ByteStr(b) if !negative => MinedValue::Bytes(b.value()),
        syn::Lit::Char(c) if !negative => MinedValue::Char(c.value()),
        syn::Lit::Int(i) => {
            let v: i64 = i.base10_parse().ok()?;
            MinedValue::Int(if negative { -v } else { v })
        }
        _ => return None,
    })
}

/// The words of an expression used as a receiver: a name, a field, or a path call's path.
fn receiver_words(e: &syn::Expr) -> Vec<String> {
    match e {
        syn::Expr::Path(p) => path_words(&p.path),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => vec![n.to_string()],
            syn::Member::Unnamed(_) => vec![],
        },
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => path_words(&p.path),
            _ => vec![],
        },
        syn::Expr::Reference(r) => receiver_words(&r.expr),
        syn::Expr::Paren(p) => receiver_words(&p.expr),
        _ => vec![],
    }
}

/// The words of a path, without `crate`, `self` and `super` (they say where, not what).
fn path_words(p: &syn::Path) -> Vec<String> {
    p.segments
        .iter()
        .map(|s| s.ident.to_string())
        .filter(|w| !matches!(w.as_str(), "crate" | "self" | "super" | "Self"))
        .collect()
}

fn is_test_attr(a: &syn::Attribute) -> bool {
    let p = a.path();
    if p.is_ident("test") || p.segments.last().is_some_and(|s| s.ident == "test") {
        return true;
    }
    p.is_ident("cfg") && {
        let t = a.meta.require_list().map(|l| l.tokens.to_string());
        t.is_ok_and(|t| {
            t.split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "test")
        })
    }
}

/// Per helper function of a file (by name), per parameter, the contexts of the calls the
/// parameter is passed to.
type Helpers = HashMap<String, Vec<Vec<Bag>>>;

/// The helper functions of `files`: tests name their inputs through one, as in
/// `fn check(input: &str, want: usize) { assert_eq!(Parser::new(input).count(), want) }`
/// called as `check("<a>", 1)`, so the literal's context is the call its parameter reaches
/// (`parser new`), not `check`. Functions anywhere in the file (a test module's too), one
/// level of helpers, then a second for a helper that calls another. Two functions of one
/// name (in two files) pool their contexts.
fn helpers(files: &[syn::File]) -> Helpers {
    let mut fns = Vec::new();
    for file in files {
        FnItems(&mut fns).visit_file(file);
    }
    let mut out = Helpers::new();
    for _ in 0..2 {
        let mut next = Helpers::new();
        for f in &fns {
            let params: Vec<String> = f
                .sig
                .inputs
                .iter()
                .map(|a| match a {
                    syn::FnArg::Typed(t) => match &*t.pat {
                        syn::Pat::Ident(p) => p.ident.to_string(),
                        _ => String::new(),
                    },
                    syn::FnArg::Receiver(_) => String::new(),
                })
                .collect();
            if params.iter().all(String::is_empty) {
                continue;
            }
            let mut flows = ParamFlows {
                params: &params,
                helpers: &out,
                contexts: vec![Vec::new(); params.len()],
            };
            flows.visit_block(&f.block);
            if flows.contexts.iter().any(|c| !c.is_empty()) {
                let slot = next
                    .entry(f.sig.ident.to_string())
                    .or_insert_with(|| vec![Vec::new(); params.len()]);
                for (k, cs) in flows.contexts.into_iter().enumerate() {
                    if let Some(have) = slot.get_mut(k) {
                        for c in cs {
                            if !have.contains(&c) {
                                have.push(c);
                            }
                        }
                    }
                }
            }
        }
        out = next;
    }
    out
}

/// The name of the function a path calls when it may be a helper: `check(..)`, or
/// `common::check(..)` through modules (lowercase segments), never a type's function
/// (`Parser::new`).
fn helper_name(p: &syn::Path) -> Option<String> {
    let (last, modules) = p
        .segments
        .iter()
        .collect::<Vec<_>>()
        .split_last()
        .map(|(l, m)| (*l, m.to_vec()))?;
    let module = |s: &&syn::PathSegment| {
        s.ident
            .to_string()
            .starts_with(|c: char| c.is_lowercase() || c == '_')
    };
    modules.iter().all(module).then(|| last.ident.to_string())
}

/// Collects the free functions of a file, in modules too.
struct FnItems<'a>(&'a mut Vec<syn::ItemFn>);

impl<'ast> Visit<'ast> for FnItems<'_> {
    fn visit_item_fn(&mut self, i: &'ast syn::ItemFn) {
        self.0.push(i.clone());
    }
}

/// The contexts of the calls a function's parameters are passed to.
struct ParamFlows<'a> {
    params: &'a [String],
    helpers: &'a Helpers,
    contexts: Vec<Vec<Bag>>,
}

impl ParamFlows<'_> {
    fn note<'e>(&mut self, words: Vec<String>, args: impl Iterator<Item = &'e syn::Expr>) {
        let context = bag(words.iter().map(String::as_str));
        for a in args {
            if let Some(k) = param_of(a).and_then(|n| self.params.iter().position(|p| *p == n)) {
                if !context.is_empty() && !self.contexts[k].contains(&context) {
                    self.contexts[k].push(context.clone());
                }
            }
        }
    }
}

/// The name `e` passes on: a name, borrowed or converted (`&s`, `s.as_bytes()`, `s.into()`).
fn param_of(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        syn::Expr::Reference(r) => param_of(&r.expr),
        syn::Expr::Paren(p) => param_of(&p.expr),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && matches!(
                    m.method.to_string().as_str(),
                    "to_string" | "to_owned" | "into" | "as_bytes" | "as_str" | "to_vec"
                ) =>
        {
            param_of(&m.receiver)
        }
        _ => None,
    }
}

impl<'ast> Visit<'ast> for ParamFlows<'_> {
    fn visit_expr_call(&mut self, i: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*i.func {
            self.note(path_words(&p.path), i.args.iter());
            // A helper calling a helper: its parameter reaches that one's contexts.
            if let Some(inner) = helper_name(&p.path).and_then(|n| self.helpers.get(&n)) {
                for (a, cs) in i.args.iter().zip(inner) {
                    if let Some(k) =
                        param_of(a).and_then(|n| self.params.iter().position(|p| *p == n))
                    {
                        for c in cs {
                            if !self.contexts[k].contains(c) {
                                self.contexts[k].push(c.clone());
                            }
                        }
                    }
                }
            }
        }
        syn::visit::visit_expr_call(self, i);
    }

    fn visit_expr_method_call(&mut self, i: &'ast syn::ExprMethodCall) {
        let mut words = receiver_words(&i.receiver);
        words.push(i.method.to_string());
        self.note(words, i.args.iter());
        syn::visit::visit_expr_method_call(self, i);
    }

    fn visit_macro(&mut self, i: &'ast syn::Macro) {
        visit_macro_args(self, i);
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_mod(&mut self, i: &'ast syn::ItemMod) {
        let test = i.attrs.iter().any(is_test_attr);
        self.test_depth += u32::from(test);
        syn::visit::visit_item_mod(self, i);
        self.test_depth -= u32::from(test);
    }

    fn visit_item_fn(&mut self, i: &'ast syn::ItemFn) {
        let test = i.attrs.iter().any(is_test_attr);
        let saved = std::mem::take(&mut self.locals);
        self.test_depth += u32::from(test);
        syn::visit::visit_item_fn(self, i);
        self.test_depth -= u32::from(test);
        self.locals = saved;
    }

    fn visit_local(&mut self, i: &'ast syn::Local) {
        syn::visit::visit_local(self, i);
        let name = match &i.pat {
            syn::Pat::Ident(p) => Some(p.ident.to_string()),
            syn::Pat::Type(t) => match &*t.pat {
                syn::Pat::Ident(p) => Some(p.ident.to_string()),
                _ => None,
            },
            _ => None,
        };
        if let (Some(name), Some(init)) = (name, &i.init) {
            match self.literal(&init.expr) {
                Some(v) => {
                    self.locals.insert(name, v);
                }
                None => {
                    self.locals.remove(&name);
                }
            }
        }
    }

    fn visit_expr_call(&mut self, i: &'ast syn::ExprCall) {
        if let syn::Expr::Path(p) = &*i.func {
            self.record(path_words(&p.path), i.args.iter());
            if let Some(name) = helper_name(&p.path) {
                let args: Vec<&syn::Expr> = i.args.iter().collect();
                self.record_helper(&name, &args);
            }
        }
        syn::visit::visit_expr_call(self, i);
    }

    fn visit_expr_method_call(&mut self, i: &'ast syn::ExprMethodCall) {
        let mut words = receiver_words(&i.receiver);
        words.push(i.method.to_string());
        self.record(words, i.args.iter());
        syn::visit::visit_expr_method_call(self, i);
    }

    fn visit_macro(&mut self, i: &'ast syn::Macro) {
        visit_macro_args(self, i);
    }
}

/// Visits a macro call's arguments when its body parses as comma-separated expressions
/// (`assert_eq!(parse("<a>"), ..)`, `vec![..]`): both visitors read literals passed there.
fn visit_macro_args<V: for<'a> Visit<'a>>(v: &mut V, i: &syn::Macro) {
    let args = i.parse_body_with(
        syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
    );
    if let Ok(args) = args {
        for a in &args {
            v.visit_expr(a);
        }
    }
}
