//! Server-assigned, immutable UUID keys: RFC 4530's `entryUUID` ("assigned by
//! the server", "not modifiable by a client"), as PostgreSQL's
//! `GENERATED ALWAYS AS IDENTITY` gives integers. PostgreSQL rejects a volatile
//! generation expression, and a plain `DEFAULT` lets any client supply or change
//! the key, so this is a row trigger, one per column:
//!
//! ```sql
//! CREATE TRIGGER entries_id BEFORE INSERT OR UPDATE ON entries
//!     FOR EACH ROW EXECUTE FUNCTION uuid_ext_server_assigned('id');        -- v7
//!     -- or uuid_ext_server_assigned('id', 'v4')   (generators: v1, v4, v6, v7)
//! ```
//!
//! * INSERT without a value (the column has no DEFAULT, so it arrives NULL)
//!   gets a fresh UUID from the generator.
//! * INSERT with a value fails as for an identity column, SQLSTATE 428C9 —
//!   unless `uuid_ext.allow_explicit_ids` is on, which only a superuser (or a
//!   role granted `SET` on it) can turn on: the analogue of `OVERRIDING SYSTEM
//!   VALUE`, for loading data.
//! * UPDATE that changes the key fails the same way; `SET id = DEFAULT` (or
//!   NULL) keeps the key; updates of other columns are untouched.
//! * An UPDATE that moves a row to another partition keeps its key.
//!   PostgreSQL runs it as a DELETE from the old partition and an INSERT
//!   into the new one, firing BEFORE UPDATE triggers on the first and BEFORE
//!   INSERT triggers on the second, and tells the second nothing of the move.
//!   So the BEFORE UPDATE firing on a partition remembers the row it let
//!   through ([`Moving`]), and the INSERT firing accepts that key once, in
//!   another partition of the same tree, if the remembered row now carries
//!   the mark of a cross-partition move by this transaction — which only
//!   PostgreSQL's own row movement leaves. A client cannot forge it.
//!
//! Row triggers do not fire for logical replication's apply workers (they run
//! as `session_replication_role = replica`), and pg_dump creates triggers after
//! loading the data, so replicas and restores keep every key.

use crate::convert::bytes_for_message;
use crate::errors::error;
use crate::generate::{uuid_generate_v1, uuid_generate_v4, uuid_generate_v6, uuid_generate_v7};
use crate::gucs;
use crate::syscatalog::{any_in_tree, partition_root};
use core::cell::RefCell;
use core::ffi::CStr;
use core::num::NonZeroUsize;
use pgrx::pg_sys::Oid;
use pgrx::prelude::*;
use pgrx::{AllocatedByRust, PgSqlErrorCode, PgTupleDesc, Uuid};

const HINT_EXPLICIT: &str =
    "To load explicit keys, a superuser (or a role granted SET on it) can SET uuid_ext.allow_explicit_ids = on.";

fn protocol_error(message: &str) -> ! {
    error(
        PgSqlErrorCode::ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED,
        format!("uuid_ext_server_assigned(): {message}"),
        None,
        Some("Use: CREATE TRIGGER name BEFORE INSERT OR UPDATE ON table FOR EACH ROW EXECUTE FUNCTION uuid_ext_server_assigned('column' [, 'v1' | 'v4' | 'v6' | 'v7'])."),
    )
}

/// The generator a trigger argument names.
fn generator(name: &[u8]) -> fn() -> Uuid {
    match name {
        b"v7" => uuid_generate_v7,
        b"v4" => uuid_generate_v4,
        b"v6" => uuid_generate_v6,
        b"v1" => uuid_generate_v1,
        other => protocol_error(&format!("unknown generator \"{}\" (v1, v4, v6 or v7)", bytes_for_message(other))),
    }
}

/// The trigger's arguments as the bytes CREATE TRIGGER stored (database encoding).
fn trigger_args<'a>(trigger: &'a PgTrigger<'a>) -> Vec<&'a [u8]> {
    let t = trigger.trigger();
    if t.tgnargs <= 0 || t.tgargs.is_null() {
        return Vec::new();
    }
    // SAFETY: PostgreSQL passes tgnargs NUL-terminated strings in tgargs.
    unsafe { core::slice::from_raw_parts(t.tgargs, t.tgnargs as usize) }
        .iter()
        .map(|&arg| unsafe { CStr::from_ptr(arg) }.to_bytes())
        .collect()
}

