//! Bounds computed once per execution, not once per row.
//!
//! Where the pruning rewrite puts a window's range in the window's place ([`super::partitions`],
//! the exact case), a partition that PostgreSQL reads by a sequential scan tests
//! `id >= uuid_v7_lower_bound(now() - interval '30 days')` on every row: PostgreSQL computes a
//! stable expression once per scan in an index condition or a pruning step, but once per row in
//! a filter — `now() - interval` alone (a time-zone-aware subtraction) costs more than the rest
//! of the row's test. So once the plan is made, each filter conjunct of the form
//! `column <op> bound(X)` that the hook itself derived ([`super::windows::DERIVED_BOUND`]; never
//! a call the user wrote) — X free of the scanned row, of parameters set during execution, of
//! subplans, aggregates and anything volatile — gets an execution parameter in place of
//! `bound(X)`, set by an InitPlan at the top of the plan, as PostgreSQL does for an
//! uncorrelated scalar subquery: computed at the first row that needs it (or where a Gather
//! starts its workers, which receive the value, even if no row then needs it — as the same
//! range, a pruning step, is computed when the partitions are pruned at start-up), once per
//! execution of the plan, and again in the next one (a cached generic plan, a cursor's next
//! FETCH of a new execution). At most [`MAX_PARAMS`] distinct bounds a plan; more stay calls.
//! The same `bound(X)` in many partitions' filters is one parameter. The value is the one the
//! filter would have computed for every row (the expression is stable within the statement),
//! so results are the plain query's; EXPLAIN shows the InitPlan and `$n` (or `(InitPlan n).col1`
//! from 17 on).
//!
//! Only the query's own plan tree is looked at — not the plans of its subqueries that run as
//! SubPlans or CTEs, whose nodes a parallel worker could run without a Gather of this tree
//! passing the value — and each parameter is listed where PostgreSQL lists its own: in the
//! `initParam` of every Gather above a use (so the leader computes it and sends it to the
//! workers), and in `extParam`/`allParam` of every node on the way (so EvalPlanQual computes
//! it before a recheck, and rescans see it as set).

use super::extension_objects::Catalog;
use super::nodes::cells;
use super::windows::DERIVED_BOUND;
use core::ffi::c_void;
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag};

/// Distinct bounds made parameters in one plan, at most (each is compared with the ones before).
const MAX_PARAMS: usize = 64;

/// The bound calls made parameters, each with its parameter's id.
struct Hoisted {
    bounds: [pg_sys::Oid; 4],
    params: Vec<(*mut Node, i32)>,
}

/// Replaces the bound calls in the filters of a finished plan by InitPlan parameters.
///
/// # Safety
/// `planned` is the PlannedStmt the standard planner just returned, in the planner's memory
/// context.
pub unsafe fn hoist_bounds(planned: *mut pg_sys::PlannedStmt, catalog: &Catalog) {
    let mut hoisted = Hoisted {
        bounds: [catalog.v7_bounds.0, catalog.v7_bounds.1, catalog.time_bounds.0, catalog.time_bounds.1],
        params: Vec::new(),
    };
    // SAFETY: the finished plan, changed as the standard planner's set_plan_references leaves
    // it: new nodes and lists in the current (planner's) memory context.
    unsafe {
        let mut top = (*planned).planTree;
        if top.is_null() {
            return;
        }
        walk_plan(top, planned, &mut hoisted, true);
        if hoisted.params.is_empty() {
            return;
        }
        // debug_parallel_query = regress puts a Gather over the whole plan that EXPLAIN does
        // not show, and PostgreSQL (17+) does not add one over a plan with InitPlans: EXPLAIN
        // could not name what sets the parameter (an assertion in assert-enabled builds). Such
        // a Gather runs its plan in one worker or, without one, in the leader: the plan runs
        // as well without it.
        if is_a(top.cast(), NodeTag::T_Gather)
            && (*top.cast::<pg_sys::Gather>()).invisible
            && !(*top).lefttree.is_null()
        {
            top = (*top).lefttree;
            (*planned).planTree = top;
            // Set by its own InitPlans now: not external to it.
            for &(_, paramid) in &hoisted.params {
                (*top).extParam = pg_sys::bms_del_member((*top).extParam, paramid);
            }
        }
        let mut next_node_id = 0;
        for plan in cells((*planned).subplans).chain(core::iter::once(top.cast())) {
            next_node_id = next_node_id.max(max_node_id(plan.cast()) + 1);
        }
        for (n, &(bound, paramid)) in hoisted.params.iter().enumerate() {
            let plan_id = add_subplan(planned, bound, next_node_id + n as i32);
            let sub = init_plan(plan_id, paramid);
            let result = pg_sys::list_nth((*planned).subplans, plan_id - 1).cast::<pg_sys::Result>();
            crate::compat::init_plan_kind(&mut *sub, &mut *result);
            (*top).initPlan = pg_sys::lappend((*top).initPlan, sub.cast());
        }
    }
}

