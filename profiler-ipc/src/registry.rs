//! The API registry: target types declared once, with function pointers the interpreter
//! dispatches to, and the [`register_type!`](crate::register_type) DSL that writes them.
//!
//! Rust has no reflection, so every type a program may use is registered at a concrete
//! instantiation (`Vec<Key>`, never `Vec<T>`). A registration yields a [`TypeDef`]: the
//! serializable [`TypeSchema`] plus the code to run. Values live as `Box<dyn Any>`; the
//! generated wrappers downcast operands according to their passing mode.

use std::any::Any;
use std::sync::Arc;

use crate::schema::{ApiSchema, Origin, TypeSchema};

/// A variable's storage in the interpreter: `None` once moved (or not yet defined).
pub type Slot = Option<Box<dyn Any>>;

/// A registered call failed before reaching target code (the program was ill-typed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CallError(pub String);

/// Calls a constructor: operands in parameter order.
pub type CtorFn = fn(&mut [Slot]) -> Result<Box<dyn Any>, CallError>;
/// Calls a method: receiver first, then parameters; returns the kept result, if any.
pub type MethodFn = fn(&mut [Slot]) -> Result<Option<Box<dyn Any>>, CallError>;
/// Reads (clones) a public field.
pub type GetFieldFn = fn(&dyn Any) -> Result<Box<dyn Any>, CallError>;
/// Writes a public field.
pub type SetFieldFn = fn(&mut dyn Any, Box<dyn Any>) -> Result<(), CallError>;
/// The registered input size of a value.
pub type SizeFn = fn(&dyn Any) -> u64;
/// A value of a concurrent type, shared by the threads of a concurrent test.
pub type Shared = Arc<dyn Any + Send + Sync>;
/// Moves a value of a concurrent type into a [`Shared`] handle (fails on another type).
pub type ShareFn = fn(Box<dyn Any>) -> Result<Shared, CallError>;
/// Calls a method of a concurrent type through `&self` on the shared value; the operands are
/// the parameters only (thread-local slots).
pub type SharedMethodFn =
    fn(&(dyn Any + Send + Sync), &mut [Slot]) -> Result<Option<Box<dyn Any>>, CallError>;

/// A registered type: its schema and the code behind it.
#[derive(Clone)]
pub struct TypeDef {
    pub schema: TypeSchema,
    pub size: Option<SizeFn>,
    /// Constructors, parallel to `schema.ctors`.
    pub ctors: Vec<CtorFn>,
    /// Methods, parallel to `schema.methods`.
    pub methods: Vec<MethodFn>,
    /// Field accessors, parallel to `schema.fields`.
    pub fields: Vec<(GetFieldFn, SetFieldFn)>,
    /// Concurrent types only ([`register_concurrent!`](crate::register_concurrent)): moves a
    /// value into a handle the threads of a concurrent test share.
    pub share: Option<ShareFn>,
    /// Concurrent types only: the methods through the shared handle, parallel to
    /// `schema.methods` (empty for other types).
    pub shared_methods: Vec<SharedMethodFn>,
}

impl TypeDef {
    /// This registration with `imports` in place of its own, for a crate that re-exports a
    /// registered type and whose other registrations import it by that path (the corpus's
    /// `perfsyn_corpus::probe::Key`): a printed program then imports each name by one path,
    /// two being `E0252` in Rust.
    pub fn imported_as(mut self, imports: &[&str]) -> TypeDef {
        self.schema.imports = imports.iter().map(|i| i.to_string()).collect();
        self
    }

    /// This registration with its origin recorded: the corpus knows which of its types are
    /// std's, its own and planted, which the imports alone cannot tell (see
    /// [`TypeSchema::origin()`](crate::schema::TypeSchema::origin())).
    pub fn with_origin(mut self, origin: Origin) -> TypeDef {
        self.schema.origin = Some(origin);
        self
    }

    /// This registration as a rung of `main`'s capacity ladder, at `capacity` (see
    /// [`Rung`](crate::schema::Rung)): `perfsyn init` registers a fixed-capacity type again
    /// at a few smaller capacities, so that a sweep can grow the capacity itself.
    pub fn rung_of(mut self, main: &TypeDef, capacity: u64) -> TypeDef {
        self.schema.rung = Some(crate::schema::Rung {
            of: main.schema.name.clone(),
            capacity,
        });
        self
    }
}

