//! Time windows on UUID keys, served by the key's index.
//!
//! `WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'` is a
//! comparison of a function's result, which no index on `id` can answer: the
//! planner cannot see that it bounds `id`. For each top-level conjunct of the
//! form
//!
//! ```text
//! f(col) op X        (or X op f(col))      op: <  <=  =  >=  >   on timestamptz
//! ```
//!
//! where `f` is `uuid_extract_timestamp` (core's on 17/18 or uuid_ext's),
//! `uuid_ext_timestamp` or `uuid_v7_to_timestamptz`, `col` a uuid column of a
//! table, and `X` anything an index scan can compute once (constants,
//! parameters, stable functions such as `now()`; no column of the same query
//! level, nothing volatile, no subquery), this adds the byte range the
//! predicate implies as one more conjunct — and only when an index on `col`
//! can use it:
//!
//! | index on `col` (first column) | derived conjunct | when |
//! |---|---|---|
//! | `uuid_time_ops` | `col >=\| uuid_time_lower_bound(X)` … | always (v1/v6/v7 interleave there) |
//! | `uuid_ops` (a plain primary key) | `col >= uuid_v7_lower_bound(X)` … | `f` reads v7 only (`uuid_v7_to_timestamptz`), or a valid, enforced CHECK (`uuid_is_v7(col)` or `uuid_extract_version(col) = 7`) confines the column to v7 in every relation scanned ([`super::relations::facts`]) |
//!
//! A table partitioned by `RANGE (col)` (first key column) counts as such an index, with its
//! partition key's operator family ([`super::relations::facts`]): the
//! derived conjunct then prunes partitions, at plan time for constants and at run time for
//! parameters and `now()`, with or without an index.
//!
//! (`>`/`<=` use the *upper* bound, `=` both; see [`crate::bounds`].) The
//! derived conjunct is implied by the original one, which stays in the query
//! and still decides every row — so the result is exactly that of a
//! sequential scan, NULLs and other versions included.
//!
//! **Exact windows.** Where a CHECK (`uuid_is_v7(col)`, [`V7Proof::Exact`]) confines the
//! column to RFC 9562 v7 values in every relation scanned, and the extractor gives each v7
//! value its millisecond (all of uuid_ext's, core's on 18), the byte range *is* the predicate,
//! row for row (NULLs alike: both sides are NULL), and the bounds are exact at the
//! millisecond: the original conjunct is then replaced, so the extractor runs on no row and
//! `count(*)` over a window can be an index-only scan.

use super::catalog::{may_execute, Reads};
use super::oids::{
    BT_GREATER_EQUAL, BT_LESS, TIMESTAMPTZ_EQ, TIMESTAMPTZ_GE, TIMESTAMPTZ_GT, TIMESTAMPTZ_LE, TIMESTAMPTZ_LT,
    UUID_BTREE_FAMILY,
};
use super::relations::{facts, V7Proof};
use super::{call_on_uuid_column, cells, Walk};
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag, Oid};

#[derive(Clone, Copy, PartialEq)]
enum Cmp {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

impl Cmp {
    fn of(opno: Oid) -> Option<Cmp> {
        Some(match opno.to_u32() {
            TIMESTAMPTZ_LT => Cmp::Lt,
            TIMESTAMPTZ_LE => Cmp::Le,
            TIMESTAMPTZ_EQ => Cmp::Eq,
            TIMESTAMPTZ_GE => Cmp::Ge,
            TIMESTAMPTZ_GT => Cmp::Gt,
            _ => return None,
        })
    }

    /// `X op f` read as `f op' X`.
    fn commuted(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Eq => Cmp::Eq,
            Cmp::Ge => Cmp::Le,
            Cmp::Gt => Cmp::Lt,
        }
    }
}

/// Something an index scan can compute once, before reading the index.
unsafe fn computable_once(x: *mut Node) -> bool {
    !pg_sys::contain_vars_of_level(x, 0)
        && !pg_sys::contain_volatile_functions(x)
        && !pg_sys::checkExprHasSubLink(x)
        && !pg_sys::expression_returns_set(x)
}

/// What a clause gives: the conjuncts it implies that an index on its column can use, and
/// whether they are exactly the clause (which then need not run per row).
pub struct Derived {
    pub conjuncts: Vec<*mut pg_sys::Expr>,
    pub exact: bool,
}

const NOTHING: Derived = Derived { conjuncts: Vec::new(), exact: false };

