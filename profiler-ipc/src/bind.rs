//! Binding a worker to one version of its version groups.
//!
//! A version group is two registrations of one API in one binary (`version: ("Group", "old")`
//! and `("Group", "new")`). A worker started with [`BIND_ENV`]`=old` (or `new`) offers each
//! group under the group's name, backed by that member, and hides the other member. The same
//! program, written against the group's name, then runs the old version on one worker and the
//! new version on another: the engine's pair of executors (DESIGN.md, "Two revisions are two
//! workers"), the same pair that two builds of a harness at two git revisions make.
//!
//! A compared pair of concurrent types (`register_concurrent!`'s `pairs`) is not a group: one
//! type can be the new version of several old ones, and the old version of another. So such a
//! worker is bound to one pair, chosen when it is started (`old:EmcUnsync,EmcLocked`, made by
//! [`pair_binding`]): both names of the pair resolve to its side's member, and every other
//! type stays as registered. `perfsyn compare` starts two workers per pair.

use std::collections::{BTreeMap, BTreeSet};

use crate::registry::{Registry, TypeDef};
use crate::schema::TypeSchema;

/// The environment variable that binds a worker (`old` or `new`); unset: every member is
/// offered under its own name.
pub const BIND_ENV: &str = "PERFSYN_BIND";

/// The versions a worker can bind.
pub const VERSIONS: &[&str] = &["old", "new"];

/// The binding of side `version` (`old` or `new`) of the compared pair `old` -> `new`, as
/// [`BIND_ENV`]'s value.
pub fn pair_binding(version: &str, old: &str, new: &str) -> String {
    format!("{version}:{old},{new}")
}

/// `registry` bound as [`BIND_ENV`]'s value `binding` says: `old` or `new` binds every version
/// group ([`bind_groups`]); `old:OLD,NEW` or `new:OLD,NEW` binds one compared pair
/// ([`bind_pair`]).
pub fn bind(registry: &Registry, binding: &str) -> Result<Registry, String> {
    match binding.split_once(':') {
        None => bind_groups(registry, binding),
        Some((version, pair)) => match pair.split_once(',') {
            Some((old, new)) => bind_pair(registry, version, old, new),
            None => Err(format!(
                "{BIND_ENV}={binding}: a pair binding is `old:OLD,NEW` or `new:OLD,NEW`"
            )),
        },
    }
}

/// `registry` with both names of the pair `old` -> `new` backed by the member of side
/// `version`: the same test, written against either name, runs that side's code. The member
/// standing in for the other name keeps its own Rust type, so a printed test says what ran.
pub fn bind_pair(
    registry: &Registry,
    version: &str,
    old: &str,
    new: &str,
) -> Result<Registry, String> {
    if !VERSIONS.contains(&version) {
        return Err(format!(
            "{BIND_ENV} must bind `old` or `new`, not `{version}`"
        ));
    }
    if old == new {
        return Err(format!(
            "cannot bind the pair {old},{new}: a type compared with itself"
        ));
    }
    let (side, other) = if version == "old" {
        (old, new)
    } else {
        (new, old)
    };
    for name in [old, new] {
        if registry.ty(name).is_none() {
            return Err(format!(
                "cannot bind the pair {old},{new}: the worker has no type {name}"
            ));
        }
    }
    let mut alias = registry.ty(side).expect("checked above").clone();
    if alias.schema.rust.is_empty() {
        alias.schema.rust.clone_from(&alias.schema.name);
    }
    alias.schema.name = other.to_string();
    let types = registry
        .types
        .iter()
        .map(|t| {
            if t.schema.name == other {
                alias.clone()
            } else {
                t.clone()
            }
        })
        .collect();
    Ok(Registry { types })
}

