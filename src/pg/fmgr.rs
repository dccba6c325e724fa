//! Functions that a time query runs once per row, and the generators, as plain V1 C functions.
//!
//! pgrx's `#[pg_extern]` wrapper (panic guard, memory-context switch, argument and result
//! boxing) costs about 20 ns a call — several times the work of an extractor. Measured on
//! PostgreSQL 16, `SELECT count(f(id))` over 2 M v7 keys without parallelism, less
//! `count(id)`: 47 ms through the wrapper, 7 ms without (`uuid_hash()`, a core C function:
//! 13 ms). Per-day counts and windows over mixed versions run the extractor on every row, so
//! that is most of the difference to a `created_at` column (docs/BENCHMARKS.md).
//!
//! [`uuid_function!`] defines such a function under the C symbol pgrx would have given it
//! (`<name>_wrapper`), which dumps and older install scripts name, with an `extension_sql!`
//! statement equal to the one pgrx wrote. Its body gets the 16 bytes and returns a
//! pass-by-value [`pg_sys::Datum`], or `None` for NULL. The body must not fail in any way: no
//! allocation, no PostgreSQL call, no panic. Nothing here turns a panic into an ERROR; the
//! function is `extern "C"`, so a panic that got out anyway would abort the server rather
//! than unwind through PostgreSQL's C frames (undefined behaviour) — the bodies only read
//! fixed-size arrays and do arithmetic that cannot overflow, so none can panic. The SQL
//! function is `STRICT`, so the argument is never NULL (a declaration by hand without it, or
//! without the argument, gets NULL back), and a `uuid` is a fixed 16 bytes, never toasted.

/// `v1_finfo!(symbol parts…)`: `pg_finfo_<symbol>`, the V1 calling convention record of the C
/// function of that symbol, as `PG_FUNCTION_INFO_V1` makes it (the parts are `concat!`ed).
macro_rules! v1_finfo {
    ($($symbol:tt)+) => {
        /// The V1 calling convention record, as `PG_FUNCTION_INFO_V1` makes it.
        #[unsafe(export_name = concat!("pg_finfo_", $($symbol)+))]
        pub extern "C" fn finfo() -> &'static pgrx::pg_sys::Pg_finfo_record {
            const V1: pgrx::pg_sys::Pg_finfo_record = pgrx::pg_sys::Pg_finfo_record { api_version: 1 };
            &V1
        }
    };
}
pub(crate) use v1_finfo;

/// The first argument of a V1 call, unless it is NULL or missing: a C function declared by
/// hand (a superuser's) without STRICT or without the argument then gives NULL rather than read
/// what is not there.
///
/// # Safety
/// `fcinfo` is the function manager's, with `nargs` arguments.
#[inline(always)]
pub unsafe fn first_arg(fcinfo: &pgrx::pg_sys::FunctionCallInfoBaseData) -> Option<pgrx::pg_sys::Datum> {
    // SAFETY: the arguments array holds `nargs` entries.
    let args = unsafe { fcinfo.args.as_slice(fcinfo.nargs.max(0) as usize) };
    args.first().filter(|a| !a.isnull).map(|a| a.value)
}

/// A V1 call's NULL result.
#[inline(always)]
pub fn null(fcinfo: &mut pgrx::pg_sys::FunctionCallInfoBaseData) -> pgrx::pg_sys::Datum {
    fcinfo.isnull = true;
    pgrx::pg_sys::Datum::from(0)
}

