//! The selectivity of the key ranges [`super::index_paths`] offers as index conditions,
//! estimated as PostgreSQL would estimate them, for less.
//!
//! A range condition is `col op bound(X)`, `X` the window's own (`now() - interval '3 days'`).
//! PostgreSQL's estimate of it (`scalarltsel()` and the others) first reduces the bound to a
//! constant with `estimate_expression_value()`, which evaluates `now()`, then the subtraction,
//! then the bound, each in an executor of its own: for a keyset page that was a quarter of its
//! planning. Here `X` is evaluated once, the bound computed as the function computes it
//! ([`crate::bounds::bound`]), and the selectivity is the operator's own estimate for the
//! column and that constant — the number PostgreSQL reaches — cached in the RestrictInfo where
//! `clause_selectivity()` caches its own.
//!
//! `X` is evaluated here when it is constants, `CURRENT_TIMESTAMP` and calls of PostgreSQL's
//! built-in functions (language internal) on them: called as the executor calls them (strict
//! ones not on a NULL), for a role that may EXECUTE them. Constants and calls of other
//! functions go through `evaluate_expr()`, as PostgreSQL's estimate would; anything else (a
//! parameter of a generic plan, a subquery's value) keeps PostgreSQL's own path, which then
//! finds no constant either. Nothing is raised that PostgreSQL has not raised already: before
//! any path was made it estimated the window's own clause, `f(col) op X`, evaluating `X` the
//! same way.

use super::extension_objects::{may_execute, Catalog};
use super::nodes::cells;
use super::windows::{bound_constant, Order};
use pgrx::is_a;
use pgrx::pg_sys::{self, Datum, Node, NodeTag};

/// The most arguments of a built-in function evaluated here (more: `evaluate_expr()`).
const MAX_ARGS: usize = 4;

/// The deepest `X` looked into here (deeper: PostgreSQL's own estimate, whose C walkers use
/// less stack per level than these).
const MAX_DEPTH: u32 = 32;

/// Gives a range condition `col op bound(X)` ([`super::windows::Window::conditions`]) of
/// relation `relid` the selectivity PostgreSQL would estimate for it, evaluating `X` once.
///
/// # Safety
/// Planning; `ri` is a condition Window::conditions() made for `order`.
pub unsafe fn cache_selectivity(
    root: *mut pg_sys::PlannerInfo,
    ri: *mut pg_sys::RestrictInfo,
    order: &Order,
    catalog: &Catalog,
    relid: u32,
) {
    // SAFETY: the condition's nodes, read by their tags; nodes made in the planner's memory
    // context.
    unsafe {
        let clause: *mut Node = (*ri).clause.cast();
        if !is_a(clause, NodeTag::T_OpExpr) {
            return;
        }
        let op: *mut pg_sys::OpExpr = clause.cast();
        let mut args = cells((*op).args);
        let (Some(col), Some(value), None) = (args.next(), args.next(), args.next()) else {
            return;
        };
        // A bound of a constant is a constant already: PostgreSQL estimates it at no cost.
        if !is_a(value, NodeTag::T_FuncExpr) {
            return;
        }
        let call: *mut pg_sys::FuncExpr = value.cast();
        let upper = match (*call).funcid {
            f if f == order.bounds.0 => false,
            f if f == order.bounds.1 => true,
            _ => return,
        };
        let mut call_args = cells((*call).args);
        let (Some(x), None) = (call_args.next(), call_args.next()) else {
            return;
        };
        let Some(x) = constant_of(x, catalog) else {
            return;
        };
        let constant = bound_constant(order.bytes, upper, x);
        let args = pg_sys::lappend(pg_sys::lappend(core::ptr::null_mut(), col.cast()), constant.cast());
        let selectivity = pg_sys::restriction_selectivity(root, (*op).opno, args, (*op).inputcollid, relid as i32);
        // As clause_selectivity() caches it (a value above 1 would mark the clause redundant).
        (*ri).norm_selec = selectivity.clamp(0.0, 1.0);
    }
}

