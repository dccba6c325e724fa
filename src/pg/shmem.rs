//! Shared memory for `uuid_ext.v7_scope = 'cluster'`: one atomic 64-bit v7
//! position for the whole server (see `uuid_ext_core::monotonic::next_cluster`).
//! It exists only when the library is in `shared_preload_libraries`.

use crate::pg::errors::error;
use pgrx::prelude::*;
use pgrx::{pg_shmem_init, PgAtomic, PgSqlErrorCode};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

// SAFETY: the name is unique to this extension.
static CLUSTER_V7: PgAtomic<AtomicU64> = unsafe { PgAtomic::new(c"uuid_ext cluster v7 position") };
static PRELOADED: AtomicBool = AtomicBool::new(false);

/// Called from `_PG_init`: requests the shared memory when the postmaster
/// preloads the library (the only time shared memory can be requested).
pub fn init() {
    // SAFETY: a plain flag PostgreSQL sets while loading shared_preload_libraries.
    if unsafe { pg_sys::process_shared_preload_libraries_in_progress } {
        pg_shmem_init!(CLUSTER_V7);
        PRELOADED.store(true, Ordering::Relaxed);
    }
}

/// The shared v7 position, or an error naming the missing setting.
pub fn cluster_v7() -> &'static AtomicU64 {
    if !PRELOADED.load(Ordering::Relaxed) {
        error(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            "uuid_ext.v7_scope = 'cluster' requires uuid_ext in shared_preload_libraries".to_owned(),
            None,
            Some("Add uuid_ext to shared_preload_libraries and restart the server, or use v7_scope = 'backend'."),
        );
    }
    CLUSTER_V7.get()
}
