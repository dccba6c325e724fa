//! Guards for what PostgreSQL lends to a caller: an open relation, a system-cache tuple, a
//! catalog scan, the current user and its settings. Each gives it back in `Drop`, so no
//! return path — early returns included — can leak a reference or leave another user in
//! charge.
//!
//! While a PostgreSQL ERROR unwinds through Rust (pgrx turns the error into a panic and
//! raises it again at the function's boundary), nothing is given back here: the transaction's
//! (or subtransaction's) abort releases every relation, tuple and scan and restores the user
//! and settings, and calling into the server between an ERROR and that abort is not safe.

use core::ffi::c_int;
use pgrx::pg_sys::{self, Oid};

/// How an open relation is given back.
enum Opened {
    /// `table_open`: `table_close` with the same lock mode.
    Table(pg_sys::LOCKMODE),
    /// `RelationIdGetRelation`: `RelationClose`.
    Reference,
}

/// An open relation, closed on drop.
pub struct Relation {
    rel: pg_sys::Relation,
    opened: Opened,
}

impl Relation {
    /// `table_open(relid, lock)`, the lock given back on close (as for a system catalog read
    /// or updated in passing); raises PostgreSQL's error if the relation does not exist.
    ///
    /// # Safety
    /// Inside a transaction; `lock` is a lock mode.
    pub unsafe fn table(relid: Oid, lock: pg_sys::LOCKMODE) -> Relation {
        // SAFETY: the caller is in a transaction; table_open raises an ERROR rather than
        // return NULL.
        let rel = unsafe { pg_sys::table_open(relid, lock) };
        Relation { rel, opened: Opened::Table(lock) }
    }

    /// The relation cache entry of `relid`, without a lock (the caller holds one, or only
    /// reads what a lock would not protect); `None` if there is no such relation.
    ///
    /// # Safety
    /// Inside a transaction.
    pub unsafe fn get(relid: Oid) -> Option<Relation> {
        // SAFETY: the caller is in a transaction; NULL means "no such relation".
        let rel = unsafe { pg_sys::RelationIdGetRelation(relid) };
        // (then(), not then_some(): a guard over NULL must never exist, even to be dropped.)
        (!rel.is_null()).then(|| Relation { rel, opened: Opened::Reference })
    }

    pub fn as_ptr(&self) -> pg_sys::Relation {
        self.rel
    }

    /// `rd_rel`, the relation's pg_class row.
    pub fn class(&self) -> &pg_sys::FormData_pg_class {
        // SAFETY: an open relation has a valid rd_rel for as long as it is open.
        unsafe { &*(*self.rel).rd_rel }
    }
}

impl Drop for Relation {
    fn drop(&mut self) {
        if std::thread::panicking() || self.rel.is_null() {
            return;
        }
        // SAFETY: the relation was opened in the way `opened` says and not closed since.
        unsafe {
            match self.opened {
                Opened::Table(lock) => pg_sys::table_close(self.rel, lock),
                Opened::Reference => pg_sys::RelationClose(self.rel),
            }
        }
    }
}

/// A tuple found in a system cache, released on drop.
pub struct SysCacheTuple {
    cache: c_int,
    tuple: pg_sys::HeapTuple,
}

impl SysCacheTuple {
    /// `SearchSysCache1(cache, key)`; `None` if there is no such row.
    ///
    /// # Safety
    /// Inside a transaction; `key` is of the cache's key type.
    pub unsafe fn search1(cache: pg_sys::SysCacheIdentifier::Type, key: pg_sys::Datum) -> Option<SysCacheTuple> {
        let cache = cache as c_int;
        // SAFETY: the caller is in a transaction; NULL means "not found".
        let tuple = unsafe { pg_sys::SearchSysCache1(cache, key) };
        (!tuple.is_null()).then(|| SysCacheTuple { cache, tuple })
    }

    /// `SearchSysCache2(cache, key1, key2)`; `None` if there is no such row.
    ///
    /// # Safety
    /// As [`SysCacheTuple::search1`].
    pub unsafe fn search2(
        cache: pg_sys::SysCacheIdentifier::Type,
        key1: pg_sys::Datum,
        key2: pg_sys::Datum,
    ) -> Option<SysCacheTuple> {
        let cache = cache as c_int;
        // SAFETY: as in search1().
        let tuple = unsafe { pg_sys::SearchSysCache2(cache, key1, key2) };
        (!tuple.is_null()).then(|| SysCacheTuple { cache, tuple })
    }