/// The uuid column the trigger guards: its attribute number in the firing relation and
/// whether it has a DEFAULT. Names are compared as bytes, so any database encoding works.
fn guarded_column(trigger: &PgTrigger<'_>, column: &[u8], table: &str) -> (NonZeroUsize, bool) {
    // SAFETY: tg_relation is the open relation the trigger fires on.
    let desc = unsafe { PgTupleDesc::from_pg_unchecked((*trigger.trigger_data().tg_relation).rd_att) };
    desc.iter()
        .enumerate()
        .find(|(_, a)| {
            // SAFETY: attname is a NUL-terminated NameData.
            !a.attisdropped && unsafe { CStr::from_ptr(a.attname.data.as_ptr()) }.to_bytes() == column
        })
        .filter(|(_, a)| a.atttypid == pg_sys::UUIDOID)
        .map(|(i, a)| (NonZeroUsize::new(i + 1).expect("attribute numbers start at 1"), a.atthasdef))
        .unwrap_or_else(|| {
            error(
                PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
                format!(
                    "column \"{}\" of relation \"{table}\" does not exist or is not of type uuid",
                    bytes_for_message(column)
                ),
                None,
                Some("uuid_ext_server_assigned() takes the name of a uuid column."),
            )
        })
}

fn key_at(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>, attno: NonZeroUsize) -> Option<Uuid> {
    row.get_by_index::<Uuid>(attno).unwrap_or_else(|_| unreachable!("the column is of type uuid"))
}

/// BEFORE INSERT OR UPDATE row trigger making a uuid column server-assigned and
/// immutable (see the module documentation).
///
/// Written out rather than with `#[pg_trigger]`, whose wrapper turns a direct
/// call (`SELECT uuid_ext_server_assigned()`) into an internal error (XX000).
#[no_mangle]
#[pg_guard]
pub unsafe extern "C-unwind" fn uuid_ext_server_assigned_wrapper(fcinfo: pg_sys::FunctionCallInfo) -> pg_sys::Datum {
    // SAFETY: PostgreSQL calls this with a valid fcinfo; from_fcinfo checks it is a trigger call.
    let Some(trigger) = unsafe { fcinfo.as_ref() }.and_then(|f| unsafe { PgTrigger::from_fcinfo(f) }.ok()) else {
        error(
            PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
            "trigger functions can only be called as triggers".to_owned(),
            None,
            None,
        )
    };
    // The trigger protocol returns the row to store as the Datum (a null pointer: skip the row).
    assign(&trigger).into_trigger_datum().unwrap_or(pg_sys::Datum::from(0))
}

/// PostgreSQL's V1 calling convention marker for the function above.
#[no_mangle]
pub extern "C" fn pg_finfo_uuid_ext_server_assigned_wrapper() -> &'static pg_sys::Pg_finfo_record {
    const V1: pg_sys::Pg_finfo_record = pg_sys::Pg_finfo_record { api_version: 1 };
    &V1
}

pgrx::extension_sql!(
    r#"
CREATE FUNCTION uuid_ext_server_assigned() RETURNS trigger
VOLATILE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_ext_server_assigned_wrapper';
"#,
    name = "server_assigned"
);

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
    unsafe {
        #[cfg(any(feature = "pg13", feature = "pg14", feature = "pg15", feature = "pg16"))]
        let lxid = (*pg_sys::MyProc).lxid;
        #[cfg(not(any(feature = "pg13", feature = "pg14", feature = "pg15", feature = "pg16")))]
        let lxid = (*pg_sys::MyProc).vxid.lxid;
        lxid
    }
}

