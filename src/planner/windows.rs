//! Time windows on a uuid column: `f(col) op X` (or `X op f(col)`), `op` one of `< <= = >= >`,
//! `f` an extractor, X computable once per scan; and the range of `col` a window implies in an
//! operator family's order (docs/TIME_WINDOWS.md, "What it recognises"). The range holds every
//! row the window keeps, and is exactly the window where `CHECK (uuid_is_v7(col))` holds, the
//! order is byte order and `f` gives each v7 its millisecond.

use super::relations::V7Proof;
use crate::pg::catalog_ids::operators::{
    TIMESTAMPTZ_EQ, TIMESTAMPTZ_GE, TIMESTAMPTZ_GT, TIMESTAMPTZ_LE, TIMESTAMPTZ_LT, UUID_BTREE_FAMILY,
    UUID_MINMAX_FAMILY, UUID_MINMAX_MULTI_FAMILY,
};
use crate::pg::extension_objects::{may_execute, Catalog, Reads};
use crate::pg::nodes::{call_on_uuid_column, cells, computable_once, list_of};
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
}

/// A clause of a window's shape, `call(var) cmp x`; whether `call` is an extractor is the
/// catalog's to say ([`Window::reads`]).
#[derive(Clone, Copy)]
pub struct Window {
    pub call: *mut pg_sys::FuncExpr,
    /// `call`'s function, read when the window was recognised.
    pub funcid: Oid,
    pub var: *mut pg_sys::Var,
    pub x: *mut Node,
    pub cmp: Cmp,
    /// The clause's own operator (before a commuted window is read the other way round).
    pub opno: Oid,
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
            // `X op f(col)` is `f(col) op' X`, op' the commutator the catalog names.
            let (call, var, x, cmp) = match (call_on_uuid_column(a), call_on_uuid_column(b)) {
                (Some((call, var)), _) => (call, var, b, cmp),
                (None, Some((call, var))) => (call, var, a, Cmp::of(pg_sys::get_commutator((*op).opno))?),
                (None, None) => return None,
            };
            computable_once(x).then_some(Window { call, funcid: (*call).funcid, var, x, cmp, opno: (*op).opno })
        }
    }

    /// The functions the window's clause calls: the extractor and the comparison's (whose
    /// calls leave a plan where the range is exactly the window; the plan then depends on them,
    /// so that a REVOKE on either makes it again).
    ///
    /// # Safety
    /// Inside a transaction.
    pub unsafe fn calls(&self) -> [Oid; 2] {
        // SAFETY: a system-cache lookup of a built-in operator (Cmp::of admits only those).
        [self.funcid, unsafe { pg_sys::get_opcode(self.opno) }]
    }

    /// What the function returns a time for, if it is a recognised extractor.
    pub fn reads(&self, catalog: &Catalog) -> Option<Reads> {
        catalog.reads(self.funcid)
    }

    /// The conditions on the column the window implies in `order`: `col >= lower(X)` for `>=`,
    /// `col >= upper(X)` for `>`, `col < lower(X)` for `<`, `col < upper(X)` for `<=`; both
    /// ends for `=`.
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
                    let arg = list_of([pg_sys::copyObjectImpl(self.x.cast())]);
                    let call = pg_sys::makeFuncExpr(
                        bound_fn,
                        pg_sys::UUIDOID,
                        arg,
                        pg_sys::InvalidOid,
                        pg_sys::InvalidOid,
                        pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
                    );
                    // The hook's own call (the planner keeps a location through copies and
                    // simplification): only these become InitPlans.
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
/// ([`crate::functions::bounds::bound`]; NULL for NULL, as the functions are STRICT), in the current
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
            let bytes = crate::functions::bounds::bound(byte_order, upper, (*x).constvalue.value() as i64);
            pgrx::IntoDatum::into_datum(pgrx::Uuid::from_bytes(bytes)).expect("a uuid is never NULL")
        };
        pg_sys::makeConst(pg_sys::UUIDOID, -1, pg_sys::InvalidOid, 16, value, (*x).constisnull, false)
    }
}

/// The parse location of the bound calls the hook derives ([`super::initplan_bounds`] hoists
/// only these; a user's call has its place in the query text, or -1). Negative: no error
/// position is reported with it.
pub const DERIVED_BOUND: core::ffi::c_int = -0x7575_6964;

/// An ordering of the column that windows can be ranges of.
#[derive(Clone, Copy)]
pub struct Order {
    /// The lower and upper bound functions of this order.
    pub bounds: (Oid, Oid),
    /// The family's `>=` and `<` for two uuids.
    pub ge: Oid,
    pub lt: Oid,
    /// Their functions, which the conditions call (a plan depends on them).
    pub calls: [Oid; 2],
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
    /// its operators (a REVOKE is honoured).
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
        Some(Order { bounds, ge: operators.ge, lt: operators.lt, calls: operators.calls, bytes })
    }

    /// Whether the range in this order is exactly window `w`: byte order over v7 values only,
    /// an extractor exact for v7 — and a role that may run the extractor and the comparison's
    /// function, whose calls then leave the plan (a REVOKE on either is honoured).
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn exact(&self, catalog: &Catalog, w: &Window, proof: V7Proof) -> bool {
        // SAFETY: a system-cache lookup and ACL checks through the system caches.
        self.bytes
            && proof == V7Proof::Exact
            && catalog.exact_for_v7(w.funcid)
            && unsafe { w.calls() }.into_iter().all(|f| unsafe { may_execute(f) })
    }

    /// The functions a plan with this order's conditions for window `w` depends on that
    /// PostgreSQL does not record (it leaves built-in functions out): the conditions'
    /// comparisons and, where the range is `exact`, the window's own calls, which the plan no
    /// longer makes. A REVOKE on one makes the plan again.
    ///
    /// # Safety
    /// Inside a transaction.
    pub unsafe fn dependencies(&self, w: &Window, exact: bool) -> impl Iterator<Item = Oid> {
        // SAFETY: as the caller vouches.
        let taken_out = if exact { unsafe { w.calls() } } else { [pg_sys::InvalidOid; 2] };
        self.calls.into_iter().chain(taken_out).filter(|&f| f != pg_sys::InvalidOid)
    }
}
