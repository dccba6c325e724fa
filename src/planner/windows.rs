//! Time windows on a uuid column: which clauses are windows, and the range of the column a
//! window implies in an ordering of it (an operator family), which [`super::index_paths`] and
//! [`super::partitions`] use.
//!
//! A window is `f(col) op X` (or `X op f(col)`), `op` one of `< <= = >= >` on timestamptz, `f`
//! an extractor (`uuid_extract_timestamp`, core's on 17+ or uuid_ext's, `uuid_ext_timestamp`,
//! `uuid_v7_to_timestamptz`), `col` a uuid column and X anything a scan can compute once
//! (constants, parameters, stable functions such as `now()`). It implies `col >=
//! uuid_time_lower_bound(X)` … in a `uuid_time_ops` order, always; `col >=
//! uuid_v7_lower_bound(X)` … in byte order (btree `uuid_ops`, BRIN minmax) where `f` reads v7
//! only or a valid, enforced CHECK confines the column to v7 ([`super::relations`]). (`>` and
//! `<=` use the upper bound, `=` both; [`crate::bounds`].) Every row the window keeps is in the
//! range; it is **exactly** the window, NULLs alike, where `CHECK (uuid_is_v7(col))` holds
//! ([`V7Proof::Exact`]), the order is byte order and `f` gives each v7 value its millisecond
//! (uuid_ext's extractors, core's on 18+).

