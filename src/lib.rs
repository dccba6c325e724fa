//! uuid_ext: RFC 9562 UUIDs for PostgreSQL.
//!
//! Everything that is not PostgreSQL glue — layouts, decoding, the monotonic
//! state machines, the per-backend clock/RNG/generator state — is the
//! workspace crate `uuid_ext_core` (crates/uuid_ext_core), which knows nothing
//! of PostgreSQL. This crate is the SQL face over it:
//! * [`generate`], [`inspect`], [`bounds`], [`opclass`], [`forms`]: the thin
//!   `#[pg_extern]` SQL face; [`gucs`]: configuration; [`convert`],
//!   [`errors`]: type and error mapping.
//! * [`planner`]: the planner hook behind time windows on UUID keys;
//!   [`server_assigned`]: the immutable-key trigger; [`migrate`]: moving
//!   databases from uuid-ossp and pg_uuidv7; [`shmem`]: cluster-scope v7;
//!   [`syscatalog`]: scans of catalogs pgrx does not bind.

pub mod bounds;
mod catalog_ids;
pub mod convert;
pub mod errors;
mod fmgr;
pub mod forms;
pub mod generate;
mod guards;
pub mod gucs;
pub mod inspect;
mod install;
mod members;
pub mod migrate;
pub mod opclass;
pub mod planner;
pub mod public_ids;
pub mod server_assigned;
pub mod shmem;
pub mod syscatalog;

::pgrx::pg_module_magic!(name, version);

#[pgrx::pg_guard]
pub extern "C-unwind" fn _PG_init() {
    no_backtraces();
    gucs::init();
    public_ids::init();
    gucs::reserve_prefix();
    shmem::init();
    planner::init();
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

#[cfg(any(test, feature = "pg_test"))]
#[pgrx::pg_schema]
mod tests {
    use pgrx::prelude::*;

    #[pg_test]
    fn v7_values_increase_and_carry_version_7() {
        let a = crate::generate::uuid_generate_v7();
        let b = crate::generate::uuid_generate_v7();
        assert!(b.as_bytes() > a.as_bytes());
        assert_eq!(a.as_bytes()[6] >> 4, 7);
    }

    #[pg_test]
    fn sql_v5_reproduces_appendix_a4() {
        let got = Spi::get_one::<String>("SELECT uuid_generate_v5(uuid_ns_dns(), 'www.example.com')::text");
        assert_eq!(got, Ok(Some("2ed6657d-e927-568b-95e1-2665a8aea6a2".to_string())));
    }

    /// The test server does not preload the library: cluster scope must say so, not crash.
    #[pg_test(error = "uuid_ext.v7_scope = 'cluster' requires uuid_ext in shared_preload_libraries")]
    fn cluster_scope_without_preload_is_a_clear_error() {
        Spi::run("SET uuid_ext.v7_scope = 'cluster'").unwrap();
        Spi::run("SELECT uuid_generate_v7()").unwrap();
    }

    #[pg_test(error = "timestamp out of range for UUID version 7")]
    fn v7_before_1970_is_an_error() {
        Spi::run("SELECT uuid_timestamptz_to_v7('1969-12-31 23:59:59+00')").unwrap();
    }
}

/// Required by `cargo pgrx test`.
#[cfg(test)]
pub mod pg_test {
    pub fn setup(_options: Vec<&str>) {}

    #[must_use]
    pub fn postgresql_conf_options() -> Vec<&'static str> {
        vec![]
    }
}