/// The conjuncts implied by `clause` that an index on its column can use.
pub unsafe fn derive(query: *mut pg_sys::Query, clause: *mut Node, walk: &mut Walk) -> Derived {
    if !is_a(clause, NodeTag::T_OpExpr) {
        return NOTHING;
    }
    let op: *mut pg_sys::OpExpr = clause.cast();
    let Some(cmp) = Cmp::of((*op).opno) else {
        return NOTHING;
    };
    let mut args = cells((*op).args);
    let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) else {
        return NOTHING;
    };
    let (call, var, x, cmp) = match (call_on_uuid_column(a), call_on_uuid_column(b)) {
        (Some((call, var)), _) => (call, var, b, cmp),
        (None, Some((call, var))) => (call, var, a, cmp.commuted()),
        (None, None) => return NOTHING,
    };
    if !computable_once(x) {
        return NOTHING;
    }
    let Some(catalog) = walk.catalog.get() else {
        return NOTHING;
    };
    let Some(reads) = catalog.reads((*call).funcid) else {
        return NOTHING;
    };
    #[allow(clippy::unnecessary_cast)] // Var.varno is Index (u32) on 14, int from 15.
    let rte = pg_sys::list_nth((*query).rtable, (*var).varno as i32 - 1).cast::<pg_sys::RangeTblEntry>();
    if (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION {
        return NOTHING;
    }
    let facts = facts((*rte).relid, (*var).varattno, (*rte).inh, catalog);
    let uuid_ops = Oid::from(UUID_BTREE_FAMILY);
    let by_uuid_ops = facts.index_families.contains(&uuid_ops) || facts.partition_family == Some(uuid_ops);
    let proof = if by_uuid_ops { facts.proof(&mut walk.transient) } else { V7Proof::Nothing };
    let mut families = facts.index_families;
    families.extend(facts.partition_family);
    // Exact: every value is an RFC 9562 v7 (or NULL) and the extractor gives each its
    // millisecond, so the byte range decides each row as the predicate does.
    // Replacing the predicate removes the extractor's call from the plan: only for a role that
    // may run it, so a REVOKE on it is honoured (for others the predicate stays, and fails).
    let exact = proof == V7Proof::Exact && catalog.exact_for_v7((*call).funcid) && may_execute((*call).funcid);
    let (family, (lower, upper)) =
        if families.contains(&uuid_ops) && (reads == Reads::V7Only || proof != V7Proof::Nothing) {
            (uuid_ops, catalog.v7_bounds)
        } else if catalog.time_family != pg_sys::InvalidOid && families.contains(&catalog.time_family) {
            (catalog.time_family, catalog.time_bounds)
        } else {
            return NOTHING;
        };
    // The operators the conjuncts use, which the role must be allowed to run like the bounds.
    let operator = |strategy: i16| {
        let opno = pg_sys::get_opfamily_member(family, pg_sys::UUIDOID, pg_sys::UUIDOID, strategy);
        (opno != pg_sys::InvalidOid && may_execute(pg_sys::get_opcode(opno))).then_some(opno)
    };
    let (Some(ge), Some(lt)) = (operator(BT_GREATER_EQUAL), operator(BT_LESS)) else {
        return NOTHING;
    };
    if family == uuid_ops && proof != V7Proof::Nothing && (*rte).inh {
        walk.proven_trees.push(((*rte).relid, facts.tree.clone()));
    }
    let bound = |opno: Oid, bound_fn: Oid| -> *mut pg_sys::Expr {
        let arg = pg_sys::lappend(core::ptr::null_mut(), pg_sys::copyObjectImpl(x.cast()));
        let value = pg_sys::makeFuncExpr(
            bound_fn,
            pg_sys::UUIDOID,
            arg,
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
            pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
        );
        pg_sys::make_opclause(
            opno,
            pg_sys::BOOLOID,
            false,
            pg_sys::copyObjectImpl(var.cast()).cast(),
            value.cast(),
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
        )
    };
    // time >= X: id >= lower(X); time > X: id >= upper(X); time < X: id < lower(X); time <= X: id < upper(X).
    let conjuncts = match cmp {
        Cmp::Ge => vec![bound(ge, lower)],
        Cmp::Gt => vec![bound(ge, upper)],
        Cmp::Lt => vec![bound(lt, lower)],
        Cmp::Le => vec![bound(lt, upper)],
        Cmp::Eq => vec![bound(ge, lower), bound(lt, upper)],
    };
    Derived { conjuncts, exact: exact && family == uuid_ops }
}