use super::extension_objects::{may_execute, Catalog, Reads};
use super::nodes::{call_on_uuid_column, cells, computable_once};
use super::relations::V7Proof;
use crate::catalog_ids::operators::{
    TIMESTAMPTZ_EQ, TIMESTAMPTZ_GE, TIMESTAMPTZ_GT, TIMESTAMPTZ_LE, TIMESTAMPTZ_LT, UUID_BTREE_FAMILY,
    UUID_MINMAX_FAMILY, UUID_MINMAX_MULTI_FAMILY,
};
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag, Oid};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cmp {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

impl Cmp {
    /// The comparison a timestamptz operator is ([`Cmp::opno`] read backwards).
    fn of(opno: Oid) -> Option<Cmp> {
        [Cmp::Lt, Cmp::Le, Cmp::Eq, Cmp::Ge, Cmp::Gt].into_iter().find(|cmp| cmp.opno() == opno)
    }

    /// The operator of `f cmp X`, on timestamptz.
    pub fn opno(self) -> Oid {
        Oid::from(match self {
            Cmp::Lt => TIMESTAMPTZ_LT,
            Cmp::Le => TIMESTAMPTZ_LE,
            Cmp::Eq => TIMESTAMPTZ_EQ,
            Cmp::Ge => TIMESTAMPTZ_GE,
            Cmp::Gt => TIMESTAMPTZ_GT,
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

/// A clause of a window's shape: `call(var) cmp x`. Whether `call` is an extractor is the
/// catalog's to say ([`Window::reads`]); the shape alone costs no catalog lookup.
#[derive(Clone, Copy)]
pub struct Window {
    pub call: *mut pg_sys::FuncExpr,
    /// `call`'s function, read when the window was recognised.
    pub funcid: Oid,
    pub var: *mut pg_sys::Var,
    pub x: *mut Node,
    pub cmp: Cmp,
}

impl Window {
    /// The window a clause is, by its shape.
    ///
    /// # Safety
    /// `clause` is an expression tree.
    pub unsafe fn of(clause: *mut Node) -> Option<Window> {
        // SAFETY: a node of the tree; its tag decides the cast.
        unsafe {
            if !is_a(clause, NodeTag::T_OpExpr) {
                return None;
            }
            let op: *mut pg_sys::OpExpr = clause.cast();
            let cmp = Cmp::of((*op).opno)?;
            let mut args = cells((*op).args);
            let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) else {
                return None;
            };
            let (call, var, x, cmp) = match (call_on_uuid_column(a), call_on_uuid_column(b)) {
                (Some((call, var)), _) => (call, var, b, cmp),
                (None, Some((call, var))) => (call, var, a, cmp.commuted()),
                (None, None) => return None,
            };
            computable_once(x).then_some(Window { call, funcid: (*call).funcid, var, x, cmp })
        }
    }

    /// What the function returns a time for, if it is a recognised extractor.
    pub fn reads(&self, catalog: &Catalog) -> Option<Reads> {
        catalog.reads(self.funcid)
    }

    /// The conditions on the column the window implies in `order` (one, or two for `=`):
    /// `col >= lower(X)`; `col >= upper(X)` for `>`; `col < lower(X)` for `<`; `col <
    /// upper(X)` for `<=`.
    ///
    /// # Safety
    /// Planning; the nodes are made in the current memory context.
    pub unsafe fn conditions(&self, order: &Order) -> Vec<*mut pg_sys::Expr> {
        let (lower, upper) = order.bounds;
        let bound = |opno: Oid, bound_fn: Oid| -> *mut pg_sys::Expr {
            // SAFETY: a call of the bound function on a copy of X, compared with a copy of the
            // column, made as the parser would make them; or, for a constant X, the constant
            // the planner would fold that call to.
            unsafe {
                let value: *mut Node = if is_a(self.x, NodeTag::T_Const) {
                    bound_constant(order.bytes, bound_fn == upper, self.x.cast()).cast()
                } else {
                    let arg = pg_sys::lappend(core::ptr::null_mut(), pg_sys::copyObjectImpl(self.x.cast()));
                    let call = pg_sys::makeFuncExpr(
                        bound_fn,
                        pg_sys::UUIDOID,
                        arg,
                        pg_sys::InvalidOid,
                        pg_sys::InvalidOid,
                        pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
                    );
                    // Marks the call as the hook's own (the planner keeps a call's location
                    // through its copies and simplifications): only these become parameters
                    // after planning.
                    (*call).location = DERIVED_BOUND;
                    call.cast()
                };
                pg_sys::make_opclause(
                    opno,
                    pg_sys::BOOLOID,
                    false,
                    pg_sys::copyObjectImpl(self.var.cast()).cast(),
                    value.cast(),
                    pg_sys::InvalidOid,
                    pg_sys::InvalidOid,
                )
            }
        };
        match self.cmp {
            Cmp::Ge => vec![bound(order.ge, lower)],
            Cmp::Gt => vec![bound(order.ge, upper)],
            Cmp::Lt => vec![bound(order.lt, lower)],
            Cmp::Le => vec![bound(order.lt, upper)],
            Cmp::Eq => vec![bound(order.ge, lower), bound(order.lt, upper)],
        }
    }
}

/// The bound of a constant timestamptz `x` as a constant: what the bound function returns for it
/// ([`crate::bounds::bound`]; NULL for NULL, as the functions are STRICT), in the current
/// memory context.
///
/// # Safety
/// `x` is a timestamptz Const.
pub unsafe fn bound_constant(byte_order: bool, upper: bool, x: *const pg_sys::Const) -> *mut pg_sys::Const {
    // SAFETY: a timestamptz is an int64 passed by value; the uuid is palloc'd.
    unsafe {
        let value = if (*x).constisnull {
            pg_sys::Datum::from(0)
        } else {
            let bytes = crate::bounds::bound(byte_order, upper, (*x).constvalue.value() as i64);
            pgrx::IntoDatum::into_datum(pgrx::Uuid::from_bytes(bytes)).expect("a uuid is never NULL")
        };
        pg_sys::makeConst(pg_sys::UUIDOID, -1, pg_sys::InvalidOid, 16, value, (*x).constisnull, false)
    }
}

/// The parse location the bound calls the hook derives carry ([`super::initplan_bounds`] makes only these
/// parameters; a user's own call has its place in the query text, 0 or more, or -1). Negative,
/// so nothing reports an error position with it.
pub const DERIVED_BOUND: core::ffi::c_int = -0x7575_6964;

/// An ordering of the column that windows can be ranges of.
#[derive(Clone, Copy)]
pub struct Order {
    /// The lower and upper bound functions of this order.
    pub bounds: (Oid, Oid),
    /// The family's `>=` and `<` for two uuids.
    pub ge: Oid,
    pub lt: Oid,
    /// Byte order (else `uuid_time_ops`).
    pub bytes: bool,
}

/// Whether `family` orders uuids by their bytes (btree `uuid_ops`, BRIN minmax).
pub fn byte_order(family: Oid) -> bool {
    matches!(family.to_u32(), UUID_BTREE_FAMILY | UUID_MINMAX_FAMILY | UUID_MINMAX_MULTI_FAMILY)
}

impl Order {
    /// The order of `family` for windows through an extractor that `reads`, where the column's
    /// CHECKs prove `proof`; `None` when windows imply no range there, or the role may not run
    /// the bounds or operators (a REVOKE on them is honoured: the plan is then PostgreSQL's).
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn of(catalog: &Catalog, family: Oid, reads: Reads, proof: V7Proof) -> Option<Order> {
        let bytes = byte_order(family);
        let bounds = if bytes && (reads == Reads::V7Only || proof != V7Proof::Nothing) {
            catalog.v7_bounds
        } else if !bytes && catalog.time_family != pg_sys::InvalidOid && family == catalog.time_family {
            catalog.time_bounds
        } else {
            return None;
        };
        // (The bounds themselves: asked by every rewrite that calls one, `Lazy::bounds_usable`.)
        // SAFETY: as the caller vouches.
        let operators = unsafe { catalog.operators(family) }?;
        Some(Order { bounds, ge: operators.ge, lt: operators.lt, bytes })
    }

    /// Whether the range in this order is exactly the window of extractor `funcid`, row for
    /// row: byte order over a column of RFC 9562 v7 values only, an extractor that gives each
    /// its millisecond — and a role that may run the extractor, since the window's own clause
    /// then leaves the plan (a REVOKE on it is honoured: the role is refused as without the
    /// hook).
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn exact(&self, catalog: &Catalog, funcid: Oid, proof: V7Proof) -> bool {
        // SAFETY: an ACL check through the system caches.
        self.bytes && proof == V7Proof::Exact && catalog.exact_for_v7(funcid) && unsafe { may_execute(funcid) }
    }
}
