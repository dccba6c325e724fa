//! Ordered reads of a table partitioned by `RANGE (id)`, one partition after another: the
//! ordered Append PostgreSQL makes for `ORDER BY key` (its `partitions_are_ordered()` rules: a
//! path in that order from every scanned partition, no default partition), offered for `ORDER
//! BY f(id)` where the key's order is the time's, so the older partitions' scans never start
//! once a LIMIT is reached. Offered to the ORDER BY stage where the table is the query's whole
//! scan ([`add_ordered_output`]: PostgreSQL drops the table's own paths there), else among the
//! table's paths ([`add_ordered_append`]).

use super::index_paths::sort_by_function;
use super::relations::{partition_key, V7Proof};
use crate::pg::extension_objects::Lazy;
use crate::pg::nodes::list_of;
use pgrx::pg_sys::{self, Oid};

/// Offers the ordered Append among a partitioned table's own paths, for the joins and appends
/// (`UNION ALL`) above it: where the table is the query's whole scan, PostgreSQL drops them
/// ([`add_ordered_output`] offers it there).
///
/// # Safety
/// `root`, `rel` and `rte` are the planner's, for a relation whose own paths are made (and its
/// partitions' before them).
pub(super) unsafe fn add_ordered_append(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    rte: *mut pg_sys::RangeTblEntry,
) {
    // SAFETY: as the caller vouches.
    unsafe {
        if (*rte).relkind as u8 != pg_sys::RELKIND_PARTITIONED_TABLE
            || ((*rel).reloptkind == pg_sys::RelOptKind::RELOPT_BASEREL
                && pg_sys::bms_membership((*root).all_baserels) == pg_sys::BMS_Membership::BMS_SINGLETON)
        {
            return;
        }
        for path in ordered_appends(root, rel, rte) {
            pg_sys::add_path(rel, path.cast());
        }
    }
}

/// Offers the ordered Append to the ORDER BY stage of a query whose whole scan is one
/// partitioned table, as `create_ordered_paths()` offers the table's own sorted paths: with an
/// incremental sort for the sort keys after the first, and the query's output columns.
///
/// # Safety
/// `root` is the planner's; `input_rel` and `ordered_rel` the input and output of the
/// query's ORDER BY stage, its own paths made.
pub(super) unsafe fn add_ordered_output(
    root: *mut pg_sys::PlannerInfo,
    input_rel: *mut pg_sys::RelOptInfo,
    ordered_rel: *mut pg_sys::RelOptInfo,
) {
    // SAFETY: the planner's structures, read as create_ordered_paths() reads them; paths made
    // and added as it makes and adds them.
    unsafe {
        // Set-returning functions in the output columns are evaluated above the table's own
        // paths (`adjust_paths_for_srfs()`), which these are not.
        if (*input_rel).reloptkind != pg_sys::RelOptKind::RELOPT_BASEREL
            || (*ordered_rel).pathlist.is_null()
            || (*(*root).parse).hasTargetSRFs
        {
            return;
        }
        let rte = *(*root).simple_rte_array.add((*input_rel).relid as usize);
        if (*rte).relkind as u8 != pg_sys::RELKIND_PARTITIONED_TABLE {
            return;
        }
        // Every path of the stage emits the query's output columns.
        let target = (*pg_sys::list_nth((*ordered_rel).pathlist, 0).cast::<pg_sys::Path>()).pathtarget;
        for append in ordered_appends(root, input_rel, rte) {
            let mut presorted = 0;
            let path = if pg_sys::pathkeys_count_contained_in(
                (*root).sort_pathkeys,
                (*append).path.pathkeys,
                &mut presorted,
            ) {
                append.cast::<pg_sys::Path>()
            } else if pg_sys::enable_incremental_sort && presorted > 0 {
                pg_sys::create_incremental_sort_path(
                    root,
                    ordered_rel,
                    append.cast(),
                    (*root).sort_pathkeys,
                    presorted,
                    (*root).limit_tuples,
                )
                .cast()
            } else {
                continue;
            };
            let path = if (*path).pathtarget == target {
                path
            } else {
                pg_sys::apply_projection_to_path(root, ordered_rel, path, target)
            };
            pg_sys::add_path(ordered_rel, path);
        }
    }
}