/// The timestamptz `x` as a constant, if it is one that can be computed at plan time.
///
/// # Safety
/// Planning; `x` is a window's X, known to call nothing volatile
/// ([`super::nodes::computable_once`]).
unsafe fn constant_of(x: *mut Node, catalog: &Catalog) -> Option<*mut pg_sys::Const> {
    // SAFETY: as the caller vouches; the Const is made in the current memory context.
    unsafe {
        if let Some((value, isnull)) = value_of(x, catalog, 0) {
            return Some(pg_sys::makeConst(pg_sys::TIMESTAMPTZOID, -1, pg_sys::InvalidOid, 8, value, isnull, true));
        }
        if !constant_calls(x, 0) {
            return None;
        }
        let x = super::boundary::catching(|| {
            super::boundary::unguarded::evaluate_expr(x.cast(), pg_sys::TIMESTAMPTZOID, -1, pg_sys::InvalidOid)
        });
        is_a(x.cast(), NodeTag::T_Const).then_some(x.cast())
    }
}

/// The value of an expression of constants, `CURRENT_TIMESTAMP` and calls of built-in functions,
/// computed as the executor computes it; None for anything else (and for a call that returns
/// `record`, which PostgreSQL's estimate does not evaluate: `evaluate_function()`).
///
/// # Safety
/// Planning; `node` is an expression tree that calls nothing volatile and returns no set.
unsafe fn value_of(node: *mut Node, catalog: &Catalog, depth: u32) -> Option<(Datum, bool)> {
    if depth > MAX_DEPTH {
        return None;
    }
    // SAFETY: a node of an expression tree; its tag decides the casts.
    unsafe {
        match (*node).type_ {
            NodeTag::T_Const => {
                let c: *mut pg_sys::Const = node.cast();
                Some(((*c).constvalue, (*c).constisnull))
            }
            NodeTag::T_RelabelType => value_of((*node.cast::<pg_sys::RelabelType>()).arg.cast(), catalog, depth + 1),
            NodeTag::T_SQLValueFunction => {
                let f: *mut pg_sys::SQLValueFunction = node.cast();
                match (*f).op {
                    pg_sys::SQLValueFunctionOp::SVFOP_CURRENT_TIMESTAMP => {
                        Some((Datum::from(pg_sys::GetSQLCurrentTimestamp(-1)), false))
                    }
                    pg_sys::SQLValueFunctionOp::SVFOP_CURRENT_TIMESTAMP_N => {
                        Some((Datum::from(pg_sys::GetSQLCurrentTimestamp((*f).typmod)), false))
                    }
                    _ => None,
                }
            }
            NodeTag::T_FuncExpr => {
                let f: *mut pg_sys::FuncExpr = node.cast();
                if (*f).funcresulttype == pg_sys::RECORDOID {
                    return None;
                }
                call(node, (*f).funcid, (*f).funcretset, (*f).args, (*f).inputcollid, catalog, depth)
            }
            NodeTag::T_OpExpr => {
                let op: *mut pg_sys::OpExpr = node.cast();
                if (*op).opresulttype == pg_sys::RECORDOID {
                    return None;
                }
                call(node, (*op).opfuncid, (*op).opretset, (*op).args, (*op).inputcollid, catalog, depth)
            }
            _ => None,
        }
    }
}

