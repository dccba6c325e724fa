//! Hand-written SQL of the install script that is not a function's definition (pgrx writes
//! those from the `#[pg_extern]`s and `extension_sql!` blocks beside the code), in the order it
//! runs: first, last, and what must follow the functions it names.

// First in CREATE EXTENSION: names uuid-ossp or pg_uuidv7 in the way, and the way out.
pgrx::extension_sql_file!("../sql/peer_check.sql", name = "peer_check", bootstrap);

// The operators and the operator class uuid_time_ops, once its functions exist.
pgrx::extension_sql_file!(
    "../sql/uuid_time_ops.sql",
    name = "uuid_time_ops",
    requires = [uuid_time_cmp, uuid_time_lt, uuid_time_le, uuid_time_ge, uuid_time_gt, uuid_time_sortsupport]
);

// Last: on PostgreSQL 17, warn when pg_catalog's uuid_extract_timestamp() (v1 only) would be
// found before uuid_ext's.
pgrx::extension_sql_file!("../sql/pg17_search_path.sql", name = "pg17_search_path", finalize);

// The guard over every script that creates or updates uuid_ext (docs/SECURITY.md, row 14 and
// "Fixed in 0.5.1"): a trusted extension lets any role with CREATE on a database pick any version
// its install and update scripts reach, and those scripts run as the bootstrap superuser. The
// library is always the newest; the scripts need not be (an install over an older release leaves
// its `uuid_ext--0.3.0.sql` behind). 0.2.0–0.4.0 created uuid_ext_migrate_from() in PL/pgSQL,
// which ran other roles' code with its caller's rights; every function of uuid_ext is this
// library's C code now. So while one of uuid_ext's scripts runs, a member function that the
// transaction created and that is not this library's C code is an error, whichever file the
// script came from; so is a member in C that a non-superuser owns (one the extension's owner
// added under a name a later version creates, which an update's OR REPLACE made C and left that
// role's, to change at will). The check runs at every object the script creates once the library
// is loaded: 0.2.0 and 0.3.0 created the helper before their first C function, which is what
// loads the library. Other members created before (a database still at 0.4.0, being updated)
// are left to the update, whose scripts replace them. The guard is a second line: the old install scripts
// themselves are replaced by ones that refuse (sql/uuid_ext--0.1.0.sql …), since what an old
// script runs before the library is loaded (0.2.0's and 0.3.0's peer check calls quote_ident()
// unqualified) no library can stop.

use crate::pg::catalog_ids::{pg_depend, ClanguageId, DependReferenceIndexId, DependRelationId};
use crate::pg::guards::SysCacheTuple;
use crate::pg::{members, syscatalog};
use pgrx::pg_sys::{self, Oid};
use pgrx::PgSqlErrorCode;

static mut PREV_OBJECT_ACCESS: pg_sys::object_access_hook_type = None;