/// The ordered Appends of a partitioned table's partitions, when their order is the order of
/// the query's first sort key: of the cheapest paths to the first rows, and of the cheapest in
/// all (one, where they are the same).
///
/// # Safety
/// `root`, `rel` and `rte` are the planner's, for a partitioned table whose partitions' paths
/// are made.
unsafe fn ordered_appends(
    root: *mut pg_sys::PlannerInfo,
    rel: *mut pg_sys::RelOptInfo,
    rte: *mut pg_sys::RangeTblEntry,
) -> Vec<*mut pg_sys::AppendPath> {
    // SAFETY: the planner's structures, read as generate_orderedappend_paths() reads them; the
    // paths are made as it makes them.
    unsafe {
        let r = &*rel;
        if (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION
            || (*rte).relkind as u8 != pg_sys::RELKIND_PARTITIONED_TABLE
            || !(*rte).tablesample.is_null()
            || r.part_scheme.is_null()
            || r.part_rels.is_null()
            || r.boundinfo.is_null()
            || r.nparts < 1
            || !matches!(r.reloptkind, pg_sys::RelOptKind::RELOPT_BASEREL | pg_sys::RelOptKind::RELOPT_OTHER_MEMBER_REL)
            || pg_sys::is_dummy_rel(rel)
        {
            return Vec::new();
        }
        // The shape first: a query without a sort by a function of a uuid column costs no
        // catalog lookup.
        let Some(sort) = sort_by_function(root, r) else {
            return Vec::new();
        };
        let lazy = Lazy::resolved();
        let Some(catalog) = lazy.catalog() else {
            return Vec::new();
        };
        if catalog.reads(sort.funcid).is_none() {
            return Vec::new();
        }
        let Some(key) = partition_key((*rte).relid, (*sort.var).varattno, catalog) else {
            return Vec::new();
        };
        // The relations the v7 proof covers (byte order), or none needed (uuid_time_ops).
        let tree = match sort.served_by(catalog, key.family) {
            Some(false) => None,
            Some(true) => {
                let mut transient = false;
                let kind = key.proof.get(&mut transient);
                (*(*root).glob).transientPlan |= transient;
                if kind != V7Proof::Exact {
                    return Vec::new();
                }
                Some(key.proof.tree.as_slice())
            }
            None => return Vec::new(),
        };
        let pathkeys = list_of([sort.pathkey]);
        let cheapest = |child: *mut pg_sys::RelOptInfo, criterion| {
            let path = pg_sys::get_cheapest_path_for_pathkeys(
                (*child).pathlist,
                pathkeys,
                core::ptr::null_mut(),
                criterion,
                false,
            );
            (!path.is_null()).then_some(path)
        };
        // The partitions in bound order (PostgreSQL's partition indexes).
        let (mut startup, mut total) = (Vec::new(), Vec::new());
        for i in 0..r.nparts as usize {
            let child = *r.part_rels.add(i);
            if child.is_null() || pg_sys::is_dummy_rel(child) {
                continue;
            }
            if i as i32 == (*r.boundinfo).default_index || tree.is_some_and(|tree| !covered(root, child, tree)) {
                return Vec::new();
            }
            let (Some(s), Some(t)) = (
                cheapest(child, pg_sys::CostSelector::STARTUP_COST),
                cheapest(child, pg_sys::CostSelector::TOTAL_COST),
            ) else {
                return Vec::new();
            };
            startup.push(s);
            total.push(t);
        }
        if startup.is_empty() {
            return Vec::new();
        }
        if sort.descending {
            startup.reverse();
            total.reverse();
        }
        let append = |paths: &[*mut pg_sys::Path]| {
            crate::pg::compat::append_path(root, rel, list_of(paths.iter().copied()), pathkeys)
        };
        let mut appends = vec![append(&startup)];
        if startup != total {
            appends.push(append(&total));
        }
        appends
    }
}

/// Whether the proof's `tree` covers the partition `rel` and, if it is partitioned, every
/// partition of it that is scanned: one attached since the proof was made is not in it.
unsafe fn covered(root: *mut pg_sys::PlannerInfo, rel: *mut pg_sys::RelOptInfo, tree: &[Oid]) -> bool {
    // SAFETY: the planner's range table and the partition's own RelOptInfo, read-only; the
    // recursion is as deep as the partition tree, which PostgreSQL has walked already.
    unsafe {
        let rte = *(*root).simple_rte_array.add((*rel).relid as usize);
        if tree.binary_search_by_key(&(*rte).relid.to_u32(), |oid| oid.to_u32()).is_err() {
            return false;
        }
        if (*rte).relkind as u8 != pg_sys::RELKIND_PARTITIONED_TABLE {
            return true;
        }
        pg_sys::check_stack_depth();
        !(*rel).part_rels.is_null()
            && (0..(*rel).nparts.max(0) as usize).all(|i| {
                let child = *(*rel).part_rels.add(i);
                child.is_null() || covered(root, child, tree)
            })
    }
}
