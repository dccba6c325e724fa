//! Time windows that prune the partitions of a table partitioned by `RANGE` on its key.
//!
//! PostgreSQL prunes partitions with the query's own conditions on the partition key, before
//! any path is made, at plan time for constants and at run time for parameters and `now()`. A
//! window on a partitioned table (`uuid_extract_timestamp(id) >= X`, [`super::windows`]) is not
//! such a condition; the range it implies in the partition key's order is. So for a table
//! partitioned by `RANGE (id)` (first key column) this adds that range to the query as one
//! more conjunct — where it is exactly the window (`CHECK (uuid_is_v7(id))` over the whole
//! tree and a byte-order key) it takes the window's place, so the partitions' scans test one
//! condition per row, not two, and the row estimates are the key's own statistics'.
//!
//! Not where a valid index of the table or of a relation below it may serve the window (its
//! columns or predicate call an extractor, or a SQL function the planner may inline;
//! [`super::relations::partition_key`]): in the window's place the range would hide
//! that index from the window, and beside it would count the window twice in the row
//! estimates. There the query stays as written, planned as PostgreSQL plans it
//! ([`super::index_paths`] still offers the key's ranges on each partition).
//!
//! It is implied by the user's own clause (or equal to it), and only top-level conjuncts of a
//! WHERE or JOIN … ON clause are touched, where a NULL and a false are the same: the result is
//! that of the plain query. The proof covers every partition below the table, foreign ones
//! proving nothing ([`super::relations::partition_key`]); a partition attached while the query
//! was planned fails the finished plan with 40001 ([`super::relations::no_relation_joined`]).

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
