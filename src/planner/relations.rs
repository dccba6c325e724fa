//! Facts about the relations a query scans that decide which rewrite is
//! correct: the operator families of the indexes on a column (and of a RANGE
//! partition key), and whether a CHECK constraint confines a column to UUIDv7
//! in *every* relation the scan reads. Kept per backend until a relcache
//! invalidation ([`super::cache`]).

use super::cache::Cache;
use super::catalog::Catalog;
use super::{call_on_uuid_column, cells, conjuncts};
use crate::errors::error;
use crate::guards::{Relation, SysCacheTuple};
use crate::syscatalog::{any_ancestor, any_in_tree, check_xmins};
use core::cell::Cell;
use pgrx::is_a;
use pgrx::pg_sys::{self, Node, NodeTag, Oid};
use std::rc::Rc;

/// What the rewrites need to know about one uuid column of a relation as a query scans it
/// (with or without its descendants).
#[derive(Clone)]
pub struct Facts {
    /// The operator families of the indexes whose first key column it is.
    pub index_families: Vec<Oid>,
    /// The operator family of the RANGE partition key whose first column it is.
    pub partition_family: Option<Oid>,
    /// What the CHECK constraints prove about it ([`v7_only_column`]), for snapshots that see
    /// every transaction of `proof_xids` as committed.
    proof: V7Proof,
    /// The transactions that created or last changed a CHECK constraint of a relation in the
    /// scan ([`check_xmins`]; not frozen ones).
    proof_xids: Rc<Vec<pg_sys::TransactionId>>,
    /// The relations the proof covers, sorted: the relation, and its descendants if the scan
    /// reads them.
    pub tree: Rc<Vec<Oid>>,
}

