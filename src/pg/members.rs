//! uuid_ext's own functions, as code that injects or re-points calls to them must find them:
//! members of the extension that are this library's C code.
//!
//! Membership (`pg_depend`, `deptype = 'e'`) alone proves nothing about a function. The
//! extension's owner — a non-superuser after a trusted install — may `ALTER EXTENSION uuid_ext
//! ADD FUNCTION` one of its own, for instance while a newer library already runs over an older
//! catalog that lacks a function of that name (between installing a package and `ALTER
//! EXTENSION … UPDATE`). Only a superuser can create a function in language C, so a member in
//! C that names this library's file and one of its symbols is the code this library defines,
//! whoever added it to the extension.

use crate::pg::catalog_ids::ClanguageId;
use crate::pg::guards::SysCacheTuple;
use crate::pg::syscatalog::{self, pg_extension};
use core::ffi::{c_void, CStr};
use pgrx::pg_sys::{self, Oid};

/// The library as every install and upgrade script names it (`module_pathname` of the control
/// file, which PostgreSQL puts in place of `MODULE_PATHNAME`).
const MODULE_PATHNAME: &CStr = c"$libdir/uuid_ext";

/// This loaded library: its file and the address it is mapped at.
fn this_library() -> Option<(&'static CStr, *mut c_void)> {
    // SAFETY: dladdr() only reads the loader's tables; Dl_info is plain data.
    let mut info: libc::Dl_info = unsafe { core::mem::zeroed() };
    let found = unsafe { libc::dladdr(this_library as *const c_void, &mut info) } != 0;
    // SAFETY: dli_fname is the loader's NUL-terminated path of a library that stays loaded
    // as long as this code runs.
    (found && !info.dli_fname.is_null()).then(|| (unsafe { CStr::from_ptr(info.dli_fname) }, info.dli_fbase))
}

/// Whether `symbol` is defined by this library (not merely found through it, as a symbol of
/// libc would be).
fn defined_here(symbol: &CStr) -> bool {
    let Some((path, base)) = this_library() else {
        return false;
    };
    // SAFETY: RTLD_NOLOAD only takes another reference to the library already loaded (this
    // one), which dlclose() gives back; dlsym and dladdr only read the loader's tables.
    unsafe {
        let handle = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD);
        if handle.is_null() {
            return false;
        }
        let address = libc::dlsym(handle, symbol.as_ptr());
        let mut info: libc::Dl_info = core::mem::zeroed();
        let here = !address.is_null() && libc::dladdr(address, &mut info) != 0 && info.dli_fbase == base;
        libc::dlclose(handle);
        here
    }
}

/// Whether function `f` is this library's C code: language C, owned by a superuser, the library
/// named as the install scripts name it (or by this library's own path), and the symbol `symbol`
/// — or, with `None`, any symbol this library defines. Reads the system cache only; never raises
/// an error.
///
/// The owner counts because the owner of a function may change it: `ALTER FUNCTION … CALLED ON
/// NULL INPUT` on C code that takes its arguments as non-NULL, or `CREATE OR REPLACE` in another
/// language while it stays a member. Every member an install or update script creates is the
/// superuser's who ran it; a member a non-superuser owns is one it added (`ALTER EXTENSION …
/// ADD`) and an update script then replaced (found by review of 0.5.1).
///
/// # Safety
/// Inside a transaction.
pub unsafe fn is_this_library(f: Oid, symbol: Option<&CStr>) -> bool {
    // SAFETY: the caller is in a transaction; the tuple is released by the guard.
    let Some(tuple) = (unsafe { SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PROCOID, f.into()) }) else {
        return false;
    };
    // SAFETY: a PROCOID tuple is a pg_proc row.
    let proc = unsafe { tuple.form::<pg_sys::FormData_pg_proc>() };
    // SAFETY: superuser_arg() reads the role's syscache entry; false for a role that is gone.
    if proc.prolang != ClanguageId || !unsafe { pg_sys::superuser_arg(proc.proowner) } {
        return false;
    }
    let text = |attno: u32| {
        // SAFETY: probin and prosrc are text columns of the row; text_to_cstring detoasts
        // and copies into the current memory context.
        tuple
            .attr(attno as pg_sys::AttrNumber)
            .map(|d| unsafe { CStr::from_ptr(pg_sys::text_to_cstring(d.cast_mut_ptr())) })
    };
    let (Some(probin), Some(prosrc)) = (text(pg_sys::Anum_pg_proc_probin), text(pg_sys::Anum_pg_proc_prosrc)) else {
        return false;
    };
    let our_file = probin == MODULE_PATHNAME || this_library().is_some_and(|(path, _)| probin == path);
    our_file && symbol.map_or_else(|| defined_here(prosrc), |s| prosrc == s)
}

/// The schema of an extension (`pg_extension.extnamespace`; InvalidOid if there is none).
///
/// # Safety
/// Inside a transaction.
pub unsafe fn extension_schema(ext: Oid) -> Oid {
    let mut schema = pg_sys::InvalidOid;
    // SAFETY: a catalog scan whose row layout is pgrx's FormData_pg_extension.
    unsafe {
        syscatalog::scan::<pg_sys::FormData_pg_extension>(
            pg_extension::RELATION_ID,
            pg_extension::OID_INDEX_ID,
            &[(pg_extension::ANUM_OID, ext)],
            |row| schema = row.extnamespace,
        )
    };
    schema
}
