//! Time windows and ordered reads served by the key's index: after PostgreSQL has made its own
//! paths for a table, index, bitmap and parallel paths are added for each btree or BRIN index
//! on a uuid column that can serve them — never in place of PostgreSQL's (docs/TIME_WINDOWS.md).
//!
//! * windows ([`super::windows`]): the range each implies in the index's order as index
//!   conditions, the window's own clause rechecked unless the range is exactly it; plain
//!   conditions on the index's other columns come along;
//! * ordered reads: an index scan in the order of `ORDER BY f(id)` where the index's order is
//!   the extractor's.
//!
//! Row estimates stay the user's predicate's; the planner picks by cost. Each partition or
//! child is planned here as itself, with its own indexes and CHECKs.

use super::relations::{own_proof, Proof, V7Proof};
use super::windows::{byte_order, Order, Window};
use crate::pg::catalog_ids::operators::DATETIME_BTREE_FAMILY;
use crate::pg::extension_objects::{Catalog, Lazy};
use crate::pg::nodes::{cells, list_of, varno};
use core::ffi::c_int;
use pgrx::pg_sys::{self, Node, Oid};

/// A sort the query asks for by `f(col)`, `f` a one-argument function of a uuid column of
/// the relation.
pub struct Sort {
    pub pathkey: *mut pg_sys::PathKey,
    pub call: *mut pg_sys::FuncExpr,
    pub var: *mut pg_sys::Var,
    /// `call`'s function.
    pub funcid: Oid,
    pub descending: bool,
    pub nulls_first: bool,
}

impl Sort {
    /// Whether an order by operator family `family` is this sort's: `Some(false)` for
    /// `uuid_time_ops` and `uuid_ext_timestamp()`, whose untimed values are the greatest and
    /// their times NULL (so the sort must put NULLs at that end, and the index too);
    /// `Some(true)` for byte order and an extractor exact for v7, which the caller must then
    /// prove `CHECK (uuid_is_v7(col))` for (so the time is NULL exactly where the key is, and the
    /// index's NULLs must be where the sort puts them).
    pub fn served_by(&self, catalog: &Catalog, family: Oid) -> Option<bool> {
        let time_order = catalog.time_family != pg_sys::InvalidOid
            && family == catalog.time_family
            && self.funcid == catalog.time_extractor;
        if time_order {
            (self.nulls_first == self.descending).then_some(false)
        } else {
            (byte_order(family) && catalog.exact_for_v7(self.funcid)).then_some(true)
        }
    }
}

