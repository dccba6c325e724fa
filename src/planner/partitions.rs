//! Time windows that prune the partitions of a table partitioned by `RANGE` on its key.
//!
//! PostgreSQL prunes with the query's own conditions on the partition key, at plan time for
//! constants and at run time for parameters and `now()`. A window ([`super::windows`]) is not
//! such a condition; the range it implies in the key's order is. So for a table partitioned by
//! `RANGE (id)` (first key column) this adds that range as one more conjunct — or, where it is
//! exactly the window (`CHECK (uuid_is_v7(id))` over the tree, a byte-order key), puts it in the
//! window's place, so each row is tested once and estimated with the key's statistics.
//!
//! Not where a valid index in the tree may serve the window itself
//! ([`super::relations::partition_key`]): the range would hide it in the window's place and count
//! twice beside it; there the query stays as written. Only top-level conjuncts of a WHERE or JOIN
//! … ON are touched, where NULL and false are alike, so results are the plain query's; a
//! partition attached while the query was planned fails the plan with 40001
//! ([`super::relations::no_relation_joined`]).

use super::nodes::varno;
use super::relations::{partition_key, V7Proof};
use super::windows::{Order, Window};
use super::PruningRewrite;
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
        let exact = order.exact(catalog, (*w.call).funcid, kind);
        Derived { conjuncts: w.conditions(&order), exact }
    }
}
