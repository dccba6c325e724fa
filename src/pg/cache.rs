//! Per-backend caches of what planning looks up, kept until PostgreSQL says it changed.
//!
//! Resolving the catalog takes a dozen catalog lookups; a relation's facts parse its CHECKs and
//! read `pg_constraint` and `pg_inherits`. Done on every planning, that cost more than some of
//! the queries it serves (a 20-row `LIMIT` read), so both are kept:
//!
//! | cached | kept until |
//! |---|---|
//! | the catalog ([`crate::pg::extension_objects::Catalog`]) | a `pg_proc` or `pg_opfamily` row changes (any CREATE/ALTER/DROP FUNCTION, GRANT/REVOKE on one, CREATE/DROP/ALTER EXTENSION) |
//! | a relation's facts ([`crate::planner`]'s relations.rs) | the catalog changes, or the relcache entry of a relation they were read from is invalidated (for a partitioned table, anywhere in its tree), or every entry is (a sinval queue overflow) |
//! | an operator family's operators | as the catalog, or a `pg_amop` or `pg_operator` row changes |
//!
//! So a change to an unrelated table keeps every fact (0.4.0 dropped all on any relcache
//! invalidation: planning over 1,000 partitions went from 0.06 to 3.1 ms).
//!
//! PostgreSQL calls the callbacks when it processes invalidations (other sessions' commits,
//! this session's command boundaries and aborts); each planning that looks first processes
//! what is pending ([`crate::pg::extension_objects::Lazy::resolve`]), since re-planning a cached
//! plan takes no new lock. The callbacks only advance a counter or note a relation in a fixed
//! ring: they touch no cache in use, allocate nothing and cannot fail. A value computed while
//! an invalidation arrived serves that planning but is not kept.
//!
//! A known limit: `ALTER EXTENSION uuid_ext DROP FUNCTION f` (or `ADD`) changes only
//! `pg_depend`, which no callback sees; a session keeps using `f` as a member until its next
//! catalog invalidation. It is the same function, unchanged, this library's code
//! ([`crate::pg::members`]); any change to it updates `pg_proc` and invalidates.

use core::cell::{Cell, RefCell};
use core::ffi::c_int;
use pgrx::pg_sys::{self, Datum, Oid};
use std::collections::HashMap;
use std::rc::Rc;

/// The last relations whose relcache entries were invalidated, noted by the callback without
/// allocating (a ring, by serial number); a cache that has fallen further behind than this
/// drops everything.
const RING: usize = 64;

thread_local! {
    /// Advanced whenever a `pg_proc` or `pg_opfamily` row changes, and whenever every relcache
    /// entry is invalidated at once.
    static GENERATION: Cell<u64> = const { Cell::new(1) };
    static CHANGED: Cell<[Oid; RING]> = const { Cell::new([pg_sys::InvalidOid; RING]) };
    /// How many relations have been noted in CHANGED, ever.
    static CHANGED_SERIAL: Cell<u64> = const { Cell::new(0) };
}