/// `registry` with every version group offered under its group's name, backed by its member
/// `version`; the other member is hidden and references to either member name the group.
pub fn bind_groups(registry: &Registry, version: &str) -> Result<Registry, String> {
    if !VERSIONS.contains(&version) {
        return Err(format!(
            "{BIND_ENV} must be `old` or `new`, not `{version}`"
        ));
    }
    let renamed: BTreeMap<String, String> = registry
        .types
        .iter()
        .filter_map(|t| {
            Some((
                t.schema.name.clone(),
                t.schema.version.as_ref()?.group.clone(),
            ))
        })
        .collect();
    let rename = |ty: &mut String| {
        if let Some(g) = renamed.get(ty.as_str()) {
            ty.clone_from(g);
        }
    };
    let mut types: Vec<TypeDef> = Vec::new();
    let mut names = BTreeSet::new();
    for t in &registry.types {
        if t.schema
            .version
            .as_ref()
            .is_some_and(|v| v.version != version)
        {
            continue;
        }
        let mut t = t.clone();
        let s: &mut TypeSchema = &mut t.schema;
        if s.version.is_some() && s.rust.is_empty() {
            // The printed program still writes the member's own Rust type.
            s.rust.clone_from(&s.name);
        }
        rename(&mut s.name);
        for p in s.ctors.iter_mut().flat_map(|c| c.params.iter_mut()) {
            rename(&mut p.ty);
        }
        for m in &mut s.methods {
            m.params.iter_mut().for_each(|p| rename(&mut p.ty));
            if let Some(r) = &mut m.ret {
                rename(r);
            }
        }
        s.fields.iter_mut().for_each(|f| rename(&mut f.ty));
        if !names.insert(s.name.clone()) {
            return Err(format!(
                "cannot bind version `{version}`: two types would be named `{}`",
                s.name
            ));
        }
        types.push(t);
    }
    Ok(Registry { types })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::register_type;

    mod v1 {
        #[derive(Debug, Default, Clone)]
        pub struct Counter(pub u64);
        impl Counter {
            pub fn bump(&mut self) {
                self.0 += 1;
            }
        }
    }
    mod v2 {
        #[derive(Debug, Default, Clone)]
        pub struct Counter(pub u64);
        impl Counter {
            pub fn bump(&mut self) {
                self.0 += 2;
            }
        }
    }

    register_type! {
        fn counter_v1() -> v1::Counter {
            name: "OldCounter",
            path: "Counter",
            imports: [],
            version: Some(("Counter", "old")),
            size: [|c| c.0],
            ctors { default() as "v1::Counter::default()" => v1::Counter::default(); }
            methods { bump(mut self); }
            fields {}
        }

        fn counter_v2() -> v2::Counter {
            name: "NewCounter",
            path: "Counter",
            imports: [],
            version: Some(("Counter", "new")),
            size: [|c| c.0],
            ctors { default() as "v2::Counter::default()" => v2::Counter::default(); }
            methods { bump(mut self); }
            fields {}
        }
    }

    fn registry() -> Registry {
        Registry::new(vec![counter_v1(), counter_v2()])
    }

    #[test]
    fn each_binding_offers_its_member_under_the_group_name() {
        for (version, rust) in [("old", "v1::Counter"), ("new", "v2::Counter")] {
            let r = bind(&registry(), version).unwrap();
            let schema = r.schema();
            assert_eq!(schema.types.len(), 1, "the other member is hidden");
            let t = schema.ty("Counter").expect("bound under the group name");
            assert_eq!(t.version.as_ref().unwrap().version, version);
            assert_eq!(t.rust_type(), rust);
            // The code behind the name is the member's: its size function reads its value.
            let value = (r.types[0].ctors[0])(&mut []).unwrap();
            assert_eq!((r.types[0].size.unwrap())(value.as_ref()), 0);
        }
    }

    /// A compared pair binds both of its names to one side's code: a test that names either
    /// member runs the old code on the old worker and the new code on the new one.
    #[test]
    fn a_pair_binding_resolves_both_names_to_its_side() {
        for (version, rust) in [("old", "v1::Counter"), ("new", "v2::Counter")] {
            let binding = pair_binding(version, "OldCounter", "NewCounter");
            let r = bind(&registry(), &binding).unwrap();
            assert_eq!(r.types.len(), 2, "both names stay offered");
            for name in ["OldCounter", "NewCounter"] {
                let t = r.ty(name).expect("each name resolves");
                let value = (t.ctors[0])(&mut []).unwrap();
                let old_code = value.is::<v1::Counter>();
                let new_code = value.is::<v2::Counter>();
                assert_eq!((old_code, new_code), (version == "old", version == "new"));
                assert_eq!(t.schema.rust_type(), rust, "a printed test names what ran");
            }
        }
    }

    #[test]
    fn a_malformed_pair_binding_is_refused() {
        for (binding, says) in [
            ("old:OldCounter", "old:OLD,NEW"),
            ("old:OldCounter,Nope", "no type Nope"),
            ("newest:OldCounter,NewCounter", "`old` or `new`"),
            ("old:OldCounter,OldCounter", "compared with itself"),
        ] {
            let e = bind(&registry(), binding).err().unwrap();
            assert!(e.contains(says), "{binding}: {e}");
        }
    }

    #[test]
    fn an_unknown_version_is_refused() {
        let e = bind(&registry(), "newest").err().unwrap();
        assert!(e.contains("`old` or `new`"), "{e}");
    }
}
