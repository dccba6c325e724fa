//! Facts about the relations a query scans: whether CHECK constraints confine a uuid column to
//! UUIDv7 ([`V7Proof`]) — of the table itself ([`own_proof`]) or over a partition tree
//! ([`partition_key`], with the key's order) — kept per backend ([`crate::pg::cache`]).

use crate::pg::cache::Cache;
use crate::pg::catalog_ids::operators::{
    INT24_EQ, INT28_EQ, INT2_EQ, INT42_EQ, INT48_EQ, INT4_EQ, INT82_EQ, INT84_EQ, INT8_EQ,
};
use crate::pg::catalog_ids::SQLlanguageId;
use crate::pg::errors::error;
use crate::pg::extension_objects::Catalog;
use crate::pg::guards::{Relation, SysCacheTuple};
use crate::pg::nodes::{call_on_uuid_column, cells, conjuncts};
use crate::pg::syscatalog::{any_ancestor, any_in_tree, check_xmins, indexes_of};
use core::cell::Cell;
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag, Oid};
use std::rc::Rc;

/// What the CHECK constraints prove about a uuid column.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum V7Proof {
    Nothing,
    /// `uuid_extract_version(col) = 7`: no other version, but values of other variants.
    Version,
    /// `uuid_is_v7(col)`: RFC 9562 v7 values (and NULL) only.
    Exact,
}

/// What the CHECKs of the relations a scan reads prove about a column, for snapshots that see
/// every transaction of `xids` as committed.
#[derive(Clone)]
pub struct Proof {
    kind: V7Proof,
    /// The transactions that created or last changed a CHECK constraint of a relation of
    /// `tree` ([`check_xmins`]; frozen ones left out).
    xids: Rc<Vec<pg_sys::TransactionId>>,
    /// The relations the proof covers, sorted.
    pub tree: Rc<Vec<Oid>>,
}

impl Proof {
    /// What the CHECK constraints prove, for any snapshot the plan may run with. A CHECK holds
    /// for the rows live when it was added, validated or attached; an older snapshot may still
    /// see rows that break it. So a proof counts once every transaction that wrote a CHECK of
    /// the tree precedes the oldest snapshot that may read it ([`older_than_every_snapshot`]);
    /// until then the plan is PostgreSQL's, and `transient` (made again in a later transaction).
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn get(&self, transient: &mut bool) -> V7Proof {
        // SAFETY: the caller is planning, inside a transaction.
        if self.kind == V7Proof::Nothing || unsafe { older_than_every_snapshot(&self.xids, &self.tree) } {
            return self.kind;
        }
        *transient = true;
        V7Proof::Nothing
    }
}

thread_local! {
    /// The newest horizon computed for relations that other sessions read
    /// ([`older_than_every_snapshot`]), as a 64-bit transaction id: no snapshot of this
    /// database, present or future, has an older xmin. (64 bits: a 32-bit id compared with
    /// one kept for longer than 2^31 transactions would compare the wrong way.)
    static SHARED_HORIZON: Cell<u64> = const { Cell::new(0) };
}

/// A 32-bit transaction id as a 64-bit one, by the epoch of the next id to be assigned:
/// `FullTransactionIdFromAllowableAt()`. Valid for the id of a row that is not frozen (never
/// more than 2^31 transactions old); the special ids stay below every normal one.
fn full_xid(next: pg_sys::FullTransactionId, xid: pg_sys::TransactionId) -> u64 {
    let xid = xid.into_inner();
    if xid < pg_sys::TransactionId::FIRST_NORMAL.into_inner() {
        return u64::from(xid);
    }
    let (epoch, next_xid) = (next.value >> 32, next.value as u32);
    let epoch = if xid > next_xid { epoch.saturating_sub(1) } else { epoch };
    (epoch << 32) | u64::from(xid)
}

