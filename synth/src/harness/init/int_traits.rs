//! Traits of the crate that an integer implements. A key parameter bounded by the crate's own
//! trait (`IntMap<K: IntKey, V>`, `Trie<K: TrieKey, V>`,
//! `UnionFind<K: IndexType>` and `GraphMap<N: NodeTrait, ..>`) is instantiated with an integer
//! the crate implements that trait for: directly (`impl TrieKey for u64`), through a
//! `macro_rules!` that writes `impl Trait for $t` and is invoked with the integer among its
//! arguments (`impl_int_key_for_int!(u64, U64_PRIME_MAX)`, `int_keys!(u16, u32, u64)`), or by a
//! blanket impl whose bounds every integer meets (`impl<N> NodeTrait for N where N: Copy + Ord
//! + Hash`). The compiler checks the guess when `init` builds the worker.

use std::collections::{HashMap, HashSet};

use quote::ToTokens;

/// The integers the program model builds, in the order they are tried: `u64` (the widest
/// unsigned key) first.
pub const INTS: &[&str] = &["u64", "usize", "u32", "i64", "i32", "u8"];

/// The floats, tried after the integers (`f64` first): a program passes an integer of its
/// own converted `as f64`.
pub const FLOATS: &[&str] = &["f64", "f32"];

/// What a crate's items say about its trait impls for integers.
#[derive(Clone, Debug, Default)]
pub struct IntTraits {
    /// Traits implemented for each integer by an `impl` item.
    direct: HashMap<String, HashSet<String>>,
    /// Traits each `macro_rules!` (by name) implements for a type it is given.
    macros: HashMap<String, Vec<String>>,
    /// The integers each macro is invoked with (at item level).
    invoked: HashMap<String, HashSet<String>>,
    /// Traits implemented for every type meeting bounds that integers meet.
    blanket: HashSet<String>,
    /// The crate's own non-generic types with the traits an `impl` item gives them, in
    /// source order (`Directed: EdgeType`).
    types: Vec<(String, HashSet<String>)>,
    /// Traits the crate implements for `Range<_>` (`impl<T: Copy>
    /// IndexRange<T> for Range<T>`), with the element type when the impl names one.
    ranges: HashMap<String, Option<String>>,
    /// Traits the crate implements for `String` (directly, or for every `T: AsRef<str>`):
    /// a generic parameter bounded by them takes a program's string
    /// (`diff_chars<T: DiffableStrRef + ?Sized>(alg, old: &T, new: &T)`).
    strings: HashSet<String>,
    /// The crate's types built from a `&str` (`impl From<&str> for ExpandedName`): a
    /// parameter bounded by `Into<T>` of one takes a program's string, borrowed (see
    /// [`IntTraits::from_str`]).
    from_strs: HashSet<String>,
    /// The crate's types built from a `String` (`impl From<String> for BString`).
    from_strings: HashSet<String>,
    /// The crate's types collected from items (`impl<K, V> FromIterator<Element<K, V>> for
    /// IntervalTree<K, V>`): the item type as written, see [`IntTraits::item_collection`].
    from_iters: HashMap<String, String>,
    /// The crate's trait impls on its own types, by value or borrowed (see
    /// [`trait_impls`](super::trait_impls)): recorded here, where every impl item passes.
    pub impls: super::trait_impls::TraitImpls,
    /// The traits the crate declares (set once the whole crate is read).
    pub declared: super::trait_decls::TraitDecls,
    /// Traits the crate implements for `()` (`impl ControlFlow for ()`): a closure's result
    /// bounded by them returns nothing (see [`IntTraits::for_unit`]).
    units: HashSet<String>,
}