/// Whether a row moved within the partition tree of `source` is sure to reach this trigger's
/// INSERT firing in its new partition: no partition of the tree has an enabled BEFORE INSERT
/// row trigger that fires before it (triggers fire in name order) and so could skip the row
/// (return NULL) or change its key. Were the INSERT half skipped, the move's mark and this
/// backend's memory of it would remain, and a client's later INSERT of the key would pass.
/// Where this is false, moves fail with 428C9 (as before 0.3.0) rather than trust them.
/// Known once per statement and updated partition.
fn moves_reach_this_trigger(source: Oid, ours: &pg_sys::Trigger) -> bool {
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
    let root = partition_root(source);
    let row_before_insert =
        (pg_sys::TRIGGER_TYPE_ROW | pg_sys::TRIGGER_TYPE_BEFORE | pg_sys::TRIGGER_TYPE_INSERT) as i16;
    let ok = !any_in_tree(root, &mut |rel| {
        // SAFETY: relations of a tree this statement is updating; their trigger descriptors are
        // read and released at once.
        unsafe {
            let relation = pg_sys::RelationIdGetRelation(rel);
            if relation.is_null() {
                return false;
            }
            let desc = (*relation).trigdesc;
            let earlier = !desc.is_null()
                && core::slice::from_raw_parts((*desc).triggers, (*desc).numtriggers as usize).iter().any(|t| {
                    t.tgtype & row_before_insert == row_before_insert
                        && t.tgtype & pg_sys::TRIGGER_TYPE_INSTEAD as i16 == 0
                        && t.tgenabled as u8 != pg_sys::TRIGGER_DISABLED
                        && t.tgfoid != ours.tgfoid
                        && CStr::from_ptr(t.tgname).to_bytes() < name
                });
            pg_sys::RelationClose(relation);
            earlier
        }
    });
    KNOWN.with_borrow_mut(|k| *k = Some((source, now, command, name.to_vec(), ok)));
    ok
}

