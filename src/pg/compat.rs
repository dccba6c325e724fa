//! Every difference between the PostgreSQL majors uuid_ext builds for, in one place: each item
//! here is the one spelling of something PostgreSQL names or shapes differently from one
//! major to another, and no other module tests a `pgNN` feature. A new major starts here:
//! each item names the older majors, so a newer one takes the newest behaviour.

use core::ffi::{c_char, c_int, c_void};
use pgrx::pg_sys;

/// Reserves a settings prefix: a placeholder of an undefined name under it is removed with a
/// WARNING (`MarkGUCPrefixReserved()`; 14's `EmitWarningsOnPlaceholders()` only warns).
///
/// # Safety
/// From `_PG_init`, once every setting of the prefix is defined.
pub unsafe fn reserve_guc_prefix(prefix: &core::ffi::CStr) {
    // SAFETY: as the caller vouches.
    unsafe {
        #[cfg(feature = "pg14")]
        pg_sys::EmitWarningsOnPlaceholders(prefix.as_ptr());
        #[cfg(not(feature = "pg14"))]
        pg_sys::MarkGUCPrefixReserved(prefix.as_ptr());
    }
}

/// Whether PostgreSQL re-plans a cached plan that depends on its role after a change of role
/// memberships by itself (15 and later; on 14 the planner cache resets plans itself).
pub const REPLANS_ON_MEMBERSHIP_CHANGE: bool = cfg!(not(feature = "pg14"));

/// Whether the current user may EXECUTE function `f` (`object_aclcheck()`; before 16
/// `pg_proc_aclcheck()`).
///
/// # Safety
/// Inside a transaction; `f` exists.
pub unsafe fn may_execute_function(f: pg_sys::Oid) -> bool {
    // SAFETY: as the caller vouches.
    unsafe {
        #[cfg(any(feature = "pg14", feature = "pg15"))]
        let result = pg_sys::pg_proc_aclcheck(f, pg_sys::GetUserId(), pg_sys::ACL_EXECUTE as pg_sys::AclMode);
        #[cfg(not(any(feature = "pg14", feature = "pg15")))]
        let result = pg_sys::object_aclcheck(
            pg_sys::ProcedureRelationId,
            f,
            pg_sys::GetUserId(),
            pg_sys::ACL_EXECUTE as pg_sys::AclMode,
        );
        result == pg_sys::AclResult::ACLCHECK_OK
    }
}

/// Core's `uuid_extract_timestamp()` and `uuid_extract_version()` (17 and later), by their
/// fixed OIDs; and the first whose `uuid_extract_timestamp()` reads v7 (18).
pub mod core_functions {
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16")))]
    pub const EXTRACT_TIMESTAMP: Option<u32> = Some(pgrx::pg_sys::F_UUID_EXTRACT_TIMESTAMP);
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16")))]
    pub const EXTRACT_VERSION: Option<u32> = Some(pgrx::pg_sys::F_UUID_EXTRACT_VERSION);
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16"))]
    pub const EXTRACT_TIMESTAMP: Option<u32> = None;
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16"))]
    pub const EXTRACT_VERSION: Option<u32> = None;
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17")))]
    pub const EXTRACT_TIMESTAMP_V7: Option<u32> = Some(pgrx::pg_sys::F_UUID_EXTRACT_TIMESTAMP);
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17"))]
    pub const EXTRACT_TIMESTAMP_V7: Option<u32> = None;
}

/// `make_simple_restrictinfo()` with a security level (16 added `has_clone`/`is_clone`).
///
/// # Safety
/// While planning; `clause` a restriction clause of one relation.
pub unsafe fn restrict_info(
    root: *mut pg_sys::PlannerInfo,
    clause: *mut pg_sys::Expr,
    security_level: pg_sys::Index,
) -> *mut pg_sys::RestrictInfo {
    let none = core::ptr::null_mut();
    // SAFETY: as the caller vouches; the arguments make_simple_restrictinfo() passes.
    unsafe {
        #[cfg(any(feature = "pg14", feature = "pg15"))]
        return pg_sys::make_restrictinfo(root, clause, true, false, false, security_level, none, none, none);
        #[cfg(not(any(feature = "pg14", feature = "pg15")))]
        return pg_sys::make_restrictinfo(root, clause, true, false, false, false, security_level, none, none, none);
    }
}

