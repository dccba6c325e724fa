//! Rows that an UPDATE moves between partitions keep their server-assigned key.
//!
//! PostgreSQL runs such an UPDATE as a DELETE from the old partition and an INSERT into the
//! new one, firing BEFORE UPDATE triggers on the first and BEFORE INSERT triggers on the
//! second, and tells the second nothing of the move. So the BEFORE UPDATE firing on a
//! partition remembers the row it let through ([`remember_update`]), and the INSERT firing
//! accepts that key once, in another partition of the same tree, if the remembered row now
//! carries the mark of a cross-partition move by this transaction ([`is_moved_row`]) — which
//! only PostgreSQL's own row movement leaves. A client cannot forge it.
//!
//! A move is trusted only where its INSERT half is sure to reach this trigger in the new
//! partition ([`moves_reach_this_trigger`]); elsewhere moves fail with 428C9, as before 0.3.0.
//! Were the INSERT half to miss it — skipped by an earlier trigger, or landing in a partition
//! without the trigger — the remembered row would stay, and a client's later INSERT of the
//! key elsewhere in the same transaction would pass as its second half.

use crate::pg::guards::Relation;
use crate::pg::syscatalog::{any_in_tree, partition_root};
use core::cell::RefCell;
use core::ffi::CStr;
use pgrx::pg_sys::{self, Oid};
use pgrx::prelude::*;
use pgrx::Uuid;

/// A row that a BEFORE UPDATE firing on a partition let through, which
/// PostgreSQL may be about to move into another partition of the same tree.
struct Moving {
    /// The guarded column's name (bytes: partitions may number their columns differently).
    column: Vec<u8>,
    key: Uuid,
    source: Oid,
    /// Where the row is in `source` (the tuple the UPDATE replaces or moves) ...
    tid: pg_sys::ItemPointerData,
    /// ... and who inserted that tuple: with the TID, this names one tuple
    /// version, even after a rolled-back subtransaction's tuple was vacuumed
    /// away and its slot reused.
    xmin: pg_sys::TransactionId,
    /// The backend's local transaction number: entries never outlive their
    /// transaction (several transactions of one Query message included).
    transaction: u32,
}

thread_local! {
    /// At most one row per (partition, column), of the current transaction.
    static MOVING: RefCell<Vec<Moving>> = const { RefCell::new(Vec::new()) };
}

/// This backend's local transaction id (`MyProc->lxid`; `MyProc->vxid.lxid` from 17).
fn current_transaction() -> u32 {
    // SAFETY: MyProc is set for every backend that runs triggers; a plain read.
    unsafe { crate::pg::compat::local_transaction_id() }
}

/// A trigger's arguments as the bytes CREATE TRIGGER stored (database encoding).
pub(super) fn trigger_args(t: &pg_sys::Trigger) -> Vec<&[u8]> {
    if t.tgnargs <= 0 || t.tgargs.is_null() {
        return Vec::new();
    }
    // SAFETY: PostgreSQL keeps tgnargs NUL-terminated strings in tgargs.
    unsafe { core::slice::from_raw_parts(t.tgargs, t.tgnargs as usize) }
        .iter()
        .map(|&arg| unsafe { CStr::from_ptr(arg) }.to_bytes())
        .collect()
}

/// The triggers of a relation.
fn triggers(rel: &Relation) -> &[pg_sys::Trigger] {
    // SAFETY: an open relation's trigger descriptor (if any) holds numtriggers triggers and
    // lives as long as the relation is open.
    unsafe {
        let desc = (*rel.as_ptr()).trigdesc;
        if desc.is_null() || (*desc).triggers.is_null() {
            &[]
        } else {
            core::slice::from_raw_parts((*desc).triggers, (*desc).numtriggers as usize)
        }
    }
}