    /// `SearchSysCache3(cache, key1, key2, key3)`; `None` if there is no such row.
    ///
    /// # Safety
    /// As [`SysCacheTuple::search1`].
    pub unsafe fn search3(
        cache: pg_sys::SysCacheIdentifier::Type,
        key1: pg_sys::Datum,
        key2: pg_sys::Datum,
        key3: pg_sys::Datum,
    ) -> Option<SysCacheTuple> {
        let cache = cache as c_int;
        // SAFETY: as in search1().
        let tuple = unsafe { pg_sys::SearchSysCache3(cache, key1, key2, key3) };
        (!tuple.is_null()).then(|| SysCacheTuple { cache, tuple })
    }

    /// The fixed-size part of the row.
    ///
    /// # Safety
    /// `T` is the catalog's row layout, or a prefix of it.
    pub unsafe fn form<T>(&self) -> &T {
        // SAFETY: a cached tuple stays valid until released; the caller vouches for T.
        unsafe { &*pg_sys::heap_tuple_get_struct::<T>(self.tuple) }
    }

    /// Whether the row was inserted by the current transaction (or one of its
    /// subtransactions), and not changed since: a new row, not a new version of an older one.
    pub fn inserted_by_this_transaction(&self) -> bool {
        // SAFETY: the tuple came from this cache and is not released yet; its header is a
        // heap tuple's.
        let header = unsafe { &*(*self.tuple).t_data };
        let xmin = crate::pg::syscatalog::xmin(header);
        // SAFETY: the test only reads the transaction state of this backend.
        header.t_infomask & pg_sys::HEAP_UPDATED as u16 == 0
            && xmin != pg_sys::FrozenTransactionId
            && unsafe { pg_sys::TransactionIdIsCurrentTransactionId(xmin) }
    }

    /// A column of the row by attribute number (variable-length ones included); `None` for
    /// NULL.
    pub fn attr(&self, attno: pg_sys::AttrNumber) -> Option<pg_sys::Datum> {
        let mut isnull = false;
        // SAFETY: the tuple came from this cache and is not released yet.
        let value = unsafe { pg_sys::SysCacheGetAttr(self.cache, self.tuple, attno, &mut isnull) };
        (!isnull).then_some(value)
    }
}

impl Drop for SysCacheTuple {
    fn drop(&mut self) {
        if std::thread::panicking() || self.tuple.is_null() {
            return;
        }
        // SAFETY: found by SearchSysCache and not released since.
        unsafe { pg_sys::ReleaseSysCache(self.tuple) };
    }
}

/// An index scan of a system catalog (`systable_beginscan`), ended on drop with the catalog
/// closed.
pub struct CatalogScan {
    scan: pg_sys::SysScanDesc,
    /// Held for its Drop, which closes the catalog after the scan has ended.
    _catalog: Relation,
}

impl CatalogScan {
    /// The rows of `catalog` whose leading columns of `index` equal the OIDs of `keys`
    /// (catalog attribute numbers, mapped to the index's by systable_beginscan).
    ///
    /// # Safety
    /// Inside a transaction; `keys` are leading columns of `index`, of type oid.
    pub unsafe fn new(catalog: Oid, index: Oid, keys: &[(pg_sys::AttrNumber, Oid)]) -> CatalogScan {
        // At most the columns of an index: a fixed array, nothing to allocate.
        let mut scan_keys: [pg_sys::ScanKeyData; pg_sys::INDEX_MAX_KEYS as usize] =
            core::array::from_fn(|_| pg_sys::ScanKeyData::default());
        let keys = &keys[..keys.len().min(scan_keys.len())];
        for (key, &(attno, value)) in scan_keys.iter_mut().zip(keys) {
            // SAFETY: oid equality on an oid column.
            unsafe {
                pg_sys::ScanKeyInit(
                    key,
                    attno,
                    pg_sys::BTEqualStrategyNumber as pg_sys::StrategyNumber,
                    pg_sys::F_OIDEQ.into(),
                    value.into(),
                )
            };
        }
        // SAFETY: the caller is in a transaction; catalogs are read under AccessShareLock
        // with the catalog snapshot, as PostgreSQL's own lookups read them.
        unsafe {
            let catalog = Relation::table(catalog, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
            let scan = pg_sys::systable_beginscan(
                catalog.as_ptr(),
                index,
                true,
                core::ptr::null_mut(),
                keys.len() as c_int,
                scan_keys.as_mut_ptr(),
            );
            CatalogScan { scan, _catalog: catalog }
        }
    }

    /// The next row (valid until the next call or the end of the scan), or `None`.
    pub fn next(&mut self) -> Option<pg_sys::HeapTuple> {
        // SAFETY: a scan begun and not ended.
        let tuple = unsafe { pg_sys::systable_getnext(self.scan) };
        (!tuple.is_null()).then_some(tuple)
    }
}

impl Drop for CatalogScan {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        // SAFETY: begun and not ended; the catalog closes after (its own guard).
        unsafe { pg_sys::systable_endscan(self.scan) };
    }
}

