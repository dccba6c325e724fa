//! The catalog objects the planner rewrites use: each looked up by its name and signature in
//! the extension's schema, and used only if it is uuid_ext's own — a member of the extension
//! that is this library's C code with the symbol this library gives it ([`crate::pg::members`]).
//! A same-named object another role created, anywhere, or added to the extension, is never
//! called.
//!
//! The lookups go through the system caches: no privilege check, no error, and no USAGE on the
//! schema needed, as the functions added are called by OID (a role that cannot use the schema
//! gets its rows, docs/TIME_WINDOWS.md). Only the EXECUTE privilege on the functions a plan
//! would call, or take out of the plan, is checked, for the planning role, by every planning
//! that would (the plan then depends on the role, [`crate::planner`]).
//! Resolved once per backend and kept until a function or operator family changes
//! ([`crate::pg::cache`]), and looked at only once a clause of a recognised shape has turned up.

use crate::pg::cache::CatalogCache;
use crate::pg::guards::SysCacheTuple;
use crate::pg::members::{extension_schema, is_this_library};
use core::cell::Cell;
use core::ffi::c_int;
use core::ffi::CStr;
use pgrx::pg_sys::{self, Oid};
use std::rc::Rc;

thread_local! {
    /// The catalog of this backend's database (None: uuid_ext is not installed, or a bound
    /// function is missing).
    static CATALOG: CatalogCache<Option<Rc<Catalog>>> = const { CatalogCache::new() };
}

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
    /// The `>=` and `<` of two uuids of the operator families looked up so far, with their
    /// functions ([`Catalog::operators`]).
    operators: core::cell::RefCell<Vec<(Oid, Option<Operators>)>>,
}

/// A btree or BRIN family's `>=` and `<` for two uuids, and the functions they call.
#[derive(Clone, Copy)]
pub struct Operators {
    pub ge: Oid,
    pub lt: Oid,
    /// The functions of `ge` and `lt`, which the derived conditions call.
    pub calls: [Oid; 2],
    /// The functions of the family's five comparisons of two uuids (InvalidOid for a missing
    /// one): PostgreSQL's proofs over the derived conditions (two on one column, a partition's
    /// constraints) may run any of them while planning.
    all: [Oid; 5],
}

impl Catalog {
    /// None when uuid_ext is not installed in this database, or a bound
    /// function is missing.
    ///
    /// # Safety
    /// Inside a transaction.
    unsafe fn resolve() -> Option<Catalog> {
        // SAFETY: catalog lookups through the system caches, none of which raises an error.
        let ext = unsafe { pg_sys::get_extension_oid(c"uuid_ext".as_ptr(), true) };
        if ext == pg_sys::InvalidOid {
            return None;
        }
        // SAFETY: as above.
        let schema = unsafe { extension_schema(ext) };
        // The member of that name and argument type, if it is this library's function of that
        // name: every one the rewrites use has the symbol pgrx gives it, `<name>_wrapper`.
        let function = |name: &CStr, arg: Oid| -> Oid {
            // SAFETY: as above; the guard releases the tuple.
            unsafe {
                let args = pg_sys::buildoidvector(&arg, 1);
                let cache = pg_sys::SysCacheIdentifier::PROCNAMEARGSNSP;
                let Some(tuple) = SysCacheTuple::search3(cache, name.as_ptr().into(), args.into(), schema.into())
                else {
                    return pg_sys::InvalidOid;
                };
                let f = tuple.form::<pg_sys::FormData_pg_proc>().oid;
                let mut symbol = name.to_bytes().to_vec();
                symbol.extend_from_slice(b"_wrapper\0");
                let symbol = CStr::from_bytes_with_nul(&symbol).expect("one NUL, at the end");
                match member(pg_sys::ProcedureRelationId, f, ext) {
                    f if f != pg_sys::InvalidOid && is_this_library(f, Some(symbol)) => f,
                    _ => pg_sys::InvalidOid,
                }
            }
        };
        let (uuid, timestamptz) = (pg_sys::UUIDOID, pg_sys::TIMESTAMPTZOID);
        let v7_to_timestamptz = function(c"uuid_v7_to_timestamptz", uuid);
        let ext_timestamp = function(c"uuid_ext_timestamp", uuid);
        let extract_timestamp = function(c"uuid_extract_timestamp", uuid);
        let extract_version = function(c"uuid_extract_version", uuid);
        let present = |f: &Oid| *f != pg_sys::InvalidOid;
        let mut catalog = Catalog {
            extractors: [(v7_to_timestamptz, Reads::V7Only), (ext_timestamp, Reads::AnyTimed)]
                .into_iter()
                .chain([(extract_timestamp, Reads::AnyTimed)])
                .filter(|(f, _)| present(f))
                .collect(),
            exact_for_v7: [v7_to_timestamptz, ext_timestamp, extract_timestamp].into_iter().filter(present).collect(),
            is_v7: function(c"uuid_is_v7", uuid),
            versions: [extract_version].into_iter().filter(present).collect(),
            // SAFETY: as above.
            time_family: unsafe { time_family(schema, ext) },
            v7_bounds: (function(c"uuid_v7_lower_bound", timestamptz), function(c"uuid_v7_upper_bound", timestamptz)),
            time_bounds: (
                function(c"uuid_time_lower_bound", timestamptz),
                function(c"uuid_time_upper_bound", timestamptz),
            ),
            time_extractor: ext_timestamp,
            operators: Default::default(),
        };
        catalog.extractors.extend(core_functions::EXTRACT_TIMESTAMP.map(|f| (Oid::from(f), Reads::AnyTimed)));
        catalog.exact_for_v7.extend(core_functions::EXTRACT_TIMESTAMP_V7.map(Oid::from));
        catalog.versions.extend(core_functions::EXTRACT_VERSION.map(Oid::from));
        let bounds = [catalog.v7_bounds, catalog.time_bounds];
        bounds.iter().all(|(lower, upper)| present(lower) && present(upper)).then_some(catalog)
    }

