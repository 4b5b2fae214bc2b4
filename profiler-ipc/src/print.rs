//! Prints a program as Rust source that calls the real API directly.
//!
//! Loops become `for` loops, variables get names their type suggests (`vec0`, `key3`),
//! `mut` appears exactly where a variable is mutated and `_` prefixes variables that are
//! never read, so the output compiles without warnings. A program that fails the checker is
//! a print error naming the statement, never Rust that does not compile.

use std::collections::HashSet;

use crate::check::{check, ProgramError};
use crate::program::{Literal, Op, Pattern, Program, Stmt, Var};
use crate::schema::{ApiSchema, Mode, ParamSchema};

/// A printed program: the `use` lines it needs and the statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Printed {
    pub imports: Vec<String>,
    /// Statements, one per line, indented by four spaces per loop level (no outer indent).
    pub body: String,
}

impl Printed {
    /// The program as a complete `#[test]` function named `name`, imports inside the body.
    pub fn as_fn(&self, name: &str, attrs: &str) -> String {
        let mut s = format!("{attrs}fn {name}() {{\n");
        for i in &self.imports {
            s.push_str(&format!("    use {i};\n"));
        }
        for line in self.body.lines() {
            s.push_str("    ");
            s.push_str(line);
            s.push('\n');
        }
        s.push_str("}\n");
        s
    }
}

/// Prints `p` against `schema`.
pub fn print(p: &Program, schema: &ApiSchema) -> Result<Printed, ProgramError> {
    print_with(p, schema, &PrintOptions::default())
}

/// Variations of the printed form, for exported tests and benchmarks. The default prints
/// exactly what [`print`] prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// `(name, unit)`: print every loop count as a multiple of the `i64` variable `name`,
    /// whose value `unit` gives the program's own counts (`for i in 0..4 * n` for a count of
    /// 4 * unit). Every loop count must be a multiple of `unit`.
    pub loop_scale: Option<(String, u32)>,
    /// `(registry type name, alias)`: construct values of that type through the alias
    /// (`Subject::new()`), which the surrounding code declares (`type Subject = ...;`); the
    /// type's own import is left out.
    pub aliases: Vec<(String, String)>,
    /// The name of a variable with `start()` and `stop()` methods: calls under test are
    /// printed between `name.start();` and `name.stop();`.
    pub meter: Option<String>,
    /// The name of a function `fn<R>(impl FnOnce() -> R) -> R` (instead of `meter`): each
    /// call under test is printed as the body of a closure passed to it
    /// (`let n3 = name(|| set0.remove(&n2));`), so a profiler that counts inside one
    /// function (callgrind's `--toggle-collect`) counts only the calls under test. A result
    /// nobody keeps is dropped inside the closure, as `meter` drops it before `stop()`.
    pub measure_with: Option<String>,
}

/// Prints `p` against `schema` with `opts`. Anything the options cannot express (a loop
/// count that is not a multiple of the scale unit) is an error naming the statement.
pub fn print_with(
    p: &Program,
    schema: &ApiSchema,
    opts: &PrintOptions,
) -> Result<Printed, ProgramError> {
    check(p, schema)?;
    let mut usage = Usage::default();
    usage.scan(&p.body, schema);
    let mut pr = Printer {
        p,
        schema,
        usage,
        out: String::new(),
        imports: Vec::new(),
        depth: 0,
        loop_n: 0,
        opts,
        loop_expr: None,
        top: 0,
        error: None,
    };
    for (i, s) in p.body.iter().enumerate() {
        pr.top = i;
        pr.stmt(s);
    }
    if let Some(e) = pr.error {
        return Err(e);
    }
    dedup_imports(&mut pr.imports);
    Ok(Printed {
        imports: pr.imports,
        body: pr.out,
    })
}

/// Sorts `imports` and drops repeated ones (programs name a type many times; an export
/// collects the imports of several programs).
pub fn dedup_imports(imports: &mut Vec<String>) {
    imports.sort();
    imports.dedup();
}

/// The variable-name prefix a type suggests.
pub fn name_prefix(ty: &str) -> String {
    let base = ty.split('<').next().unwrap_or(ty);
    match base {
        "Vec" => "vec".into(),
        "VecDeque" => "deque".into(),
        "HashMap" | "BTreeMap" => "map".into(),
        "HashSet" | "BTreeSet" => "set".into(),
        "LinkedList" => "list".into(),
        "BinaryHeap" => "heap".into(),
        "String" => "text".into(),
        "bool" => "flag".into(),
        "char" => "ch".into(),
        "u8" | "u32" | "u64" | "usize" | "i32" | "i64" => "n".into(),
        other => {
            let mut s = String::new();
            for (i, c) in other.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    s.push('_');
                }
                s.extend(c.to_lowercase());
            }
            s.rsplit('_').next().unwrap_or("v").to_string()
        }
    }
}

