//! The catalog objects the planner rewrites use, found through uuid_ext's
//! membership (`pg_depend` rows of `deptype = 'e'` on the extension), never by
//! name in a schema: a same-named function that another role created, in the
//! extension's schema or anywhere else, is not a member and is never called.
//!
//! Lookups here take no privilege checks and raise no errors: reading
//! `pg_depend`, `pg_proc` and `pg_opfamily` through the system caches needs no
//! USAGE on the extension's schema, so a query of a role that cannot use that
//! schema plans as if uuid_ext were not installed. Only the privilege to
//! EXECUTE the bound functions is checked, for the planning role, and a plan
//! that relied on it is marked as depending on the role (see [`super`]).
//!
//! Resolved at most once per planning, and only once a conjunct of the
//! recognised shape (a one-argument call on a uuid column compared with a
//! timestamptz) has turned up, so other queries never touch the catalog here.

use crate::syscatalog::{self, pg_depend};
use core::ffi::CStr;
use pgrx::pg_sys::{self, Oid};

/// What a recognised extractor returns a time for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reads {
    /// `uuid_v7_to_timestamptz()`: a time for v7 values only.
    V7Only,
    /// `uuid_extract_timestamp()` (ours, and core's on 17/18), `uuid_ext_timestamp()`.
    AnyTimed,
}

/// The extension's objects the rewrites need.
pub struct Catalog {
    extractors: Vec<(Oid, Reads)>,
    /// Extractors that give every RFC 9562 v7 value its millisecond, exactly: uuid_ext's three
    /// and core's on 18 (17's reads v1 only).
    exact_for_v7: Vec<Oid>,
    /// `uuid_is_v7(uuid)` (InvalidOid if absent).
    pub is_v7: Oid,
    versions: Vec<Oid>,
    /// The `uuid_time_ops` operator family (InvalidOid if absent).
    pub time_family: Oid,
    /// `uuid_v7_lower_bound`, `uuid_v7_upper_bound`.
    pub v7_bounds: (Oid, Oid),
    /// `uuid_time_lower_bound`, `uuid_time_upper_bound`.
    pub time_bounds: (Oid, Oid),
    /// `uuid_ext_timestamp(uuid)`: a time for exactly the values `uuid_time_ops` calls timed
    /// (v1, v6, v7 of the RFC variant), NULL for the rest (InvalidOid if absent).
    pub time_extractor: Oid,
}

impl Catalog {
    /// None when uuid_ext is not installed in this database, or a bound
    /// function is missing or not executable by the current role.
    unsafe fn resolve() -> Option<Catalog> {
        let ext = pg_sys::get_extension_oid(c"uuid_ext".as_ptr(), true);
        if ext == pg_sys::InvalidOid {
            return None;
        }
        let mut catalog = Catalog {
            extractors: Vec::new(),
            exact_for_v7: Vec::new(),
            is_v7: pg_sys::InvalidOid,
            versions: Vec::new(),
            time_family: pg_sys::InvalidOid,
            v7_bounds: (pg_sys::InvalidOid, pg_sys::InvalidOid),
            time_bounds: (pg_sys::InvalidOid, pg_sys::InvalidOid),
            time_extractor: pg_sys::InvalidOid,
        };
        for (class, object) in members(ext) {
            if class == pg_sys::ProcedureRelationId {
                catalog.add_function(object);
            } else if class == pg_sys::OperatorFamilyRelationId && is_time_family(object) {
                catalog.time_family = object;
            }
        }
        catalog.extractors.extend(core_functions::EXTRACT_TIMESTAMP.map(|f| (Oid::from(f), Reads::AnyTimed)));
        catalog.exact_for_v7.extend(core_functions::EXTRACT_TIMESTAMP_V7.map(Oid::from));
        catalog.versions.extend(core_functions::EXTRACT_VERSION.map(Oid::from));
        let usable = |f: Oid| f != pg_sys::InvalidOid && may_execute(f);
        let bounds = [catalog.v7_bounds, catalog.time_bounds];
        bounds.iter().all(|&(lower, upper)| usable(lower) && usable(upper)).then_some(catalog)
    }

    /// Files one member function under its role, by name and signature.
    unsafe fn add_function(&mut self, f: Oid) {
        let name = pg_sys::get_func_name(f);
        if name.is_null() {
            return;
        }
        let mut args: *mut Oid = core::ptr::null_mut();
        let mut nargs = 0;
        pg_sys::get_func_signature(f, &mut args, &mut nargs);
        if nargs != 1 {
            return;
        }
        let (name, arg) = (CStr::from_ptr(name), *args);
        let uuid = arg == pg_sys::UUIDOID;
        let ts = arg == pg_sys::TIMESTAMPTZOID;
        match name.to_bytes() {
            b"uuid_v7_to_timestamptz" if uuid => {
                self.extractors.push((f, Reads::V7Only));
                self.exact_for_v7.push(f);
            }
            b"uuid_ext_timestamp" if uuid => {
                self.extractors.push((f, Reads::AnyTimed));
                self.exact_for_v7.push(f);
                self.time_extractor = f;
            }
            b"uuid_extract_timestamp" if uuid => {
                self.extractors.push((f, Reads::AnyTimed));
                self.exact_for_v7.push(f);
            }
            b"uuid_is_v7" if uuid => self.is_v7 = f,
            b"uuid_extract_version" if uuid => self.versions.push(f),
            b"uuid_v7_lower_bound" if ts => self.v7_bounds.0 = f,
            b"uuid_v7_upper_bound" if ts => self.v7_bounds.1 = f,
            b"uuid_time_lower_bound" if ts => self.time_bounds.0 = f,
            b"uuid_time_upper_bound" if ts => self.time_bounds.1 = f,
            _ => {}
        }
    }