/// Whether every transaction of `xids` (committed) precedes the xmin of every snapshot, present
/// or future, that can read a relation of `tree`: PostgreSQL's horizon
/// (`GetOldestNonRemovableTransactionId`), for a shared table the database's (kept: it only
/// advances), for a local one this backend's. Partitioned tables have none (PostgreSQL asserts
/// against asking); a tree without a table that holds rows proves nothing.
///
/// # Safety
/// Planning, inside a transaction.
unsafe fn older_than_every_snapshot(xids: &[pg_sys::TransactionId], tree: &[Oid]) -> bool {
    // SAFETY: reads the shared next-transaction counter.
    let next = unsafe { pg_sys::ReadNextFullTransactionId() };
    let Some(newest) = xids.iter().map(|&xid| full_xid(next, xid)).max() else {
        return true;
    };
    if newest < SHARED_HORIZON.with(Cell::get) {
        return true;
    }
    let mut local = None;
    for &relid in tree {
        // SAFETY: a relcache lookup in a transaction; the guard closes it.
        let Some(rel) = (unsafe { Relation::get(relid) }) else { continue };
        let kind = rel.class().relkind as u8;
        if !matches!(kind, pg_sys::RELKIND_RELATION | pg_sys::RELKIND_MATVIEW) {
            continue;
        }
        // RELATION_IS_LOCAL(): this backend's temporary table, or one created in this transaction.
        // SAFETY: fields of an open relation.
        let is_local = unsafe { (*rel.as_ptr()).rd_islocaltemp || (*rel.as_ptr()).rd_createSubid != 0 };
        if is_local {
            local.get_or_insert(rel);
            continue;
        }
        // SAFETY: a table (relkind checked above) of this database, open.
        let horizon = full_xid(next, unsafe { pg_sys::GetOldestNonRemovableTransactionId(rel.as_ptr()) });
        SHARED_HORIZON.with(|kept| kept.set(kept.get().max(horizon)));
        return newest < horizon;
    }
    // SAFETY: as above, for a table only this backend can read.
    local
        .is_some_and(|rel| newest < full_xid(next, unsafe { pg_sys::GetOldestNonRemovableTransactionId(rel.as_ptr()) }))
}

thread_local! {
    /// Proofs of a relation alone, by (relation, column).
    static OWN: Cache<(u32, pg_sys::AttrNumber), Proof> = const { Cache::new() };
    /// Partition keys with the proof over their trees, by (relation, column).
    static PARTITIONED: Cache<(u32, pg_sys::AttrNumber), Option<PartitionKey>> = const { Cache::new() };
}

/// What the CHECKs of `relid` itself prove about column `attno` (NO INHERIT ones included: they
/// hold for the relation itself).
///
/// # Safety
/// Planning, inside a transaction.
pub unsafe fn own_proof(relid: Oid, attno: pg_sys::AttrNumber, catalog: &Catalog) -> Proof {
    OWN.with(|cache| {
        // SAFETY: as the caller's.
        cache.get(
            (relid.to_u32(), attno),
            |proof: &Proof| proof.tree.clone(),
            || unsafe { v7_only_column(relid, attno, false, catalog) },
        )
    })
}

/// A table partitioned by `RANGE` on a uuid column: what a window on the column may rely on.
#[derive(Clone)]
pub struct PartitionKey {
    /// The operator family of the partition key.
    pub family: Oid,
    /// What the CHECKs prove about the column in every partition below the table.
    pub proof: Proof,
    /// A valid index of the table or of a relation below it may serve a window's own clause
    /// ([`index_computes_extractor`]), which must then stay in the query.
    pub extractor_index: bool,
    /// Every relation of the tree, what the cached facts were read from.
    tree: Rc<Vec<Oid>>,
}