/// Every registered type of one worker.
pub struct Registry {
    pub types: Vec<TypeDef>,
}

impl Registry {
    /// Collects type definitions; panics on a duplicate name, or on a concurrent pair that
    /// names an unregistered old version or a method neither version has, which are
    /// registration bugs.
    pub fn new(mut types: Vec<TypeDef>) -> Registry {
        // A type registered under another name than its Rust type (two types of one name,
        // `graph::EdgeIndex`) is written as its Rust type where another registration takes
        // or returns it; the schema names it as registered.
        // Ordered collections, here and in `bind`: a std `HashMap` would seed the worker
        // thread's `RandomState` keys before any program, and a target's maps would then
        // draw no randomness that `entropy` could see.
        let renamed: std::collections::BTreeMap<String, String> = types
            .iter()
            .filter(|t| t.schema.rust != t.schema.name)
            .map(|t| (t.schema.rust.clone(), t.schema.name.clone()))
            .collect();
        if !renamed.is_empty() {
            for t in &mut types {
                let s = &mut t.schema;
                let params = s.ctors.iter_mut().flat_map(|c| &mut c.params);
                let params = params.chain(s.methods.iter_mut().flat_map(|m| &mut m.params));
                for p in params {
                    if let Some(n) = renamed.get(&p.ty) {
                        p.ty = n.clone();
                    }
                }
                for r in s.methods.iter_mut().filter_map(|m| m.ret.as_mut()) {
                    if let Some(n) = renamed.get(r) {
                        *r = n.clone();
                    }
                }
            }
        }
        let mut names = std::collections::BTreeSet::new();
        for t in &types {
            assert!(
                names.insert(t.schema.name.clone()),
                "type {} registered twice",
                t.schema.name
            );
        }
        for t in &types {
            let Some(c) = &t.schema.concurrent else {
                continue;
            };
            for pair in &c.pairs {
                let old = types.iter().find(|o| o.schema.name == pair.old);
                assert!(
                    old.is_some_and(|o| o.schema.concurrent.is_some()),
                    "{}: the old version {} is not a registered concurrent type",
                    t.schema.name,
                    pair.old
                );
                for m in &pair.changed {
                    assert!(
                        t.schema.method(m).is_some()
                            || old.is_some_and(|o| o.schema.method(m).is_some()),
                        "{}: changed method {m} exists in neither version",
                        t.schema.name
                    );
                }
            }
        }
        Registry { types }
    }

    /// The serializable description sent in the worker's hello.
    pub fn schema(&self) -> ApiSchema {
        ApiSchema {
            types: self.types.iter().map(|t| t.schema.clone()).collect(),
        }
    }

    /// The type named `name`.
    pub fn ty(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.schema.name == name)
    }
}

/// Whether the call in `_call` returns `()`. `_call` is never run: it only carries the call's
/// result type, so the printer can write a unit call as a plain statement (`let _ = ()` is
/// clippy's `let_unit_value`). `type_name` has no `'static` bound, so results that borrow work.
pub fn returns_unit<R>(_call: impl FnOnce() -> R) -> bool {
    std::any::type_name::<R>() == "()"
}

/// Normalizes `stringify!` output of a type into a registry name (no whitespace).
pub fn type_name(stringified: &str) -> String {
    stringified.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Borrows operand `s` as a `&T`.
pub fn slot_ref<'a, T: 'static>(s: Option<&'a mut Slot>, what: &str) -> Result<&'a T, CallError> {
    s.and_then(|s| s.as_ref())
        .and_then(|b| b.downcast_ref::<T>())
        .ok_or_else(|| type_error::<T>(what))
}

/// Borrows operand `s` as a `&mut T`.
pub fn slot_mut<'a, T: 'static>(
    s: Option<&'a mut Slot>,
    what: &str,
) -> Result<&'a mut T, CallError> {
    s.and_then(|s| s.as_mut())
        .and_then(|b| b.downcast_mut::<T>())
        .ok_or_else(|| type_error::<T>(what))
}

/// Moves operand `s` out as a `T`.
pub fn slot_take<T: 'static>(s: Option<&mut Slot>, what: &str) -> Result<T, CallError> {
    let s = s.ok_or_else(|| type_error::<T>(what))?;
    match s.take().map(|b| b.downcast::<T>()) {
        Some(Ok(b)) => Ok(*b),
        Some(Err(b)) => {
            *s = Some(b);
            Err(type_error::<T>(what))
        }
        None => Err(type_error::<T>(what)),
    }
}