    /// What `funcid` returns a time for, if it is a recognised extractor.
    pub fn reads(&self, funcid: Oid) -> Option<Reads> {
        self.extractors.iter().find(|(f, _)| *f == funcid).map(|(_, r)| *r)
    }

    /// Whether `funcid` gives every RFC 9562 v7 value exactly its millisecond.
    pub fn exact_for_v7(&self, funcid: Oid) -> bool {
        self.exact_for_v7.contains(&funcid)
    }

    /// Whether `funcid` is a `uuid_extract_version()` (ours or core's).
    pub fn is_version_function(&self, funcid: Oid) -> bool {
        self.versions.contains(&funcid)
    }
}

/// Core's own functions of the same names (PostgreSQL 17 and 18), by their
/// fixed OIDs: pg_catalog is not searched by name either.
mod core_functions {
    #[cfg(any(feature = "pg17", feature = "pg18"))]
    pub const EXTRACT_TIMESTAMP: Option<u32> = Some(pgrx::pg_sys::F_UUID_EXTRACT_TIMESTAMP);
    #[cfg(any(feature = "pg17", feature = "pg18"))]
    pub const EXTRACT_VERSION: Option<u32> = Some(pgrx::pg_sys::F_UUID_EXTRACT_VERSION);
    #[cfg(not(any(feature = "pg17", feature = "pg18")))]
    pub const EXTRACT_TIMESTAMP: Option<u32> = None;
    #[cfg(not(any(feature = "pg17", feature = "pg18")))]
    pub const EXTRACT_VERSION: Option<u32> = None;
    /// 18's reads v7 (to the millisecond); 17's reads v1 only.
    #[cfg(feature = "pg18")]
    pub const EXTRACT_TIMESTAMP_V7: Option<u32> = Some(pgrx::pg_sys::F_UUID_EXTRACT_TIMESTAMP);
    #[cfg(not(feature = "pg18"))]
    pub const EXTRACT_TIMESTAMP_V7: Option<u32> = None;
}

/// Resolved on first use within one planning.
pub enum Lazy {
    Unresolved,
    Resolved(Option<Catalog>),
}

impl Lazy {
    pub unsafe fn get(&mut self) -> Option<&Catalog> {
        if let Lazy::Unresolved = self {
            *self = Lazy::Resolved(Catalog::resolve());
        }
        match self {
            Lazy::Resolved(catalog) => catalog.as_ref(),
            Lazy::Unresolved => None,
        }
    }
}

/// (classid, objid) of every member of an extension.
unsafe fn members(ext: Oid) -> Vec<(Oid, Oid)> {
    let mut found = Vec::new();
    syscatalog::scan::<pg_depend::FormData>(
        pg_depend::RELATION_ID,
        pg_depend::REFERENCE_INDEX_ID,
        &[(pg_depend::ANUM_REFCLASSID, pg_sys::ExtensionRelationId), (pg_depend::ANUM_REFOBJID, ext)],
        |dep| {
            if dep.deptype as u8 == pg_depend::DEPENDENCY_EXTENSION {
                found.push((dep.classid, dep.objid));
            }
        },
    );
    found
}

/// Whether an operator family is the btree family `uuid_time_ops`.
unsafe fn is_time_family(family: Oid) -> bool {
    let tuple = pg_sys::SearchSysCache1(pg_sys::SysCacheIdentifier::OPFAMILYOID as _, family.into());
    if tuple.is_null() {
        return false;
    }
    let form = &*pg_sys::heap_tuple_get_struct::<pg_sys::FormData_pg_opfamily>(tuple);
    let found =
        form.opfmethod == pg_sys::BTREE_AM_OID && CStr::from_ptr(form.opfname.data.as_ptr()) == c"uuid_time_ops";
    pg_sys::ReleaseSysCache(tuple);
    found
}

/// Whether the current role may run a function (a bound a DBA revoked is not used).
pub unsafe fn may_execute(f: Oid) -> bool {
    #[cfg(any(feature = "pg13", feature = "pg14", feature = "pg15"))]
    let result = pg_sys::pg_proc_aclcheck(f, pg_sys::GetUserId(), pg_sys::ACL_EXECUTE as pg_sys::AclMode);
    #[cfg(not(any(feature = "pg13", feature = "pg14", feature = "pg15")))]
    let result = pg_sys::object_aclcheck(
        pg_sys::ProcedureRelationId,
        f,
        pg_sys::GetUserId(),
        pg_sys::ACL_EXECUTE as pg_sys::AclMode,
    );
    result == pg_sys::AclResult::ACLCHECK_OK
}