/// Installs the guard (from `_PG_init`), after whatever hook was there.
pub fn init() {
    // SAFETY: _PG_init runs once per process, single-threaded.
    unsafe {
        PREV_OBJECT_ACCESS = pg_sys::object_access_hook;
        pg_sys::object_access_hook = Some(object_access);
    }
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn object_access(
    access: pg_sys::ObjectAccessType::Type,
    class_id: Oid,
    object_id: Oid,
    sub_id: i32,
    arg: *mut core::ffi::c_void,
) {
    // SAFETY: the previous hook is called with the arguments PostgreSQL gave this one.
    if let Some(prev) = unsafe { PREV_OBJECT_ACCESS } {
        unsafe { prev(access, class_id, object_id, sub_id, arg) };
    }
    // SAFETY: plain reads of the backend's globals; the hook runs in a transaction.
    let in_our_script = access == pg_sys::ObjectAccessType::OAT_POST_CREATE
        && unsafe { pg_sys::creating_extension }
        && unsafe { is_uuid_ext(pg_sys::CurrentExtensionObject) };
    if !in_our_script {
        return;
    }
    // A new pg_proc row is not visible yet (ProcedureCreate makes it visible right after this
    // hook, before it calls the validator); making the script's changes visible now changes
    // nothing else it sees.
    // SAFETY: in a transaction, between two of the script's catalog changes.
    unsafe { pg_sys::CommandCounterIncrement() };
    // SAFETY: in a transaction.
    if let Some(f) = unsafe { foreign_function(pg_sys::CurrentExtensionObject) } {
        // SAFETY: in a transaction.
        let name = unsafe { function_name(f) };
        crate::pg::errors::error(
            PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
            format!("uuid_ext's script cannot run: function {name} of the extension is not uuid_ext's C code"),
            Some(
                "Every function of uuid_ext is this library's C code, owned by a superuser. Versions \
                 0.2.0 to 0.4.0 created uuid_ext_migrate_from() in PL/pgSQL, which ran other roles' code \
                 with its caller's rights; their install scripts can no longer be run. A function the \
                 extension's owner added to it (ALTER EXTENSION ... ADD) is not uuid_ext's either."
                    .into(),
            ),
            Some(
                "Install the current version (CREATE EXTENSION uuid_ext;); where the function was added, \
                 ALTER EXTENSION uuid_ext DROP FUNCTION it first.",
            ),
        );
    }
}

/// A member function of `ext` that is not this library's C code and that this transaction
/// created, or a member in C that a role other than a superuser owns (one the extension's owner
/// added, which an update script replaced with C and left that role's), if there is one. A
/// member of the owner's in another language is harmless to uuid_ext (nothing of uuid_ext's
/// calls it) and does not stop an update.
///
/// # Safety
/// Inside a transaction.
unsafe fn foreign_function(ext: Oid) -> Option<Oid> {
    let mut functions = Vec::new();
    // SAFETY: a catalog scan whose row layout is pg_depend's leading columns.
    unsafe {
        syscatalog::scan::<pg_depend::FormData>(
            DependRelationId.to_u32(),
            DependReferenceIndexId.to_u32(),
            &[(pg_depend::ANUM_REFCLASSID, pg_sys::ExtensionRelationId), (pg_depend::ANUM_REFOBJID, ext)],
            |row| {
                if row.deptype as u8 == pg_depend::DEPENDENCY_EXTENSION && row.classid == pg_sys::ProcedureRelationId {
                    functions.push(row.objid);
                }
            },
        )
    };
    functions.into_iter().find(|&f| {
        // SAFETY: in a transaction; the tuple is released by the guard; a PROCOID tuple is a
        // pg_proc row; superuser_arg() reads the role's syscache entry.
        let suspect =
            unsafe { SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PROCOID, f.into()) }.is_some_and(|tuple| {
                let proc = unsafe { tuple.form::<pg_sys::FormData_pg_proc>() };
                tuple.inserted_by_this_transaction()
                    || (proc.prolang == ClanguageId && !unsafe { pg_sys::superuser_arg(proc.proowner) })
            });
        // SAFETY: in a transaction.
        suspect && !unsafe { members::is_this_library(f, None) }
    })
}

/// Whether `ext` is the extension named uuid_ext (the one whose control file names this
/// library: the script that loaded it is running).
///
/// # Safety
/// Inside a transaction.
unsafe fn is_uuid_ext(ext: Oid) -> bool {
    // SAFETY: in a transaction; NULL if there is no such extension.
    let name = unsafe { pg_sys::get_extension_name(ext) };
    // SAFETY: a NUL-terminated palloc'd string.
    !name.is_null() && unsafe { core::ffi::CStr::from_ptr(name) } == c"uuid_ext"
}

/// `schema.name(argument types)` of a function, for the message.
///
/// # Safety
/// Inside a transaction.
unsafe fn function_name(f: Oid) -> String {
    // SAFETY: in a transaction; format_procedure_qualified() prints the OID if there is no row.
    unsafe { core::ffi::CStr::from_ptr(pg_sys::format_procedure_qualified(f)) }.to_string_lossy().into_owned()
}
