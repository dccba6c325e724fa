//! Planner integration: the hook, and the walk over a query that hands each
//! rewrite the clauses it may change.
//!
//! The rewrites, each in its own file and behind its own setting:
//!
//! | rewrite | file | setting | what it changes |
//! |---|---|---|---|
//! | time windows | [`time_windows`] | `uuid_ext.time_index_conditions` | adds, beside `uuid_extract_timestamp(id) >= X` and the like, the byte range of `id` it implies, so the key's index (or a RANGE partition key) serves it; replaces the predicate by that range where `CHECK (uuid_is_v7(id))` makes them equal |
//! | ordered reads | [`ordered_reads`] | `uuid_ext.time_index_conditions` | replaces `ORDER BY uuid_ext_timestamp(id) [DESC]` by the `uuid_time_ops` order of `id` (or, under `CHECK (uuid_is_v7(id))`, any extractor by the byte order of `id`): the same order but for ties, so the index serves it |
//!
//! None of them changes a query's result: time windows add only conjuncts
//! implied by the user's own, and only to the top-level conjuncts of a WHERE
//! or JOIN … ON clause, where a NULL and a false are the same (or replace a
//! conjunct by one that is exactly equivalent, NULLs included); ordered reads
//! swap a sort key for one of the same order (ties apart, which the query
//! leaves unordered). A clause the hook
//! added calls one of uuid_ext's `*_lower_bound`/`*_upper_bound` functions,
//! which no user predicate needs, so a plan shows which conditions are ours.
//!
//! Supporting files: [`catalog`] finds uuid_ext's objects (by name in the
//! extension's schema, used only if they are members of the extension: never
//! through `search_path`, never raising an error for a role that cannot see
//! them); [`relations`] reads the facts about tables
//! (indexes, inherited CHECK constraints) the rewrites depend on; [`cache`]
//! keeps both between plannings until PostgreSQL invalidates them.
//!
//! The hook exists in a backend once the library is loaded:
//! `shared_preload_libraries` or `session_preload_libraries = 'uuid_ext'`
//! (README, "Time windows"). Without it plans are as before and results are
//! the same, only slower.
//!
//! Plans made here are marked as depending on the planning role whenever a
//! rewrite used a bound function: the role's EXECUTE privilege on it was
//! checked, so a cached plan is re-planned, not reused, for another role.

mod cache;
mod catalog;
mod ordered_reads;

/// Fixed OIDs of pg_operator.dat and pg_opfamily.dat (the same on every major), and btree
/// strategy numbers, shared by the rewrites.
mod oids {
    pub const TIMESTAMPTZ_EQ: u32 = 1320;
    pub const TIMESTAMPTZ_LT: u32 = 1322;
    pub const TIMESTAMPTZ_LE: u32 = 1323;
    pub const TIMESTAMPTZ_GT: u32 = 1324;
    pub const TIMESTAMPTZ_GE: u32 = 1325;
    pub const UUID_BTREE_FAMILY: u32 = 2968;
    pub const BT_LESS: i16 = 1;
    pub const BT_EQUAL: i16 = 3;
    pub const BT_GREATER_EQUAL: i16 = 4;
    pub const BT_GREATER: i16 = 5;
}
mod relations;
mod time_windows;

use crate::gucs;
use catalog::Lazy;
use core::ffi::{c_char, c_void};
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag};
use pgrx::prelude::*;

static mut PREV_PLANNER: pg_sys::planner_hook_type = None;

/// Installs the hook (from `_PG_init`), after whatever hook was there.
pub fn init() {
    // SAFETY: _PG_init runs once per process, single-threaded.
    unsafe {
        PREV_PLANNER = pg_sys::planner_hook;
        pg_sys::planner_hook = Some(planner);
    }
    cache::init();
}

