//! The instantiation of a borrowing type handed out by a chain: the parameters it shares by
//! name with the value that hands it out take that value's instantiation. A method of
//! `Csr<N, E, Ty, Ix>` returns `Edges<'_, E, Ty, Ix>`, whose items are
//! `EdgeReference<'a, E, Ty, Ix>`: they are `Csr<Key, Key, Directed, u32>`'s `E`, `Ty` and
//! `Ix`, not a fresh instantiation of `EdgeReference`'s own bounds (which fails for
//! `Ty: EdgeType`, a trait of the crate only marker types implement, and dropped every
//! method of the type without a word). A crate's borrowing types name their parameters as
//! their owner's in practice (`VacantEntry<'a, T>` of `Slab<T>`); a parameter only the
//! borrowing type has is instantiated from its own bounds, as before.

use std::collections::HashMap;

use super::instantiate::instantiate_fixing;
use super::resolve::Ctx;
use super::scan::FoundType;
use super::syntax::param_names;

/// The instantiation of `b`, handed out by a value resolved in `owner` (whose `subst` is its
/// instantiation), with the parameters the result writes (`written`, see `handed_out_args`)
/// taking precedence; `None` when `b`'s own parameters cannot be instantiated.
pub(super) fn handed_out_instantiation(
    owner: &Ctx<'_>,
    b: &FoundType,
    written: &HashMap<String, String>,
) -> Option<HashMap<String, String>> {
    let mut shared: HashMap<String, String> = param_names(&b.generics)
        .filter_map(|p| owner.subst.get(&p).map(|a| (p, a.clone())))
        .collect();
    shared.extend(written.iter().map(|(k, v)| (k.clone(), v.clone())));
    instantiate_fixing(
        &b.generics,
        b.impls.iter().map(|i| &i.generics),
        true,
        &HashMap::new(),
        owner.arrays,
        owner.int_traits,
        &shared,
    )
    .ok()
}