impl IntTraits {
    /// Records an `impl` item; `int_ok` says whether integers meet a bound (a trait name).
    pub fn record_impl(&mut self, i: &syn::ItemImpl, int_ok: &dyn Fn(&str) -> bool) {
        self.impls.record(i);
        if let (Some((path, _)), syn::Type::Tuple(t)) = (&i.trait_, &*i.self_ty) {
            if let Some(s) = path.segments.last().filter(|_| t.elems.is_empty()) {
                self.units.insert(s.ident.to_string());
            }
            return;
        }
        let (Some((path, _)), syn::Type::Path(p)) = (&i.trait_, &*i.self_ty) else {
            return;
        };
        let Some(tr) = path.segments.last().map(|s| s.ident.to_string()) else {
            return;
        };
        if super::strext::covers_string(i) {
            self.strings.insert(tr.clone());
        }
        if tr == "From" {
            let set = if from_str_ref(path) {
                Some(&mut self.from_strs)
            } else if from_string(path) {
                Some(&mut self.from_strings)
            } else {
                None
            };
            if let (Some(set), Some(s)) = (set, p.path.segments.last()) {
                set.insert(s.ident.to_string());
            }
        }
        if tr == "FromIterator" {
            let item = path.segments.last().and_then(|s| match &s.arguments {
                syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                    syn::GenericArgument::Type(t) => Some(t.clone()),
                    _ => None,
                }),
                _ => None,
            });
            // `impl<I: Into<Element<K, V>>> FromIterator<I>`: items of what `I` converts
            // into.
            let item = item.map(|t| into_target(&t, &i.generics).unwrap_or(t));
            if let (Some(item), Some(s)) = (item, p.path.segments.last()) {
                let item = quote::ToTokens::to_token_stream(&item).to_string();
                self.from_iters.entry(s.ident.to_string()).or_insert(item);
            }
        }
        if let Some(elem) = range_element(p) {
            // `Range<T>` over the impl's own parameter: any integer; else the type it names.
            let generic = i.generics.type_params().any(|t| t.ident == elem.as_str());
            self.ranges.insert(tr, (!generic).then_some(elem));
            return;
        }
        let Some(id) = p.path.get_ident().filter(|_| p.qself.is_none()) else {
            return;
        };
        let id = id.to_string();
        if INTS.contains(&id.as_str()) {
            self.direct.entry(id).or_default().insert(tr);
            return;
        }
        if i.generics.params.is_empty() {
            // A trait with arguments is also recorded as written (`Operation<u64>`, spaces
            // removed, as `model::trait_names` spells a bound), so a bound naming another
            // parameter (`O: Operation<N>`) can be matched at an integer (see `type_at`).
            let written = path
                .segments
                .last()
                .filter(|s| !s.arguments.is_empty())
                .map(|s| s.to_token_stream().to_string().replace(' ', ""));
            let entry = match self.types.iter_mut().position(|(t, _)| *t == id) {
                Some(k) => &mut self.types[k].1,
                None => {
                    self.types.push((id, HashSet::new()));
                    &mut self.types.last_mut().unwrap().1
                }
            };
            entry.insert(tr);
            entry.extend(written);
            return;
        }
        // `impl<N> Trait for N where N: ...`: a blanket impl over the impl's own parameter.
        let blanket = i
            .generics
            .type_params()
            .any(|t| t.ident == id && t.bounds.iter().all(|b| bound_ok(b, int_ok)));
        let where_ok = i.generics.where_clause.iter().all(|w| {
            w.predicates.iter().all(|p| match p {
                syn::WherePredicate::Type(pt)
                    if pt.bounded_ty.to_token_stream().to_string() == id =>
                {
                    pt.bounds.iter().all(|b| bound_ok(b, int_ok))
                }
                _ => true,
            })
        });
        if blanket && where_ok {
            self.blanket.insert(tr);
        }
    }

    /// Records an item-level macro: a `macro_rules!` definition or an invocation.
    pub fn record_macro(&mut self, m: &syn::ItemMacro) {
        let body = m.mac.tokens.to_string();
        if m.mac.path.is_ident("macro_rules") {
            let Some(name) = &m.ident else { return };
            let traits = impls_for_metavariable(&body);
            if !traits.is_empty() {
                self.macros.insert(name.to_string(), traits);
            }
            return;
        }
        let Some(s) = m.mac.path.segments.last() else {
            return;
        };
        for tok in body.split(|c: char| !c.is_alphanumeric() && c != '_') {
            if INTS.contains(&tok) || FLOATS.contains(&tok) {
                self.invoked
                    .entry(s.ident.to_string())
                    .or_default()
                    .insert(tok.to_string());
            }
        }
    }

    /// Whether the crate implements `tr` for integer `int`.
    pub fn implements(&self, int: &str, tr: &str) -> bool {
        self.blanket.contains(tr)
            || self.direct.get(int).is_some_and(|ts| ts.contains(tr))
            || self.invoked.iter().any(|(m, ints)| {
                ints.contains(int)
                    && self
                        .macros
                        .get(m)
                        .is_some_and(|ts| ts.iter().any(|t| t == tr))
            })
    }

    /// Whether the crate implements `tr` for a primitive type (directly, by a macro, or by
    /// a blanket impl integers meet): the orphan rule allows that only for the crate's own
    /// traits, so the reader knows every primitive implementing it.
    pub fn own_for_primitive(&self, tr: &str) -> bool {
        self.blanket.contains(tr)
            || INTS.iter().chain(FLOATS).any(|i| self.implements(i, tr))
            || self
                .types
                .iter()
                .any(|(t, ts)| FLOATS.contains(&t.as_str()) && ts.contains(tr))
    }

    /// Whether `tr` has a blanket impl over a parameter with bounds integers meet.
    pub fn is_blanket(&self, tr: &str) -> bool {
        self.blanket.contains(tr)
    }

    /// Whether a parameter bounded by `names` (`impl Into<T>`, `N: Into<T>`) takes a `&str`:
    /// its only bound is `Into<T>`, `T` being `String` or a type of the crate built from a
    /// `&str` (see [`IntTraits::from_strs`]). Passed a `&str`, not a `String`: `From<&str>`
    /// does not make `From<String>`.
    pub fn from_str(&self, names: &[String]) -> bool {
        let [only] = names else { return false };
        let Some(target) = only.strip_prefix("Into<") else {
            return false;
        };
        let ident: String = target
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        ident == "String" || self.from_strs.contains(&ident)
    }

    /// The string a crate type `ident` converts from (`impl From<&str>`: `&str`, else
    /// `impl From<String>`: `String`), if any: a constructor for a type that has no other.
    pub fn string_conversion(&self, ident: &str) -> Option<&'static str> {
        if self.from_strs.contains(ident) {
            Some("&str")
        } else if self.from_strings.contains(ident) {
            Some("String")
        } else {
            None
        }
    }

    /// The item type a crate type `ident` is collected from (`impl FromIterator<Element<K,
    /// V>>`), if any: a constructor for a type that has no other, `T::from_iter` of a
    /// program's vector of items.
    pub fn item_collection(&self, ident: &str) -> Option<syn::Type> {
        syn::parse_str(self.from_iters.get(ident)?).ok()
    }

    /// Whether the crate implements `tr` for `()` (see [`IntTraits::units`]).
    pub fn for_unit(&self, tr: &str) -> bool {
        self.units.contains(tr)
    }

    /// Whether the crate implements `tr` for float `float`: directly (`impl FloatMeasure
    /// for f64`) or by a macro invoked with it (`impl_unit_measure!(f32, f64)`); blanket
    /// impls are read for integers only.
    pub fn float_implements(&self, float: &str, tr: &str) -> bool {
        self.implements(float, tr)
            || self
                .types
                .iter()
                .any(|(t, ts)| t == float && ts.contains(tr))
    }

    /// Whether the crate implements `tr` for `String` (see [`IntTraits::strings`]).
    pub fn for_string(&self, tr: &str) -> bool {
        self.strings.contains(tr)
    }

    /// The first integer that implements every one of `traits` (the crate's own bounds of a
    /// parameter; integers meet the standard ones).
    pub fn int_for(&self, traits: &[&String]) -> Option<&'static str> {
        INTS.iter()
            .copied()
            .find(|int| traits.iter().all(|t| self.implements(int, t)))
    }
}