/// What one planning's rewrites share.
pub struct Walk {
    catalog: Lazy,
    /// A rewrite injected a call whose EXECUTE privilege was checked for this role.
    depends_on_role: bool,
    /// Relations scanned with their descendants whose CHECK proof a rewrite relied on, with
    /// the tree the proof covered: checked again against the finished plan.
    proven_trees: Vec<(pg_sys::Oid, std::rc::Rc<Vec<pg_sys::Oid>>)>,
    /// A CHECK proof was too recent to count ([`relations::Facts::proof`]): the plan is to be
    /// made again in a later transaction.
    pub transient: bool,
}

#[pg_guard]
unsafe extern "C-unwind" fn planner(
    parse: *mut pg_sys::Query,
    query_string: *const c_char,
    cursor_options: core::ffi::c_int,
    bound_params: pg_sys::ParamListInfo,
) -> *mut pg_sys::PlannedStmt {
    let mut walk =
        Walk { catalog: Lazy::Unresolved, depends_on_role: false, proven_trees: Vec::new(), transient: false };
    if gucs::time_index_conditions() {
        rewrite_query(parse, &mut walk);
    }
    let planned = match PREV_PLANNER {
        Some(prev) => prev(parse, query_string, cursor_options, bound_params),
        None => pg_sys::standard_planner(parse, query_string, cursor_options, bound_params),
    };
    if walk.depends_on_role && !planned.is_null() {
        (*planned).dependsOnRole = true;
    }
    if walk.transient && !planned.is_null() {
        (*planned).transientPlan = true;
    }
    if !walk.proven_trees.is_empty() && !planned.is_null() {
        relations::no_relation_joined((*planned).relationOids, &walk.proven_trees);
    }
    planned
}

/// The pointers of a List of nodes.
unsafe fn cells(list: *mut pg_sys::List) -> impl Iterator<Item = *mut Node> {
    let len = if list.is_null() { 0 } else { (*list).length as usize };
    (0..len).map(move |i| (*(*list).elements.add(i)).ptr_value.cast())
}

/// Rewrites a query and every query inside it: subqueries in FROM (views
/// among them), CTEs and, when the query has any, sublinks. Plain Rust loops
/// for the first two, so a query without sublinks costs no tree walk at all.
unsafe fn rewrite_query(query: *mut pg_sys::Query, walk: &mut Walk) {
    // The walks below recurse as deep as the query nests: past max_stack_depth that is
    // PostgreSQL's ERROR (54001), as in its own walkers, never a stack overflow.
    pg_sys::check_stack_depth();
    if matches!(
        (*query).commandType,
        pg_sys::CmdType::CMD_SELECT | pg_sys::CmdType::CMD_UPDATE | pg_sys::CmdType::CMD_DELETE
    ) {
        rewrite_from(query, (*query).jointree.cast(), walk);
    }
    if !(*query).sortClause.is_null() && ordered_reads::rewrite(query, walk) {
        walk.depends_on_role = true;
    }
    for rte in cells((*query).rtable) {
        let rte: *mut pg_sys::RangeTblEntry = rte.cast();
        if (*rte).rtekind == pg_sys::RTEKind::RTE_SUBQUERY && !(*rte).subquery.is_null() {
            rewrite_query((*rte).subquery, walk);
        }
    }
    for cte in cells((*query).cteList) {
        let cte: *mut pg_sys::CommonTableExpr = cte.cast();
        if !(*cte).ctequery.is_null() && is_a((*cte).ctequery, NodeTag::T_Query) {
            rewrite_query((*cte).ctequery.cast(), walk);
        }
    }
    if (*query).hasSubLinks {
        let flags = (pg_sys::QTW_IGNORE_RT_SUBQUERIES | pg_sys::QTW_IGNORE_CTE_SUBQUERIES) as i32;
        pg_sys::query_tree_walker(query, Some(sublinks), (walk as *mut Walk).cast(), flags);
    }
}