/// Whether a row moved within the partition tree of `source` is sure to reach this trigger's
/// INSERT firing in its new partition, guarding the same `column`:
///
/// * every partition a row can land in (each one without partitions of its own) has this
///   trigger function as an enabled BEFORE INSERT row trigger on `column`, firing when this
///   firing does — so no move lands where nothing consumes what [`remember_update`] noted;
/// * no partition of the tree has another enabled BEFORE INSERT row trigger that fires
///   before it (triggers fire in name order) and so could skip the row (return NULL) or
///   change its key.
///
/// Known once per statement and updated partition.
pub(super) fn moves_reach_this_trigger(source: Oid, ours: &pg_sys::Trigger, column: &[u8]) -> bool {
    /// (updated partition, local transaction, command, trigger name) and the answer: every
    /// row an UPDATE changes in a partition asks, so the tree is walked once per partition
    /// and statement, not per row.
    type Known = Option<(Oid, u32, pg_sys::CommandId, Vec<u8>, bool)>;
    thread_local! {
        static KNOWN: RefCell<Known> = const { RefCell::new(None) };
    }
    // SAFETY: reads of the backend's transaction state and of the trigger's name.
    let (now, command) = (current_transaction(), unsafe { pg_sys::GetCurrentCommandId(false) });
    let name = unsafe { CStr::from_ptr(ours.tgname) }.to_bytes();
    let cached = KNOWN.with_borrow(|k| {
        k.as_ref().filter(|(r, t, c, n, _)| *r == source && *t == now && *c == command && n == name).map(|k| k.4)
    });
    if let Some(ok) = cached {
        return ok;
    }
    let row_before_insert =
        (pg_sys::TRIGGER_TYPE_ROW | pg_sys::TRIGGER_TYPE_BEFORE | pg_sys::TRIGGER_TYPE_INSERT) as i16;
    let before_insert = |t: &pg_sys::Trigger| {
        t.tgtype & row_before_insert == row_before_insert && t.tgtype & pg_sys::TRIGGER_TYPE_INSTEAD as i16 == 0
    };
    let ok = !any_in_tree(partition_root(source), &mut |rel| {
        // SAFETY: a relation of the tree this statement updates, opened and closed here.
        let Some(relation) = (unsafe { Relation::get(rel) }) else {
            return false;
        };
        let earlier = triggers(&relation).iter().any(|t| {
            before_insert(t)
                && t.tgenabled as u8 != pg_sys::TRIGGER_DISABLED
                && t.tgfoid != ours.tgfoid
                // SAFETY: a trigger's name is NUL-terminated.
                && unsafe { CStr::from_ptr(t.tgname) }.to_bytes() < name
        });
        let leaf = relation.class().relkind as u8 != pg_sys::RELKIND_PARTITIONED_TABLE;
        let guarded = triggers(&relation).iter().any(|t| {
            before_insert(t)
                && t.tgfoid == ours.tgfoid
                && (t.tgenabled == ours.tgenabled || t.tgenabled as u8 == pg_sys::TRIGGER_FIRES_ALWAYS)
                && trigger_args(t).first() == Some(&column)
        });
        earlier || (leaf && !guarded)
    });
    KNOWN.with_borrow_mut(|k| *k = Some((source, now, command, name.to_vec(), ok)));
    ok
}

/// Remembers the row a BEFORE UPDATE firing on a partition lets through.
pub(super) fn remember_update(trigger: &PgTrigger<'_>, column: &[u8], key: Uuid) {
    let data = trigger.trigger_data();
    // SAFETY: tg_relation is the open relation the trigger fires on.
    if !moves_reach_this_trigger(unsafe { (*data.tg_relation).rd_id }, trigger.trigger(), column) {
        return;
    }
    // SAFETY: tg_relation is the open relation the trigger fires on and
    // tg_trigtuple the row being updated, header included.
    let (source, tid, xmin) = unsafe {
        let old = &*data.tg_trigtuple;
        let xmin = old.t_data.as_ref().map_or(pg_sys::InvalidTransactionId, |h| h.t_choice.t_heap.t_xmin);
        ((*data.tg_relation).rd_id, old.t_self, xmin)
    };
    let now = current_transaction();
    MOVING.with_borrow_mut(|moving| {
        moving.retain(|m| m.transaction == now && !(m.source == source && m.column == column));
        moving.push(Moving { column: column.to_vec(), key, source, tid, xmin, transaction: now });
    });
}