/// Whether a btree path key sorts descending: its strategy is `BTGreaterStrategyNumber`
/// (before 18), its compare type `COMPARE_GT` (18).
///
/// # Safety
/// `pathkey` is a planner PathKey.
pub unsafe fn pathkey_descending(pathkey: *const pg_sys::PathKey) -> bool {
    // SAFETY: as the caller vouches.
    unsafe {
        #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17"))]
        return (*pathkey).pk_strategy == pg_sys::BTGreaterStrategyNumber as i32;
        #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17")))]
        return (*pathkey).pk_cmptype == pg_sys::CompareType::COMPARE_GT;
    }
}

/// The members an equivalence class keeps apart for child relation `relid` (18 keeps child
/// members by relation; before, they are among `ec_members`): a List, NULL for none.
///
/// # Safety
/// `class` is a planner EquivalenceClass.
pub unsafe fn child_members(class: *const pg_sys::EquivalenceClass, relid: pg_sys::Index) -> *mut pg_sys::List {
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17"))]
    {
        let _ = (class, relid);
        core::ptr::null_mut()
    }
    // SAFETY: as the caller vouches; the array has ec_childmembers_size entries.
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17")))]
    unsafe {
        if (relid as i32) < (*class).ec_childmembers_size && !(*class).ec_childmembers.is_null() {
            *(*class).ec_childmembers.add(relid as usize)
        } else {
            core::ptr::null_mut()
        }
    }
}

/// Names the planner level of an InitPlan the hook makes (from 19 a plan's name is a name,
/// which `SS_make_initplan_from_plan()` takes from its level and EXPLAIN prefixes with
/// "InitPlan": `uuid_ext_bound_1`; before, PostgreSQL numbers it).
///
/// # Safety
/// `subroot` is a planner level whose `glob` is set.
pub unsafe fn name_bound_plan(subroot: *mut pg_sys::PlannerInfo) {
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
    // SAFETY: as the caller vouches.
    unsafe {
        (*subroot).plan_name = pg_sys::choose_plan_name((*subroot).glob, c"uuid_ext_bound".as_ptr(), true);
    }
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18"))]
    let _ = subroot;
}

/// Marks a Result without input as computing a value, as PostgreSQL's own plan of
/// `(SELECT expr)` (19 records a Result's kind, which EXPLAIN reads).
pub fn result_computes_value(result: &mut pg_sys::Result) {
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
    {
        result.result_type = pg_sys::ResultType::RESULT_TYPE_SCAN;
    }
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18"))]
    let _ = result;
}

/// Whether a CHECK constraint is enforced (18 added NOT ENFORCED; before, every one is).
pub fn check_enforced(check: &pg_sys::ConstrCheck) -> bool {
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17")))]
    return check.ccenforced;
    #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17"))]
    {
        let _ = check;
        true
    }
}

/// This backend's local transaction id (`MyProc->lxid`; `MyProc->vxid.lxid` from 17).
///
/// # Safety
/// In a backend (MyProc set).
pub unsafe fn local_transaction_id() -> u32 {
    // SAFETY: as the caller vouches; a plain read.
    unsafe {
        #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16"))]
        return (*pg_sys::MyProc).lxid;
        #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16")))]
        return (*pg_sys::MyProc).vxid.lxid;
    }
}