#[derive(Default)]
struct Usage {
    read: HashSet<Var>,
    mutated: HashSet<Var>,
}

impl Usage {
    fn scan(&mut self, stmts: &[Stmt], schema: &ApiSchema) {
        for s in stmts {
            match s {
                Stmt::Ctor { ty, ctor, args, .. } => {
                    let c = schema.ty(ty).and_then(|t| t.ctor(ctor));
                    for (k, a) in args.iter().enumerate() {
                        self.read.insert(*a);
                        if c.and_then(|c| c.params.get(k)).map(|q| q.mode) == Some(Mode::Mut) {
                            self.mutated.insert(*a);
                        }
                    }
                }
                Stmt::Call {
                    ty,
                    method,
                    recv,
                    args,
                    ..
                } => {
                    let m = schema.ty(ty).and_then(|t| t.method(method));
                    self.read.insert(*recv);
                    if m.map(|m| m.receiver) == Some(Mode::Mut) {
                        self.mutated.insert(*recv);
                    }
                    for (k, a) in args.iter().enumerate() {
                        self.read.insert(*a);
                        if m.and_then(|m| m.params.get(k)).map(|q| q.mode) == Some(Mode::Mut) {
                            self.mutated.insert(*a);
                        }
                    }
                }
                Stmt::Op { arg, .. } => {
                    self.read.insert(*arg);
                }
                Stmt::GetField { target, .. } => {
                    self.read.insert(*target);
                }
                Stmt::SetField { target, value, .. } => {
                    self.read.insert(*value);
                    self.read.insert(*target);
                    self.mutated.insert(*target);
                }
                Stmt::Repeat { body, .. } => self.scan(body, schema),
                Stmt::Lit { .. } => {}
            }
        }
    }
}

struct Printer<'a> {
    p: &'a Program,
    schema: &'a ApiSchema,
    usage: Usage,
    out: String,
    imports: Vec<String>,
    depth: usize,
    loop_n: u32,
    opts: &'a PrintOptions,
    /// The printed count of the enclosing loop when it is scaled (`4 * n`).
    loop_expr: Option<String>,
    /// The top-level statement being printed, for errors.
    top: usize,
    /// The first thing the options could not express.
    error: Option<ProgramError>,
}