/// Whether an INSERT firing with key `key` is the second half of a row
/// movement that remember_update() saw begin (and forgets it if so): a
/// remembered row with that key, in another partition of the same tree, has
/// since been deleted *as moved to another partition* by this transaction —
/// the mark PostgreSQL's cross-partition UPDATE leaves on the old tuple, which
/// no other statement can. An UPDATE that a later trigger cancelled, that
/// stayed in its partition, or that a ROLLBACK TO undid leaves no such mark.
/// Every remembered row with the key is tried: a rolled-back subtransaction
/// can leave stale ones.
pub(super) fn is_moved_row(trigger: &PgTrigger<'_>, column: &[u8], key: Uuid) -> bool {
    let data = trigger.trigger_data();
    // SAFETY: tg_relation is the open relation the trigger fires on.
    let target = unsafe { (*data.tg_relation).rd_id };
    let now = current_transaction();
    let candidates: Vec<(Oid, pg_sys::ItemPointerData, pg_sys::TransactionId)> = MOVING.with_borrow_mut(|moving| {
        moving.retain(|m| m.transaction == now);
        moving
            .iter()
            .filter(|m| m.column == column && m.key == key && m.source != target)
            .map(|m| (m.source, m.tid, m.xmin))
            .collect()
    });
    if candidates.is_empty() {
        return false;
    }
    // Found only now, as it is needed: every UPDATE of a partition passes remember_update().
    let root = partition_root(target);
    for (source, tid, xmin) in candidates {
        if partition_root(source) == root && moved_away(source, tid, xmin) {
            MOVING.with_borrow_mut(|moving| moving.retain(|m| !(m.source == source && m.column == column)));
            return true;
        }
    }
    false
}

/// Whether the heap tuple at `tid` of `relid`, inserted by `xmin`, was
/// deleted by this transaction as moved to another partition
/// (`ItemPointerIndicatesMovedPartitions`). A TID past the relation's end
/// (truncated by VACUUM after a ROLLBACK TO released its lock) is not.
///
/// The partition is read under a lock: this transaction's UPDATE locked it, but a ROLLBACK TO
/// may have released that lock, after which another session could drop or truncate it. The
/// lock is only tried — a trigger does not wait — and a partition that cannot be locked at
/// once, or that is gone, holds no moved row (the INSERT is then refused, 428C9).
fn moved_away(relid: Oid, tid: pg_sys::ItemPointerData, xmin: pg_sys::TransactionId) -> bool {
    if xmin == pg_sys::InvalidTransactionId {
        return false;
    }
    // SAFETY: a lock on a relation OID, kept to the end of the transaction; then a relcache
    // lookup (None once dropped), closed by the guard.
    let Some(rel) = (unsafe {
        if !pg_sys::ConditionalLockRelationOid(relid, pg_sys::AccessShareLock as pg_sys::LOCKMODE) {
            return false;
        }
        Relation::get(relid)
    }) else {
        return false;
    };
    let class = rel.class();
    let block = (u32::from(tid.ip_blkid.bi_hi) << 16) | u32::from(tid.ip_blkid.bi_lo);
    // SAFETY: the number of blocks of an open, locked heap relation.
    if class.relkind as u8 != pg_sys::RELKIND_RELATION
        || class.relam != pg_sys::HEAP_TABLE_AM_OID
        || block >= unsafe { pg_sys::RelationGetNumberOfBlocksInFork(rel.as_ptr(), pg_sys::ForkNumber::MAIN_FORKNUM) }
    {
        return false;
    }
    let mut tuple = pg_sys::HeapTupleData { t_self: tid, ..Default::default() };
    let mut buffer: pg_sys::Buffer = 0;
    // SAFETY: a fetch of a TID inside the relation, with SnapshotAny (the tuple's header is
    // what is read, whatever its visibility); the pinned buffer is released below.
    let moved = unsafe {
        let snapshot = &raw mut pg_sys::SnapshotAnyData;
        let found = crate::pg::compat::heap_fetch_keep_buf(rel.as_ptr(), snapshot, &mut tuple, &mut buffer);
        let moved = found
            && tuple.t_data.as_ref().is_some_and(|header| {
                let ctid = header.t_ctid;
                let moved_mark = ctid.ip_posid == MOVED_PARTITIONS_OFFSET
                    && ctid.ip_blkid.bi_hi == 0xffff
                    && ctid.ip_blkid.bi_lo == 0xffff;
                let xmax = if u32::from(header.t_infomask) & pg_sys::HEAP_XMAX_IS_MULTI != 0 {
                    pg_sys::HeapTupleGetUpdateXid(tuple.t_data)
                } else {
                    header.t_choice.t_heap.t_xmax
                };
                moved_mark && header.t_choice.t_heap.t_xmin == xmin && pg_sys::TransactionIdIsCurrentTransactionId(xmax)
            });
        if buffer != 0 {
            pg_sys::ReleaseBuffer(buffer);
        }
        moved
    };
    moved
}

/// `MovedPartitionsOffsetNumber` (storage/itemptr.h); its block number is InvalidBlockNumber.
const MOVED_PARTITIONS_OFFSET: u16 = 0xfffd;