/// `heap_fetch()` that keeps the buffer pinned when the tuple is not visible (14's
/// `heap_fetch_extended(…, true)`; 15 folded it into `heap_fetch()`).
///
/// # Safety
/// As `heap_fetch()`: an open, locked heap relation and a TID inside it.
pub unsafe fn heap_fetch_keep_buf(
    rel: pg_sys::Relation,
    snapshot: pg_sys::Snapshot,
    tuple: *mut pg_sys::HeapTupleData,
    buffer: *mut pg_sys::Buffer,
) -> bool {
    // SAFETY: as the caller vouches.
    unsafe {
        #[cfg(feature = "pg14")]
        return pg_sys::heap_fetch_extended(rel, snapshot, tuple, buffer, true);
        #[cfg(not(feature = "pg14"))]
        return pg_sys::heap_fetch(rel, snapshot, tuple, buffer, true);
    }
}

/// `pg_constraint.conrelid`'s attribute number (18 added `conenforced` before it).
pub const ANUM_PG_CONSTRAINT_CONRELID: u32 =
    if cfg!(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17")) { 8 } else { 9 };

// The tree walkers, without pgrx's guard (crate::pg::boundary says why); before 16 the
// functions themselves, from 16 the ones the macros of the same names call.
/// A tree walker's callback. Called by PostgreSQL's walkers once per node, so one without
/// pgrx's guard takes about the stack of PostgreSQL's own: it must not panic, must call
/// only these functions, and must own nothing to drop (an error leaves it by `longjmp`).
pub type Walker = Option<unsafe extern "C-unwind" fn(*mut pg_sys::Node, *mut c_void) -> bool>;
// (pgrx does not bind these two before 16: scripts/ffi_headers.py checks them against the
// headers instead.)
#[cfg(any(feature = "pg14", feature = "pg15"))]
extern "C-unwind" {
    pub fn expression_tree_walker(node: *mut pg_sys::Node, walker: Walker, context: *mut c_void) -> bool;
    pub fn query_tree_walker(query: *mut pg_sys::Query, walker: Walker, context: *mut c_void, flags: c_int) -> bool;
}
// (16 and later: the macros' functions.)
#[cfg(not(any(feature = "pg14", feature = "pg15")))]
crate::pg::ffi::unguarded! {
    pub fn expression_tree_walker(node: *mut pg_sys::Node, walker: Walker, context: *mut c_void) -> bool
        = expression_tree_walker_impl;
    pub fn query_tree_walker(query: *mut pg_sys::Query, walker: Walker, context: *mut c_void, flags: c_int)
        -> bool = query_tree_walker_impl;
}

/// The comparator of unsigned abbreviated sort keys. PostgreSQL 15+ has this exact comparator,
/// and tuplesort recognises its *address* to switch to a specialised, inlined sort (as for the
/// built-in uuid_ops): pgrx's `pg_sys::ssup_datum_unsigned_cmp` is a Rust wrapper with another
/// address, so the server's symbol is linked directly. 14 has none: this one.
#[cfg(feature = "pg14")]
pub unsafe extern "C-unwind" fn abbrev_unsigned_cmp(
    a: pg_sys::Datum,
    b: pg_sys::Datum,
    _: pg_sys::SortSupport,
) -> c_int {
    crate::pg::guards::abort_on_panic(|| (a.value() as u64).cmp(&(b.value() as u64)) as c_int)
}
#[cfg(not(feature = "pg14"))]
crate::pg::ffi::unguarded! {
    pub fn abbrev_unsigned_cmp(x: pg_sys::Datum, y: pg_sys::Datum, ssup: pg_sys::SortSupport) -> c_int
        = ssup_datum_unsigned_cmp;
}

/// The planner hook's arguments (19 added the `ExplainState` of an EXPLAIN that plans).
pub struct PlannerArgs {
    pub parse: *mut pg_sys::Query,
    query_string: *const c_char,
    cursor_options: c_int,
    bound_params: pg_sys::ParamListInfo,
    #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
    explain: *mut pg_sys::ExplainState,
}

impl PlannerArgs {
    /// Plans with `previous` (another extension's hook), or the standard planner, passing the
    /// arguments as they came.
    ///
    /// # Safety
    /// Under [`crate::pg::boundary`] (the standard planner is called without pgrx's guard).
    pub unsafe fn plan(&self, previous: pg_sys::planner_hook_type) -> *mut pg_sys::PlannedStmt {
        let (p, q, c, b) = (self.parse, self.query_string, self.cursor_options, self.bound_params);
        // SAFETY: PostgreSQL's own arguments, forwarded.
        unsafe {
            #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18"))]
            return match previous {
                Some(prev) => prev(p, q, c, b),
                None => standard_planner(p, q, c, b),
            };
            #[cfg(not(any(
                feature = "pg14",
                feature = "pg15",
                feature = "pg16",
                feature = "pg17",
                feature = "pg18"
            )))]
            return match previous {
                Some(prev) => prev(p, q, c, b, self.explain),
                None => standard_planner(p, q, c, b, self.explain),
            };
        }
    }
}