impl IntTraits {
    /// The element of the `Range` that fills a parameter bounded by the crate's trait `bound`
    /// (`IndexRange`, `IndexRange<u32>`) when the crate implements it for `Range<_>`: the
    /// integer the impl names, else the bound's argument, else `usize` (an index range).
    pub fn range_for(&self, bound: &str) -> Option<String> {
        let (tr, arg) = match bound.split_once('<') {
            Some((t, a)) => (t, a.strip_suffix('>')),
            None => (bound, None),
        };
        let fixed = self.ranges.get(tr)?;
        let elem = fixed
            .clone()
            .or_else(|| arg.map(str::to_string))
            .unwrap_or_else(|| "usize".to_string());
        INTS.contains(&elem.as_str()).then_some(elem)
    }

    /// Records a non-generic type of the crate that implements `traits` where syn cannot see
    /// the impls (a type a macro defines, see [`macro_types`](super::macro_types)).
    pub fn record_type(&mut self, ident: &str, traits: &[String]) {
        match self.types.iter_mut().find(|(t, _)| t == ident) {
            Some((_, ts)) => ts.extend(traits.iter().cloned()),
            None => self
                .types
                .push((ident.to_string(), traits.iter().cloned().collect())),
        }
    }

    /// The first of the crate's own types (by identifier, in source order) that implements
    /// every one of `traits`: a marker type for a parameter no integer fits
    /// (`GraphMap<.., Ty: EdgeType, ..>` gets `Directed`).
    pub fn type_for(&self, traits: &[&String]) -> Option<&str> {
        self.types
            .iter()
            .find(|(_, ts)| traits.iter().all(|t| ts.contains(*t)))
            .map(|(t, _)| t.as_str())
    }