fn type_error<T>(what: &str) -> CallError {
    CallError(format!(
        "operand `{what}` is not a live {}",
        std::any::type_name::<T>()
    ))
}

/// Declares one target type. Expands to a function returning its [`TypeDef`].
///
/// ```ignore
/// register_type! {
///     /// Vec of probe keys.
///     pub fn vec_key() -> Vec<Key> {
///         path: "Vec", imports: ["perfsyn_profiler_ipc::probe::Key"], version: None,
///         size: [|v| v.len() as u64],
///         ctors {
///             new() => Vec::new();
///             with_capacity(capacity: copy usize) => Vec::with_capacity(capacity);
///         }
///         methods {
///             // "O(1)": amortized, per the docs of Vec::push.
///             push(mut self, value: val Key) ["O(1)"];
///             contains(ref self, x: ref Key) -> bool ["O(n)"];
///             retain_even(mut self) as "{self}.retain(|k| k.get() % 2 == 0)"
///                 => |v| v.retain(|k| k.get() % 2 == 0);
///         }
///         fields {}
///     }
/// }
/// ```
///
/// The registry name is the Rust type (`Vec<Key>`) unless an optional `name: "v2::Stack",`
/// before `path:` chooses another: two types with the same Rust name in different modules
/// register without aliases (write `$t` as the full path, `my_crate::v2::Stack`, and leave
/// `imports` empty; printed programs then name the type by that path).
///
/// Passing modes: `ref` (`&x`), `mut` (`&mut x`), `val` (moves `x`), `copy` (copies `x`),
/// `slice T` (a `Vec<T>` variable passed as `&[T]`), `str String` (a `String` as `&str`).
/// A method without `-> T` drops its result (through `black_box`), inside the measured window
/// (its drop may be the call's work, as `Vec::drain`'s is) unless the method is marked
/// `{kept}` after its expected class: `split_off(mut self, at: copy usize) {kept};` says a
/// caller keeps the result, so the window ends before the drop (see `meter::call_returned`).
/// `version: Some(("G", "old"))`
/// makes the type the `old` member of version group `G`.
#[macro_export]
macro_rules! register_type {
    ($(
        $(#[doc = $doc:literal])*
        $vis:vis fn $fname:ident() -> $t:ty {
            $(name: $rname:literal,)?
            path: $path:literal, imports: [$($import:literal),* $(,)?], version: $version:expr,
            size: [$(|$sv:ident| $sbody:expr)?],
            ctors { $(
                $cname:ident ( $($cp:ident : $cpm:ident $cpt:ty),* $(,)? )
                    $(as $ctmpl:literal)? => $cbody:expr;
            )* }
            methods { $(
                $mname:ident ( $rm:ident self $(, $p:ident : $pm:ident $pt:ty)* $(,)? )
                    $(-> $ret:ty)? $([$cx:literal])? $({$kept:ident})?
                    $(as $tmpl:literal => |$r:ident| $body:expr)?;
            )* }
            fields { $( $field:ident : $fty:ty; )* }
        }
    )*) => {$(
        $(#[doc = $doc])*
        $vis fn $fname() -> $crate::registry::TypeDef {
            #[allow(unused_imports)]
            let version: ::std::option::Option<(&str, &str)> = $version;
            let size: ::std::option::Option<fn(&$t) -> u64> = $crate::register_type!(@size $t $(|$sv| $sbody)?);
            let doc: &[&str] = &[$($doc),*];
            let schema = $crate::schema::TypeSchema {
                name: $crate::register_type!(@name $t => $($rname)?),
                rust: $crate::registry::type_name(stringify!($t)),
                path: $path.to_string(),
                sized: size.is_some(),
                version: version.map(|(g, v)| $crate::schema::VersionSchema { group: g.to_string(), version: v.to_string() }),
                concurrent: ::std::option::Option::None,
                ctors: vec![$($crate::schema::CtorSchema {
                    name: stringify!($cname).to_string(),
                    params: vec![$($crate::register_type!(@param $cp $cpm $cpt)),*],
                    template: $crate::register_type!(@opt $($ctmpl)?),
                }),*],
                methods: vec![$($crate::schema::MethodSchema {
                    name: stringify!($mname).to_string(),
                    receiver: $crate::register_type!(@mode $rm),
                    params: vec![$($crate::register_type!(@param $p $pm $pt)),*],
                    ret: $crate::register_type!(@opt_ty $($ret)?),
                    expected: $crate::register_type!(@opt $($cx)?),
                    template: $crate::register_type!(@opt $($tmpl)?),
                    kept: $crate::register_type!(@kept $($kept)?),
                    returns_unit: {
                        // Never run: it only carries the call's result type.
                        #[allow(unreachable_code, unused_variables, clippy::diverging_sub_expression)]
                        let call = || {
                            let recv: $crate::register_type!(@ty $rm $t) = unreachable!();
                            $( let $p: $crate::register_type!(@ty $pm $pt) = unreachable!(); )*
                            $crate::register_type!(@call recv $mname ($($p),*) $($r $body)?)
                        };
                        $crate::registry::returns_unit(call)
                    },
                }),*],
                fields: vec![$($crate::schema::FieldSchema {
                    name: stringify!($field).to_string(),
                    ty: $crate::registry::type_name(stringify!($fty)),
                }),*],
                imports: vec![$($import.to_string()),*],
                doc: doc.first().map(|d| d.trim().to_string()).unwrap_or_default(),
                origin: ::std::option::Option::None,
                rung: ::std::option::Option::None,
            };
            $crate::registry::TypeDef {
                schema,
                size: size.map(|_| {
                    (|v: &dyn ::std::any::Any| {
                        let f: fn(&$t) -> u64 = $crate::register_type!(@size $t $(|$sv| $sbody)?).unwrap();
                        v.downcast_ref::<$t>().map(f).unwrap_or(0)
                    }) as $crate::registry::SizeFn
                }),
                ctors: vec![$(
                    (|args: &mut [$crate::registry::Slot]| -> ::std::result::Result<::std::boxed::Box<dyn ::std::any::Any>, $crate::registry::CallError> {
                        #[allow(unused_mut, unused_variables)]
                        let mut it = args.iter_mut();
                        $( let $cp = $crate::register_type!(@arg it $cp $cpm $cpt); )*
                        let v: $t = $cbody;
                        ::std::result::Result::Ok(::std::boxed::Box::new(v))
                    }) as $crate::registry::CtorFn
                ),*],
                methods: vec![$(
                    (|args: &mut [$crate::registry::Slot]| -> ::std::result::Result<::std::option::Option<::std::boxed::Box<dyn ::std::any::Any>>, $crate::registry::CallError> {
                        let mut it = args.iter_mut();
                        let recv = $crate::register_type!(@arg it self $rm $t);
                        $( let $p = $crate::register_type!(@arg it $p $pm $pt); )*
                        let result = $crate::register_type!(@call recv $mname ($($p),*) $($r $body)?);
                        $crate::register_type!(@ret result $($ret)? $({$kept})?)
                    }) as $crate::registry::MethodFn
                ),*],
                fields: vec![$(
                    (
                        (|v: &dyn ::std::any::Any| -> ::std::result::Result<::std::boxed::Box<dyn ::std::any::Any>, $crate::registry::CallError> {
                            let v = v.downcast_ref::<$t>().ok_or_else(|| $crate::registry::CallError("field read on wrong type".into()))?;
                            ::std::result::Result::Ok(::std::boxed::Box::new(v.$field.clone()))
                        }) as $crate::registry::GetFieldFn,
                        (|v: &mut dyn ::std::any::Any, x: ::std::boxed::Box<dyn ::std::any::Any>| -> ::std::result::Result<(), $crate::registry::CallError> {
                            let v = v.downcast_mut::<$t>().ok_or_else(|| $crate::registry::CallError("field write on wrong type".into()))?;
                            let x = x.downcast::<$fty>().map_err(|_| $crate::registry::CallError("field value of wrong type".into()))?;
                            v.$field = *x;
                            ::std::result::Result::Ok(())
                        }) as $crate::registry::SetFieldFn,
                    )
                ),*],
                share: ::std::option::Option::None,
                shared_methods: ::std::vec::Vec::new(),
            }
        }
    )*};
    (@name $t:ty =>) => { $crate::registry::type_name(stringify!($t)) };
    (@name $t:ty => $rname:literal) => { $crate::registry::type_name($rname) };
    (@size $t:ty) => { ::std::option::Option::None };
    (@size $t:ty |$sv:ident| $sbody:expr) => { ::std::option::Option::Some(|$sv: &$t| $sbody) };
    (@opt) => { ::std::option::Option::None };
    (@opt $l:literal) => { ::std::option::Option::Some(::std::string::ToString::to_string($l)) };
    (@opt_ty) => { ::std::option::Option::None };
    (@opt_ty $t:ty) => { ::std::option::Option::Some($crate::registry::type_name(stringify!($t))) };
    (@ty ref $t:ty) => { &$t };
    (@ty mut $t:ty) => { &mut $t };
    (@ty val $t:ty) => { $t };
    (@ty copy $t:ty) => { $t };
    (@ty slice $t:ty) => { &[$t] };
    (@ty str $t:ty) => { &str };
    (@mode ref) => { $crate::schema::Mode::Ref };
    (@mode mut) => { $crate::schema::Mode::Mut };
    (@mode val) => { $crate::schema::Mode::Val };
    (@mode copy) => { $crate::schema::Mode::Copy };
    (@mode slice) => { $crate::schema::Mode::Slice };
    (@mode str) => { $crate::schema::Mode::Str };
    (@param $p:ident slice $t:ty) => {
        $crate::schema::ParamSchema { name: stringify!($p).to_string(), ty: format!("Vec<{}>", $crate::registry::type_name(stringify!($t))), mode: $crate::schema::Mode::Slice }
    };
    (@param $p:ident $m:ident $t:ty) => {
        $crate::schema::ParamSchema { name: stringify!($p).to_string(), ty: $crate::registry::type_name(stringify!($t)), mode: $crate::register_type!(@mode $m) }
    };
    (@arg $it:ident $p:ident ref $t:ty) => { $crate::registry::slot_ref::<$t>($it.next(), stringify!($p))? };
    (@arg $it:ident $p:ident mut $t:ty) => { $crate::registry::slot_mut::<$t>($it.next(), stringify!($p))? };
    (@arg $it:ident $p:ident val $t:ty) => { $crate::registry::slot_take::<$t>($it.next(), stringify!($p))? };
    (@arg $it:ident $p:ident copy $t:ty) => { *$crate::registry::slot_ref::<$t>($it.next(), stringify!($p))? };
    (@arg $it:ident $p:ident slice $t:ty) => { $crate::registry::slot_ref::<::std::vec::Vec<$t>>($it.next(), stringify!($p))?.as_slice() };
    (@arg $it:ident $p:ident str $t:ty) => { $crate::registry::slot_ref::<::std::string::String>($it.next(), stringify!($p))?.as_str() };
    (@call $recv:ident $m:ident ($($p:ident),*)) => { $recv.$m($($p),*) };
    (@call $recv:ident $m:ident ($($p:ident),*) $r:ident $body:expr) => {{ let $r = $recv; $body }};
    (@kept) => { false };
    (@kept kept) => { true };
    (@kept $other:ident) => { compile_error!(concat!("unknown method marker {", stringify!($other), "}: the only one is {kept}")) };
    // A result the registration keeps is boxed (the interpreter drops it, after the window).
    // One marked `{kept}` ends the window before it is dropped (see `meter::call_returned`);
    // any other is dropped inside it, as its drop may be the call's work (`Vec::drain`).
    (@ret $result:ident {kept}) => {{
        ::std::hint::black_box(&$result);
        $crate::meter::call_returned();
        // A `Copy` result (a kept `Option<u64>`) has nothing to drop; the lint says so.
        #[allow(dropping_copy_types)]
        ::std::mem::drop($result);
        ::std::result::Result::Ok(::std::option::Option::None)
    }};
    (@ret $result:ident) => {{ ::std::hint::black_box(&$result); ::std::result::Result::Ok(::std::option::Option::None) }};
    (@ret $result:ident $t:ty {kept}) => {{ let r: $t = $result; ::std::result::Result::Ok(::std::option::Option::Some(::std::boxed::Box::new(r) as ::std::boxed::Box<dyn ::std::any::Any>)) }};
    (@ret $result:ident $t:ty) => {{ let r: $t = $result; ::std::result::Result::Ok(::std::option::Option::Some(::std::boxed::Box::new(r) as ::std::boxed::Box<dyn ::std::any::Any>)) }};
}

/// Declares one thread-safe target type: a `Send + Sync` type whose methods all take `&self`,
/// so that one instance can be shared by the threads of a concurrent test (SpeedGun). Expands
/// to a function returning its [`TypeDef`], with the schema's `concurrent` part filled in, a
/// [`ShareFn`] and one [`SharedMethodFn`] per method. The same type also works everywhere a
/// [`register_type!`](crate::register_type) type does (sequential programs, `explore`).
///
/// ```ignore
/// register_concurrent! {
///     /// Figure 1c: an atomic flag, a locked initializer.
///     pub fn emc_atomic() -> EmcAtomic {
///         path: "EmcAtomic", imports: ["my_crate::EmcAtomic"],
///         pairs: [
///             { old: "EmcLocked", expected: "improvement", origin: "Table 2 (13)",
///               changed: ["is_initialized", "invoke"] },
///         ],
///         ctors { new(methods: copy u32) => EmcAtomic::new(methods); }
///         methods {
///             invoke(ref self, method: copy u64) -> u64;
///             is_initialized(ref self) -> bool;
///         }
///     }
/// }
/// ```
///
/// Each entry of `pairs` makes this type the *new* version of a pair whose *old* version is
/// another concurrent type; `expected` is what the change does to concurrent performance
/// (`regression`, `improvement`, `none`, or `inconclusive` for a version that deadlocks on
/// purpose) and `changed` lists the methods the change influences, directly or indirectly
/// (SpeedGun's focus methods). Passing modes of the parameters are those of `register_type!`.
/// A type that is not `Send + Sync` is a compile error here.
#[macro_export]
macro_rules! register_concurrent {
    ($(
        $(#[doc = $doc:literal])*
        $vis:vis fn $fname:ident() -> $t:ty {
            path: $path:literal, imports: [$($import:literal),* $(,)?],
            pairs: [$({
                old: $old:literal, expected: $exp:literal, origin: $origin:literal,
                changed: [$($ch:literal),* $(,)?] $(,)?
            }),* $(,)?],
            ctors { $(
                $cname:ident ( $($cp:ident : $cpm:ident $cpt:ty),* $(,)? )
                    $(as $ctmpl:literal)? => $cbody:expr;
            )* }
            methods { $(
                $mname:ident ( ref self $(, $p:ident : $pm:ident $pt:ty)* $(,)? )
                    $(-> $ret:ty)?
                    $(as $tmpl:literal => |$r:ident| $body:expr)?;
            )+ }
        }
    )*) => {$(
        $(#[doc = $doc])*
        $vis fn $fname() -> $crate::registry::TypeDef {
            #[allow(unused_imports)]
            $crate::register_type! {
                $(#[doc = $doc])*
                fn sequential() -> $t {
                    path: $path, imports: [$($import),*], version: None,
                    size: [],
                    ctors { $( $cname ( $($cp : $cpm $cpt),* ) $(as $ctmpl)? => $cbody; )* }
                    methods { $(
                        $mname ( ref self $(, $p : $pm $pt)* ) $(-> $ret)?
                            $(as $tmpl => |$r| $body)?;
                    )+ }
                    fields {}
                }
            }
            let mut def = sequential();
            def.schema.concurrent = Some($crate::schema::ConcurrentSchema {
                pairs: vec![$($crate::schema::PairSchema {
                    old: $crate::registry::type_name($old),
                    expected: $exp.to_string(),
                    origin: $origin.to_string(),
                    changed: vec![$($ch.to_string()),*],
                }),*],
            });
            def.share = Some(
                (|value: Box<dyn std::any::Any>| -> Result<$crate::registry::Shared, $crate::registry::CallError> {
                    value
                        .downcast::<$t>()
                        .map(|v| std::sync::Arc::new(*v) as $crate::registry::Shared)
                        .map_err(|_| $crate::registry::CallError("shared value of the wrong type".into()))
                }) as $crate::registry::ShareFn,
            );
            def.shared_methods = vec![$(
                (|recv: &(dyn std::any::Any + Send + Sync), args: &mut [$crate::registry::Slot]|
                    -> Result<Option<Box<dyn std::any::Any>>, $crate::registry::CallError> {
                    let recv: &$t = recv
                        .downcast_ref::<$t>()
                        .ok_or_else(|| $crate::registry::CallError("shared receiver of the wrong type".into()))?;
                    #[allow(unused_mut, unused_variables)]
                    let mut it = args.iter_mut();
                    $( let $p = $crate::register_type!(@arg it $p $pm $pt); )*
                    let result = $crate::register_type!(@call recv $mname ($($p),*) $($r $body)?);
                    $crate::register_type!(@ret result $($ret)?)
                }) as $crate::registry::SharedMethodFn
            ),+];
            def
        }
    )*};
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate's types named like the macro's own helpers (`schema::Mode`, `Slot`,
    /// `CallError`): the expansion names its helpers by full path, so the crate's types are
    /// the ones registered (a glob import inside it used to shadow them: E0599).
    mod clash {
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Mode {
            Fast,
            Careful,
        }
        pub struct Slot {
            pub m: Mode,
        }
        impl Slot {
            pub fn new() -> Slot {
                Slot { m: Mode::Fast }
            }
            pub fn set(&mut self, m: Mode) {
                self.m = m;
            }
            pub fn careful(&self) -> bool {
                self.m == Mode::Careful
            }
        }
        #[derive(Debug)]
        pub struct CallError;
        crate::register_type! {
            pub fn mode() -> Mode {
                path: "Mode", imports: [], version: None,
                size: [],
                ctors {
                    Fast() as "Mode::Fast" => <Mode>::Fast;
                    Careful() as "Mode::Careful" => <Mode>::Careful;
                }
                methods {}
                fields {}
            }
            pub fn slot() -> Slot {
                path: "Slot", imports: [], version: None,
                size: [],
                ctors { new() => <Slot>::new(); }
                methods {
                    set(mut self, m: copy Mode);
                    careful(ref self) -> bool;
                }
                fields {}
            }
        }
    }

    #[test]
    fn types_named_like_the_macros_helpers_register() {
        let mode = clash::mode();
        let careful = (mode.ctors[1])(&mut []).unwrap();
        assert_eq!(careful.downcast_ref(), Some(&clash::Mode::Careful));
        let slot = clash::slot();
        let mut args: Vec<Slot> = vec![Some((slot.ctors[0])(&mut []).unwrap()), Some(careful)];
        (slot.methods[0])(&mut args).unwrap();
        let r = (slot.methods[1])(&mut args[..1]).unwrap().unwrap();
        assert_eq!(r.downcast_ref(), Some(&true));
        let _ = clash::CallError;
    }

    mod v1 {
        #[derive(Default)]
        pub struct Stack(pub Vec<u64>);
        impl Stack {
            pub fn push(&mut self, x: u64) {
                self.0.push(x);
            }
        }
    }
    mod v2 {
        #[derive(Default)]
        pub struct Stack(pub Vec<u64>);
        impl Stack {
            pub fn absorb(&mut self, other: &super::v1::Stack) {
                self.0.extend(&other.0);
            }
            pub fn split(&mut self) -> super::v1::Stack {
                super::v1::Stack(std::mem::take(&mut self.0))
            }
        }
    }

    crate::register_type! {
        fn stack_named() -> v1::Stack {
            name: "one::Stack",
            path: "one::Stack", imports: [], version: None,
            size: [|s| s.0.len() as u64],
            ctors { default() => v1::Stack::default(); }
            methods { push(mut self, x: copy u64); }
            fields {}
        }
        fn stack_absorbing() -> v2::Stack {
            name: "two::Stack",
            path: "two::Stack", imports: [], version: None,
            size: [|s| s.0.len() as u64],
            ctors { default() => v2::Stack::default(); }
            methods {
                absorb(mut self, other: ref v1::Stack);
                split(mut self) -> v1::Stack;
            }
            fields {}
        }
    }

    /// A registration writes another registered type as its Rust type (`perfsyn init` does
    /// for two types of one name, petgraph's `graph::EdgeIndex`); the schema names it as
    /// registered, so programs can pass and keep it.
    #[test]
    fn a_type_written_as_its_rust_type_is_named_as_registered() {
        let schema = Registry::new(vec![stack_named(), stack_absorbing()]).schema();
        let two = schema.ty("two::Stack").unwrap();
        assert_eq!(two.method("absorb").unwrap().params[0].ty, "one::Stack");
        assert_eq!(
            two.method("split").unwrap().ret.as_deref(),
            Some("one::Stack")
        );
    }
}