/// # Safety
/// `root`, `rel` and `rte` are the planner's, for a relation whose own paths are made.
pub(super) unsafe fn add_paths(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    rte: *mut pg_sys::RangeTblEntry,
) {
    // SAFETY: the planner's structures, read as PostgreSQL's own path generation reads them.
    unsafe {
        let r = &*rel;
        // A partitioned table is never scanned itself (its partitions are); TABLESAMPLE reads a
        // sample, which an index path would not.
        if (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION
            || (*rte).relkind as u8 == pg_sys::RELKIND_PARTITIONED_TABLE
            || !(*rte).tablesample.is_null()
            || r.indexlist.is_null()
            || !matches!(r.reloptkind, pg_sys::RelOptKind::RELOPT_BASEREL | pg_sys::RelOptKind::RELOPT_OTHER_MEMBER_REL)
        {
            return;
        }
        // The shapes first: a relation without a window or a sort by a function of a uuid
        // column costs no catalog lookup.
        let windows: Vec<(*mut pg_sys::RestrictInfo, Window)> = cells(r.baserestrictinfo)
            .map(|n| n.cast::<pg_sys::RestrictInfo>())
            .filter_map(|ri| Window::of((*ri).clause.cast()).map(|w| (ri, w)))
            .filter(|(ri, w)| varno(w.var) == r.relid && pg_sys::restriction_is_securely_promotable(*ri, rel))
            .collect();
        let sort = sort_by_function(root, r);
        if windows.is_empty() && sort.is_none() {
            return;
        }
        let lazy = Lazy::resolved();
        let Some(catalog) = lazy.catalog() else {
            return;
        };
        let mut windows: Vec<_> = windows.into_iter().filter(|(_, w)| w.reads(catalog).is_some()).collect();
        // A window's range calls a bound function: only for a role that may run them (an
        // ordered read calls none).
        if !windows.is_empty() && !lazy.bounds_usable() {
            windows.clear();
        }
        let sort = sort.filter(|s| catalog.reads(s.funcid).is_some());
        if windows.is_empty() && sort.is_none() {
            return;
        }
        let relid = (*rte).relid;
        let mut proofs: Vec<(pg_sys::AttrNumber, V7Proof)> = Vec::new();
        let glob = (*root).glob;
        let mut transient = false;
        let mut proof_of = |attno: pg_sys::AttrNumber| -> V7Proof {
            if let Some((_, p)) = proofs.iter().find(|(a, _)| *a == attno) {
                return *p;
            }
            let p = Proof::get(&own_proof(relid, attno, catalog), &mut transient);
            proofs.push((attno, p));
            p
        };
        let mut used_bounds = false;
        for index in cells(r.indexlist).map(|n| n.cast::<pg_sys::IndexOptInfo>()) {
            let ix = &*index;
            if (!ix.indpred.is_null() && !ix.predOK)
                || !(ix.relam == pg_sys::BTREE_AM_OID || ix.relam == pg_sys::BRIN_AM_OID)
            {
                continue;
            }
            // The windows on each key column of the index, with the range each implies.
            let mut ranges = Vec::new();
            for col in 0..ix.nkeycolumns.max(0) as usize {
                let attno = *ix.indexkeys.add(col);
                let family = *ix.opfamily.add(col);
                for &(ri, w) in windows.iter().filter(|(_, w)| i32::from((*w.var).varattno) == attno) {
                    let Some(reads) = w.reads(catalog) else { continue };
                    let proof = proof_of(attno as pg_sys::AttrNumber);
                    let Some(order) = Order::of(catalog, family, reads, proof) else { continue };
                    let exact = order.exact(catalog, &w, proof);
                    ranges.push((ri, w, order, exact, col));
                }
            }
            let order = sort.as_ref().and_then(|s| index_order(catalog, ix, s, &mut proof_of));
            if ranges.is_empty() && order.is_none() {
                continue;
            }
            // PostgreSQL's own conditions on the index's columns, which its paths would use too.
            let mut clauses: Vec<*mut pg_sys::IndexClause> = Vec::new();
            for col in 0..ix.nkeycolumns.max(0) as usize {
                for ri in cells(r.baserestrictinfo).map(|n| n.cast::<pg_sys::RestrictInfo>()) {
                    if let Some(clause) = plain_clause(rel, ix, col, ri) {
                        clauses.push(clause);
                    }
                }
            }
            // What an index on the extractor gives as well, PostgreSQL's own path gives: offered
            // anyway, this one would cost planning on every partition of a tree for nothing.
            if clauses.is_empty()
                && own_index_serves(
                    rel,
                    &ranges.iter().map(|(_, w, ..)| w).collect::<Vec<_>>(),
                    order.and(sort.as_ref()),
                )
            {
                continue;
            }
            used_bounds |= !ranges.is_empty();
            for (ri, w, range, exact, col) in &ranges {
                clauses.push(range_clause(root, *ri, w, range, *exact, *col));
                for f in range.dependencies(w, *exact) {
                    (*glob).invalItems = crate::pg::nodes::depend_on_function((*glob).invalItems, f);
                }
            }
            clauses.sort_by_key(|c| (**c).indexcol);
            offer(root, rel, index, list_of(clauses), order);
        }
        (*glob).transientPlan |= transient;
        // The role's EXECUTE privilege on the bounds and operators was checked.
        (*glob).dependsOnRole |= used_bounds;
    }
}

/// The `IndexClause` of a window on index column `col`: the window's own clause (rechecked
/// unless `exact`) and the range it implies in `order`.
unsafe fn range_clause(
    root: *mut pg_sys::PlannerInfo,
    window_clause: *mut pg_sys::RestrictInfo,
    w: &Window,
    order: &Order,
    exact: bool,
    col: usize,
) -> *mut pg_sys::IndexClause {
    // SAFETY: nodes made in the planner's memory context as PostgreSQL's own support functions
    // make them; each derived condition carries the window's security level.
    unsafe {
        // The planner has simplified the query's expressions already, X among them; a bound of
        // a constant is folded by conditions() itself, as the planner would fold it.
        let level = (*window_clause).security_level;
        let quals = list_of(w.conditions(order).into_iter().map(|c| crate::pg::compat::restrict_info(root, c, level)));
        index_clause(window_clause, quals, !exact, col)
    }
}

/// An `IndexClause`: restriction `rinfo` on index column `col` as the conditions `quals`.
///
/// # Safety
/// Planning, in the planner's memory context.
unsafe fn index_clause(
    rinfo: *mut pg_sys::RestrictInfo,
    quals: *mut pg_sys::List,
    lossy: bool,
    col: usize,
) -> *mut pg_sys::IndexClause {
    // SAFETY: a new node, filled in as PostgreSQL's match_clause_to_indexcol() fills its own.
    unsafe {
        let clause = crate::pg::nodes::new_node::<pg_sys::IndexClause>(pg_sys::NodeTag::T_IndexClause);
        (*clause).rinfo = rinfo;
        (*clause).indexquals = quals;
        (*clause).lossy = lossy;
        (*clause).indexcol = col as pg_sys::AttrNumber;
        clause
    }
}

/// A restriction `col op X` (or `X op col`) on index column `col` with an operator of its
/// family, matched as PostgreSQL's `match_opclause_to_indexcol()` matches one.
unsafe fn plain_clause(
    rel: *mut pg_sys::RelOptInfo,
    ix: &pg_sys::IndexOptInfo,
    col: usize,
    ri: *mut pg_sys::RestrictInfo,
) -> Option<*mut pg_sys::IndexClause> {
    // SAFETY: the planner's restriction and index structures, read-only; a commuted copy is
    // made as PostgreSQL makes one.
    unsafe {
        let clause: *mut Node = (*ri).clause.cast();
        if (*ri).pseudoconstant
            || !pgrx::is_a(clause, pg_sys::NodeTag::T_OpExpr)
            || !pg_sys::restriction_is_securely_promotable(ri, rel)
        {
            return None;
        }
        let op: *mut pg_sys::OpExpr = clause.cast();
        let mut args = cells((*op).args);
        let (Some(left), Some(right), None) = (args.next(), args.next(), args.next()) else {
            return None;
        };
        let family = *ix.opfamily.add(col);
        let collation = *ix.indexcollations.add(col);
        // A plain column only: on `((uuid_extract_timestamp(id)), id)` the window would be a
        // condition on the first column beside its range on the second, counted twice (review).
        let is_key = |n: *mut Node| {
            *ix.indexkeys.add(col) != 0
                && pg_sys::match_index_to_operand(n, col as c_int, core::ptr::from_ref(ix).cast_mut())
        };
        let other_ok = |n: *mut Node| !pg_sys::contain_volatile_functions(n) && !pg_sys::contain_vars_of_level(n, 0);
        if collation != pg_sys::InvalidOid && collation != (*op).inputcollid {
            return None;
        }
        let quals = if is_key(left) && other_ok(right) && pg_sys::op_in_opfamily((*op).opno, family) {
            ri
        } else if is_key(right) && other_ok(left) {
            let commuted = pg_sys::get_commutator((*op).opno);
            if commuted == pg_sys::InvalidOid || !pg_sys::op_in_opfamily(commuted, family) {
                return None;
            }
            pg_sys::commute_restrictinfo(ri, commuted)
        } else {
            return None;
        };
        Some(index_clause(ri, list_of([quals]), false, col))
    }
}

/// The first sort key of the query, if it is `f(col)` on a uuid column of `rel` (or of its
/// parent, translated for this child).
pub unsafe fn sort_by_function(root: *mut pg_sys::PlannerInfo, rel: &pg_sys::RelOptInfo) -> Option<Sort> {
    // SAFETY: the planner's pathkeys and equivalence classes, read-only.
    unsafe {
        let pathkey = cells((*root).query_pathkeys).next()?.cast::<pg_sys::PathKey>();
        if (*pathkey).pk_opfamily != Oid::from(DATETIME_BTREE_FAMILY) {
            return None;
        }
        let descending = crate::pg::compat::pathkey_descending(pathkey);
        let class = (*pathkey).pk_eclass;
        if (*class).ec_has_volatile {
            return None;
        }
        let children = crate::pg::compat::child_members(class, rel.relid);
        cells((*class).ec_members).chain(cells(children)).find_map(|member| {
            let expr: *mut Node = (*member.cast::<pg_sys::EquivalenceMember>()).em_expr.cast();
            let (call, var) = crate::pg::nodes::call_on_uuid_column(expr)?;
            (varno(var) == rel.relid && (*call).funcresulttype == pg_sys::TIMESTAMPTZOID).then_some(Sort {
                pathkey,
                call,
                var,
                funcid: (*call).funcid,
                descending,
                nulls_first: (*pathkey).pk_nulls_first,
            })
        })
    }
}

/// Whether one usable btree index of the relation is on the expression of every window (its
/// operator in the column's family) and of `sort` (in its order and NULLs placement), matched
/// as PostgreSQL's own paths match them: then they make this scan. Only an index PostgreSQL
/// costs as it costs the key's: one column, nothing included, and statistics for its
/// expression (before its first ANALYZE a window is estimated at a third of the table).
///
/// # Safety
/// `rel` is the planner's, for a relation whose own paths are made; the windows and the sort
/// are of its restrictions and of the query's order.
unsafe fn own_index_serves(rel: *mut pg_sys::RelOptInfo, windows: &[&Window], sort: Option<&Sort>) -> bool {
    // SAFETY: the relation's index list, read-only; a btree index that can be scanned has its
    // sort arrays (a partitioned index, without them, is never here: see add_paths()); the
    // statistics looked up in the syscache, which raises nothing for a missing row.
    unsafe {
        cells((*rel).indexlist).map(|n| n.cast::<pg_sys::IndexOptInfo>()).any(|index| {
            let ix = &*index;
            ordered_btree(ix)
                && (ix.indpred.is_null() || ix.predOK)
                && ix.ncolumns == 1
                && ix.nkeycolumns == 1
                && *ix.indexkeys == 0
                && windows.iter().all(|w| {
                    pg_sys::match_index_to_operand(w.call.cast(), 0, index)
                        && pg_sys::op_in_opfamily(w.cmp.opno(), *ix.opfamily)
                })
                && sort.is_none_or(|s| {
                    pg_sys::match_index_to_operand(s.call.cast(), 0, index)
                        && *ix.opfamily == (*s.pathkey).pk_opfamily
                        && reading(ix, s.descending).1 == s.nulls_first
                })
                && pg_sys::SearchSysCacheExists(
                    pg_sys::SysCacheIdentifier::STATRELATTINH as c_int,
                    ix.indexoid.into(),
                    pg_sys::Datum::from(1i16),
                    pg_sys::Datum::from(false),
                    pg_sys::Datum::from(0),
                )
        })
    }
}

/// Whether `ix` is a btree index that can be scanned in its order: at least one key column,
/// and the sort arrays (a partitioned index, listed on 16 and later, has none).
fn ordered_btree(ix: &pg_sys::IndexOptInfo) -> bool {
    ix.relam == pg_sys::BTREE_AM_OID
        && ix.nkeycolumns >= 1
        && !ix.opfamily.is_null()
        && !ix.reverse_sort.is_null()
        && !ix.nulls_first.is_null()
}

/// How a btree index's leading column is read for an order `descending`: the direction, and
/// whether its NULLs then come first.
///
/// # Safety
/// `ix` is a btree index that can be scanned (its sort arrays set).
unsafe fn reading(ix: &pg_sys::IndexOptInfo, descending: bool) -> (pg_sys::ScanDirection::Type, bool) {
    // SAFETY: as the caller vouches.
    let (reverse, nulls_first) = unsafe { (*ix.reverse_sort, *ix.nulls_first) };
    // Forward, the index gives its declared order; backward, the reverse of it.
    let backward = descending != reverse;
    let direction = if backward {
        pg_sys::ScanDirection::BackwardScanDirection
    } else {
        pg_sys::ScanDirection::ForwardScanDirection
    };
    (direction, nulls_first != backward)
}

/// Whether index `ix` read forward or backward gives the order of `sort`, and which way.
unsafe fn index_order(
    catalog: &Catalog,
    ix: &pg_sys::IndexOptInfo,
    sort: &Sort,
    proof_of: &mut impl FnMut(pg_sys::AttrNumber) -> V7Proof,
) -> Option<(pg_sys::ScanDirection::Type, *mut pg_sys::PathKey)> {
    // SAFETY: the index's arrays have at least one key column for a btree that can be scanned
    // (checked: a partitioned index has no sort arrays).
    unsafe {
        if !ordered_btree(ix) || *ix.indexkeys != i32::from((*sort.var).varattno) {
            return None;
        }
        let (direction, out_nulls_first) = reading(ix, sort.descending);
        let same_order = match sort.served_by(catalog, *ix.opfamily) {
            Some(false) => out_nulls_first == sort.descending,
            Some(true) => out_nulls_first == sort.nulls_first && proof_of((*sort.var).varattno) == V7Proof::Exact,
            None => false,
        };
        same_order.then_some((direction, sort.pathkey))
    }
}

/// Adds the paths an index offers with these clauses (and this order): an index scan and its
/// parallel form (btree), a bitmap heap scan and its parallel form (btree and BRIN), as
/// PostgreSQL's `build_index_paths()` and `create_index_paths()` make them.
unsafe fn offer(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    index: *mut pg_sys::IndexOptInfo,
    clauses: *mut pg_sys::List,
    order: Option<(pg_sys::ScanDirection::Type, *mut pg_sys::PathKey)>,
) {
    // SAFETY: paths made and added as PostgreSQL's own path generation makes and adds them.
    unsafe {
        let (r, ix) = (&*rel, &*index);
        let (direction, pathkeys) = match order {
            Some((direction, pathkey)) => (direction, list_of([pathkey])),
            None => (pg_sys::ScanDirection::ForwardScanDirection, core::ptr::null_mut()),
        };
        let (none, lateral) = (core::ptr::null_mut(), r.lateral_relids);
        // One index path of these clauses: pathkeys, direction, index-only, parallel.
        let index_path = |keys, dir, only, partial| {
            pg_sys::create_index_path(root, index, clauses, none, none, keys, dir, only, lateral, 1.0, partial)
        };
        let mut bitmap_scan = None;
        if ix.amhasgettuple {
            let index_only = index_only_possible(rel, ix);
            let path = index_path(pathkeys, direction, index_only, false);
            pg_sys::add_path(rel, path.cast());
            if ix.amcanparallel && r.consider_parallel && lateral.is_null() {
                let partial = index_path(pathkeys, direction, index_only, true);
                if (*partial).path.parallel_workers > 0 {
                    pg_sys::add_partial_path(rel, partial.cast());
                }
            }
            // The bitmap path reuses this IndexPath, as get_index_paths() does, unless it reads
            // the whole index for its order alone.
            bitmap_scan = Some(path).filter(|p| pathkeys.is_null() || (**p).indexselectivity < 1.0);
        }
        if ix.amhasgetbitmap && !clauses.is_null() {
            let scan = bitmap_scan
                .unwrap_or_else(|| index_path(none, pg_sys::ScanDirection::ForwardScanDirection, false, false));
            let heap = pg_sys::create_bitmap_heap_path(root, rel, scan.cast(), lateral, 1.0, 0);
            pg_sys::add_path(rel, heap.cast());
            if r.consider_parallel && lateral.is_null() {
                pg_sys::create_partial_bitmap_paths(root, rel, scan.cast());
            }
        }
    }
}

/// Whether every column the query needs of the relation can come from the index
/// (PostgreSQL's `check_index_only()`).
unsafe fn index_only_possible(rel: *mut pg_sys::RelOptInfo, ix: &pg_sys::IndexOptInfo) -> bool {
    // SAFETY: the planner's target list and restrictions, read-only; bitmapsets made in the
    // planner's memory context.
    unsafe {
        if !pg_sys::enable_indexonlyscan {
            return false;
        }
        let relid = (*rel).relid;
        let mut needed: *mut pg_sys::Bitmapset = core::ptr::null_mut();
        pg_sys::pull_varattnos((*(*rel).reltarget).exprs.cast(), relid, &mut needed);
        for ri in cells(ix.indrestrictinfo) {
            pg_sys::pull_varattnos((*ri.cast::<pg_sys::RestrictInfo>()).clause.cast(), relid, &mut needed);
        }
        let mut available: *mut pg_sys::Bitmapset = core::ptr::null_mut();
        for col in 0..ix.ncolumns.max(0) as usize {
            let attno = *ix.indexkeys.add(col);
            if attno != 0 && *ix.canreturn.add(col) {
                available = pg_sys::bms_add_member(available, attno - pg_sys::FirstLowInvalidHeapAttributeNumber);
            }
        }
        pg_sys::bms_is_subset(needed, available)
    }
}
