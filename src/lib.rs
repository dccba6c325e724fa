//! uuid_ext: RFC 9562 UUIDs for PostgreSQL.
//!
//! Everything that is not PostgreSQL glue — layouts, decoding, the monotonic
//! state machines, the per-backend clock/RNG/generator state — is the
//! workspace crate `uuid_ext_core` (crates/uuid_ext_core), which knows nothing
//! of PostgreSQL. This crate is the SQL face over it:
//! * [`functions`]: what users call, the thin SQL face (generators, extractors, bounds, the
//!   operator class's functions, text forms, public IDs) and the `uuid_ext.*` settings;
//! * [`planner`]: the planner hooks behind time windows and ordered reads on UUID keys;
//! * [`server_assigned`]: the immutable-key trigger; [`migrate`]: moving databases from
//!   uuid-ossp and pg_uuidv7; `install`: the install script's hand-written SQL;
//! * `pg`: the glue all of them share (fmgr, errors, guards, catalog lookups and caches,
//!   shared memory, the differences between the majors).
//!
//! DEVELOPING.md's "Layout" names every file.

pub mod functions;
mod install;
pub mod migrate;
mod pg;
pub mod planner;
pub mod server_assigned;

use functions::{gucs, public_ids};
use pg::shmem;

::pgrx::pg_module_magic!(name, version);

#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    no_backtraces();
    gucs::init();
    public_ids::init();
    gucs::reserve_prefix();
    shmem::init();
    planner::hooks::install();
    install::init();
}

/// pgrx captures a Rust backtrace for every PostgreSQL error that passes through Rust code and
/// puts it into the error's DETAIL whenever `RUST_BACKTRACE` (or `RUST_LIB_BACKTRACE`, which
/// takes precedence for captures) is set in the server's environment; capturing one also costs
/// ~100 ms. Users must see PostgreSQL's error, never a backtrace, so `RUST_LIB_BACKTRACE=0`
/// turns captures off — when a variable asks for them at all, and only while this process runs
/// a single thread: changing the environment while another thread may read it (one that
/// another preloaded library started, say) is undefined behaviour, so then it is left alone.
fn no_backtraces() {
    let asks = |name| std::env::var_os(name).is_some_and(|v| v != "0");
    let asked = match std::env::var_os("RUST_LIB_BACKTRACE") {
        Some(v) => v != "0",
        None => asks("RUST_BACKTRACE"),
    };
    let single_threaded = std::fs::read_to_string("/proc/self/status")
        .is_ok_and(|status| status.lines().any(|line| line.split_whitespace().eq(["Threads:", "1"])));
    if asked && single_threaded {
        std::env::set_var("RUST_LIB_BACKTRACE", "0");
    }
}

/// Required by `cargo pgrx test`. There are no `#[pg_test]`s: every check runs against an
/// installed build in a real server on every major (tests/pg_regress, tests/lifecycle); the four
/// that were here repeated them, on two majors, at the cost of a build of their own.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