/// For a table partitioned by `RANGE` with `attno` (a plain column) as the first key column:
/// the operator family of its partition key, what the CHECKs prove about the column in every
/// partition below it, and whether an index in the tree may serve a window. A condition on
/// that column then prunes partitions, as an index would serve it, with or without an index.
///
/// # Safety
/// Planning, inside a transaction.
pub unsafe fn partition_key(relid: Oid, attno: pg_sys::AttrNumber, catalog: &Catalog) -> Option<PartitionKey> {
    PARTITIONED.with(|cache| {
        let tree =
            |value: &Option<PartitionKey>| value.as_ref().map_or_else(|| Rc::new(vec![relid]), |k| k.tree.clone());
        // SAFETY: as the caller's.
        cache.get((relid.to_u32(), attno), tree, || unsafe {
            let family = range_partition_family(relid, attno)?;
            let proof = v7_only_column(relid, attno, true, catalog);
            let (mut tree, mut extractor_index) = (Vec::new(), false);
            any_in_tree(relid, &mut |rel| {
                tree.push(rel);
                extractor_index = extractor_index || index_computes_extractor(rel, catalog);
                false
            });
            tree.sort_unstable_by_key(|rel| rel.to_u32());
            Some(PartitionKey { family, proof, extractor_index, tree: Rc::new(tree) })
        })
    })
}

/// Whether a valid index of `relid` may serve a window's own clause: its columns or predicate
/// call an extractor or a LANGUAGE sql function (which the planner may inline), anywhere —
/// broad, as a wrong "yes" only costs the pruning. Read from `pg_index`'s stored text as text,
/// not parsed: `stringToNode()` recurses as deep as the expression, for every partition of the
/// tree, pruned or not; a partition owner's 4,800-level index failed another role's query with
/// 54001 where PostgreSQL alone answered, and a 100,000-value `IN` cost 200 ms a planning
/// (found by review of a tree-reading version, reverted).
unsafe fn index_computes_extractor(relid: Oid, catalog: &Catalog) -> bool {
    // SAFETY: syscache lookups; the guards release the tuples.
    let may_be_extractor = |funcid: Oid| {
        catalog.reads(funcid).is_some()
            || unsafe { SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PROCOID, funcid.into()) }
                .is_some_and(|proc| unsafe { proc.form::<pg_sys::FormData_pg_proc>() }.prolang == SQLlanguageId)
    };
    indexes_of(relid).into_iter().any(|index| {
        // SAFETY: the index's pg_index row through the syscache (the guard releases it); the
        // stored texts are detoasted in the current memory context.
        unsafe {
            let Some(row) = SysCacheTuple::search1(pg_sys::SysCacheIdentifier::INDEXRELID, index.into()) else {
                return false;
            };
            if !row.form::<pg_sys::FormData_pg_index>().indisvalid {
                return false;
            }
            [pg_sys::Anum_pg_index_indexprs, pg_sys::Anum_pg_index_indpred].into_iter().any(|attno| {
                row.attr(attno as pg_sys::AttrNumber).is_some_and(|stored| {
                    let text = pg_sys::text_to_cstring(stored.cast_mut_ptr::<pg_sys::text>());
                    called_functions(core::ffi::CStr::from_ptr(text).to_bytes()).any(may_be_extractor)
                })
            })
        }
    })
}

/// The functions a stored expression (`nodeToString()`'s text) calls: the values of its
/// `:funcid` (FuncExpr) and `:opfuncid` (OpExpr, DistinctExpr, NullIfExpr, ScalarArrayOpExpr)
/// fields. A string in the text cannot fake one: `outToken()` escapes its spaces.
fn called_functions(text: &[u8]) -> impl Iterator<Item = Oid> + '_ {
    let mut i = 0;
    core::iter::from_fn(move || {
        while i < text.len() {
            let at = &text[i..];
            i += 1;
            let field = if at.starts_with(b" :funcid ") {
                9
            } else if at.starts_with(b" :opfuncid ") {
                11
            } else {
                continue;
            };
            let value = &at[field..];
            let digits = value.iter().take_while(|b| b.is_ascii_digit()).count();
            i += field + digits - 1;
            if let Some(oid) = core::str::from_utf8(&value[..digits]).ok().and_then(|d| d.parse::<u32>().ok()) {
                return Some(Oid::from(oid));
            }
        }
        None
    })
}