/// A call of built-in function `funcid` on `args`, as the executor makes it (ExecInitFunc(),
/// ExecInterpExpr()); None where this does not evaluate it.
///
/// # Safety
/// As [`value_of`].
unsafe fn call(
    expr: *mut Node,
    funcid: pg_sys::Oid,
    retset: bool,
    args: *mut pg_sys::List,
    collation: pg_sys::Oid,
    catalog: &Catalog,
    depth: u32,
) -> Option<(Datum, bool)> {
    // SAFETY: PostgreSQL's function manager, used as the executor uses it; the call is fenced
    // (an ERROR it raises is PostgreSQL's, raised again unchanged at the hook's edge).
    unsafe {
        // An object access hook (sepgsql) is asked about each function the executor runs:
        // evaluate_expr() asks it.
        if retset || funcid == pg_sys::InvalidOid || (*core::ptr::addr_of!(pg_sys::object_access_hook)).is_some() {
            return None;
        }
        if !catalog.is_builtin(funcid) {
            return None;
        }
        let mut values = [(Datum::from(0), false); MAX_ARGS];
        let mut n = 0;
        for arg in cells(args) {
            if n == MAX_ARGS {
                return None;
            }
            values[n] = value_of(arg, catalog, depth + 1)?;
            n += 1;
        }
        // The executor checks EXECUTE on every function it initialises; without it, the
        // estimate is PostgreSQL's own (which raises the error).
        if !may_execute(funcid) {
            return None;
        }
        let mut flinfo: pg_sys::FmgrInfo = core::mem::zeroed();
        pg_sys::fmgr_info(funcid, &mut flinfo);
        // fmgr_info_set_expr(): polymorphic functions read their argument types there.
        flinfo.fn_expr = expr;
        if flinfo.fn_retset || flinfo.fn_addr.is_none() {
            return None;
        }
        if flinfo.fn_strict && values[..n].iter().any(|(_, isnull)| *isnull) {
            return Some((Datum::from(0), true));
        }
        let size = core::mem::size_of::<pg_sys::FunctionCallInfoBaseData>()
            + n * core::mem::size_of::<pg_sys::NullableDatum>();
        let fcinfo = pg_sys::palloc0(size).cast::<pg_sys::FunctionCallInfoBaseData>();
        (*fcinfo).flinfo = &mut flinfo;
        (*fcinfo).fncollation = collation;
        (*fcinfo).nargs = n as i16;
        let slots = (*fcinfo).args.as_mut_slice(n);
        for (slot, (value, isnull)) in slots.iter_mut().zip(values) {
            slot.value = value;
            slot.isnull = isnull;
        }
        let function = flinfo.fn_addr?;
        let result = super::boundary::catching(|| function(fcinfo));
        Some((result, (*fcinfo).isnull))
    }
}

/// Whether an expression is constants and calls of functions and operators on them only (and
/// `CURRENT_TIMESTAMP` and the like, type relabels and I/O coercions): what `evaluate_expr()`
/// can compute at plan time with nothing from a query or its parameters, and what PostgreSQL's
/// estimate would reduce to a constant as well (it leaves a call that returns `record`
/// unevaluated, and whatever calls it: `evaluate_function()`).
///
/// # Safety
/// `node` is an expression tree.
unsafe fn constant_calls(node: *mut Node, depth: u32) -> bool {
    use pg_sys::NodeTag::*;
    if depth > MAX_DEPTH {
        return false;
    }
    // SAFETY: a node of an expression tree; its tag decides the casts.
    unsafe {
        let all = |list: *mut pg_sys::List| cells(list).all(|arg| constant_calls(arg, depth + 1));
        match (*node).type_ {
            T_Const | T_SQLValueFunction => true,
            T_FuncExpr => {
                let f: *mut pg_sys::FuncExpr = node.cast();
                (*f).funcresulttype != pg_sys::RECORDOID && all((*f).args)
            }
            T_OpExpr => {
                let op: *mut pg_sys::OpExpr = node.cast();
                (*op).opresulttype != pg_sys::RECORDOID && all((*op).args)
            }
            T_RelabelType => constant_calls((*node.cast::<pg_sys::RelabelType>()).arg.cast(), depth + 1),
            T_CoerceViaIO => {
                let coerce: *mut pg_sys::CoerceViaIO = node.cast();
                (*coerce).resulttype != pg_sys::RECORDOID && constant_calls((*coerce).arg.cast(), depth + 1)
            }
            _ => false,
        }
    }
}