impl Facts {
    /// What the CHECK constraints prove, for any snapshot the plan may run with.
    ///
    /// A CHECK holds for the rows that were live when it was added, validated, or its table
    /// attached or inherited; a snapshot taken before that committed (a REPEATABLE READ or
    /// SERIALIZABLE transaction begun earlier, an imported snapshot, a cursor, the statement
    /// that calls a function which adds the CHECK) may still see rows deleted or updated just
    /// before, which need not satisfy it. And a plan may run with another snapshot than the
    /// one it was made with (cached plans, cursors, functions). So a proof counts only once
    /// every transaction that wrote a CHECK of the tree precedes the oldest snapshot that may
    /// still read the tree ([`older_than_every_snapshot`]) — usually at once, at worst when
    /// the transactions running at the time have ended. Until then the plan is PostgreSQL's,
    /// marked transient (`transient`, [`super::Walk`]) so that a cached plan is made again in
    /// a later transaction.
    pub unsafe fn proof(&self, transient: &mut bool) -> V7Proof {
        // SAFETY: the caller is planning, inside a transaction.
        if self.proof == V7Proof::Nothing || unsafe { older_than_every_snapshot(&self.proof_xids, &self.tree) } {
            return self.proof;
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

/// Whether every transaction of `xids` precedes the xmin of every snapshot that holds or will
/// take, and that can read a relation of `tree` — so each of them sees all of `xids` as
/// committed (they wrote catalog rows this backend reads, so they committed).
///
/// PostgreSQL computes that horizon by kind of relation (`GetOldestNonRemovableTransactionId`):
/// for a table other sessions can read, the oldest snapshot of any session of this database;
/// for a temporary table, or one created by this very transaction, only this backend's own,
/// since no other session can read it. So it is asked for a relation of the tree that other
/// sessions can read whenever there is one, and kept (it only advances): it then speaks for
/// every such table. A horizon of local relations is used for that tree only, never kept: it
/// says nothing of the snapshots of other sessions. Partitioned tables have no horizon of
/// their own (PostgreSQL asserts against asking); a tree without a table that holds rows
/// proves nothing.
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
    /// Facts by (relation, column, with descendants).
    static FACTS: Cache<(u32, pg_sys::AttrNumber, bool), Facts> = const { Cache::new(true) };
}

/// The facts about column `attno` of `relid`, as a scan with (`inh`) or without its
/// descendants reads it.
pub unsafe fn facts(relid: Oid, attno: pg_sys::AttrNumber, inh: bool, catalog: &Catalog) -> Facts {
    FACTS.with(|cache| {
        cache.get((relid.to_u32(), attno, inh), || {
            let (proof, proof_xids, tree) = v7_only_column(relid, attno, inh, catalog);
            Facts {
                index_families: index_families(relid, attno),
                partition_family: range_partition_family(relid, attno),
                proof,
                proof_xids: Rc::new(proof_xids),
                tree: Rc::new(tree),
            }
        })
    })
}

/// The operator families of the indexes on a relation whose first key column is `attno`.
unsafe fn index_families(relid: Oid, attno: pg_sys::AttrNumber) -> Vec<Oid> {
    // SAFETY: a relcache lookup in a transaction (None once dropped); the guard closes it.
    let Some(rel) = (unsafe { Relation::get(relid) }) else {
        return Vec::new();
    };
    // SAFETY: an open relation; the list is a copy in the current memory context.
    let indexes = unsafe { pg_sys::RelationGetIndexList(rel.as_ptr()) };
    drop(rel);
    let mut families = Vec::new();
    // SAFETY: a List of index OIDs.
    for index in (0..unsafe { pg_sys::list_length(indexes) }).map(|i| unsafe { pg_sys::list_nth_oid(indexes, i) }) {
        // The planner takes this lock on every index of the table anyway.
        // SAFETY: an index of the relation, opened and closed (keeping the lock) by the guard.
        let irel = unsafe { Relation::index(index, pg_sys::AccessShareLock as pg_sys::LOCKMODE) };
        // SAFETY: an open index has its pg_index row and operator families.
        unsafe {
            let form = (*irel.as_ptr()).rd_index;
            if (*form).indnkeyatts > 0 && *(*form).indkey.values.as_ptr() == attno {
                families.push(*(*irel.as_ptr()).rd_opfamily);
            }
        }
    }
    families
}

/// `catalog/pg_partitioned_table.h`: the leading fixed fields (unchanged since PostgreSQL 11)
/// and the attribute numbers of the two vectors read through the syscache.
#[repr(C)]
struct PartitionedTableForm {
    partrelid: Oid,
    partstrat: core::ffi::c_char,
    partnatts: i16,
}
const ANUM_PARTATTRS: pg_sys::AttrNumber = 5;
const ANUM_PARTCLASS: pg_sys::AttrNumber = 6;
const PARTITION_STRATEGY_RANGE: u8 = b'r';

/// The operator family of a table's partition key when the table is partitioned by RANGE
/// with `attno` (a plain column) as the first key column: partition pruning can then use a
/// condition on that column as an index would, with or without an index.
unsafe fn range_partition_family(relid: Oid, attno: pg_sys::AttrNumber) -> Option<Oid> {
    if pg_sys::get_rel_relkind(relid) as u8 != pg_sys::RELKIND_PARTITIONED_TABLE {
        return None;
    }
    let tuple = SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PARTRELID, relid.into())?;
    let form = tuple.form::<PartitionedTableForm>();
    if form.partstrat as u8 != PARTITION_STRATEGY_RANGE || form.partnatts < 1 {
        return None;
    }
    // Both vectors are stored inline, never toasted.
    let attrs = &*tuple.attr(ANUM_PARTATTRS)?.cast_mut_ptr::<pg_sys::int2vector>();
    let class = &*tuple.attr(ANUM_PARTCLASS)?.cast_mut_ptr::<pg_sys::oidvector>();
    (*attrs.values.as_ptr() == attno).then(|| pg_sys::get_opclass_family(*class.values.as_ptr()))
}

/// What the CHECK constraints prove about a uuid column.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum V7Proof {
    Nothing,
    /// `uuid_extract_version(col) = 7`: no other version, but values of other variants.
    Version,
    /// `uuid_is_v7(col)`: RFC 9562 v7 values (and NULL) only.
    Exact,
}

