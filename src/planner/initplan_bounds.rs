//! Bounds computed once per execution, not per row: PostgreSQL's own InitPlans.
//!
//! A partition read by a sequential scan tests a derived `id >= uuid_v7_lower_bound(now() -
//! interval '30 days')` on every row: PostgreSQL computes a stable expression once per scan in
//! an index condition, but once per row in a filter. So each derived bound call
//! ([`super::windows::DERIVED_BOUND`]; never the user's) of a partition's conjuncts becomes the
//! output of an InitPlan, made by PostgreSQL's `SS_make_initplan_from_plan()` as for `(SELECT
//! bound(X))`: PostgreSQL files, costs and finalizes it and hands its value to workers. Pruning
//! and estimates, made before, still see `bound(X)`; the value is the one every row would have
//! computed (stable within the statement).

use super::windows::DERIVED_BOUND;
use crate::pg::extension_objects::Lazy;
use crate::pg::nodes::{cells, list_of, new_node};
use core::ffi::c_void;
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag};

/// Puts InitPlan parameters in place of the bound calls of a scanned relation's conjuncts.
///
/// # Safety
/// `root`, `rel` and `rte` are the planner's, for a relation whose own paths are made.
pub(super) unsafe fn hoist(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    rte: *mut pg_sys::RangeTblEntry,
) {
    let mut lazy = Lazy::Unresolved;
    // SAFETY: the relation's restrictions, each changed in place to a copy of its clause with the
    // parameter in the bound call's place, as PostgreSQL's own paths and plan read it after.
    unsafe {
        // (Only a partition holds a derived conjunct: a plain table's planning stops here.)
        if (*rel).reloptkind != pg_sys::RelOptKind::RELOPT_OTHER_MEMBER_REL
            || (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION
            || (*rte).relkind as u8 != pg_sys::RELKIND_RELATION
            || maybe_min_max_level(root)
        {
            return;
        }
        for ri in cells((*rel).baserestrictinfo).map(|n| n.cast::<pg_sys::RestrictInfo>()) {
            let clause: *mut Node = (*ri).clause.cast();
            if !is_a(clause, NodeTag::T_OpExpr) {
                continue;
            }
            let args = (*clause.cast::<pg_sys::OpExpr>()).args;
            let Some(i) = cells(args).position(|arg| {
                is_a(arg, NodeTag::T_FuncExpr)
                    && (*arg.cast::<pg_sys::FuncExpr>()).location == DERIVED_BOUND
                    && {
                        lazy.resolve();
                        lazy.catalog().is_some_and(|c| c.is_bound((*arg.cast::<pg_sys::FuncExpr>()).funcid))
                    }
                    && !crate::pg::guards::walk_from_c(arg, varies_walker, core::ptr::null_mut())
                    && !pg_sys::contain_volatile_functions(arg)
            }) else {
                continue;
            };
            let copy: *mut pg_sys::OpExpr = pg_sys::copyObjectImpl(clause.cast()).cast();
            (*(*(*copy).args).elements.add(i)).ptr_value =
                param_for(root, pg_sys::list_nth(args, i as i32).cast()).cast();
            (*ri).clause = copy.cast();
        }
    }
}

/// True where an expression depends on anything that may change during one execution of the
/// plan: a column (of any row), an aggregate or window function, a parameter set during
/// execution (a correlated subquery's outer value, a nested loop's), a subplan.
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn varies_walker(node: *mut Node, context: *mut c_void) -> bool {
    if node.is_null() {
        return false;
    }
    // SAFETY: a node of the tree; its tag decides the cast.
    unsafe {
        if [NodeTag::T_Var, NodeTag::T_Aggref, NodeTag::T_WindowFunc, NodeTag::T_GroupingFunc, NodeTag::T_SubPlan]
            .into_iter()
            .chain([NodeTag::T_AlternativeSubPlan, NodeTag::T_PlaceHolderVar])
            .any(|tag| is_a(node, tag))
            || (is_a(node, NodeTag::T_Param)
                && (*node.cast::<pg_sys::Param>()).paramkind != pg_sys::ParamKind::PARAM_EXTERN)
        {
            return true;
        }
        pg_sys::expression_tree_walker(node, Some(varies_walker), context)
    }
}

/// Whether `root` may be the level `build_minmax_path()` makes to read `min()`/`max()` through an
/// index (a copy of its parent's query, aggregates removed, `LIMIT 1`): PostgreSQL puts a Limit
/// above that level's plan, where an InitPlan of its own would be a parameter the Limit cannot
/// see ("plan should not reference subplan's variable", found by review). There the bound stays
/// a call, as without the hook; a subquery of the same shape is left alone too. (The aggregate's
/// own level, planned as well, keeps the InitPlan it made, unused and never executed, when the
/// `min()`/`max()` plan wins.)
unsafe fn maybe_min_max_level(root: *mut pg_sys::PlannerInfo) -> bool {
    // SAFETY: the planner's levels and their queries.
    unsafe {
        let parent = (*root).parent_root;
        !parent.is_null()
            && (*(*parent).parse).hasAggs
            && !(*(*root).parse).hasAggs
            && !(*(*root).parse).limitCount.is_null()
    }
}

/// The output of this query level's InitPlan computing `bound`: one this module made before for
/// an equal expression, or a new one. Never another InitPlan of the level, even one computing
/// the same expression: a CTE's, an ARRAY() sublink's or one with a condition of its own sets a
/// parameter of another kind (found by review).
///
/// # Safety
/// Planning, in the planner's memory context; `bound` is fixed for the execution.
unsafe fn param_for(root: *mut pg_sys::PlannerInfo, bound: *mut Node) -> *mut pg_sys::Param {
    // SAFETY: the level's InitPlans and the plans they run, read; a new one made as PostgreSQL's
    // planagg.c makes its own (a plan and a planner level for it, handed to
    // SS_make_initplan_from_plan(), which files both where set_plan_references() finds them).
    unsafe {
        let glob = (*root).glob;
        for sub in cells((*root).init_plans).map(|n| n.cast::<pg_sys::SubPlan>()) {
            let plan: *mut pg_sys::Plan = pg_sys::list_nth((*glob).subplans, (*sub).plan_id - 1).cast();
            let tlist = (*plan).targetlist;
            let expr = || (*pg_sys::list_nth(tlist, 0).cast::<pg_sys::TargetEntry>()).expr.cast::<Node>();
            if (*sub).subLinkType == pg_sys::SubLinkType::EXPR_SUBLINK
                && (*sub).firstColType == pg_sys::UUIDOID
                && is_a(plan.cast(), NodeTag::T_Result)
                && (*plan).lefttree.is_null()
                && (*plan).qual.is_null()
                && (*plan.cast::<pg_sys::Result>()).resconstantqual.is_null()
                && pg_sys::list_length(tlist) == 1
                && pg_sys::list_length((*sub).setParam) == 1
                && is_a(expr(), NodeTag::T_FuncExpr)
                && (*expr().cast::<pg_sys::FuncExpr>()).location == DERIVED_BOUND
                && pg_sys::equal(expr().cast(), bound.cast())
            {
                let param = new_node::<pg_sys::Param>(NodeTag::T_Param);
                (*param).paramkind = pg_sys::ParamKind::PARAM_EXEC;
                (*param).paramid = (*(*(*sub).setParam).elements).int_value;
                (*param).paramtype = pg_sys::UUIDOID;
                (*param).paramtypmod = -1;
                (*param).location = -1;
                return param;
            }
        }
        let param = pg_sys::SS_make_initplan_output_param(root, pg_sys::UUIDOID, -1, pg_sys::InvalidOid);
        let result = new_node::<pg_sys::Result>(NodeTag::T_Result);
        let plan = &mut (*result).plan;
        let entry =
            pg_sys::makeTargetEntry(pg_sys::copyObjectImpl(bound.cast()).cast(), 1, core::ptr::null_mut(), false);
        plan.targetlist = list_of([entry]);
        plan.plan_rows = 1.0;
        plan.plan_width = 16;
        plan.total_cost = pg_sys::cpu_operator_cost;
        // As PostgreSQL judges its own (16 and later run a parallel-safe InitPlan's plan where
        // the query level's plan runs; 14 and 15 count every InitPlan parallel-restricted).
        plan.parallel_safe = pg_sys::is_parallel_safe(root, bound);
        crate::pg::compat::result_computes_value(&mut *result);
        // A level of its own for the plan, which has no relations.
        let query = new_node::<pg_sys::Query>(NodeTag::T_Query);
        (*query).commandType = pg_sys::CmdType::CMD_SELECT;
        let subroot = new_node::<pg_sys::PlannerInfo>(NodeTag::T_PlannerInfo);
        (*subroot).parse = query;
        (*subroot).glob = glob;
        (*subroot).query_level = (*root).query_level + 1;
        (*subroot).parent_root = root;
        crate::pg::compat::name_bound_plan(subroot);
        pg_sys::SS_make_initplan_from_plan(root, subroot, result.cast(), param);
        param
    }
}