/// Remembers the row a BEFORE UPDATE firing on a partition lets through.
fn remember_update(trigger: &PgTrigger<'_>, column: &[u8], key: Uuid) {
    let data = trigger.trigger_data();
    // SAFETY: tg_relation is the open relation the trigger fires on.
    if !moves_reach_this_trigger(unsafe { (*data.tg_relation).rd_id }, trigger.trigger()) {
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
fn is_moved_row(trigger: &PgTrigger<'_>, column: &[u8], key: Uuid) -> bool {
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
        // SAFETY: reads of a relation this transaction has updated.
        if partition_root(source) == root && unsafe { moved_away(source, tid, xmin) } {
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
unsafe fn moved_away(relid: Oid, tid: pg_sys::ItemPointerData, xmin: pg_sys::TransactionId) -> bool {
    if xmin == pg_sys::InvalidTransactionId {
        return false;
    }
    let rel = pg_sys::RelationIdGetRelation(relid);
    if rel.is_null() {
        return false;
    }
    let class = &*(*rel).rd_rel;
    let block = (u32::from(tid.ip_blkid.bi_hi) << 16) | u32::from(tid.ip_blkid.bi_lo);
    let mut moved = false;
    if class.relkind as u8 == pg_sys::RELKIND_RELATION
        && class.relam == pg_sys::HEAP_TABLE_AM_OID
        && block < pg_sys::RelationGetNumberOfBlocksInFork(rel, pg_sys::ForkNumber::MAIN_FORKNUM)
    {
        let mut tuple = pg_sys::HeapTupleData { t_self: tid, ..Default::default() };
        let mut buffer: pg_sys::Buffer = 0;
        let snapshot = &raw mut pg_sys::SnapshotAnyData;
        #[cfg(any(feature = "pg13", feature = "pg14"))]
        let found = pg_sys::heap_fetch_extended(rel, snapshot, &mut tuple, &mut buffer, true);
        #[cfg(not(any(feature = "pg13", feature = "pg14")))]
        let found = pg_sys::heap_fetch(rel, snapshot, &mut tuple, &mut buffer, true);
        if found && !tuple.t_data.is_null() {
            let header = &*tuple.t_data;
            let ctid = header.t_ctid;
            let moved_mark = ctid.ip_posid == MOVED_PARTITIONS_OFFSET
                && ctid.ip_blkid.bi_hi == 0xffff
                && ctid.ip_blkid.bi_lo == 0xffff;
            let xmax = if u32::from(header.t_infomask) & pg_sys::HEAP_XMAX_IS_MULTI != 0 {
                pg_sys::HeapTupleGetUpdateXid(tuple.t_data)
            } else {
                header.t_choice.t_heap.t_xmax
            };
            moved = moved_mark
                && header.t_choice.t_heap.t_xmin == xmin
                && pg_sys::TransactionIdIsCurrentTransactionId(xmax);
        }
        if buffer != 0 {
            pg_sys::ReleaseBuffer(buffer);
        }
    }
    pg_sys::RelationClose(rel);
    moved
}

/// `MovedPartitionsOffsetNumber` (storage/itemptr.h); its block number is InvalidBlockNumber.
const MOVED_PARTITIONS_OFFSET: u16 = 0xfffd;

/// The row to store: the trigger's new row with the key assigned or checked.
fn assign<'a>(trigger: &'a PgTrigger<'a>) -> PgHeapTuple<'a, AllocatedByRust> {
    let args = trigger_args(trigger);
    let (column, make) = match args.as_slice() {
        [column] => (*column, uuid_generate_v7 as fn() -> Uuid),
        [column, name] => (*column, generator(name)),
        _ => protocol_error("takes a column name and optionally a generator"),
    };
    let row_before =
        matches!(trigger.when(), Ok(PgTriggerWhen::Before)) && matches!(trigger.level(), PgTriggerLevel::Row);
    // SAFETY: tg_relation is the open relation the trigger fires on; relname is a NameData.
    let table = bytes_for_message(
        unsafe { CStr::from_ptr((*(*trigger.trigger_data().tg_relation).rd_rel).relname.data.as_ptr()) }.to_bytes(),
    );
    let (Some(new), true) = (trigger.new(), row_before) else {
        protocol_error("must be fired BEFORE INSERT OR UPDATE, FOR EACH ROW")
    };
    let (attno, has_default) = guarded_column(trigger, column, &table);
    let shown = bytes_for_message(column);
    let mut new = new.into_owned();
    let set = |row: &mut PgHeapTuple<'a, AllocatedByRust>, key: Option<Uuid>| {
        row.set_by_index(attno, key).unwrap_or_else(|_| unreachable!("the column is of type uuid"))
    };
    let given = key_at(&new, attno);
    match trigger.op() {
        Ok(PgTriggerOperation::Insert) => {
            if has_default {
                error(
                    PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                    format!("server-assigned column \"{shown}\" of relation \"{table}\" must not have a DEFAULT"),
                    Some("The key is assigned by trigger uuid_ext_server_assigned(); a DEFAULT would look like a client's value.".into()),
                    Some(&format!("ALTER TABLE {table} ALTER COLUMN {shown} DROP DEFAULT;")),
                );
            }
            match given {
                None => set(&mut new, Some(make())),
                Some(_) if gucs::allow_explicit_ids() => {}
                Some(key) if is_moved_row(trigger, column, key) => {}
                Some(_) => error(
                    PgSqlErrorCode::ERRCODE_GENERATED_ALWAYS,
                    format!("cannot insert a non-DEFAULT value into column \"{shown}\""),
                    Some(format!("Column \"{shown}\" is a server-assigned UUID (trigger uuid_ext_server_assigned).")),
                    Some(HINT_EXPLICIT),
                ),
            }
        }
        Ok(PgTriggerOperation::Update) => {
            let old = trigger.old().and_then(|old| key_at(&old, attno));
            match given {
                // SET key = DEFAULT (there is none: NULL) keeps the key.
                None => set(&mut new, old),
                Some(key) if Some(key) == old => {}
                Some(_) => error(
                    PgSqlErrorCode::ERRCODE_GENERATED_ALWAYS,
                    format!("column \"{shown}\" can only be updated to DEFAULT"),
                    Some(format!("Column \"{shown}\" is a server-assigned UUID (trigger uuid_ext_server_assigned).")),
                    None,
                ),
            }
            // SAFETY: tg_relation is the open relation the trigger fires on.
            if let (Some(key), true) = (
                old,
                unsafe { (*trigger.trigger_data().tg_relation).rd_rel.as_ref() }
                    .is_some_and(|class| class.relispartition),
            ) {
                remember_update(trigger, column, key);
            }
        }
        _ => protocol_error("must be fired BEFORE INSERT OR UPDATE, FOR EACH ROW"),
    }
    new
}