impl Printer<'_> {
    fn name(&self, v: Var) -> String {
        format!("{}{}", name_prefix(self.p.ty(v)), v.0)
    }

    fn binding(&self, v: Var) -> String {
        let name = self.name(v);
        if !self.usage.read.contains(&v) {
            format!("_{name}")
        } else if self.usage.mutated.contains(&v) {
            format!("mut {name}")
        } else {
            name
        }
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn operand(&self, v: Var, mode: Mode) -> String {
        let n = self.name(v);
        match mode {
            Mode::Ref | Mode::Slice | Mode::Str => format!("&{n}"),
            Mode::Mut => format!("&mut {n}"),
            Mode::Val | Mode::Copy => n,
        }
    }

    fn fill(
        &self,
        template: &str,
        recv: Option<Var>,
        params: &[ParamSchema],
        args: &[Var],
    ) -> String {
        let mut s = template.to_string();
        if let Some(r) = recv {
            s = s.replace("{self}", &self.name(r));
        }
        for (p, a) in params.iter().zip(args) {
            s = s.replace(&format!("{{{}}}", p.name), &self.name(*a));
        }
        s
    }

    fn import_type(&mut self, ty: &str) {
        if let Some(t) = self.schema.ty(ty) {
            let aliased = self.alias(ty).is_some();
            let last = t.rust_type().split('<').next().unwrap_or_default();
            let own = |i: &String| i.rsplit("::").next() == Some(last);
            self.imports
                .extend(t.imports.iter().filter(|i| !(aliased && own(i))).cloned());
        }
    }

    fn alias(&self, ty: &str) -> Option<&str> {
        self.opts
            .aliases
            .iter()
            .find(|(t, _)| t == ty)
            .map(|(_, a)| a.as_str())
    }

    fn fail(&mut self, message: String) {
        if self.error.is_none() {
            self.error = Some(ProgramError {
                stmt: self.top,
                message,
            });
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Lit { out, value } => {
                let b = self.binding(*out);
                let text = match value {
                    Literal::Bool(x) => format!("let {b} = {x};"),
                    Literal::Char(c) => format!("let {b} = {c:?};"),
                    Literal::Str(x) => format!("let {b} = String::from({x:?});"),
                    Literal::Text { shape, a, b: b2, n } => {
                        format!("let {b}: String = {};", shape.rust(a, b2, *n))
                    }
                    Literal::Int { ty, value } => format!("let {b}: {} = {value};", ty.name()),
                    Literal::Index { ty, pattern } => {
                        let n = self.loop_n;
                        let value = match (pattern, &self.loop_expr) {
                            (Pattern::NMinusI, Some(count)) => format!("{count} - i"),
                            _ => pattern.rust("i", n),
                        };
                        let constant = pattern.constant().filter(|v| literal_fits(*ty, *v));
                        if let Some(v) = constant {
                            // A cast of a literal that fits is a clippy error
                            // (`unnecessary_cast`): a typed literal instead.
                            format!("let {b}: {} = {v};", ty.name())
                        } else if *ty == crate::program::IntTy::I64 {
                            // The loop index is already an i64: a cast is a clippy error.
                            format!("let {b}: i64 = {value};")
                        } else {
                            format!("let {b} = ({value}) as {};", ty.name())
                        }
                    }
                };
                self.line(&text);
            }
            Stmt::Ctor {
                out,
                ty,
                ctor,
                args,
            } => {
                let t = self.schema.ty(ty).expect("checked");
                let c = t.ctor(ctor).expect("checked");
                if c.template.as_deref() == Some("") {
                    // A value with nothing to write (a namespace of free functions, whose
                    // calls are printed as paths): no line.
                    return;
                }
                self.import_type(ty);
                let alias = self.alias(ty).map(str::to_string);
                // A template that does not name the type (`vec![{elem}; {n}]`) is printed as
                // it is, and the binding is annotated with the alias instead.
                let mut annotate = None;
                let expr = match &c.template {
                    Some(tm) => {
                        let mut tm = tm.clone();
                        if let Some(a) = &alias {
                            if tm.contains(&t.rust_path()) {
                                tm = tm.replace(&t.rust_path(), a);
                            } else if tm.contains(t.rust_type()) {
                                tm = tm.replace(t.rust_type(), a);
                            } else {
                                annotate = Some(a.clone());
                            }
                        }
                        self.fill(&tm, None, &c.params, args)
                    }
                    None => {
                        let a: Vec<_> = args
                            .iter()
                            .zip(&c.params)
                            .map(|(v, p)| self.operand(*v, p.mode))
                            .collect();
                        let path = alias.unwrap_or_else(|| t.rust_path());
                        format!("{}::{}({})", path, ctor, a.join(", "))
                    }
                };
                for p in &c.params {
                    self.import_type(&p.ty);
                }
                let b = self.binding(*out);
                match annotate {
                    Some(a) => self.line(&format!("let {b}: {a} = {expr};")),
                    None => self.line(&format!("let {b} = {expr};")),
                }
            }
            Stmt::Call {
                out,
                ty,
                method,
                recv,
                args,
                under_test,
            } => {
                let t = self.schema.ty(ty).expect("checked");
                let m = t.method(method).expect("checked").clone();
                let expr = match &m.template {
                    Some(tm) => self.fill(tm, Some(*recv), &m.params, args),
                    None => {
                        let a: Vec<_> = args
                            .iter()
                            .zip(&m.params)
                            .map(|(v, p)| self.operand(*v, p.mode))
                            .collect();
                        format!("{}.{}({})", self.name(*recv), method, a.join(", "))
                    }
                };
                let meter = self.opts.meter.clone().filter(|_| *under_test);
                // A measured call's result goes through `black_box`: the call of a small pure
                // function whose result is unused (`let _n3 = krate::count(&v);`) is inlined
                // across crates and removed, and the exported test times nothing.
                let expr = if meter.is_some() && !m.returns_unit {
                    format!("std::hint::black_box({expr})")
                } else {
                    expr
                };
                let text = match out {
                    Some(o) => format!("let {} = {expr};", self.binding(*o)),
                    // A result a caller keeps (`MethodSchema::kept`) is dropped after `stop()`,
                    // at the end of the scope, as the worker drops it after the window.
                    None if meter.is_some() && m.kept => format!("let _kept = {expr};"),
                    // A unit call is a plain statement (`let _ = ()` is clippy's
                    // `let_unit_value`); any other unkept result may be `#[must_use]`
                    // (`BTreeMap::range`), so it is bound to `_`.
                    None if m.returns_unit => format!("{expr};"),
                    None => format!("let _ = {expr};"),
                };
                let wrap = self.opts.measure_with.clone().filter(|_| *under_test);
                let text = match (wrap, out) {
                    (None, _) => text,
                    (Some(f), Some(o)) => format!("let {} = {f}(|| {expr});", self.binding(*o)),
                    (Some(f), None) if m.kept => format!("let _kept = {f}(|| {expr});"),
                    (Some(f), None) if m.returns_unit => format!("{f}(|| {expr});"),
                    (Some(f), None) => {
                        format!("{f}(|| {{ let _ = std::hint::black_box({expr}); }});")
                    }
                };
                if let Some(m) = &meter {
                    self.line(&format!("{m}.start();"));
                }
                self.line(&text);
                if let Some(m) = &meter {
                    self.line(&format!("{m}.stop();"));
                }
            }
            Stmt::Op { out, op, arg } => {
                let a = self.name(*arg);
                let expr = match op {
                    Op::Inc => format!("{a}.saturating_add(1)"),
                    Op::Dec => format!("{a}.saturating_sub(1)"),
                    Op::Double => format!("{a}.saturating_mul(2)"),
                    Op::Halve => format!("{a} / 2"),
                    Op::Toggle => format!("!{a}"),
                    Op::Append => format!("format!(\"{{{a}}}a\")"),
                    Op::Repeat2 => format!("{a}.repeat(2)"),
                };
                let b = self.binding(*out);
                self.line(&format!("let {b} = {expr};"));
            }
            Stmt::GetField { out, target, field } => {
                let b = self.binding(*out);
                let t = self.name(*target);
                self.line(&format!("let {b} = {t}.{field}.clone();"));
            }
            Stmt::SetField {
                target,
                field,
                value,
            } => {
                let t = self.name(*target);
                let v = self.name(*value);
                self.line(&format!("{t}.{field} = {v};"));
            }
            Stmt::Repeat { n, body } => {
                let uses_i = body.iter().any(|s| {
                    matches!(
                        s,
                        Stmt::Lit {
                            value: Literal::Index { .. },
                            ..
                        }
                    )
                });
                let i = if uses_i { "i" } else { "_" };
                let count = match &self.opts.loop_scale {
                    None => None,
                    Some((name, unit)) if *unit > 0 && n % unit == 0 => Some(match n / unit {
                        1 => name.clone(),
                        k => format!("{k} * {name}"),
                    }),
                    Some((name, unit)) => {
                        self.fail(format!(
                            "the loop count {n} is not a multiple of {unit}, the unit of {name}"
                        ));
                        None
                    }
                };
                match &count {
                    Some(c) => self.line(&format!("for {i} in 0..{c} {{")),
                    None => self.line(&format!("for {i} in 0..{n}i64 {{")),
                }
                self.depth += 1;
                let saved = self.loop_n;
                let saved_expr = std::mem::replace(&mut self.loop_expr, count);
                self.loop_n = *n;
                for s in body {
                    self.stmt(s);
                }
                self.loop_n = saved;
                self.loop_expr = saved_expr;
                self.depth -= 1;
                self.line("}");
            }
        }
    }
}