/// Another user, in a security-restricted operation, with settings of its own, until dropped:
/// how PostgreSQL runs an object owner's code in its own maintenance commands (VACUUM, ANALYZE,
/// CREATE INDEX, REFRESH MATERIALIZED VIEW), so that a superuser running them lends nobody its
/// rights:
///
/// * the current user is the owner, in a security-restricted operation: `SET ROLE`, temporary
///   tables, cursors WITH HOLD and whatever else could outlive the operation are refused;
/// * settings get a nest level of their own, with `search_path` = `pg_catalog, pg_temp`
///   (PostgreSQL 17's `RestrictSearchPath()`), and every setting changed inside — also with
///   `set_config(…, false)`, which would otherwise outlive the caller's function — is undone
///   when the guard is dropped (0.4.1 did not: a CHECK of a table owner's set the calling
///   superuser's `search_path` to a schema of its own).
///
/// While an ERROR unwinds, nothing is undone here: the (sub)transaction's abort restores both
/// the user and the settings, as it does for PostgreSQL's own commands.
pub struct RestrictedUser {
    saved_user: Oid,
    saved_context: c_int,
    nest_level: c_int,
}

impl RestrictedUser {
    /// Becomes `user` until the guard is dropped.
    pub fn become_(user: Oid) -> RestrictedUser {
        let (mut saved_user, mut saved_context) = (pg_sys::InvalidOid, 0);
        let restricted = (pg_sys::SECURITY_LOCAL_USERID_CHANGE | pg_sys::SECURITY_RESTRICTED_OPERATION) as c_int;
        // SAFETY: reads and writes of the backend's current user and security context, and a
        // new GUC nest level with search_path set in it, as vacuum.c does around an owner's code.
        unsafe {
            pg_sys::GetUserIdAndSecContext(&mut saved_user, &mut saved_context);
            pg_sys::SetUserIdAndSecContext(user, saved_context | restricted);
            let nest_level = pg_sys::NewGUCNestLevel();
            pg_sys::set_config_option(
                c"search_path".as_ptr(),
                c"pg_catalog, pg_temp".as_ptr(),
                pg_sys::GucContext::PGC_USERSET,
                pg_sys::GucSource::PGC_S_SESSION,
                pg_sys::GucAction::GUC_ACTION_SAVE,
                true,
                0,
                false,
            );
            RestrictedUser { saved_user, saved_context, nest_level }
        }
    }
}

impl Drop for RestrictedUser {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        // SAFETY: undoes the nest level opened in become_() (and any inside it), then restores
        // the values read there.
        unsafe {
            pg_sys::AtEOXact_GUC(false, self.nest_level);
            pg_sys::SetUserIdAndSecContext(self.saved_user, self.saved_context);
        }
    }
}

/// Runs `f`, aborting the process if it panics: for callbacks PostgreSQL calls directly (sort
/// comparators), which must not unwind into its C frames and are too hot for pgrx's guard.
/// Their bodies cannot panic; this makes "cannot" a fence rather than a promise.
#[inline(always)]
pub fn abort_on_panic<R>(f: impl FnOnce() -> R) -> R {
    struct Abort;
    impl Drop for Abort {
        fn drop(&mut self) {
            std::process::abort();
        }
    }
    let abort = Abort;
    let result = f();
    core::mem::forget(abort);
    result
}

/// Runs a `#[pg_guard]` tree walker over `node` and everything below it, every call of it
/// entered from C: `expression_tree_walker()` over a one-element list. A guarded function
/// called directly from Rust would, on an error, `longjmp` over the Rust frames above it
/// (pgrx's guard re-throws to the nearest C handler); here an error reaches Rust as the
/// guarded `expression_tree_walker` binding's panic, and unwinds.
///
/// # Safety
/// `node` is null or a node tree PostgreSQL built; `walker` accepts `context`.
pub unsafe fn walk_from_c(
    node: *mut pg_sys::Node,
    walker: unsafe extern "C-unwind" fn(*mut pg_sys::Node, *mut core::ffi::c_void) -> bool,
    context: *mut core::ffi::c_void,
) -> bool {
    if node.is_null() {
        return false;
    }
    // SAFETY: a fresh list in the current memory context holding the caller's tree; the walker
    // is called on its element as on any node of a tree.
    unsafe {
        let list = super::nodes::list_of([node]);
        pg_sys::expression_tree_walker(list.cast(), Some(walker), context)
    }
}