    /// For a parameter whose bounds name another parameter `other`
    /// (`SegmentPoint<N, O: Operation<N>>`, an operation over the values): the first integer
    /// `int` and the crate's type that implements every bound with `other` read as `int`
    /// (`Add: Operation<u64>`), as `(int, type)`.
    pub fn type_at(&self, traits: &[&String], other: &str) -> Option<(&'static str, &str)> {
        INTS.iter().copied().find_map(|int| {
            let at: Vec<String> = traits.iter().map(|t| replace_arg(t, other, int)).collect();
            let at: Vec<&String> = at.iter().collect();
            self.type_for(&at).map(|ty| (int, ty))
        })
    }
}

/// Whether `bound` (`Operation<N>`, `RangeBounds<Q>`) names `arg` among its arguments.
pub fn names_arg(bound: &str, arg: &str) -> bool {
    bound
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .skip(1)
        .any(|w| w == arg)
}

/// `bound` (`Operation<N>`, `Tr<A,N>`, spaces removed) with the generic argument `arg`
/// replaced by `by`.
pub fn replace_arg(bound: &str, arg: &str, by: &str) -> String {
    super::syntax::map_words(bound, |word, at| {
        if word == arg && at > 0 { by } else { word }.to_string()
    })
}

/// The element type of `Range<E>` (`std::ops::Range<u32>`, `Range<T>`), as written.
fn range_element(p: &syn::TypePath) -> Option<String> {
    let seg = p.path.segments.last().filter(|_| p.qself.is_none())?;
    if seg.ident != "Range" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) if a.args.len() == 1 => Some(t.to_token_stream().to_string()),
        _ => None,
    }
}

/// Operator traits every integer implements over itself (`Add<M, Output = M>` in `impl<M>
/// Measure for M where M: Add<M, Output = M> + ..`), whatever arguments they are written with.
pub const INT_OPERATORS: &[&str] = &["Add", "Sub", "Mul", "Div", "Rem", "AddAssign", "SubAssign"];

fn bound_ok(b: &syn::TypeParamBound, int_ok: &dyn Fn(&str) -> bool) -> bool {
    match b {
        syn::TypeParamBound::Trait(t) => t.path.segments.last().is_some_and(|s| {
            let name = s.ident.to_string();
            (s.arguments.is_empty() && int_ok(&name)) || INT_OPERATORS.contains(&name.as_str())
        }),
        _ => true,
    }
}

/// The traits a macro body implements for a metavariable: `impl Trait for $t`,
/// `impl<..> Trait for $t`.
pub(super) fn impls_for_metavariable(body: &str) -> Vec<String> {
    let owned = spaced_tokens(body);
    let toks: Vec<&str> = owned.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for i in 1..toks.len().saturating_sub(2) {
        if toks[i] != "for" || !toks[i + 1].starts_with('$') {
            continue;
        }
        let tr = toks[i - 1];
        let after_impl = toks[i.saturating_sub(12)..i].contains(&"impl");
        if after_impl
            && !tr.is_empty()
            && tr.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !out.iter().any(|t| t == tr)
        {
            out.push(tr.to_string());
        }
    }
    out
}