/// The operator family of a table's partition key when the table is partitioned by RANGE
/// with `attno` as the first key column.
unsafe fn range_partition_family(relid: Oid, attno: pg_sys::AttrNumber) -> Option<Oid> {
    // SAFETY: catalog lookups through the system caches; the guard releases the tuple, and the
    // vectors it holds (stored inline, never toasted) are read before.
    unsafe {
        if pg_sys::get_rel_relkind(relid) as u8 != pg_sys::RELKIND_PARTITIONED_TABLE {
            return None;
        }
        let tuple = SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PARTRELID, relid.into())?;
        let form = tuple.form::<pg_sys::FormData_pg_partitioned_table>();
        // PARTITION_STRATEGY_RANGE, whose binding's type differs by major.
        if form.partstrat as u8 != b'r' || form.partnatts < 1 {
            return None;
        }
        let attrs =
            &*tuple.attr(pg_sys::Anum_pg_partitioned_table_partattrs as _)?.cast_mut_ptr::<pg_sys::int2vector>();
        let class = &*tuple.attr(pg_sys::Anum_pg_partitioned_table_partclass as _)?.cast_mut_ptr::<pg_sys::oidvector>();
        (*attrs.values.as_ptr() == attno).then(|| pg_sys::get_opclass_family(*class.values.as_ptr()))
    }
}

/// How far valid, enforced CHECKs confine the column to UUIDv7 in every relation a scan of
/// `relid` reads: `uuid_is_v7(col)` or `uuid_extract_version(col) = 7`, alone or as a
/// conjunct. With `with_descendants` (a partition tree) a `NO INHERIT` one does not count; any
/// other is on every partition (PostgreSQL refuses to attach one without it), so the parent's
/// speaks for all — unless one is a foreign table, whose CHECKs are not enforced.
unsafe fn v7_only_column(relid: Oid, attno: pg_sys::AttrNumber, with_descendants: bool, catalog: &Catalog) -> Proof {
    let nothing = || Proof { kind: V7Proof::Nothing, xids: Rc::new(Vec::new()), tree: Rc::new(vec![relid]) };
    // SAFETY: a relcache lookup in a transaction (None once dropped); the guard closes it.
    let Some(rel) = (unsafe { Relation::get(relid) }) else {
        return nothing();
    };
    // Each relation the scan reads: noted with its CHECKs' transactions, and whether it is a
    // foreign table, which does not enforce its CHECK constraints (one in the tree proves
    // nothing). pg_inherits is read only if the relation has, or once had, children.
    let (mut xids, mut tree) = (Vec::new(), Vec::new());
    let mut visit_is_foreign = |rel: Oid| {
        tree.push(rel);
        check_xmins(rel, &mut xids);
        // SAFETY: a catalog lookup of a relation of the tree.
        unsafe { pg_sys::get_rel_relkind(rel) as u8 == pg_sys::RELKIND_FOREIGN_TABLE }
    };
    let has_foreign = if with_descendants && rel.class().relhassubclass {
        any_in_tree(relid, &mut visit_is_foreign)
    } else {
        visit_is_foreign(relid)
    };
    if has_foreign {
        return nothing();
    }
    let mut found = V7Proof::Nothing;
    // SAFETY: an open relation's descriptor and its CHECK constraints, parsed from their
    // stored trees in the current memory context.
    unsafe {
        let constr = (*(*rel.as_ptr()).rd_att).constr;
        let checks = if constr.is_null() || (*constr).check.is_null() {
            &[][..]
        } else {
            core::slice::from_raw_parts((*constr).check, usize::from((*constr).num_check))
        };
        for check in checks {
            if !(check.ccvalid && crate::pg::compat::check_enforced(check)) || (with_descendants && check.ccnoinherit) {
                continue;
            }
            let mut parts = core::ptr::null_mut();
            conjuncts(pg_sys::stringToNode(check.ccbin).cast(), &mut parts);
            for part in cells(parts) {
                if is_exactly_v7(part, attno, catalog) {
                    found = V7Proof::Exact;
                } else if is_version_7(part, attno, catalog) {
                    found = found.max(V7Proof::Version);
                }
            }
        }
    }
    tree.sort_unstable_by_key(|rel| rel.to_u32());
    Proof { kind: found, xids: Rc::new(xids), tree: Rc::new(tree) }
}

