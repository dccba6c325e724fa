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
//! * An UPDATE that moves a row to another partition keeps its key, where every partition
//!   runs the trigger ([`moves`], which reads the heap to tell a move from a client's INSERT).
//!
//! Row triggers do not fire for logical replication's apply workers (they run
//! as `session_replication_role = replica`), and pg_dump creates triggers after
//! loading the data, so replicas and restores keep every key.

mod moves;

use crate::functions::generate::{uuid_generate_v1, uuid_generate_v4, uuid_generate_v6, uuid_generate_v7};
use crate::functions::gucs;
use crate::pg::convert::{bytes_for_message, catalog_text_for_message};
use crate::pg::errors::error;
use core::ffi::CStr;
use core::num::NonZeroUsize;
use moves::{is_moved_row, remember_update, trigger_args};
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

/// `ALTER TABLE schema.table ALTER COLUMN column DROP DEFAULT;`, every name quoted as
/// PostgreSQL quotes identifiers, so the statement names this table from any search_path.
fn drop_default_hint(trigger: &PgTrigger<'_>, column: &[u8]) -> String {
    // SAFETY: tg_relation is the open relation the trigger fires on; the names are
    // NUL-terminated, and quote_*identifier() return NUL-terminated strings.
    unsafe {
        let rel = trigger.trigger_data().tg_relation;
        let schema = pg_sys::get_namespace_name((*(*rel).rd_rel).relnamespace);
        let table = pg_sys::quote_qualified_identifier(schema, (*(*rel).rd_rel).relname.data.as_ptr());
        let column = std::ffi::CString::new(column).unwrap_or_default();
        let column = pg_sys::quote_identifier(column.as_ptr());
        format!(
            "ALTER TABLE {} ALTER COLUMN {} DROP DEFAULT;",
            catalog_text_for_message(CStr::from_ptr(table).to_bytes()),
            catalog_text_for_message(CStr::from_ptr(column).to_bytes())
        )
    }
}

fn key_at(row: &PgHeapTuple<'_, impl pgrx::WhoAllocated>, attno: NonZeroUsize) -> Option<Uuid> {
    row.get_by_index::<Uuid>(attno).unwrap_or_else(|_| unreachable!("the column is of type uuid"))
}

/// BEFORE INSERT OR UPDATE row trigger making a uuid column server-assigned and
/// immutable (see the module documentation).
///
/// Written out rather than with `#[pg_trigger]`, whose wrapper turns a direct
/// call (`SELECT uuid_ext_server_assigned()`) into an internal error (XX000).
#[unsafe(export_name = "uuid_ext_server_assigned_wrapper")]
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
#[unsafe(export_name = "pg_finfo_uuid_ext_server_assigned_wrapper")]
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

/// The row to store: the trigger's new row with the key assigned or checked.
fn assign<'a>(trigger: &'a PgTrigger<'a>) -> PgHeapTuple<'a, AllocatedByRust> {
    let args = trigger_args(trigger.trigger());
    let (column, make) = match args.as_slice() {
        [column] => (*column, uuid_generate_v7 as fn() -> Uuid),
        [column, name] => (*column, generator(name)),
        _ => protocol_error("takes a column name and optionally a generator"),
    };
    let row_before =
        matches!(trigger.when(), Ok(PgTriggerWhen::Before)) && matches!(trigger.level(), PgTriggerLevel::Row);
    // SAFETY: tg_relation is the open relation the trigger fires on; relname is a NameData.
    let table = catalog_text_for_message(
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
                    Some(&drop_default_hint(trigger, column)),
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