    /// Whether the current role may run every bound function.
    ///
    /// # Safety
    /// Inside a transaction.
    unsafe fn usable(&self) -> bool {
        let bounds = [self.v7_bounds, self.time_bounds];
        // SAFETY: ACL checks through the system caches.
        bounds.iter().all(|&(lower, upper)| unsafe { may_execute(lower) && may_execute(upper) })
    }

    /// The `>=` and `<` of two uuids in operator family `family`, if it has both and the current
    /// role may run the functions of its comparisons (a REVOKE on one is honoured: the plan is
    /// then PostgreSQL's). Looked up once per family while the catalog is kept.
    ///
    /// # Safety
    /// Inside a transaction.
    pub unsafe fn operators(&self, family: Oid) -> Option<Operators> {
        let known = self.operators.borrow().iter().find(|(f, _)| *f == family).map(|(_, o)| *o);
        let operators = known.unwrap_or_else(|| {
            // SAFETY: catalog lookups through the system caches (no error for a missing member).
            let operator = |strategy: u32| unsafe {
                let opno = pg_sys::get_opfamily_member(family, pg_sys::UUIDOID, pg_sys::UUIDOID, strategy as i16);
                let function = if opno == pg_sys::InvalidOid { opno } else { pg_sys::get_opcode(opno) };
                (opno, function)
            };
            let all = [1, 2, 3, 4, 5].map(operator);
            use crate::pg::catalog_ids::operators::{BT_GREATER_EQUAL, BT_LESS};
            let ((ge, ge_fn), (lt, lt_fn)) = (all[BT_GREATER_EQUAL as usize - 1], all[BT_LESS as usize - 1]);
            let found = (ge_fn != pg_sys::InvalidOid && lt_fn != pg_sys::InvalidOid).then_some(Operators {
                ge,
                lt,
                calls: [ge_fn, lt_fn],
                all: all.map(|(_, f)| f),
            });
            self.operators.borrow_mut().push((family, found));
            found
        })?;
        // SAFETY: ACL checks in a transaction.
        let usable = operators.all.iter().filter(|&&f| f != pg_sys::InvalidOid).all(|&f| unsafe { may_execute(f) });
        usable.then_some(operators)
    }

    /// What `funcid` returns a time for, if it is a recognised extractor.
    pub fn reads(&self, funcid: Oid) -> Option<Reads> {
        self.extractors.iter().find(|(f, _)| *f == funcid).map(|(_, r)| *r)
    }

    /// Whether `funcid` gives every RFC 9562 v7 value exactly its millisecond.
    pub fn exact_for_v7(&self, funcid: Oid) -> bool {
        self.exact_for_v7.contains(&funcid)
    }

    /// Whether `funcid` is one of the four bound functions.
    pub fn is_bound(&self, funcid: Oid) -> bool {
        [self.v7_bounds, self.time_bounds].iter().any(|&(lower, upper)| funcid == lower || funcid == upper)
    }

    /// Whether `funcid` is a `uuid_extract_version()` (ours or core's).
    pub fn is_version_function(&self, funcid: Oid) -> bool {
        self.versions.contains(&funcid)
    }
}

/// Core's own functions of the same names (PostgreSQL 17 and 18), by their
/// fixed OIDs: pg_catalog is not searched by name either.
/// (18's `uuid_extract_timestamp()` reads v7, to the millisecond; 17's reads v1 only.)
use crate::pg::compat::core_functions;