/// Finds the queries of sublinks in a query's expressions.
#[pg_guard]
unsafe extern "C-unwind" fn sublinks(node: *mut Node, walk: *mut c_void) -> bool {
    if node.is_null() {
        return false;
    }
    if is_a(node, NodeTag::T_Query) {
        rewrite_query(node.cast(), &mut *walk.cast::<Walk>());
        return false;
    }
    pg_sys::expression_tree_walker(node, Some(sublinks), walk)
}

/// Adds derived conjuncts to the quals of every FROM list and JOIN of a query.
unsafe fn rewrite_from(query: *mut pg_sys::Query, node: *mut Node, walk: &mut Walk) {
    if node.is_null() {
        return;
    }
    pg_sys::check_stack_depth();
    if is_a(node, NodeTag::T_FromExpr) {
        let from: *mut pg_sys::FromExpr = node.cast();
        for item in cells((*from).fromlist) {
            rewrite_from(query, item, walk);
        }
        (*from).quals = with_derived(query, (*from).quals, walk);
    } else if is_a(node, NodeTag::T_JoinExpr) {
        let join: *mut pg_sys::JoinExpr = node.cast();
        rewrite_from(query, (*join).larg, walk);
        rewrite_from(query, (*join).rarg, walk);
        (*join).quals = with_derived(query, (*join).quals, walk);
    }
}

/// The top-level conjuncts of a qual (nested ANDs, as BETWEEN makes, flattened), appended to
/// `out`: a List in PostgreSQL's memory, whose size follows the query's (running out of it is
/// an ERROR, not an abort of the server).
unsafe fn conjuncts(qual: *mut Node, out: &mut *mut pg_sys::List) {
    if qual.is_null() {
        return;
    }
    pg_sys::check_stack_depth();
    if is_a(qual, NodeTag::T_BoolExpr) && (*qual.cast::<pg_sys::BoolExpr>()).boolop == pg_sys::BoolExprType::AND_EXPR {
        for arg in cells((*qual.cast::<pg_sys::BoolExpr>()).args) {
            conjuncts(arg, out);
        }
    } else {
        *out = pg_sys::lappend(*out, qual.cast());
    }
}

/// A qual with the conjuncts the rewrites derive from it added (or, where they are exactly
/// a conjunct, put in its place).
unsafe fn with_derived(query: *mut pg_sys::Query, quals: *mut Node, walk: &mut Walk) -> *mut Node {
    let mut all = core::ptr::null_mut();
    conjuncts(quals, &mut all);
    let (mut kept, mut derived) = (core::ptr::null_mut(), core::ptr::null_mut());
    for clause in cells(all) {
        let d = time_windows::derive(query, clause, walk);
        if !d.exact {
            kept = pg_sys::lappend(kept, clause.cast());
        }
        if !d.conjuncts.is_empty() {
            walk.depends_on_role = true;
        }
        for conjunct in d.conjuncts {
            derived = pg_sys::lappend(derived, conjunct.cast());
        }
    }
    if derived.is_null() {
        return quals;
    }
    pg_sys::make_ands_explicit(pg_sys::list_concat(kept, derived)).cast()
}

/// The uuid column a one-argument call reads, if it is `f(column)`.
unsafe fn call_on_uuid_column(node: *mut Node) -> Option<(*mut pg_sys::FuncExpr, *mut pg_sys::Var)> {
    if !is_a(node, NodeTag::T_FuncExpr) {
        return None;
    }
    let call: *mut pg_sys::FuncExpr = node.cast();
    let mut args = cells((*call).args);
    let (Some(arg), None) = (args.next(), args.next()) else {
        return None;
    };
    if !is_a(arg, NodeTag::T_Var) {
        return None;
    }
    let var: *mut pg_sys::Var = arg.cast();
    ((*var).varlevelsup == 0 && (*var).vartype == pg_sys::UUIDOID && (*var).varattno > 0).then_some((call, var))
}
