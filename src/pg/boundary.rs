//! PostgreSQL's errors through the planner hooks, unchanged.
//!
//! pgrx turns an error that PostgreSQL raises in a function it wraps into a Rust panic, and
//! raises it again where its guard ends — as a copy that keeps the message, DETAIL and HINT but
//! loses the CONTEXT lines, the error position and the object names, and reports an SQLSTATE
//! pgrx does not know (a PL/pgSQL `RAISE … USING ERRCODE = 'P0042'`) as XX000. Planning runs
//! other people's code: the functions PostgreSQL folds or estimates, every hook after ours. So
//! those calls go through
//! [`catching`], which leaves the error on PostgreSQL's error stack as it is while the Rust
//! frames above unwind, and each hook's edge ([`hook`]) raises it again as PostgreSQL's own
//! `PG_CATCH()` … `PG_RE_THROW()` would: the error the client sees is the one PostgreSQL
//! raised, with or without the library (tests: `planner_safety`).

use core::mem::MaybeUninit;
use pgrx::pg_sys;
use std::panic::AssertUnwindSafe;

/// The payload of the panic that unwinds Rust frames from a PostgreSQL error caught by
/// [`catching`] to the hook's edge; the error itself stays on PostgreSQL's error stack.
struct Pending;

extern "C-unwind" {
    /// `PG_RE_THROW()`: raises the error on top of PostgreSQL's error stack again, to the
    /// handler that was current before [`catching`] set its own. (pgrx does not bind it:
    /// scripts/ffi_headers.py checks this declaration against the headers.)
    #[link_name = "pg_re_throw"]
    fn re_throw() -> !;
}

/// Runs `f`, a call into PostgreSQL that may raise an error (and may call back into the hooks,
/// each of which is a [`hook`]). An error it raises unwinds the Rust frames between here and
/// the hook's edge as a panic (their destructors run; `crate::pg::guards` give nothing back while
/// one unwinds), and [`hook`] raises it again, unchanged.
///
/// `f` must call only PostgreSQL's C code directly — never through pgrx's guarded `pg_sys`
/// functions, whose own guard would catch the error first — and never panic: a panic cannot
/// unwind through the frame that `sigsetjmp` returns to.
///
/// # Safety
/// Inside one of the hooks (below [`hook`]), on the backend's main thread.
pub unsafe fn catching<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: the handler PostgreSQL's longjmp goes to is set for the call and restored after
    // it, as PG_TRY() does; after a longjmp, PostgreSQL's error-context stack is restored too
    // (PG_CATCH()), and nothing of PostgreSQL is called until the error is raised again.
    unsafe {
        let saved_handler = pg_sys::PG_exception_stack;
        let saved_context = pg_sys::error_context_stack;
        let mut result = MaybeUninit::uninit();
        let jumped = cee_scape::call_with_sigsetjmp(false, |jump_buffer: &cee_scape::SigJmpBufFields| {
            pg_sys::PG_exception_stack = core::ptr::from_ref(jump_buffer).cast_mut().cast();
            result.write(f());
            0
        });
        pg_sys::PG_exception_stack = saved_handler;
        pg_sys::error_context_stack = saved_context;
        if jumped != 0 {
            std::panic::panic_any(Pending);
        }
        result.assume_init()
    }
}

/// A hook's body: an error [`catching`] caught below it is raised again, unchanged, once the
/// body's frames have unwound; any other panic (a Rust panic, or an error pgrx caught in one of
/// its `pg_sys` functions) is reported by pgrx, as `#[pg_guard]` reports it.
///
/// # Safety
/// The whole body of an `extern "C-unwind"` hook, on the backend's main thread; the hook's
/// own frame holds nothing to drop (an error leaves it by `longjmp`).
pub unsafe fn hook<R>(body: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(result) => result,
        Err(payload) => {
            if (*payload).is::<Pending>() {
                drop(payload);
                // SAFETY: PostgreSQL's error is on its stack, untouched since it was raised;
                // every Rust frame it was raised through has unwound but this one, which
                // holds nothing now.
                unsafe { re_throw() }
            }
            // SAFETY: pgrx's guard at the top of an extern fn, as #[pg_guard] puts it.
            unsafe { pgrx::pg_sys::submodules::panic::pgrx_extern_c_guard(move || std::panic::resume_unwind(payload)) }
        }
    }
}

/// PostgreSQL's planner entry points, called without pgrx's guard (through [`catching`]).
pub mod unguarded {
    use core::ffi::c_void;
    use pgrx::pg_sys;

    /// The tree walkers (their names and declarations differ by major).
    pub use crate::pg::compat::{expression_tree_walker, query_tree_walker};

    crate::pg::ffi::unguarded! {
        pub fn lappend(list: *mut pg_sys::List, datum: *mut c_void) -> *mut pg_sys::List = lappend;
    }
}
