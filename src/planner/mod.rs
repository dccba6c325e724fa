//! Planner integration: time windows and ordered reads on UUID keys, served by the key's
//! indexes and partitions. Every hook is installed, chained and entered in [`hooks`] (read it
//! first). Behind `uuid_ext.time_index_conditions`; nothing changes a query's result: an index
//! condition or a pruning conjunct is implied by the user's own clause (or equal to it, where a
//! CHECK proves so), and an order is offered only where it is the order asked for. A plan that
//! calls a bound function depends on the planning role (its EXECUTE was checked); one made
//! while a CHECK proof is too recent to count is transient.

pub(crate) mod hooks;
mod index_paths;
mod initplan_bounds;
mod ordered_appends;
mod partitions;
mod relations;
mod windows;

use crate::pg::boundary;
use crate::pg::extension_objects::Lazy;
use crate::pg::nodes::{cells, conjuncts, list_of};
use core::ffi::c_void;
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag};

/// What one planning's pruning rewrite shares.
pub struct PruningRewrite {
    catalog: Lazy,
    /// A conjunct calling a bound function was added: its EXECUTE privilege was checked for
    /// this role.
    depends_on_role: bool,
    /// Partitioned tables whose tree proof a conjunct relied on, with the tree the proof
    /// covered: checked again against the finished plan.
    proven_trees: Vec<(pg_sys::Oid, std::rc::Rc<Vec<pg_sys::Oid>>)>,
    /// A CHECK proof was too recent to count: the plan is to be made again in a later
    /// transaction.
    pub transient: bool,
    /// Functions the plan depends on that PostgreSQL does not record ([`windows::Order::dependencies`]).
    depends_on: Vec<pg_sys::Oid>,
}

/// The planner hook's body: with `active` (the setting), the pruning rewrite of the query
/// before `plan_it` plans it, and the finished plan's marks after.
///
/// # Safety
/// PostgreSQL's query to plan, inside [`boundary::hook`]; `plan_it` plans it.
unsafe fn plan(
    parse: *mut pg_sys::Query,
    active: bool,
    plan_it: impl FnOnce() -> *mut pg_sys::PlannedStmt,
) -> *mut pg_sys::PlannedStmt {
    let mut walk = PruningRewrite {
        catalog: Lazy::Unresolved,
        depends_on_role: false,
        proven_trees: Vec::new(),
        transient: false,
        depends_on: Vec::new(),
    };
    // SAFETY: the query PostgreSQL is about to plan, and the plan made of it.
    unsafe {
        if active {
            rewrite_query(parse, &mut walk);
        }
        let planned = plan_it();
        if !planned.is_null() {
            (*planned).dependsOnRole |= walk.depends_on_role;
            (*planned).transientPlan |= walk.transient;
            for &f in &walk.depends_on {
                (*planned).invalItems = crate::pg::nodes::depend_on_function((*planned).invalItems, f);
            }
            if !walk.proven_trees.is_empty() {
                relations::no_relation_joined((*planned).relationOids, &walk.proven_trees);
            }
        }
        planned
    }
}