/// Whether a token is an identifier (letters, digits, `_`; not starting with a digit).
pub(super) fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The tokens of a macro's printed token stream, delimiters apart (`$(impl` is `$ ( impl`),
/// and a metavariable one token (`$ name` is `$name`, however it was printed).
pub(super) fn spaced_tokens(body: &str) -> Vec<String> {
    let spaced: String = body
        .chars()
        .flat_map(|c| {
            let delim = "()[]{}<>,;#".contains(c);
            [delim.then_some(' '), Some(c), delim.then_some(' ')]
        })
        .flatten()
        .collect();
    let mut out: Vec<String> = Vec::new();
    for t in spaced.split_whitespace() {
        match out.last_mut() {
            Some(last) if last == "$" && is_ident(t) => last.push_str(t),
            _ => out.push(t.to_string()),
        }
    }
    out
}

/// Whether trait path `path` is `From<&str>` (any lifetime).
fn from_str_ref(path: &syn::Path) -> bool {
    let Some(syn::PathArguments::AngleBracketed(a)) = path.segments.last().map(|s| &s.arguments)
    else {
        return false;
    };
    matches!(a.args.first(), Some(syn::GenericArgument::Type(syn::Type::Reference(r)))
        if r.mutability.is_none() && matches!(&*r.elem, syn::Type::Path(e) if e.path.is_ident("str")))
}

/// Whether trait path `path` is `From<String>`.
fn from_string(path: &syn::Path) -> bool {
    let Some(syn::PathArguments::AngleBracketed(a)) = path.segments.last().map(|s| &s.arguments)
    else {
        return false;
    };
    matches!(a.args.first(), Some(syn::GenericArgument::Type(syn::Type::Path(t)))
        if t.qself.is_none() && t.path.segments.last().is_some_and(|s| s.ident == "String"))
}

