//! Per-backend caches of what planning looks up, kept until PostgreSQL says
//! it changed.
//!
//! Resolving the catalog takes a dozen catalog lookups and `pg_depend` scans;
//! the facts about a relation open its indexes, parse its CHECK constraints
//! and read `pg_inherits`. Done on every planning, that cost more than some of
//! the queries it serves (a 20-row `LIMIT` read), so both are kept between
//! plannings:
//!
//! | cached | kept until |
//! |---|---|
//! | the catalog ([`super::catalog::Catalog`]) | a `pg_proc` or `pg_opfamily` row changes: any CREATE/ALTER/DROP FUNCTION, GRANT/REVOKE on one, CREATE/DROP EXTENSION and ALTER EXTENSION … UPDATE (each creates, replaces or drops member functions) |
//! | the facts of a relation ([`super::relations::Facts`]) | the catalog changes, or any relation's relcache entry is invalidated (an index, a constraint, a child, a partition added or dropped anywhere: the facts of a parent depend on its whole tree) |
//!
//! PostgreSQL calls the callbacks registered here when it processes
//! invalidations: other sessions' committed changes, this session's own at
//! each command boundary, and every one again when a transaction aborts (or
//! all of them at once after a sinval queue overflow). Each planning that
//! looks at a cache first processes whatever is pending
//! (`AcceptInvalidationMessages`, [`super::catalog::Lazy::get`]): re-planning a
//! cached plan inside a transaction that already holds its locks would
//! otherwise see the cache of an older catalog than the planner itself reads
//! (a foreign child added by another session, say). What changes between
//! that point and the planner's own expansion of an inheritance tree is
//! checked on the finished plan ([`super::relations::no_relation_joined`]).
//! The callbacks only
//! advance a generation counter — they touch no cache that may be in use,
//! allocate nothing and cannot fail — and an entry is used only while the
//! generations it was computed in are current. A value computed while an
//! invalidation arrived is used for that planning (as an uncached lookup
//! would be) but not kept.
//!
//! What is *not* cached: the current role's EXECUTE privilege on the bound
//! functions and operators, which is checked on every planning that uses them
//! (roles and memberships change without invalidating `pg_proc`).
//!
//! A known limit: `ALTER EXTENSION uuid_ext DROP FUNCTION f` (or `ADD`) changes
//! only `pg_depend`, which no cache callback sees; a session that cached `f` as
//! a member keeps using it until its next catalog invalidation or its end.
//! The object is the same function, unchanged: any change to it (`CREATE OR
//! REPLACE`, owner, privileges, DROP) updates `pg_proc` and invalidates.

use core::cell::{Cell, RefCell};
use pgrx::pg_sys::{self, Datum, Oid};
use std::collections::HashMap;

thread_local! {
    /// Advanced whenever a `pg_proc` or `pg_opfamily` row changes.
    static CATALOG_GENERATION: Cell<u64> = const { Cell::new(1) };
    /// Advanced on every relcache invalidation.
    static RELATION_GENERATION: Cell<u64> = const { Cell::new(1) };
}

/// Registers the invalidation callbacks (from `_PG_init`, once per process).
/// (This takes one of the 10 relcache callback slots a process has; core takes one or two.)
pub fn init() {
    // SAFETY: _PG_init runs once per process, before any planning; the callbacks are plain
    // functions that live as long as the library.
    unsafe {
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::PROCOID as i32,
            Some(catalog_changed),
            Datum::from(0),
        );
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::OPFAMILYOID as i32,
            Some(catalog_changed),
            Datum::from(0),
        );
        pg_sys::CacheRegisterRelcacheCallback(Some(relation_changed), Datum::from(0));
        #[cfg(feature = "pg14")]
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::AUTHMEMROLEMEM as i32,
            Some(memberships_changed),
            Datum::from(0),
        );
    }
}

/// PostgreSQL 14 only. A plan made here depends on its role's EXECUTE privileges (mod.rs),
/// which also change with the role's memberships. PostgreSQL 15 and later re-plan a cached
/// plan after such a change by themselves; 14 does not (its own privilege checks run at
/// execution) and would run a plan calling a bound function the role may no longer run
/// ("permission denied"). So on 14 a GRANT or REVOKE of a role membership starts every cached
/// plan afresh, as PostgreSQL does for a changed operator or namespace. Only a role with ADMIN
/// OPTION on a role, CREATEROLE or superuser can change a membership; changes of a role's own
/// attributes (its password, which any role may change) do not reset anything. (A superuser
/// changing another role's SUPERUSER or INHERIT attribute on 14 is not caught: a generic plan
/// made before may then fail with "permission denied" for a bound function whose EXECUTE was
/// revoked from PUBLIC, until it is prepared again.)
#[cfg(feature = "pg14")]
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn memberships_changed(_arg: Datum, _cacheid: core::ffi::c_int, _hash: u32) {
    // SAFETY: marks this backend's cached plans invalid; safe in an invalidation callback
    // (PostgreSQL's own plan cache callbacks do the same).
    unsafe { pg_sys::ResetPlanCache() };
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn catalog_changed(_arg: Datum, _cacheid: core::ffi::c_int, _hash: u32) {
    CATALOG_GENERATION.with(|g| g.set(g.get() + 1));
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn relation_changed(_arg: Datum, _relid: Oid) {
    RELATION_GENERATION.with(|g| g.set(g.get() + 1));
}

/// The generations a value computed now depends on.
fn generations() -> (u64, u64) {
    (CATALOG_GENERATION.with(Cell::get), RELATION_GENERATION.with(Cell::get))
}

/// The most entries one cache keeps (the facts of this many columns: well under 1 MiB).
const MAX_ENTRIES: usize = 4096;

/// A value kept while the generations it was computed in are current.
struct Kept<T> {
    generations: (u64, u64),
    value: T,
}

/// One cached value per key, all of them dropped at once when the generations change.
pub struct Cache<K, V> {
    entries: RefCell<Option<Kept<HashMap<K, V>>>>,
    /// Whether relcache invalidations make the values stale (else only catalog changes do).
    relation_dependent: bool,
}

impl<K: core::hash::Hash + Eq, V: Clone> Cache<K, V> {
    pub const fn new(relation_dependent: bool) -> Self {
        Cache { entries: RefCell::new(None), relation_dependent }
    }

    fn current(&self) -> (u64, u64) {
        let (catalog, relation) = generations();
        (catalog, if self.relation_dependent { relation } else { 0 })
    }

    /// The cached value for `key`, or `compute()`'s (kept unless an invalidation arrived
    /// meanwhile). `compute` runs with no borrow of the cache held, so it may itself use
    /// caches and process invalidations.
    pub fn get(&self, key: K, compute: impl FnOnce() -> V) -> V {
        let before = self.current();
        if let Some(kept) = self.entries.borrow().as_ref() {
            if kept.generations == before {
                if let Some(value) = kept.value.get(&key) {
                    return value.clone();
                }
            }
        }
        let value = compute();
        if self.current() == before {
            let mut entries = self.entries.borrow_mut();
            let stale = entries.as_ref().is_none_or(|kept| kept.generations != before);
            if stale {
                *entries = Some(Kept { generations: before, value: HashMap::new() });
            }
            if let Some(kept) = entries.as_mut() {
                // Bounded: a session that plans queries over ever more tables starts over
                // rather than grow (a full cache is refilled at a catalog walk per table).
                if kept.value.len() >= MAX_ENTRIES {
                    kept.value = HashMap::new();
                }
                kept.value.insert(key, value.clone());
            }
        }
        value
    }
}
