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
//!   through ([`Moving`]), and the INSERT firing accepts the key only for
//!   exactly that row — same key, same values in every column — arriving in
//!   another partition of the same tree during the same command. A client
//!   cannot forge that: a row equal in every column to one that stays in its
//!   partition is routed to that same partition.
//!
//! Row triggers do not fire for logical replication's apply workers (they run
//! as `session_replication_role = replica`), and pg_dump creates triggers after
//! loading the data, so replicas and restores keep every key.

use crate::errors::error;
use crate::generate::{uuid_generate_v1, uuid_generate_v4, uuid_generate_v6, uuid_generate_v7};
use crate::gucs;
use crate::syscatalog::partition_root;
use core::cell::RefCell;
use core::ffi::CStr;
use pgrx::pg_sys::Oid;
use pgrx::prelude::*;
use pgrx::{AllocatedByRust, PgSqlErrorCode, Uuid};

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
fn generator(name: &str) -> fn() -> Uuid {
    match name {
        "v7" => uuid_generate_v7,
        "v4" => uuid_generate_v4,
        "v6" => uuid_generate_v6,
        "v1" => uuid_generate_v1,
        other => protocol_error(&format!("unknown generator \"{other}\" (v1, v4, v6 or v7)")),
    }
}

fn key_of(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>, column: &str, table: &str) -> Option<Uuid> {
    row.get_by_name::<Uuid>(column).unwrap_or_else(|_| {
        error(
            PgSqlErrorCode::ERRCODE_UNDEFINED_COLUMN,
            format!("column \"{column}\" of relation \"{table}\" does not exist or is not of type uuid"),
            None,
            Some("uuid_ext_server_assigned() takes the name of a uuid column."),
        )
    })
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
    column: String,
    key: Uuid,
    source: Oid,
    command: Command,
    /// A copy of the new row as the UPDATE firing saw it (TopMemoryContext).
    row: pg_sys::HeapTuple,
}

/// One command of one statement of one transaction in this backend.
#[derive(PartialEq, Eq, Clone, Copy)]
struct Command {
    transaction_start: i64,
    statement_start: i64,
    command_id: u32,
}

impl Command {
    fn current() -> Command {
        // SAFETY: plain reads of the backend's transaction state.
        unsafe {
            Command {
                transaction_start: pg_sys::GetCurrentTransactionStartTimestamp(),
                statement_start: pg_sys::GetCurrentStatementStartTimestamp(),
                command_id: pg_sys::GetCurrentCommandId(false),
            }
        }
    }
}

thread_local! {
    /// At most one row per (partition, column) of the current command.
    static MOVING: RefCell<Vec<Moving>> = const { RefCell::new(Vec::new()) };
}

impl Drop for Moving {
    fn drop(&mut self) {
        // SAFETY: `row` was copied into TopMemoryContext by remember_update() and is owned here.
        unsafe { pg_sys::heap_freetuple(self.row) };
    }
}

/// Remembers the row a BEFORE UPDATE firing on a partition lets through.
fn remember_update(trigger: &PgTrigger<'_>, column: &str, key: Uuid) {
    let data = trigger.trigger_data();
    // SAFETY: tg_relation is the open relation the trigger fires on.
    let source = unsafe { (*data.tg_relation).rd_id };
    let command = Command::current();
    MOVING.with_borrow_mut(|moving| {
        moving.retain(|m| m.command == command && !(m.source == source && m.column == column));
        // SAFETY: tg_newtuple is the UPDATE's new row; the copy outlives the trigger call.
        let row = unsafe {
            pgrx::PgMemoryContexts::TopMemoryContext.switch_to(|_| pg_sys::heap_copytuple(data.tg_newtuple))
        };
        moving.push(Moving { column: column.to_owned(), key, source, command, row });
    });
}

/// Whether an INSERT firing with key `key` is the second half of a row
/// movement that remember_update() saw begin (and forgets it either way).
fn is_moved_row(trigger: &PgTrigger<'_>, column: &str, key: Uuid) -> bool {
    let data = trigger.trigger_data();
    // SAFETY: tg_relation is the open relation the trigger fires on.
    let target = unsafe { (*data.tg_relation).rd_id };
    let command = Command::current();
    let Some(moving) = MOVING.with_borrow_mut(|moving| {
        moving.retain(|m| m.command == command);
        let found = moving.iter().position(|m| m.column == column && m.key == key && m.source != target);
        found.map(|i| moving.swap_remove(i))
    }) else {
        return false;
    };
    // Found only now, as it is needed: every UPDATE of a partition passes remember_update().
    if partition_root(moving.source) != partition_root(target) {
        return false;
    }
    // SAFETY: the source partition exists (its row was updated in this command).
    unsafe {
        let source = pg_sys::RelationIdGetRelation(moving.source);
        if source.is_null() {
            return false;
        }
        let before = image(moving.row, (*source).rd_att, column);
        pg_sys::RelationClose(source);
        before == image(data.tg_trigtuple, (*data.tg_relation).rd_att, column)
    }
}