/// How far valid, enforced CHECK constraints confine the column to UUIDv7
/// in every relation a scan of `relid` reads: `uuid_extract_version(col) = 7`,
/// alone or as one conjunct of the CHECK.
///
/// With `with_descendants` (the query did not say `ONLY`) a `NO INHERIT`
/// constraint does not count: inheritance children need not satisfy it. Any
/// other CHECK is inherited by every child and every partition, cannot be
/// dropped from them, and is valid (and enforced) on each when it is on the
/// parent — PostgreSQL refuses to attach or inherit a table that lacks it or
/// has a NOT VALID copy — so the parent's constraint speaks for all of them;
/// unless one of them is a foreign table, whose CHECKs are not enforced.
///
/// A value whose variant is not RFC 9562's passes `uuid_extract_version(col) = 7` (its
/// version is NULL) though no extractor gives it a time: that CHECK proves [`V7Proof::Version`],
/// enough to *add* a byte range. `uuid_is_v7(col)`, false for such a value, proves
/// [`V7Proof::Exact`]: then byte order is time order, row for row.
///
/// Also returns the transactions that created or last changed a CHECK constraint of any
/// relation the scan reads (see [`Facts::proof`]), and those relations.
unsafe fn v7_only_column(
    relid: Oid,
    attno: pg_sys::AttrNumber,
    with_descendants: bool,
    catalog: &Catalog,
) -> (V7Proof, Vec<pg_sys::TransactionId>, Vec<Oid>) {
    let nothing = (V7Proof::Nothing, Vec::new(), Vec::new());
    // SAFETY: a relcache lookup in a transaction (None once dropped); the guard closes it.
    let Some(rel) = (unsafe { Relation::get(relid) }) else {
        return nothing;
    };
    // Each relation the scan reads: noted with its CHECKs' transactions, and whether it is a
    // foreign table, which does not enforce its CHECK constraints (one in the tree proves
    // nothing). pg_inherits is read only if the relation has, or once had, children.
    let (mut xids, mut tree) = (Vec::new(), Vec::new());
    let mut visit_is_foreign = |rel: Oid| {
        tree.push(rel);
        check_xmins(rel, &mut xids);
        pg_sys::get_rel_relkind(rel) as u8 == pg_sys::RELKIND_FOREIGN_TABLE
    };
    let has_foreign = if with_descendants && rel.class().relhassubclass {
        any_in_tree(relid, &mut visit_is_foreign)
    } else {
        visit_is_foreign(relid)
    };
    if has_foreign {
        return nothing;
    }
    let constr = (*(*rel.as_ptr()).rd_att).constr;
    let mut found = V7Proof::Nothing;
    if !constr.is_null() {
        for i in 0..usize::from((*constr).num_check) {
            let check = &*(*constr).check.add(i);
            #[cfg(feature = "pg18")]
            let enforced = check.ccenforced;
            #[cfg(not(feature = "pg18"))]
            let enforced = true;
            if !(check.ccvalid && enforced) || (with_descendants && check.ccnoinherit) {
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
    (found, xids, tree)
}

/// `uuid_is_v7(col)`.
unsafe fn is_exactly_v7(node: *mut Node, attno: pg_sys::AttrNumber, catalog: &Catalog) -> bool {
    catalog.is_v7 != pg_sys::InvalidOid
        && call_on_uuid_column(node)
            .is_some_and(|(call, var)| (*var).varattno == attno && (*call).funcid == catalog.is_v7)
}

/// `uuid_extract_version(col) = 7`, either way round, 7 of any integer type.
unsafe fn is_version_7(node: *mut Node, attno: pg_sys::AttrNumber, catalog: &Catalog) -> bool {
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

// The integer equality operators of pg_operator.dat (fixed OIDs, the same on
// every major): an "=" found by OID cannot be a user's operator of that name.
const INT2_EQ: u32 = 94;
const INT4_EQ: u32 = 96;
const INT8_EQ: u32 = 410;
const INT24_EQ: u32 = 532;
const INT42_EQ: u32 = 533;
const INT28_EQ: u32 = 1862;
const INT82_EQ: u32 = 1868;
const INT48_EQ: u32 = 15;
const INT84_EQ: u32 = 416;

/// Raises a serialization failure (40001) if a finished plan reads a relation that descends
/// from a relation whose CHECK proof a rewrite relied on ([`v7_only_column`]) but was not in
/// the tree the proof covered (`proven`: each proven relation and that tree).
///
/// The proof is taken before planning; the planner expands the inheritance tree afterwards,
/// from a fresh read of pg_inherits. Adding a child or attaching a partition takes only a
/// SHARE UPDATE EXCLUSIVE lock on the parent, so another session can add one in between — a
/// foreign table (which does not enforce CHECKs), or a table whose CHECK was validated after
/// this query's snapshot: the plan would then read it with a condition proved for other
/// tables. That window is a few microseconds; rather than return a wrong row, the query fails
/// and can be run again.
pub unsafe fn no_relation_joined(relation_oids: *mut pg_sys::List, proven: &[(Oid, Rc<Vec<Oid>>)]) {
    for i in 0..pg_sys::list_length(relation_oids) {
        let rel = pg_sys::list_nth_oid(relation_oids, i);
        if proven.iter().any(|(_, tree)| tree.binary_search_by_key(&rel.to_u32(), |r| r.to_u32()).is_ok()) {
            continue;
        }
        let mut root = pg_sys::InvalidOid;
        if any_ancestor(rel, &mut |parent| {
            root = parent;
            proven.iter().any(|(relid, _)| *relid == parent)
        }) {
            let name = pg_sys::get_rel_name(root);
            let name = if name.is_null() {
                String::new()
            } else {
                core::ffi::CStr::from_ptr(name).to_string_lossy().into_owned()
            };
            error(
                pgrx::PgSqlErrorCode::ERRCODE_T_R_SERIALIZATION_FAILURE,
                format!("a table joined the inheritance tree of \"{name}\" while a query on it was planned"),
                None,
                Some("Run the query again."),
            );
        }
    }
}