/// `uuid_function!(name, "name", "CREATE FUNCTION …", |bytes| -> Option<Datum> { … });` — see
/// the module documentation (pgrx's `extension_sql!` takes literals only, hence the name twice
/// and the whole statement).
macro_rules! uuid_function {
    ($(#[$doc:meta])* $name:ident, $label:literal, $sql:literal, |$bytes:ident| $body:block) => {
        $(#[$doc])*
        pub mod $name {
            use super::*;
            use pgrx::pg_sys;

            $crate::pg::fmgr::v1_finfo!(stringify!($name), "_wrapper");

            /// The function itself.
            ///
            /// # Safety
            /// Called by PostgreSQL's function manager only, with one non-NULL `uuid`.
            #[unsafe(export_name = concat!(stringify!($name), "_wrapper"))]
            pub unsafe extern "C" fn call(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
                // SAFETY: the function manager passes a valid fcinfo.
                let fcinfo = unsafe { &mut *fcinfo };
                // SAFETY: as above.
                let result: Option<pg_sys::Datum> = match unsafe { $crate::pg::fmgr::first_arg(fcinfo) } {
                    Some(arg) => {
                        // SAFETY: a non-NULL uuid datum points to its 16 bytes.
                        let $bytes: &[u8; 16] = unsafe { &*arg.cast_mut_ptr::<[u8; 16]>() };
                        $body
                    }
                    None => None,
                };
                result.unwrap_or_else(|| $crate::pg::fmgr::null(fcinfo))
            }

            pgrx::extension_sql!($sql, name = $label);
        }
    };
}
pub(crate) use uuid_function;

/// `generator_function!(name, "name", "CREATE FUNCTION …", || -> Option<Bytes> { fast }, slow);`
/// — a function of no arguments that returns a fresh `uuid`, as a plain V1 C function under the
/// C symbol pgrx gave the SQL function of that name (`<"name">_wrapper`), in a module `name`.
///
/// The fast path computes the value with no PostgreSQL call and no allocation of its own (its
/// body must not panic either: [`crate::pg::guards::abort_on_panic`] makes sure), and takes 16 bytes
/// from PostgreSQL's allocator without its error path (`MCXT_ALLOC_NO_OOM`: NULL instead of an
/// ERROR; [`uuid_datum`]). Whenever the fast path cannot answer — `None` from the body (a
/// setting it does not handle, a value it cannot make) — `slow` answers instead: a Rust
/// function returning the value through pgrx, which raises every error properly. It is called
/// with nothing of the fast path's left to drop, so an ERROR it raises may skip this frame.
macro_rules! generator_function {
    ($(#[$doc:meta])* $name:ident, $label:literal, $sql:literal, || $body:block, $slow:path) => {
        $(#[$doc])*
        pub mod $name {
            use super::*;
            use pgrx::pg_sys;

            $crate::pg::fmgr::v1_finfo!($label, "_wrapper");

            /// The function itself.
            ///
            /// # Safety
            /// Called by PostgreSQL's function manager only.
            #[unsafe(export_name = concat!($label, "_wrapper"))]
            pub unsafe extern "C-unwind" fn call(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
                let fast: Option<[u8; 16]> = $crate::pg::guards::abort_on_panic(|| $body);
                match fast {
                    // SAFETY: called by the function manager, nothing of this frame to drop.
                    Some(bytes) => unsafe { $crate::pg::fmgr::uuid_datum(&bytes) },
                    // SAFETY: the function manager's fcinfo, passed on.
                    None => unsafe { slow(fcinfo) },
                }
            }

            #[pgrx::pg_guard]
            unsafe extern "C-unwind" fn slow(_fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
                pgrx::IntoDatum::into_datum($slow()).expect("a uuid is never NULL")
            }

            pgrx::extension_sql!($sql, name = $label);
        }
    };
}
pub(crate) use generator_function;

/// `MCXT_ALLOC_NO_OOM`.
pub const NO_OOM: core::ffi::c_int = pgrx::pg_sys::MCXT_ALLOC_NO_OOM as core::ffi::c_int;

crate::pg::ffi::unguarded! {
    /// PostgreSQL's `MemoryContextAllocExtended()`, called directly rather than through pgrx's
    /// error guard: with [`NO_OOM`] it returns NULL instead of raising an ERROR (and a size this
    /// small is always valid), so there is nothing to guard.
    pub fn alloc_no_oom(
        context: pgrx::pg_sys::MemoryContext,
        size: usize,
        flags: core::ffi::c_int,
    ) -> *mut core::ffi::c_void = MemoryContextAllocExtended;
}

/// 16 bytes as a `uuid` Datum in the current memory context: allocated without the error path
/// ([`alloc_no_oom`]), or, when that finds no memory, through [`uuid_datum_or_error`], which
/// raises PostgreSQL's "out of memory" ERROR.
///
/// # Safety
/// Called from a V1 C function with nothing left to drop in the frames between it and the
/// function manager (an ERROR may skip them).
#[inline(always)]
pub unsafe fn uuid_datum(bytes: &[u8; 16]) -> pgrx::pg_sys::Datum {
    // SAFETY: an allocation in the current memory context that returns NULL rather than raise.
    let out = unsafe { alloc_no_oom(pgrx::pg_sys::CurrentMemoryContext, 16, NO_OOM) };
    if out.is_null() {
        // SAFETY: as this function's contract.
        return unsafe { uuid_datum_or_error(bytes) };
    }
    // SAFETY: `out` holds 16 writable bytes.
    unsafe { core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.cast::<u8>(), 16) };
    pgrx::pg_sys::Datum::from(out)
}

/// [`uuid_datum`]'s slow path: pgrx's allocation, whose failure is an ERROR.
#[pgrx::pg_guard]
#[cold]
unsafe extern "C-unwind" fn uuid_datum_or_error(bytes: &[u8; 16]) -> pgrx::pg_sys::Datum {
    pgrx::IntoDatum::into_datum(pgrx::Uuid::from_bytes(*bytes)).expect("a uuid is never NULL")
}

/// `bound_function!(name, "name", "CREATE FUNCTION …", |microseconds| -> Bytes { … });` — a
/// function of one `timestamptz` (microseconds since 2000, `i64::MIN`/`i64::MAX` for
/// ∓infinity) that returns a `uuid`, as a plain V1 C function (as [`generator_function!`]): the
/// time windows' bounds, which a filter may compute once per row. The body computes the value
/// with no PostgreSQL call and no allocation (under [`crate::pg::guards::abort_on_panic`]), so it
/// always answers; a NULL or missing argument (declared by hand without STRICT) gives NULL.
macro_rules! bound_function {
    ($(#[$doc:meta])* $name:ident, $label:literal, $sql:literal, |$us:ident| $body:block) => {
        $(#[$doc])*
        pub mod $name {
            use super::*;
            use pgrx::pg_sys;

            $crate::pg::fmgr::v1_finfo!($label, "_wrapper");

            /// The function itself.
            ///
            /// # Safety
            /// Called by PostgreSQL's function manager only.
            #[unsafe(export_name = concat!($label, "_wrapper"))]
            pub unsafe extern "C-unwind" fn call(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
                // SAFETY: the function manager passes a valid fcinfo.
                let fc = unsafe { &mut *fcinfo };
                // SAFETY: as above.
                let Some(arg) = (unsafe { $crate::pg::fmgr::first_arg(fc) }) else {
                    return $crate::pg::fmgr::null(fc);
                };
                // A timestamptz is an int64 passed by value.
                let $us: i64 = arg.value() as i64;
                let bytes: [u8; 16] = $crate::pg::guards::abort_on_panic(|| $body);
                // SAFETY: called by the function manager, nothing of this frame to drop.
                unsafe { $crate::pg::fmgr::uuid_datum(&bytes) }
            }

            pgrx::extension_sql!($sql, name = $label);
        }
    };
}
pub(crate) use bound_function;

/// `uuid_map_function!(name, "name", "CREATE FUNCTION …", |bytes| -> Option<Option<Bytes>> { fast }, slow);`
/// — a function of one `uuid` that returns a `uuid` or NULL, as a plain V1 C function (as
/// [`generator_function!`]): the fast path answers `Some(value)` (`Some(None)` for NULL) with no
/// PostgreSQL call and no allocation of its own, under [`crate::pg::guards::abort_on_panic`], or
/// `None` when it cannot (state to load, an error to raise); then `slow(uuid) -> Option<Uuid>`
/// answers through pgrx, which raises every error properly.
macro_rules! uuid_map_function {
    ($(#[$doc:meta])* $name:ident, $label:literal, $sql:literal, |$bytes:ident| $body:block, $slow:path) => {
        $(#[$doc])*
        pub mod $name {
            use super::*;
            use pgrx::pg_sys;

            $crate::pg::fmgr::v1_finfo!($label, "_wrapper");

            /// The function itself.
            ///
            /// # Safety
            /// Called by PostgreSQL's function manager only.
            #[unsafe(export_name = concat!($label, "_wrapper"))]
            pub unsafe extern "C-unwind" fn call(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
                // SAFETY: the function manager passes a valid fcinfo.
                let fc = unsafe { &mut *fcinfo };
                // SAFETY: as above.
                let Some(arg) = (unsafe { $crate::pg::fmgr::first_arg(fc) }) else {
                    return $crate::pg::fmgr::null(fc);
                };
                // SAFETY: a non-NULL uuid datum points to its 16 bytes.
                let $bytes: &[u8; 16] = unsafe { &*arg.cast_mut_ptr::<[u8; 16]>() };
                let fast: Option<Option<[u8; 16]>> = $crate::pg::guards::abort_on_panic(|| $body);
                match fast {
                    Some(None) => $crate::pg::fmgr::null(fc),
                    // SAFETY: called by the function manager, nothing of this frame to drop.
                    Some(Some(bytes)) => unsafe { $crate::pg::fmgr::uuid_datum(&bytes) },
                    // SAFETY: the function manager's fcinfo, passed on.
                    None => unsafe { slow(fcinfo) },
                }
            }

            #[pgrx::pg_guard]
            unsafe extern "C-unwind" fn slow(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
                // SAFETY: checked above: argument 0 is a non-NULL uuid.
                let id: pgrx::Uuid = unsafe { pgrx::fcinfo::pg_getarg(fcinfo, 0) }.expect("a non-NULL uuid");
                match $slow(id) {
                    Some(value) => pgrx::IntoDatum::into_datum(value).expect("a uuid is never NULL"),
                    None => {
                        // SAFETY: the function manager's fcinfo.
                        unsafe { (*fcinfo).isnull = true };
                        pg_sys::Datum::from(0)
                    }
                }
            }

            pgrx::extension_sql!($sql, name = $label);
        }
    };
}
pub(crate) use uuid_map_function;