/// The child plans of a plan node.
///
/// # Safety
/// `plan` is a node of a finished plan.
unsafe fn children(plan: *mut pg_sys::Plan) -> Vec<*mut pg_sys::Plan> {
    // SAFETY: the node's tag decides the cast; its lists are lists of plans.
    unsafe {
        let mut out: Vec<*mut pg_sys::Plan> = [(*plan).lefttree, (*plan).righttree].into_iter().collect();
        let node: *mut Node = plan.cast();
        let list = if is_a(node, NodeTag::T_Append) {
            (*plan.cast::<pg_sys::Append>()).appendplans
        } else if is_a(node, NodeTag::T_MergeAppend) {
            (*plan.cast::<pg_sys::MergeAppend>()).mergeplans
        } else if is_a(node, NodeTag::T_BitmapAnd) {
            (*plan.cast::<pg_sys::BitmapAnd>()).bitmapplans
        } else if is_a(node, NodeTag::T_BitmapOr) {
            (*plan.cast::<pg_sys::BitmapOr>()).bitmapplans
        } else if is_a(node, NodeTag::T_CustomScan) {
            (*plan.cast::<pg_sys::CustomScan>()).custom_plans
        } else if is_a(node, NodeTag::T_SubqueryScan) {
            out.push((*plan.cast::<pg_sys::SubqueryScan>()).subplan);
            core::ptr::null_mut()
        } else {
            core::ptr::null_mut()
        };
        out.extend(cells(list).map(|p| p.cast::<pg_sys::Plan>()));
        out.retain(|p| !p.is_null());
        out
    }
}

/// The largest plan_node_id in a plan tree.
///
/// # Safety
/// `plan` is NULL or a node of a finished plan.
unsafe fn max_node_id(plan: *mut pg_sys::Plan) -> i32 {
    if plan.is_null() {
        return -1;
    }
    // SAFETY: as above; the recursion is as deep as the plan, which PostgreSQL built by
    // recursion too.
    unsafe {
        pg_sys::check_stack_depth();
        children(plan).into_iter().fold((*plan).plan_node_id, |max, child| max.max(max_node_id(child)))
    }
}

/// Rewrites the filters of a plan tree; the parameters used in it.
///
/// # Safety
/// As [`hoist_bounds`]; `plan` is a node of its tree.
unsafe fn walk_plan(
    plan: *mut pg_sys::Plan,
    planned: *mut pg_sys::PlannedStmt,
    hoisted: &mut Hoisted,
    top: bool,
) -> *mut pg_sys::Bitmapset {
    // SAFETY: as above.
    unsafe {
        pg_sys::check_stack_depth();
        let mut used = rewrite_filter(plan, planned, hoisted);
        for child in children(plan) {
            used = pg_sys::bms_union(used, walk_plan(child, planned, hoisted, false));
        }
        if used.is_null() {
            return used;
        }
        let node: *mut Node = plan.cast();
        if is_a(node, NodeTag::T_Gather) {
            let gather = plan.cast::<pg_sys::Gather>();
            (*gather).initParam = pg_sys::bms_union((*gather).initParam, used);
        } else if is_a(node, NodeTag::T_GatherMerge) {
            let gather = plan.cast::<pg_sys::GatherMerge>();
            (*gather).initParam = pg_sys::bms_union((*gather).initParam, used);
        }
        // The top node sets them (its InitPlans): not external to it.
        if !top {
            (*plan).extParam = pg_sys::bms_union((*plan).extParam, used);
        }
        (*plan).allParam = pg_sys::bms_union((*plan).allParam, used);
        used
    }
}