/// Whether `v` is a value of `ty` (so `v` can be written as a literal of `ty`, no cast).
fn literal_fits(ty: crate::program::IntTy, v: i64) -> bool {
    use crate::program::IntTy;
    match ty {
        IntTy::U8 => u8::try_from(v).is_ok(),
        IntTy::U32 => u32::try_from(v).is_ok(),
        IntTy::U64 | IntTy::Usize => v >= 0,
        IntTy::I32 => i32::try_from(v).is_ok(),
        IntTy::I64 => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{IntTy, Literal};
    use crate::registry::Registry;

    #[derive(Default)]
    pub struct Stack(Vec<u64>);
    impl Stack {
        pub fn push(&mut self, x: u64) {
            self.0.push(x);
        }
        pub fn pop(&mut self) -> Option<u64> {
            self.0.pop()
        }
        pub fn peek(&self) -> Option<&u64> {
            self.0.last()
        }
    }

    crate::register_type! {
        fn stack() -> Stack {
            path: "Stack", imports: [], version: None, size: [],
            ctors { default() => Stack::default(); }
            methods { push(mut self, x: copy u64); pop(mut self) {kept}; peek(ref self); }
            fields {}
        }
    }

    /// `let _ = s.push(x);` is clippy's `let_unit_value` in an exported test; a non-unit
    /// result (even one borrowing the receiver) is still bound to `_`, it may be `#[must_use]`.
    #[test]
    fn unkept_unit_calls_are_plain_statements_and_other_results_are_bound_to_underscore() {
        let schema = Registry::new(vec![stack()]).schema();
        let t = schema.ty("Stack").unwrap();
        let unit: Vec<_> = t.methods.iter().map(|m| m.returns_unit).collect();
        assert_eq!(unit, [true, false, false]);
        let kept: Vec<_> = t.methods.iter().map(|m| m.kept).collect();
        assert_eq!(kept, [false, true, false]);
        let mut p = Program::default();
        let s = p.fresh("Stack");
        let x = p.fresh("u64");
        let call = |method: &str, args| Stmt::Call {
            out: None,
            ty: "Stack".into(),
            method: method.into(),
            recv: s,
            args,
            under_test: false,
        };
        p.body = vec![
            Stmt::Ctor {
                out: s,
                ty: "Stack".into(),
                ctor: "default".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: x,
                value: Literal::Int {
                    ty: IntTy::U64,
                    value: 7,
                },
            },
            call("push", vec![x]),
            call("pop", vec![]),
            call("peek", vec![]),
        ];
        let body = print(&p, &schema).expect("prints").body;
        let lines: Vec<_> = body.lines().skip(2).collect();
        assert_eq!(
            lines,
            [
                "stack0.push(n1);",
                "let _ = stack0.pop();",
                "let _ = stack0.peek();"
            ],
            "{body}"
        );
    }

    crate::register_type! {
        fn namespace() -> () {
            name: "crate", path: "crate", imports: [], version: None, size: [],
            ctors { new() as "" => (); }
            methods { twice(ref self, x: copy u64) -> u64 as "demo::twice({x})" => |_n| x * 2; }
            fields {}
        }
    }

    /// Measured calls (an exported test's) return through `black_box`, unit calls excepted
    /// (clippy's `unit_arg`); a result a caller keeps (`pop`, `{kept}`) outlives `stop()`,
    /// others are dropped before it (their drop may be the call's work); a namespace of free functions is built by no line, and its
    /// functions are called by path.
    #[test]
    fn measured_results_go_through_black_box_and_namespaces_are_not_printed() {
        let schema = Registry::new(vec![stack(), namespace()]).schema();
        assert!(schema.ty("crate").unwrap().is_namespace());
        assert!(!schema.ty("Stack").unwrap().is_namespace());
        let mut p = Program::default();
        let s = p.fresh("Stack");
        let ns = p.fresh("crate");
        let x = p.fresh("u64");
        let call = |ty: &str, method: &str, recv, args| Stmt::Call {
            out: None,
            ty: ty.into(),
            method: method.into(),
            recv,
            args,
            under_test: true,
        };
        p.body = vec![
            Stmt::Ctor {
                out: s,
                ty: "Stack".into(),
                ctor: "default".into(),
                args: vec![],
            },
            Stmt::Ctor {
                out: ns,
                ty: "crate".into(),
                ctor: "new".into(),
                args: vec![],
            },
            Stmt::Lit {
                out: x,
                value: Literal::Int {
                    ty: IntTy::U64,
                    value: 7,
                },
            },
            call("Stack", "push", s, vec![x]),
            call("Stack", "pop", s, vec![]),
            call("crate", "twice", ns, vec![x]),
        ];
        let opts = PrintOptions {
            meter: Some("m".into()),
            ..PrintOptions::default()
        };
        let body = print_with(&p, &schema, &opts).expect("prints").body;
        let lines: Vec<_> = body.lines().collect();
        assert_eq!(
            lines,
            [
                "let mut stack0 = Stack::default();",
                "let n2: u64 = 7;",
                "m.start();",
                "stack0.push(n2);",
                "m.stop();",
                "m.start();",
                "let _kept = std::hint::black_box(stack0.pop());",
                "m.stop();",
                "m.start();",
                "let _ = std::hint::black_box(demo::twice(n2));",
                "m.stop();",
            ],
            "{body}"
        );
        let opts = PrintOptions {
            measure_with: Some("f".into()),
            ..PrintOptions::default()
        };
        let body = print_with(&p, &schema, &opts).expect("prints").body;
        let lines: Vec<_> = body.lines().collect();
        assert_eq!(
            lines,
            [
                "let mut stack0 = Stack::default();",
                "let n2: u64 = 7;",
                "f(|| stack0.push(n2));",
                "let _kept = f(|| stack0.pop());",
                "f(|| { let _ = std::hint::black_box(demo::twice(n2)); });",
            ],
            "{body}"
        );
    }
}