/// Registers the invalidation callbacks (from `_PG_init`, once per process).
/// (This takes one of the 10 relcache callback slots a process has; core takes one or two.)
pub fn init() {
    // SAFETY: _PG_init runs once per process, before any planning; the callbacks are plain
    // functions that live as long as the library.
    unsafe {
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::PROCOID as c_int,
            Some(catalog_changed),
            Datum::from(0),
        );
        pg_sys::CacheRegisterSyscacheCallback(
            pg_sys::SysCacheIdentifier::OPFAMILYOID as c_int,
            Some(catalog_changed),
            Datum::from(0),
        );
        // The members of operator families, and operators.
        for cache in [pg_sys::SysCacheIdentifier::AMOPSTRATEGY, pg_sys::SysCacheIdentifier::OPEROID] {
            pg_sys::CacheRegisterSyscacheCallback(cache as c_int, Some(catalog_changed), Datum::from(0));
        }
        pg_sys::CacheRegisterRelcacheCallback(Some(relation_changed), Datum::from(0));
        if !crate::pg::compat::REPLANS_ON_MEMBERSHIP_CHANGE {
            pg_sys::CacheRegisterSyscacheCallback(
                pg_sys::SysCacheIdentifier::AUTHMEMROLEMEM as c_int,
                Some(memberships_changed),
                Datum::from(0),
            );
        }
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
#[pgrx::pg_guard]
unsafe extern "C-unwind" fn memberships_changed(_arg: Datum, _cacheid: core::ffi::c_int, _hash: u32) {
    // SAFETY: marks this backend's cached plans invalid; safe in an invalidation callback
    // (PostgreSQL's own plan cache callbacks do the same).
    unsafe { pg_sys::ResetPlanCache() };
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn catalog_changed(_arg: Datum, _cacheid: core::ffi::c_int, _hash: u32) {
    GENERATION.with(|g| g.set(g.get() + 1));
}

#[pgrx::pg_guard]
unsafe extern "C-unwind" fn relation_changed(_arg: Datum, relid: Oid) {
    if relid == pg_sys::InvalidOid {
        // Every relation (a sinval queue overflow, which resets every system cache too):
        // everything afresh.
        GENERATION.with(|g| g.set(g.get() + 1));
        return;
    }
    let serial = CHANGED_SERIAL.with(Cell::get);
    CHANGED.with(|changed| {
        let mut noted = changed.get();
        noted[(serial % RING as u64) as usize] = relid;
        changed.set(noted);
    });
    CHANGED_SERIAL.with(|s| s.set(serial + 1));
}

/// A value and the relations it was read from (sorted).
struct Kept<V> {
    value: V,
    relations: Rc<Vec<Oid>>,
}

/// The most entries one cache keeps (the facts of this many columns: well under 1 MiB).
const MAX_ENTRIES: usize = 4096;

struct Entries<K, V> {
    generation: u64,
    /// The CHANGED_SERIAL up to which invalidated relations have been removed.
    serial: u64,
    map: HashMap<K, Kept<V>>,
}

/// One cached value per key, dropped when a relation it was read from changes (or the catalog).
pub struct Cache<K, V> {
    entries: RefCell<Option<Entries<K, V>>>,
}

impl<K: core::hash::Hash + Eq, V: Clone> Cache<K, V> {
    pub const fn new() -> Self {
        Cache { entries: RefCell::new(None) }
    }

    /// Drops what the invalidations since the last look make stale.
    fn refresh(&self) {
        let (generation, serial) = (GENERATION.with(Cell::get), CHANGED_SERIAL.with(Cell::get));
        let mut entries = self.entries.borrow_mut();
        match entries.as_mut() {
            Some(e) if e.generation == generation && serial - e.serial <= RING as u64 => {
                if e.serial != serial {
                    let ring = CHANGED.with(Cell::get);
                    let changed: Vec<u32> =
                        (e.serial..serial).map(|s| ring[(s % RING as u64) as usize].to_u32()).collect();
                    e.map.retain(|_, kept| {
                        !changed.iter().any(|rel| kept.relations.binary_search_by_key(rel, |r| r.to_u32()).is_ok())
                    });
                    e.serial = serial;
                }
            }
            _ => *entries = Some(Entries { generation, serial, map: HashMap::new() }),
        }
    }

    /// The cached value for `key`, or `compute()`'s (kept unless an invalidation arrived
    /// meanwhile), with the relations it was read from (`relations_of`). `compute` runs with no
    /// borrow of the cache held, so it may itself use caches and process invalidations.
    pub fn get(&self, key: K, relations_of: impl FnOnce(&V) -> Rc<Vec<Oid>>, compute: impl FnOnce() -> V) -> V {
        self.refresh();
        if let Some(kept) = self.entries.borrow().as_ref().and_then(|e| e.map.get(&key)) {
            return kept.value.clone();
        }
        let before = (GENERATION.with(Cell::get), CHANGED_SERIAL.with(Cell::get));
        let value = compute();
        if (GENERATION.with(Cell::get), CHANGED_SERIAL.with(Cell::get)) == before {
            let relations = relations_of(&value);
            if let Some(e) = self.entries.borrow_mut().as_mut() {
                // Bounded: a session that plans queries over ever more tables starts over
                // rather than grow.
                if e.map.len() >= MAX_ENTRIES {
                    e.map = HashMap::new();
                }
                e.map.insert(key, Kept { value: value.clone(), relations });
            }
        }
        value
    }
}

/// A cache of one value that only catalog changes make stale (the extension's catalog).
pub struct CatalogCache<V> {
    kept: RefCell<Option<(u64, V)>>,
}

impl<V: Clone> CatalogCache<V> {
    pub const fn new() -> Self {
        CatalogCache { kept: RefCell::new(None) }
    }

    /// The cached value, or `compute()`'s (kept unless the catalog changed meanwhile).
    pub fn get(&self, compute: impl FnOnce() -> V) -> V {
        let generation = GENERATION.with(Cell::get);
        if let Some((g, value)) = self.kept.borrow().as_ref() {
            if *g == generation {
                return value.clone();
            }
        }
        let value = compute();
        if GENERATION.with(Cell::get) == generation {
            *self.kept.borrow_mut() = Some((generation, value.clone()));
        }
        value
    }
}