/// A node's filter with `column <op> bound(X)` conjuncts' bound calls made parameters; the
/// parameters it uses.
///
/// # Safety
/// As [`walk_plan`].
unsafe fn rewrite_filter(
    plan: *mut pg_sys::Plan,
    planned: *mut pg_sys::PlannedStmt,
    hoisted: &mut Hoisted,
) -> *mut pg_sys::Bitmapset {
    // SAFETY: the qual is a List of expressions; changed conjuncts are copies, and the List a
    // new one, so whatever else shares the old ones is untouched.
    unsafe {
        let qual = (*plan).qual;
        let found: Vec<(*mut Node, Option<usize>)> = cells(qual).map(|c| (c, bound_arg(c, hoisted))).collect();
        if found.iter().all(|(_, arg)| arg.is_none()) {
            return core::ptr::null_mut();
        }
        let mut used = core::ptr::null_mut();
        let mut new = core::ptr::null_mut();
        for (conjunct, arg) in found {
            let args = |op: *mut Node| (*op.cast::<pg_sys::OpExpr>()).args;
            let paramid = arg.and_then(|i| {
                let bound = (*(*args(conjunct)).elements.add(i)).ptr_value.cast::<Node>();
                param_for(bound, planned, hoisted).map(|id| (i, id))
            });
            let conjunct = match paramid {
                Some((i, paramid)) => {
                    let op: *mut Node = pg_sys::copyObjectImpl(conjunct.cast()).cast();
                    (*(*args(op)).elements.add(i)).ptr_value = param(paramid).cast();
                    used = pg_sys::bms_add_member(used, paramid);
                    op
                }
                None => conjunct,
            };
            new = pg_sys::lappend(new, conjunct.cast());
        }
        (*plan).qual = new;
        used
    }
}

/// Which argument of a two-argument operator conjunct is a bound call that can be computed
/// once.
///
/// # Safety
/// `conjunct` is an expression of a finished plan.
unsafe fn bound_arg(conjunct: *mut Node, hoisted: &Hoisted) -> Option<usize> {
    // SAFETY: the tags decide the casts; read-only walks.
    unsafe {
        if !is_a(conjunct, NodeTag::T_OpExpr) {
            return None;
        }
        let args: Vec<*mut Node> = cells((*conjunct.cast::<pg_sys::OpExpr>()).args).collect();
        if args.len() != 2 {
            return None;
        }
        args.iter().position(|&arg| {
            is_a(arg, NodeTag::T_FuncExpr)
                && (*arg.cast::<pg_sys::FuncExpr>()).location == DERIVED_BOUND
                && hoisted.bounds.contains(&(*arg.cast::<pg_sys::FuncExpr>()).funcid)
                && !crate::guards::walk_from_c(arg, fixed_for_execution_walker, core::ptr::null_mut())
                && !pg_sys::contain_volatile_functions(arg)
        })
    }
}

/// True where an expression depends on anything that may change during one execution of the
/// plan: a column (of any row), an aggregate or window function (of a group, of a row), a
/// parameter set during execution (a correlated subquery's outer value, a nested loop's), a
/// subplan.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn fixed_for_execution_walker(node: *mut Node, context: *mut c_void) -> bool {
    if node.is_null() {
        return false;
    }
    // SAFETY: a node of the tree; its tag decides the cast.
    unsafe {
        if is_a(node, NodeTag::T_Var)
            || is_a(node, NodeTag::T_Aggref)
            || is_a(node, NodeTag::T_WindowFunc)
            || is_a(node, NodeTag::T_GroupingFunc)
            || is_a(node, NodeTag::T_SubPlan)
            || is_a(node, NodeTag::T_AlternativeSubPlan)
            || (is_a(node, NodeTag::T_Param)
                && (*node.cast::<pg_sys::Param>()).paramkind != pg_sys::ParamKind::PARAM_EXTERN)
        {
            return true;
        }
        pg_sys::expression_tree_walker(node, Some(fixed_for_execution_walker), context)
    }
}