/// `uuid_is_v7(col)`.
unsafe fn is_exactly_v7(node: *mut Node, attno: pg_sys::AttrNumber, catalog: &Catalog) -> bool {
    // SAFETY: a node of a CHECK's tree.
    catalog.is_v7 != pg_sys::InvalidOid
        && unsafe { call_on_uuid_column(node) }
            .is_some_and(|(call, var)| unsafe { (*var).varattno == attno && (*call).funcid == catalog.is_v7 })
}

/// `uuid_extract_version(col) = 7`, either way round, 7 of any integer type, `=` by the OID of
/// integer equality (not any operator named `=`).
unsafe fn is_version_7(node: *mut Node, attno: pg_sys::AttrNumber, catalog: &Catalog) -> bool {
    // SAFETY: nodes of a CHECK's tree; each tag decides its cast.
    unsafe {
        if !is_a(node, NodeTag::T_OpExpr) {
            return false;
        }
        let op: *mut pg_sys::OpExpr = node.cast();
        if !matches!(
            (*op).opno.to_u32(),
            INT2_EQ | INT4_EQ | INT8_EQ | INT24_EQ | INT42_EQ | INT28_EQ | INT82_EQ | INT48_EQ | INT84_EQ
        ) {
            return false;
        }
        let mut args = cells((*op).args);
        let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) else {
            return false;
        };
        let version_of_col = |n: *mut Node| {
            call_on_uuid_column(n)
                .is_some_and(|(call, var)| (*var).varattno == attno && catalog.is_version_function((*call).funcid))
        };
        let seven = |n: *mut Node| {
            is_a(n, NodeTag::T_Const) && {
                let c: *mut pg_sys::Const = n.cast();
                !(*c).constisnull
                    && match (*c).consttype {
                        pg_sys::INT2OID => (*c).constvalue.value() as i16 == 7,
                        pg_sys::INT4OID => (*c).constvalue.value() as i32 == 7,
                        pg_sys::INT8OID => (*c).constvalue.value() as i64 == 7,
                        _ => false,
                    }
            }
        };
        (version_of_col(a) && seven(b)) || (seven(a) && version_of_col(b))
    }
}

/// Raises a serialization failure (40001) if a finished plan reads a relation below a
/// partitioned table whose tree proof a pruning condition relied on (`proven`: each such table
/// and its proven tree) that was not in that tree: the proof is taken before planning, and a
/// partition attached in between (ATTACH takes only SHARE UPDATE EXCLUSIVE on the parent) would
/// be read with a condition proved for others. The query fails rather than return a wrong row.
///
/// # Safety
/// After planning, inside the same transaction.
pub unsafe fn no_relation_joined(relation_oids: *mut pg_sys::List, proven: &[(Oid, Rc<Vec<Oid>>)]) {
    // SAFETY: the plan's list of relation OIDs.
    let relations =
        (0..unsafe { pg_sys::list_length(relation_oids) }).map(|i| unsafe { pg_sys::list_nth_oid(relation_oids, i) });
    for rel in relations {
        if proven.iter().any(|(_, tree)| tree.binary_search_by_key(&rel.to_u32(), |r| r.to_u32()).is_ok()) {
            continue;
        }
        let mut root = pg_sys::InvalidOid;
        if any_ancestor(rel, &mut |parent| {
            root = parent;
            proven.iter().any(|(relid, _)| *relid == parent)
        }) {
            // SAFETY: a catalog lookup (NULL if the relation is gone), else a NUL-terminated name.
            let name = unsafe { pg_sys::get_rel_name(root).as_ref().map(|n| core::ffi::CStr::from_ptr(n)) };
            let name = name.map(|n| crate::pg::convert::catalog_text_for_message(n.to_bytes())).unwrap_or_default();
            error(
                pgrx::PgSqlErrorCode::ERRCODE_T_R_SERIALIZATION_FAILURE,
                format!("a table joined the inheritance tree of \"{name}\" while a query on it was planned"),
                None,
                Some("Run the query again."),
            );
        }
    }
}