/// The type a generic parameter `t` of `g` converts into (`I: Into<Element<K, V>>`:
/// `Element<K, V>`), by its bound inline or in the where clause; `None` when `t` is not such
/// a parameter.
fn into_target(t: &syn::Type, g: &syn::Generics) -> Option<syn::Type> {
    let syn::Type::Path(tp) = t else { return None };
    let id = tp.path.get_ident()?;
    let inline = g
        .type_params()
        .filter(|p| p.ident == *id)
        .flat_map(|p| p.bounds.iter());
    let clause = g
        .where_clause
        .iter()
        .flat_map(|w| &w.predicates)
        .filter_map(|p| match p {
            syn::WherePredicate::Type(pt) if matches!(&pt.bounded_ty, syn::Type::Path(b) if b.path.is_ident(id)) => {
                Some(pt.bounds.iter())
            }
            _ => None,
        })
        .flatten();
    inline.chain(clause).find_map(|b| {
        let syn::TypeParamBound::Trait(tb) = b else {
            return None;
        };
        let seg = tb.path.segments.last().filter(|s| s.ident == "Into")?;
        let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
            return None;
        };
        a.args.iter().find_map(|g| match g {
            syn::GenericArgument::Type(t) => Some(t.clone()),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item<T: syn::parse::Parse>(s: &str) -> T {
        syn::parse_str(s).unwrap()
    }

    fn std_ok(b: &str) -> bool {
        ["Copy", "Ord", "Hash", "Eq"].contains(&b)
    }

    #[test]
    fn traits_implemented_for_integers_directly_by_an_invoked_macro_or_a_blanket_impl() {
        let mut t = IntTraits::default();
        let imp = |t: &mut IntTraits, s: &str| t.record_impl(&item(s), &std_ok);
        imp(
            &mut t,
            "impl TrieKey for u64 { fn encode(&self) -> Vec<u8> { vec![] } }",
        );
        imp(&mut t, "unsafe impl IndexType for usize {}");
        imp(&mut t, "unsafe impl IndexType for u32 {}");
        imp(&mut t, "impl Other for String {}");
        imp(
            &mut t,
            "impl<N> NodeTrait for N where N: Copy + Ord + Hash {}",
        );
        imp(&mut t, "impl<N: Copy + Display> Shown for N {}");
        imp(&mut t, "impl<N: Copy> Wrapped for Vec<N> {}");
        t.record_macro(&item(
            "macro_rules! impl_int_key_for_int { ($self:ident, $prime:expr) => { impl IntKey for $self { type Int = $self; } }; }",
        ));
        t.record_macro(&item(
            "macro_rules! never_called { ($t:ty) => { impl Unused for $t {} }; }",
        ));
        t.record_macro(&item(
            "macro_rules! small { ($($t:ty),*) => { $(impl<'a> Small for $t {})* }; }",
        ));
        t.record_macro(&item(
            "macro_rules! keys { ($($t:ty),*) => { $(impl TrieKey2 for $t { fn f(&self) {} })* }; }",
        ));
        t.record_macro(&item(
            "macro_rules! vec_keys { ($($t:ty),*) => { $(impl VecOnly for Vec<$t> {})* }; }",
        ));
        t.record_macro(&item("keys!(u16, u64);"));
        t.record_macro(&item("vec_keys!(u16, u64);"));
        t.record_macro(&item("small!(u8, u16);"));
        assert!(
            !t.implements("u64", "IntKey"),
            "a macro not invoked with u64"
        );
        t.record_macro(&item("impl_int_key_for_int!(u64, U64_PRIME_MAX);"));
        let name = |s: &str| s.to_string();
        let int_for = |traits: &[&str]| {
            let owned: Vec<String> = traits.iter().map(|s| name(s)).collect();
            t.int_for(&owned.iter().collect::<Vec<_>>())
        };
        assert_eq!(int_for(&["TrieKey"]), Some("u64"));
        assert_eq!(int_for(&["IntKey"]), Some("u64"));
        assert_eq!(
            int_for(&["TrieKey2"]),
            Some("u64"),
            "`$(impl TrieKey for $t {{..}})*`"
        );
        assert_eq!(int_for(&["IndexType"]), Some("usize"));
        assert_eq!(int_for(&["NodeTrait"]), Some("u64"));
        assert_eq!(int_for(&["NodeTrait", "IndexType"]), Some("usize"));
        assert_eq!(int_for(&["Small"]), Some("u8"));
        assert_eq!(
            int_for(&["Shown"]),
            None,
            "Display is not among the bounds integers meet here"
        );
        assert_eq!(int_for(&["Other"]), None);
        assert_eq!(int_for(&["Unused"]), None);
        assert_eq!(
            int_for(&["VecOnly"]),
            None,
            "implemented for Vec<u64>, not u64"
        );
        assert_eq!(int_for(&["Wrapped"]), None);
        imp(
            &mut t,
            "impl EdgeType for Directed { fn is_directed() -> bool { true } }",
        );
        imp(
            &mut t,
            "impl EdgeType for Undirected { fn is_directed() -> bool { false } }",
        );
        imp(&mut t, "impl<T> EdgeType for Marker<T> {}");
        let edge = name("EdgeType");
        assert_eq!(t.type_for(&[&edge]), Some("Directed"));
        assert_eq!(t.type_for(&[&name("NodeTrait")]), None);
    }

    /// fixedbitset's `count_ones<T: IndexRange>(&self, range: T)`: the crate implements
    /// `IndexRange<T>` for `Range<T>` (and `RangeFull`, `RangeTo<T>`, ...), so a range fills it.
    #[test]
    fn traits_implemented_for_range_give_a_range_of_their_integer() {
        let mut t = IntTraits::default();
        let imp = |t: &mut IntTraits, s: &str| t.record_impl(&item(s), &std_ok);
        imp(&mut t, "impl<T> IndexRange<T> for RangeFull {}");
        imp(
            &mut t,
            "impl<T: Copy> IndexRange<T> for Range<T> { fn start(&self) -> Option<T> { None } }",
        );
        imp(&mut t, "impl Span for core::ops::Range<u32> {}");
        imp(&mut t, "impl Named for Range<String> {}");
        assert_eq!(t.range_for("IndexRange").as_deref(), Some("usize"));
        assert_eq!(t.range_for("IndexRange<u64>").as_deref(), Some("u64"));
        assert_eq!(t.range_for("Span").as_deref(), Some("u32"));
        assert_eq!(t.range_for("Named"), None, "not a range of integers");
        assert_eq!(t.range_for("Other"), None);
    }
}