/// The parameter for a bound call: the one made for an equal call, or a new one while there are
/// fewer than [`MAX_PARAMS`] (None after: the call stays).
///
/// # Safety
/// As [`hoist_bounds`].
unsafe fn param_for(bound: *mut Node, planned: *mut pg_sys::PlannedStmt, hoisted: &mut Hoisted) -> Option<i32> {
    // SAFETY: read-only comparison of two expressions; the new parameter's type appended to
    // the plan's list, which gives it its id.
    unsafe {
        if let Some(&(_, id)) = hoisted.params.iter().find(|(b, _)| pg_sys::equal(b.cast(), bound.cast())) {
            return Some(id);
        }
        if hoisted.params.len() >= MAX_PARAMS {
            return None;
        }
        let id = pg_sys::list_length((*planned).paramExecTypes);
        (*planned).paramExecTypes = pg_sys::lappend_oid((*planned).paramExecTypes, pg_sys::UUIDOID);
        hoisted.params.push((bound, id));
        Some(id)
    }
}

/// A new node of type `T`, zeroed but for its tag.
///
/// # Safety
/// `T` is the node struct of `tag`; in a memory context.
unsafe fn new_node<T>(tag: NodeTag) -> *mut T {
    // SAFETY: palloc0 of the struct's size; the tag is the first field of every node.
    unsafe {
        let node = pg_sys::palloc0(core::mem::size_of::<T>());
        (*node.cast::<Node>()).type_ = tag;
        node.cast()
    }
}

/// `PARAM_EXEC` parameter `paramid` of type uuid.
///
/// # Safety
/// In a memory context.
unsafe fn param(paramid: i32) -> *mut pg_sys::Param {
    // SAFETY: a new node, filled in.
    unsafe {
        let p = new_node::<pg_sys::Param>(NodeTag::T_Param);
        (*p).paramkind = pg_sys::ParamKind::PARAM_EXEC;
        (*p).paramid = paramid;
        (*p).paramtype = pg_sys::UUIDOID;
        (*p).paramtypmod = -1;
        (*p).paramcollid = pg_sys::InvalidOid;
        (*p).location = -1;
        p
    }
}

/// Appends a plan computing `bound` (a Result of one column) to the statement's subplans; its
/// plan_id (1-based).
///
/// # Safety
/// As [`hoist_bounds`]; `node_id` is not used by another node of the statement.
unsafe fn add_subplan(planned: *mut pg_sys::PlannedStmt, bound: *mut Node, node_id: i32) -> i32 {
    // SAFETY: a new Result node, filled in as create_plan and set_plan_references would.
    unsafe {
        let result = new_node::<pg_sys::Result>(NodeTag::T_Result);
        let plan = &mut (*result).plan;
        let entry = pg_sys::makeTargetEntry(bound.cast(), 1, core::ptr::null_mut(), false);
        plan.targetlist = pg_sys::lappend(core::ptr::null_mut(), entry.cast());
        plan.plan_rows = 1.0;
        plan.plan_width = 16;
        plan.total_cost = pg_sys::cpu_operator_cost;
        // Run by the leader only: a Gather computes it and sends the value to its workers.
        plan.parallel_safe = false;
        plan.plan_node_id = node_id;
        (*planned).subplans = pg_sys::lappend((*planned).subplans, result.cast());
        pg_sys::list_length((*planned).subplans)
    }
}

/// The InitPlan that sets parameter `paramid` from subplan `plan_id`.
///
/// # Safety
/// In a memory context.
unsafe fn init_plan(plan_id: i32, paramid: i32) -> *mut pg_sys::SubPlan {
    // SAFETY: a new node, filled in as the planner's SS_make_initplan_from_plan does.
    unsafe {
        let sub = new_node::<pg_sys::SubPlan>(NodeTag::T_SubPlan);
        (*sub).subLinkType = pg_sys::SubLinkType::EXPR_SUBLINK;
        (*sub).plan_id = plan_id;
        let name = crate::compat::init_plan_name(plan_id, paramid) + "\0";
        (*sub).plan_name = pg_sys::pstrdup(name.as_ptr().cast());
        (*sub).firstColType = pg_sys::UUIDOID;
        (*sub).firstColTypmod = -1;
        (*sub).firstColCollation = pg_sys::InvalidOid;
        (*sub).setParam = pg_sys::lappend_int(core::ptr::null_mut(), paramid);
        (*sub).per_call_cost = pg_sys::cpu_operator_cost;
        sub
    }
}