/// Every column of a row but `skip`, by name, as text (partitions of one tree
/// have the same columns, though not always at the same positions).
unsafe fn image(row: pg_sys::HeapTuple, desc: pg_sys::TupleDesc, skip: &str) -> Vec<(String, Option<String>)> {
    let mut columns = Vec::new();
    // PgTupleDesc reads the attributes on every major (PostgreSQL 18 changed TupleDescData).
    for (i, attr) in pgrx::PgTupleDesc::from_pg_unchecked(desc).iter().enumerate() {
        let name = CStr::from_ptr(attr.attname.data.as_ptr()).to_string_lossy().into_owned();
        if attr.attisdropped || name == skip {
            continue;
        }
        let mut is_null = false;
        let value = pg_sys::heap_getattr(row, i as i32 + 1, desc, &mut is_null);
        let text = (!is_null).then(|| {
            let (mut output, mut varlena) = (pg_sys::InvalidOid, false);
            pg_sys::getTypeOutputInfo(attr.atttypid, &mut output, &mut varlena);
            CStr::from_ptr(pg_sys::OidOutputFunctionCall(output, value)).to_string_lossy().into_owned()
        });
        columns.push((name, text));
    }
    columns.sort();
    columns
}

/// The row to store: the trigger's new row with the key assigned or checked.
fn assign<'a>(trigger: &'a PgTrigger<'a>) -> PgHeapTuple<'a, AllocatedByRust> {
    let args = trigger.extra_args().unwrap_or_else(|_| protocol_error("arguments must be valid UTF-8"));
    let (column, make) = match args.as_slice() {
        [column] => (column, uuid_generate_v7 as fn() -> Uuid),
        [column, name] => (column, generator(name)),
        _ => protocol_error("takes a column name and optionally a generator"),
    };
    let row_before = matches!(trigger.when(), Ok(PgTriggerWhen::Before)) && matches!(trigger.level(), PgTriggerLevel::Row);
    let table = trigger.table_name().unwrap_or_default();
    let (Some(new), true) = (trigger.new(), row_before) else {
        protocol_error("must be fired BEFORE INSERT OR UPDATE, FOR EACH ROW")
    };
    let mut new = new.into_owned();
    let set = |row: &mut PgHeapTuple<'a, AllocatedByRust>, key: Option<Uuid>| {
        row.set_by_name(column, key).unwrap_or_else(|_| unreachable!("the column was read as uuid"))
    };
    let given = key_of(&new, column, &table);
    match trigger.op() {
        Ok(PgTriggerOperation::Insert) => {
            let has_default = trigger.relation().is_ok_and(|rel| {
                rel.tuple_desc().iter().any(|a| !a.attisdropped && a.name() == column && a.atthasdef)
            });
            if has_default {
                error(
                    PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                    format!("server-assigned column \"{column}\" of relation \"{table}\" must not have a DEFAULT"),
                    Some("The key is assigned by trigger uuid_ext_server_assigned(); a DEFAULT would look like a client's value.".into()),
                    Some(&format!("ALTER TABLE {table} ALTER COLUMN {column} DROP DEFAULT;")),
                );
            }
            match given {
                None => set(&mut new, Some(make())),
                Some(_) if gucs::allow_explicit_ids() => {}
                Some(key) if is_moved_row(trigger, column, key) => {}
                Some(_) => error(
                    PgSqlErrorCode::ERRCODE_GENERATED_ALWAYS,
                    format!("cannot insert a non-DEFAULT value into column \"{column}\""),
                    Some(format!("Column \"{column}\" is a server-assigned UUID (trigger uuid_ext_server_assigned).")),
                    Some(HINT_EXPLICIT),
                ),
            }
        }
        Ok(PgTriggerOperation::Update) => {
            let old = trigger.old().and_then(|old| key_of(&old, column, &table));
            match given {
                // SET key = DEFAULT (there is none: NULL) keeps the key.
                None => set(&mut new, old),
                Some(key) if Some(key) == old => {}
                Some(_) => error(
                    PgSqlErrorCode::ERRCODE_GENERATED_ALWAYS,
                    format!("column \"{column}\" can only be updated to DEFAULT"),
                    Some(format!("Column \"{column}\" is a server-assigned UUID (trigger uuid_ext_server_assigned).")),
                    None,
                ),
            }
            // SAFETY: tg_relation is the open relation the trigger fires on.
            if let (Some(key), true) = (old, unsafe { (*trigger.trigger_data().tg_relation).rd_rel.as_ref() }
                .is_some_and(|class| class.relispartition))
            {
                remember_update(trigger, column, key);
            }
        }
        _ => protocol_error("must be fired BEFORE INSERT OR UPDATE, FOR EACH ROW"),
    }
    new
}
