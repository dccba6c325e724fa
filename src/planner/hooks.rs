//! The planner's entrance: every hook uuid_ext installs, in the order PostgreSQL calls them
//! for one query, each chained after whatever hook was there before (another extension's,
//! called first, with the same arguments) and each no more than the edge between PostgreSQL
//! and the module that does the work. An error PostgreSQL raises inside reaches the client
//! unchanged ([`boundary::hook`]); nothing acts while `uuid_ext.time_index_conditions` is off.
//!
//! | hook | when PostgreSQL calls it | what it does here |
//! |---|---|---|
//! | `planner_hook` | once per query, before planning | adds the key range a window implies to a partitioned table's quals, so partitions are pruned ([`super::partitions`]) |
//! | `set_rel_pathlist_hook` | once per table, after PostgreSQL's own paths | offers index paths for windows and ordered reads ([`super::index_paths`]) and the ordered Append of a partitioned table's partitions for the joins above it ([`super::ordered_appends`]); makes a partition's pruning bounds InitPlans ([`super::initplan_bounds`]) |
//! | `create_upper_paths_hook` | once per upper stage | offers the ordered Append to the query's ORDER BY ([`super::ordered_appends`]) |
//!
//! PostgreSQL has no way to unload a library, so nothing is ever uninstalled: a backend keeps
//! the hooks from `_PG_init` to its exit.

use crate::functions::gucs;
use crate::pg::boundary;
use core::ffi::c_void;
use pgrx::pg_sys;

static mut PREV_PLANNER: pg_sys::planner_hook_type = None;
static mut PREV_PATHLIST: pg_sys::set_rel_pathlist_hook_type = None;
static mut PREV_UPPER: pg_sys::create_upper_paths_hook_type = None;

/// Installs every hook (from `_PG_init`), each after whatever hook was there, and the cache
/// callbacks that keep what the hooks look up ([`crate::pg::cache`]).
pub fn install() {
    // SAFETY: _PG_init runs once per process, single-threaded, before any planning.
    unsafe {
        PREV_PLANNER = pg_sys::planner_hook;
        pg_sys::planner_hook = Some(crate::pg::compat::planner_hook);
        PREV_PATHLIST = pg_sys::set_rel_pathlist_hook;
        pg_sys::set_rel_pathlist_hook = Some(rel_pathlist);
        PREV_UPPER = pg_sys::create_upper_paths_hook;
        pg_sys::create_upper_paths_hook = Some(upper_paths);
    }
    crate::pg::cache::init();
}

/// The planner hook's body; [`crate::pg::compat::planner_hook`] is its entry, with the arguments
/// of this major.
///
/// # Safety
/// PostgreSQL's planner arguments, from the hook's entry.
pub unsafe fn planner(args: crate::pg::compat::PlannerArgs) -> *mut pg_sys::PlannedStmt {
    // SAFETY: PostgreSQL's planner arguments; the previous hook (or the standard planner) gets
    // them unchanged but for the conjuncts the rewrite adds. The hook's whole body.
    unsafe {
        boundary::hook(|| {
            super::plan(args.parse, gucs::time_index_conditions(), || boundary::catching(|| args.plan(PREV_PLANNER)))
        })
    }
}

unsafe extern "C-unwind" fn rel_pathlist(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    rti: pg_sys::Index,
    rte: *mut pg_sys::RangeTblEntry,
) {
    // SAFETY: PostgreSQL calls this with the planner's own structures for one relation, after
    // making its own paths for it and before choosing among them. The hook's whole body.
    unsafe {
        boundary::hook(|| {
            if let Some(prev) = PREV_PATHLIST {
                boundary::catching(|| prev(root, rel, rti, rte));
            }
            if gucs::time_index_conditions() {
                super::index_paths::add_paths(root, rel, rte);
                super::ordered_appends::add_ordered_append(root, rel, rte);
                super::initplan_bounds::hoist(root, rel, rte);
            }
        })
    }
}

unsafe extern "C-unwind" fn upper_paths(
    root: *mut pg_sys::PlannerInfo,
    stage: pg_sys::UpperRelationKind::Type,
    input_rel: *mut pg_sys::RelOptInfo,
    output_rel: *mut pg_sys::RelOptInfo,
    extra: *mut c_void,
) {
    // SAFETY: PostgreSQL calls this with the planner's own structures for one stage, after
    // making its own paths for it and before choosing among them. The hook's whole body.
    unsafe {
        boundary::hook(|| {
            if let Some(prev) = PREV_UPPER {
                boundary::catching(|| prev(root, stage, input_rel, output_rel, extra));
            }
            if stage == pg_sys::UpperRelationKind::UPPERREL_ORDERED && gucs::time_index_conditions() {
                super::ordered_appends::add_ordered_output(root, input_rel, output_rel);
            }
        })
    }
}