/// The planner hook's entry: the arguments of this major, to [`crate::planner`]'s hook.
#[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18"))]
pub unsafe extern "C-unwind" fn planner_hook(
    parse: *mut pg_sys::Query,
    query_string: *const c_char,
    cursor_options: c_int,
    bound_params: pg_sys::ParamListInfo,
) -> *mut pg_sys::PlannedStmt {
    // SAFETY: PostgreSQL's planner arguments.
    unsafe { crate::planner::hooks::planner(PlannerArgs { parse, query_string, cursor_options, bound_params }) }
}
#[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
pub unsafe extern "C-unwind" fn planner_hook(
    parse: *mut pg_sys::Query,
    query_string: *const c_char,
    cursor_options: c_int,
    bound_params: pg_sys::ParamListInfo,
    explain: *mut pg_sys::ExplainState,
) -> *mut pg_sys::PlannedStmt {
    // SAFETY: PostgreSQL's planner arguments.
    unsafe {
        crate::planner::hooks::planner(PlannerArgs { parse, query_string, cursor_options, bound_params, explain })
    }
}

// The standard planner, without pgrx's guard (called under crate::pg::boundary).
#[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18"))]
crate::pg::ffi::unguarded! {
    fn standard_planner(
        parse: *mut pg_sys::Query,
        query_string: *const c_char,
        cursor_options: c_int,
        bound_params: pg_sys::ParamListInfo,
    ) -> *mut pg_sys::PlannedStmt = standard_planner;
}
#[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
crate::pg::ffi::unguarded! {
    fn standard_planner(
        parse: *mut pg_sys::Query,
        query_string: *const c_char,
        cursor_options: c_int,
        bound_params: pg_sys::ParamListInfo,
        explain: *mut pg_sys::ExplainState,
    ) -> *mut pg_sys::PlannedStmt = standard_planner;
}

/// A non-parallel `create_append_path()` of `subpaths` in this order, for the relation's own
/// rows (19 takes the subpath lists as one `AppendPathInput`).
///
/// # Safety
/// While planning; `subpaths` are paths of `rel`'s children, in the order of `pathkeys`.
pub unsafe fn append_path(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    subpaths: *mut pg_sys::List,
    pathkeys: *mut pg_sys::List,
) -> *mut pg_sys::AppendPath {
    let none = core::ptr::null_mut();
    // SAFETY: as the caller vouches.
    unsafe {
        #[cfg(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18"))]
        return pg_sys::create_append_path(root, rel, subpaths, none, pathkeys, core::ptr::null_mut(), 0, false, -1.0);
        #[cfg(not(any(feature = "pg14", feature = "pg15", feature = "pg16", feature = "pg17", feature = "pg18")))]
        return pg_sys::create_append_path(
            root,
            rel,
            pg_sys::AppendPathInput { subpaths, partial_subpaths: none, child_append_relid_sets: none },
            pathkeys,
            core::ptr::null_mut(),
            0,
            false,
            -1.0,
        );
    }
}
