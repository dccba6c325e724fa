//! Index scans of system catalogs that pgrx has no helper for (`pg_extension`,
//! `pg_inherits`, `pg_constraint`; `pg_index`, with pgrx's row layout): the leading fields of
//! their rows, unchanged since long before PostgreSQL 14 (a column number of pg_constraint's
//! moved in 18), and a scan helper. Reading a catalog this way takes no privilege check.

use crate::pg::guards::CatalogScan;
use pgrx::pg_sys::{self, Oid};

/// `catalog/pg_extension_d.h` (the row layout is pgrx's `FormData_pg_extension`).
pub mod pg_extension {
    pub const RELATION_ID: u32 = 3079;
    pub const OID_INDEX_ID: u32 = 3080;
    pub const ANUM_OID: u32 = 1;
}

/// `catalog/pg_inherits.h`, `pg_inherits_d.h` (the leading fields).
pub mod pg_inherits {
    use pgrx::pg_sys::Oid;
    pub const RELATION_ID: u32 = 2611;
    pub const RELID_SEQNO_INDEX_ID: u32 = 2680;
    pub const PARENT_INDEX_ID: u32 = 2187;
    pub const ANUM_INHRELID: u32 = 1;
    pub const ANUM_INHPARENT: u32 = 2;

    #[repr(C)]
    pub struct FormData {
        pub inhrelid: Oid,
        pub inhparent: Oid,
    }
}

/// The indexes of a relation, from `pg_index` (no relcache entry is built).
pub fn indexes_of(relid: Oid) -> Vec<Oid> {
    let mut indexes = Vec::new();
    // SAFETY: a plain catalog read; pgrx's FormData_pg_index is pg_index's fixed-size row.
    unsafe {
        scan::<pg_sys::FormData_pg_index>(
            pg_sys::IndexRelationId.to_u32(),
            pg_sys::IndexIndrelidIndexId,
            &[(pg_sys::Anum_pg_index_indrelid, relid)],
            |row| indexes.push(row.indexrelid),
        )
    };
    indexes
}

/// `catalog/pg_constraint.h`, `pg_constraint_d.h` (the leading fields; PostgreSQL 18 added
/// `conenforced` before `conrelid`).
pub mod pg_constraint {
    use pgrx::pg_sys::{NameData, Oid};
    pub const RELATION_ID: u32 = 2606;
    pub const RELID_TYPID_NAME_INDEX_ID: u32 = 2665;
    pub const ANUM_CONRELID: u32 = crate::pg::compat::ANUM_PG_CONSTRAINT_CONRELID;
    pub const CONSTRAINT_CHECK: u8 = b'c';

    #[repr(C)]
    pub struct FormData {
        pub oid: Oid,
        pub conname: NameData,
        pub connamespace: Oid,
        pub contype: core::ffi::c_char,
    }
}

/// The transactions that created or last changed (validated, inherited, attached) a CHECK
/// constraint of `relid`, frozen ones left out, added to `xids` if not there yet.
pub fn check_xmins(relid: Oid, xids: &mut Vec<pg_sys::TransactionId>) {
    // SAFETY: a plain catalog read; FormData is a prefix of pg_constraint's row.
    unsafe {
        scan_tuples::<pg_constraint::FormData>(
            pg_constraint::RELATION_ID,
            pg_constraint::RELID_TYPID_NAME_INDEX_ID,
            &[(pg_constraint::ANUM_CONRELID, relid)],
            |row, xmin| {
                if row.contype as u8 == pg_constraint::CONSTRAINT_CHECK
                    && xmin != pg_sys::FrozenTransactionId
                    && !xids.contains(&xmin)
                {
                    xids.push(xmin);
                }
            },
        )
    };
}

/// `HeapTupleHeaderGetXmin()`: the raw xmin, or `FrozenTransactionId` once frozen.
pub(crate) fn xmin(header: &pg_sys::HeapTupleHeaderData) -> pg_sys::TransactionId {
    let frozen = pg_sys::HEAP_XMIN_FROZEN as u16;
    if header.t_infomask & frozen == frozen {
        pg_sys::FrozenTransactionId
    } else {
        // SAFETY: a heap tuple's header holds t_heap.
        unsafe { header.t_choice.t_heap.t_xmin }
    }
}

