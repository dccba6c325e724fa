//! Pruning `RANGE (id)` partitions by a window: the range it implies in the key's order is
//! added as one more conjunct, or put in the window's place where it is exactly the window.
//! Not where an index in the tree may serve the window itself (the range would hide it); only
//! top-level conjuncts of a WHERE or JOIN … ON, where NULL and false are alike. A partition
//! attached while the query was planned fails it with 40001 ([`super::relations`]).

use super::relations::{partition_key, V7Proof};
use super::windows::{Order, Window};
use super::PruningRewrite;
use crate::pg::nodes::varno;
use pgrx::pg_sys::{self, Node};

/// What a clause gives: conditions it implies on a partition key, and whether they are exactly
/// the clause (which then need not run per row).
pub struct Derived {
    pub conjuncts: Vec<*mut pg_sys::Expr>,
    pub exact: bool,
}

const NOTHING: Derived = Derived { conjuncts: Vec::new(), exact: false };

/// The range a window on a RANGE partition key implies.
///
/// # Safety
/// Planning; `query` is the query whose FROM list or join holds `clause`.
pub unsafe fn derive(query: *mut pg_sys::Query, clause: *mut Node, walk: &mut PruningRewrite) -> Derived {
    // SAFETY: the query and its range table, read as the planner reads them.
    unsafe {
        let Some(w) = Window::of(clause) else {
            return NOTHING;
        };
        let rte = pg_sys::list_nth((*query).rtable, varno(w.var) as i32 - 1).cast::<pg_sys::RangeTblEntry>();
        if (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION || (*rte).relkind as u8 != pg_sys::RELKIND_PARTITIONED_TABLE
        {
            return NOTHING;
        }
        walk.catalog.resolve();
        let Some(catalog) = walk.catalog.catalog() else {
            return NOTHING;
        };
        if !walk.catalog.bounds_usable() {
            return NOTHING;
        }
        let Some(reads) = w.reads(catalog) else {
            return NOTHING;
        };
        let Some(key) = partition_key((*rte).relid, (*w.var).varattno, catalog) else {
            return NOTHING;
        };
        if key.extractor_index {
            return NOTHING;
        }
        let kind = key.proof.get(&mut walk.transient);
        let Some(order) = Order::of(catalog, key.family, reads, kind) else {
            return NOTHING;
        };
        if order.bytes && kind != V7Proof::Nothing {
            walk.proven_trees.push(((*rte).relid, key.proof.tree.clone()));
        }
        let exact = order.exact(catalog, &w, kind);
        walk.depends_on.extend(order.dependencies(&w, exact));
        Derived { conjuncts: w.conditions(&order), exact }
    }
}