/// Rewrites a query and every query inside it: subqueries in FROM (views among them), CTEs
/// and, when the query has any, sublinks. A query level without a partitioned table is only
/// looked through, and a query without sublinks costs no tree walk at all. The levels wait in
/// a list rather than on the stack, and a level's expressions are walked by PostgreSQL's own
/// walker with a callback as light as its own ([`sublinks`]): however deep a query nests,
/// this runs out of stack no sooner than the planner would.
unsafe fn rewrite_query(query: *mut pg_sys::Query, walk: &mut PruningRewrite) {
    let mut pending = vec![query];
    // SAFETY: the query tree PostgreSQL is about to plan; its queries, each cast by its tag.
    unsafe {
        while let Some(query) = pending.pop() {
            pgrx::check_for_interrupts!();
            let partitioned = cells((*query).rtable).any(|rte| {
                let rte: *mut pg_sys::RangeTblEntry = rte.cast();
                (*rte).rtekind == pg_sys::RTEKind::RTE_RELATION
                    && (*rte).relkind as u8 == pg_sys::RELKIND_PARTITIONED_TABLE
            });
            if partitioned
                && matches!(
                    (*query).commandType,
                    pg_sys::CmdType::CMD_SELECT | pg_sys::CmdType::CMD_UPDATE | pg_sys::CmdType::CMD_DELETE
                )
            {
                rewrite_from(query, walk);
            }
            for rte in cells((*query).rtable) {
                let rte: *mut pg_sys::RangeTblEntry = rte.cast();
                if (*rte).rtekind == pg_sys::RTEKind::RTE_SUBQUERY && !(*rte).subquery.is_null() {
                    pending.push((*rte).subquery);
                }
            }
            for cte in cells((*query).cteList) {
                let cte: *mut pg_sys::CommonTableExpr = cte.cast();
                if !(*cte).ctequery.is_null() && is_a((*cte).ctequery, NodeTag::T_Query) {
                    pending.push((*cte).ctequery.cast());
                }
            }
            if (*query).hasSubLinks {
                let flags = (pg_sys::QTW_IGNORE_RT_SUBQUERIES | pg_sys::QTW_IGNORE_CTE_SUBQUERIES) as i32;
                let mut found: *mut pg_sys::List = core::ptr::null_mut();
                let context: *mut c_void = (&mut found as *mut *mut pg_sys::List).cast();
                boundary::catching(|| boundary::unguarded::query_tree_walker(query, Some(sublinks), context, flags));
                pending.extend(cells(found).map(|q| q.cast::<pg_sys::Query>()));
            }
        }
    }
}

/// Notes the queries of sublinks in a query's expressions (in the List `found` points to),
/// without looking into them. Without pgrx's guard, under [`boundary::catching`]: it calls only
/// PostgreSQL's C functions, cannot panic and owns nothing, so an error (out of memory, the
/// stack depth) leaves it as it leaves PostgreSQL's own walkers.
unsafe extern "C-unwind" fn sublinks(node: *mut Node, found: *mut c_void) -> bool {
    if node.is_null() {
        return false;
    }
    // SAFETY: a node of the query tree; `found` is the List pointer rewrite_query() passed.
    unsafe {
        if (*node).type_ == NodeTag::T_Query {
            let found = found.cast::<*mut pg_sys::List>();
            *found = boundary::unguarded::lappend(*found, node.cast());
            return false;
        }
        boundary::unguarded::expression_tree_walker(node, Some(sublinks), found)
    }
}

/// Adds derived conjuncts to the quals of every FROM list and JOIN of a query; the join tree's
/// nodes wait in a list, not on the stack.
unsafe fn rewrite_from(query: *mut pg_sys::Query, walk: &mut PruningRewrite) {
    // SAFETY: nodes of the query's join tree, each cast by its tag; as in rewrite_query().
    unsafe {
        let mut pending: Vec<*mut Node> = vec![(*query).jointree.cast()];
        while let Some(node) = pending.pop() {
            if node.is_null() {
                continue;
            }
            if is_a(node, NodeTag::T_FromExpr) {
                let from: *mut pg_sys::FromExpr = node.cast();
                pending.extend(cells((*from).fromlist));
                (*from).quals = with_derived(query, (*from).quals, walk);
            } else if is_a(node, NodeTag::T_JoinExpr) {
                let join: *mut pg_sys::JoinExpr = node.cast();
                pending.push((*join).larg);
                pending.push((*join).rarg);
                (*join).quals = with_derived(query, (*join).quals, walk);
            }
        }
    }
}

/// A qual with the conjuncts the pruning rewrite derives from it added (or, where they are
/// exactly a conjunct, put in its place).
unsafe fn with_derived(query: *mut pg_sys::Query, quals: *mut Node, walk: &mut PruningRewrite) -> *mut Node {
    // SAFETY: the qual's conjuncts, in Lists of the planner's memory.
    unsafe {
        let mut all = core::ptr::null_mut();
        conjuncts(quals, &mut all);
        let (mut kept, mut derived) = (core::ptr::null_mut(), core::ptr::null_mut());
        for clause in cells(all) {
            let d = partitions::derive(query, clause, walk);
            if !d.exact {
                kept = pg_sys::lappend(kept, clause.cast());
            }
            derived = pg_sys::list_concat(derived, list_of(d.conjuncts));
        }
        if derived.is_null() {
            return quals;
        }
        walk.depends_on_role = true;
        pg_sys::make_ands_explicit(pg_sys::list_concat(kept, derived)).cast()
    }
}