/// Calls `each` with the fixed-size part of every row of `catalog` whose
/// columns `keys` (catalog attribute numbers, which must be the leading
/// columns of `index`; systable_beginscan maps them) equal the OIDs given.
///
/// # Safety
/// `T` must be the catalog's row layout (or a prefix of it), and `keys` the
/// leading columns of `index`.
pub unsafe fn scan<T>(catalog: u32, index: u32, keys: &[(u32, Oid)], mut each: impl FnMut(&T)) {
    // SAFETY: the caller's guarantees are scan_tuples()'s.
    unsafe { scan_tuples(catalog, index, keys, |row: &T, _| each(row)) }
}

/// As [`scan`], with each row's `xmin` (the transaction that wrote this version of it;
/// `FrozenTransactionId` once frozen).
///
/// # Safety
/// As [`scan`].
pub unsafe fn scan_tuples<T>(
    catalog: u32,
    index: u32,
    keys: &[(u32, Oid)],
    mut each: impl FnMut(&T, pg_sys::TransactionId),
) {
    let keys: Vec<(pg_sys::AttrNumber, Oid)> =
        keys.iter().map(|&(attno, oid)| (attno as pg_sys::AttrNumber, oid)).collect();
    // SAFETY: the caller vouches that `keys` lead `index`; the guard ends the scan.
    let mut scan = unsafe { CatalogScan::new(Oid::from(catalog), Oid::from(index), &keys) };
    while let Some(tuple) = scan.next() {
        // SAFETY: the caller vouches that T lays out (a prefix of) the catalog's row; the
        // tuple is valid until the next row is fetched.
        unsafe { each(&*pg_sys::heap_tuple_get_struct::<T>(tuple), xmin(&*(*tuple).t_data)) };
    }
}

/// Whether a relation or any of its inheritance descendants (partitions
/// included, at any depth) satisfies `pred`, reading pg_inherits.
pub fn any_in_tree(relid: Oid, pred: &mut impl FnMut(Oid) -> bool) -> bool {
    pred(relid) || any_linked(relid, Link::Children, pred)
}

/// Whether any inheritance ancestor of a relation (parents, at any depth; a table may have
/// several) satisfies `pred`, reading pg_inherits.
pub fn any_ancestor(relid: Oid, pred: &mut impl FnMut(Oid) -> bool) -> bool {
    any_linked(relid, Link::Parents, pred)
}

enum Link {
    Children,
    Parents,
}

/// Whether any relation reachable from `relid` through pg_inherits links of one direction
/// (not `relid` itself) satisfies `pred`. Each relation is visited once, whatever the number
/// of paths to it — multiple inheritance can make those exponential — and the walk keeps
/// its own stack, so neither the shape nor the depth of a tree costs more than its links.
fn any_linked(relid: Oid, link: Link, pred: &mut impl FnMut(Oid) -> bool) -> bool {
    let (index, key) = match link {
        Link::Children => (pg_inherits::PARENT_INDEX_ID, pg_inherits::ANUM_INHPARENT),
        Link::Parents => (pg_inherits::RELID_SEQNO_INDEX_ID, pg_inherits::ANUM_INHRELID),
    };
    let mut seen = std::collections::HashSet::from([relid]);
    let mut pending = vec![relid];
    while let Some(rel) = pending.pop() {
        pgrx::check_for_interrupts!();
        let mut linked = Vec::new();
        // SAFETY: a plain catalog read.
        unsafe {
            scan::<pg_inherits::FormData>(pg_inherits::RELATION_ID, index, &[(key, rel)], |row| {
                linked.push(match link {
                    Link::Children => row.inhrelid,
                    Link::Parents => row.inhparent,
                })
            })
        };
        for next in linked {
            if seen.insert(next) {
                if pred(next) {
                    return true;
                }
                pending.push(next);
            }
        }
    }
    false
}

/// The root of the partition tree a relation belongs to (itself if it is not a partition).
pub fn partition_root(relid: Oid) -> Oid {
    let mut rel = relid;
    // SAFETY: plain catalog reads of existing relations.
    while unsafe { pg_sys::get_rel_relispartition(rel) } {
        let mut parent = pg_sys::InvalidOid;
        unsafe {
            scan::<pg_inherits::FormData>(
                pg_inherits::RELATION_ID,
                pg_inherits::RELID_SEQNO_INDEX_ID,
                &[(pg_inherits::ANUM_INHRELID, rel)],
                |row| parent = row.inhparent,
            )
        };
        if parent == pg_sys::InvalidOid {
            break;
        }
        rel = parent;
    }
    rel
}