/// The catalog as one planning sees it: taken from the cache on first use, None where
/// uuid_ext is absent. Whether the current role may run the bound functions is asked only by
/// a rewrite that would add a call of one ([`Lazy::bounds_usable`], once per planning): an
/// ordered read adds none, so its planning makes no ACL check.
pub enum Lazy {
    Unresolved,
    Resolved(Option<Rc<Catalog>>, Cell<Option<bool>>),
}

impl Lazy {
    /// The catalog, looked up now.
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn resolved() -> Lazy {
        let mut lazy = Lazy::Unresolved;
        // SAFETY: as the caller vouches.
        unsafe { lazy.resolve() };
        lazy
    }

    /// Looks the catalog up, once.
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn resolve(&mut self) {
        if let Lazy::Unresolved = self {
            // Changes other sessions committed since this transaction last looked (re-planning
            // a cached plan takes no new lock, so nothing else has processed them): the caches
            // must not answer for a catalog older than the planner's own reads.
            // SAFETY: processing invalidations is allowed wherever a lock could be taken.
            unsafe { pg_sys::AcceptInvalidationMessages() };
            // SAFETY: catalog lookups in a transaction.
            let cached = CATALOG.with(|cache| cache.get(|| unsafe { Catalog::resolve() }.map(Rc::new)));
            *self = Lazy::Resolved(cached, Cell::new(None));
        }
    }

    /// The catalog, once [`Lazy::resolve`]d.
    pub fn catalog(&self) -> Option<&Catalog> {
        match self {
            Lazy::Resolved(catalog, _) => catalog.as_deref(),
            Lazy::Unresolved => None,
        }
    }

    /// Whether the current role may run every bound function (false before [`Lazy::resolve`]
    /// or without the catalog): checked on first need in a planning, then remembered for it.
    ///
    /// # Safety
    /// Planning, inside a transaction.
    pub unsafe fn bounds_usable(&self) -> bool {
        let Lazy::Resolved(Some(catalog), usable) = self else {
            return false;
        };
        if let Some(known) = usable.get() {
            return known;
        }
        // SAFETY: ACL checks in a transaction.
        let known = unsafe { catalog.usable() };
        usable.set(Some(known));
        known
    }
}

/// `object` if it is a member of extension `ext`, else InvalidOid.
///
/// # Safety
/// Inside a transaction.
unsafe fn member(class: Oid, object: Oid, ext: Oid) -> Oid {
    // SAFETY: a pg_depend scan in a transaction.
    if object != pg_sys::InvalidOid && unsafe { pg_sys::getExtensionOfObject(class, object) } == ext {
        object
    } else {
        pg_sys::InvalidOid
    }
}

/// The btree operator family `uuid_time_ops` of the extension (InvalidOid if absent).
///
/// # Safety
/// Inside a transaction.
unsafe fn time_family(schema: Oid, ext: Oid) -> Oid {
    let cache = pg_sys::SysCacheIdentifier::OPFAMILYAMNAMENSP;
    let name = c"uuid_time_ops".as_ptr();
    // SAFETY: a system-cache lookup; the guard releases the tuple.
    unsafe {
        let Some(tuple) = SysCacheTuple::search3(cache, pg_sys::BTREE_AM_OID.into(), name.into(), schema.into()) else {
            return pg_sys::InvalidOid;
        };
        member(pg_sys::OperatorFamilyRelationId, tuple.form::<pg_sys::FormData_pg_opfamily>().oid, ext)
    }
}

/// Whether the current role may run a function (a bound a DBA revoked is not used). The
/// caches are brought up to date at the start of each planning that looks ([`Lazy::resolve`]),
/// so a function dropped or a GRANT or REVOKE committed before it is seen.
///
/// # Safety
/// Inside a transaction.
pub unsafe fn may_execute(f: Oid) -> bool {
    // A function dropped by a transaction that committed since this backend last processed
    // invalidations (DROP EXTENSION in another session) would make the ACL check raise
    // "function with OID … does not exist" in a query that is not ours. The entry found here
    // stays in the catalog cache until invalidations are next processed, which the check
    // below does not do, so it finds the same entry. (A built-in function is pinned: never
    // dropped.)
    let proc_cache = pg_sys::SysCacheIdentifier::PROCOID as c_int;
    // SAFETY: a system-cache probe and an ACL check of a function found there.
    unsafe {
        if f.to_u32() >= pg_sys::FirstGenbkiObjectId
            && !pg_sys::SearchSysCacheExists(proc_cache, f.into(), 0.into(), 0.into(), 0.into())
        {
            return false;
        }
        crate::pg::compat::may_execute_function(f)
    }
}
