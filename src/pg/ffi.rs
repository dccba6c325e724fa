//! PostgreSQL functions declared here rather than taken from pgrx's `pg_sys`, each tied to
//! pgrx's binding of the same function at compile time.
//!
//! pgrx's bindings are Rust wrappers that catch an error PostgreSQL raises and raise it again
//! as a copy ([`crate::pg::boundary`] says what that loses), and a wrapper has its own
//! address (the sort code recognises a comparator by its address). Where uuid_ext needs the
//! server's own symbol, it declares it with [`unguarded!`]; the macro also coerces pgrx's
//! binding to the declared signature, so a major whose header changes a function (PostgreSQL
//! 19's `standard_planner` takes a fifth argument) fails the build rather than call it with
//! arguments missing. Three declarations have no pgrx binding to be tied to and are checked
//! against the headers of every major the suite builds instead (`scripts/test.sh`, "hand-made
//! declarations match the headers"): `pg_re_throw()` and, before 16, the tree walkers.

/// Declares PostgreSQL functions called without pgrx's guard, each as `fn name(args) -> result
/// = Symbol;`: linked to the server's `Symbol`, and pgrx's binding `pg_sys::Symbol` must have
/// exactly those argument and result types (the symbol and the binding are one name, so they
/// cannot drift apart either).
macro_rules! unguarded {
    ($(
        $(#[doc = $doc:literal])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $symbol:ident;
    )*) => {
        extern "C-unwind" {
            $(
                $(#[doc = $doc])*
                #[link_name = stringify!($symbol)]
                $vis fn $name($($arg: $ty),*) -> $ret;
            )*
        }
        const _: () = {
            $( let _: unsafe fn($($ty),*) -> $ret = pgrx::pg_sys::$symbol; )*
        };
    };
}
pub(crate) use unguarded;
