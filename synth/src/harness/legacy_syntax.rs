//! Rust source from before the 2021 edition that the parser (syn) refuses: a bare trait
//! object of a closure trait with a return type, `&'a Fn(&str) -> Option<String>` (written
//! `&'a dyn Fn(..)` since 2018, still compiled by an edition-2015 or 2018 crate; pulldown-cmark
//! 0.5's `Parser` holds one). A crate that compiles must be readable, so a file syn refuses is
//! read again with `dyn` before each `Fn`, `FnMut` or `FnOnce` that stands where a type does
//! (after `&`, `&mut`, a lifetime or `<`); a bound (`F: Fn() -> T`) keeps its form. Only after
//! a refusal: every file syn reads is read as it is.

use proc_macro2::{Group, Ident, TokenStream, TokenTree};

/// `syn::parse_file`, and when it refuses `text`, the same with bare closure-trait objects
/// read as `dyn` ones.
pub fn parse_file(text: &str) -> syn::Result<syn::File> {
    match syn::parse_file(text) {
        Ok(f) => Ok(f),
        Err(e) => {
            let Ok(tokens) = text.parse::<TokenStream>() else {
                return Err(e);
            };
            syn::parse2(dyn_closure_traits(tokens)).map_err(|_| e)
        }
    }
}

/// Whether the tokens `before` a closure trait's name put it where a type stands.
fn type_position(before: &[TokenTree]) -> bool {
    match before {
        [.., TokenTree::Punct(p)] => matches!(p.as_char(), '&' | '<'),
        // `&mut Fn()`, `&'a Fn()`: `mut` or a lifetime's name after `&` / `'`.
        [.., TokenTree::Punct(q), TokenTree::Ident(i)] => {
            (q.as_char() == '&' && i == "mut") || q.as_char() == '\''
        }
        _ => false,
    }
}

/// `tokens` with `dyn` before each closure trait in a type position.
fn dyn_closure_traits(tokens: TokenStream) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    let mut it = tokens.into_iter().peekable();
    while let Some(t) = it.next() {
        match t {
            TokenTree::Group(g) => {
                let mut n = Group::new(g.delimiter(), dyn_closure_traits(g.stream()));
                n.set_span(g.span());
                out.push(TokenTree::Group(n));
            }
            TokenTree::Ident(i)
                if ["Fn", "FnMut", "FnOnce"].iter().any(|n| i == n)
                    && matches!(it.peek(), Some(TokenTree::Group(_)))
                    && type_position(&out)
                    && !(out.len() >= 2
                        && matches!(&out[out.len() - 2], TokenTree::Ident(d) if d == "dyn")) =>
            {
                out.push(TokenTree::Ident(Ident::new("dyn", i.span())));
                out.push(TokenTree::Ident(i));
            }
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::parse_file;

    #[test]
    fn a_bare_closure_trait_object_is_read_as_a_dyn_one() {
        let text = "/// A parser.\npub struct P<'a> { cb: Option<&'a Fn(&str) -> Option<String>>, m: Box<FnMut(u8) -> u8> }\n\
                    pub fn f<F: Fn(u8) -> u8>(g: F, h: &mut FnOnce() -> u8) where F: Fn(u8) -> u8 {}\n";
        assert!(syn::parse_file(text).is_err(), "syn refuses the bare form");
        let f = parse_file(text).expect("read with `dyn`");
        assert_eq!(f.items.len(), 2);
        let syn::Item::Struct(s) = &f.items[0] else {
            panic!()
        };
        assert!(s.attrs.iter().any(|a| a.path().is_ident("doc")));
        let printed = quote::quote!(#s).to_string();
        assert!(printed.contains("& 'a dyn Fn"), "{printed}");
        assert!(printed.contains("Box < dyn FnMut"), "{printed}");
        let g = &f.items[1];
        let printed = quote::quote!(#g).to_string();
        assert!(
            printed.contains("F : Fn (u8)"),
            "a bound keeps its form: {printed}"
        );
        assert!(printed.contains("& mut dyn FnOnce"), "{printed}");
    }

    #[test]
    fn a_file_syn_reads_is_read_as_it_is() {
        let text = "pub fn f(c: u8) -> bool { matches!(c, b'0' ..= b'9') }\n";
        assert!(parse_file(text).is_ok());
    }
}
