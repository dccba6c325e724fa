//! Time windows on UUID keys, served by the key's index.
//!
//! `WHERE uuid_extract_timestamp(id) >= now() - interval '1 hour'` is a
//! comparison of a function's result, which no index on `id` can answer: the
//! planner cannot see that it bounds `id`. This planner hook sees it. For each
//! top-level conjunct of a WHERE or JOIN … ON clause of the form
//!
//! ```text
//! f(col) op X        (or X op f(col))      op: <  <=  =  >=  >   on timestamptz
//! ```
//!
//! where `f` is `uuid_extract_timestamp` (core's on 17/18 or uuid_ext's),
//! `uuid_ext_timestamp` or `uuid_v7_to_timestamptz`, `col` a uuid column of a
//! table, and `X` anything an index scan can compute once (constants,
//! parameters, stable functions such as `now()`; no column of the same query
//! level, nothing volatile, no subquery), it adds the byte range the predicate
//! implies as one more conjunct — and only when an index on `col` can use it:
//!
//! | index on `col` (first column) | derived conjunct | when |
//! |---|---|---|
//! | `uuid_time_ops` | `col >=\| uuid_time_lower_bound(X)` … | always (v1/v6/v7 interleave there) |
//! | `uuid_ops` (a plain primary key) | `col >= uuid_v7_lower_bound(X)` … | `f` reads v7 only (`uuid_v7_to_timestamptz`), or a valid, enforced `CHECK (uuid_extract_version(col) = 7)` confines the column to v7 |
//!
//! (`>`/`<=` use the *upper* bound, `=` both; see [`crate::bounds`].) The
//! derived conjunct is implied by the original one, which stays in the query
//! and still decides every row — so the result is exactly that of a
//! sequential scan, NULLs and other versions included — and conjuncts of a
//! WHERE or ON clause are where a NULL and a false are the same, so nothing
//! else is touched (never under OR or NOT). Subqueries, CTEs and views (which
//! the planner sees expanded) are treated the same way.
//!
//! The hook exists in a backend once the library is loaded:
//! `shared_preload_libraries` or `session_preload_libraries = 'uuid_ext'`
//! (README, "Time windows"). Without it plans are as before and results are
//! the same, only slower. `uuid_ext.time_index_conditions = off` turns it off.

use crate::gucs;
use core::ffi::{c_char, c_void, CStr};
use pgrx::pg_sys::{self, Node, NodeTag, Oid};
use pgrx::prelude::*;
use pgrx::is_a;

static mut PREV_PLANNER: pg_sys::planner_hook_type = None;

/// Installs the hook (from `_PG_init`), after whatever hook was there.
pub fn init() {
    // SAFETY: _PG_init runs once per process, single-threaded.
    unsafe {
        PREV_PLANNER = pg_sys::planner_hook;
        pg_sys::planner_hook = Some(planner);
    }
}

#[pg_guard]
unsafe extern "C-unwind" fn planner(
    parse: *mut pg_sys::Query,
    query_string: *const c_char,
    cursor_options: core::ffi::c_int,
    bound_params: pg_sys::ParamListInfo,
) -> *mut pg_sys::PlannedStmt {
    if gucs::time_index_conditions() {
        rewrite_query(parse, &mut Lazy::Unresolved);
    }
    match PREV_PLANNER {
        Some(prev) => prev(parse, query_string, cursor_options, bound_params),
        None => pg_sys::standard_planner(parse, query_string, cursor_options, bound_params),
    }
}

// Fixed OIDs of pg_operator.dat and pg_opfamily.dat (the same on every major).
const TIMESTAMPTZ_EQ: u32 = 1320;
const TIMESTAMPTZ_LT: u32 = 1322;
const TIMESTAMPTZ_LE: u32 = 1323;
const TIMESTAMPTZ_GT: u32 = 1324;
const TIMESTAMPTZ_GE: u32 = 1325;
const UUID_BTREE_FAMILY: u32 = 2968;
const BT_LESS: u16 = 1;
const BT_GREATER_EQUAL: u16 = 4;

#[derive(Clone, Copy, PartialEq)]
enum Cmp {
    Lt,
    Le,
    Eq,
    Ge,
    Gt,
}

impl Cmp {
    fn of(opno: Oid) -> Option<Cmp> {
        Some(match opno.to_u32() {
            TIMESTAMPTZ_LT => Cmp::Lt,
            TIMESTAMPTZ_LE => Cmp::Le,
            TIMESTAMPTZ_EQ => Cmp::Eq,
            TIMESTAMPTZ_GE => Cmp::Ge,
            TIMESTAMPTZ_GT => Cmp::Gt,
            _ => return None,
        })
    }

    /// `X op f` read as `f op' X`.
    fn commuted(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Eq => Cmp::Eq,
            Cmp::Ge => Cmp::Le,
            Cmp::Gt => Cmp::Lt,
        }
    }
}

/// What a recognised extractor returns a time for.
#[derive(Clone, Copy, PartialEq)]
enum Reads {
    V7Only,
    AnyTimed,
}

/// The OIDs the rewrite needs, resolved once per planning and only when a
/// candidate conjunct turns up.
struct Catalog {
    extractors: Vec<(Oid, Reads)>,
    versions: Vec<Oid>,
    time_family: Oid,
    v7_bounds: (Oid, Oid),
    time_bounds: (Oid, Oid),
}

enum Lazy {
    Unresolved,
    Resolved(Option<Catalog>),
}

impl Lazy {
    unsafe fn get(&mut self) -> Option<&Catalog> {
        if let Lazy::Unresolved = self {
            *self = Lazy::Resolved(Catalog::resolve());
        }
        match self {
            Lazy::Resolved(catalog) => catalog.as_ref(),
            Lazy::Unresolved => None,
        }
    }
}

/// A qualified name as the List of String nodes the catalog lookups take.
unsafe fn qualified(schema: &CStr, name: &CStr) -> *mut pg_sys::List {
    let mut list = core::ptr::null_mut();
    for part in [schema, name] {
        list = pg_sys::lappend(list, pg_sys::makeString(pg_sys::pstrdup(part.as_ptr())).cast());
    }
    list
}

unsafe fn function(schema: &CStr, name: &CStr, arg: Oid) -> Oid {
    pg_sys::LookupFuncName(qualified(schema, name), 1, &arg, true)
}

impl Catalog {
    /// None when uuid_ext is not installed in this database.
    unsafe fn resolve() -> Option<Catalog> {
        let ext = pg_sys::get_extension_oid(c"uuid_ext".as_ptr(), true);
        if ext == pg_sys::InvalidOid {
            return None;
        }
        let schema_name = pg_sys::get_namespace_name(extension_schema(ext));
        if schema_name.is_null() {
            return None;
        }
        let schema = CStr::from_ptr(schema_name);
        let uuid = pg_sys::UUIDOID;
        let ts = pg_sys::TIMESTAMPTZOID;
        let catalog = Catalog {
            extractors: vec![
                (function(schema, c"uuid_v7_to_timestamptz", uuid), Reads::V7Only),
                (function(schema, c"uuid_ext_timestamp", uuid), Reads::AnyTimed),
                (function(schema, c"uuid_extract_timestamp", uuid), Reads::AnyTimed),
                (function(c"pg_catalog", c"uuid_extract_timestamp", uuid), Reads::AnyTimed),
            ],
            versions: vec![
                function(schema, c"uuid_extract_version", uuid),
                function(c"pg_catalog", c"uuid_extract_version", uuid),
            ],
            time_family: pg_sys::get_opfamily_oid(pg_sys::BTREE_AM_OID, qualified(schema, c"uuid_time_ops"), true),
            v7_bounds: (function(schema, c"uuid_v7_lower_bound", ts), function(schema, c"uuid_v7_upper_bound", ts)),
            time_bounds: (function(schema, c"uuid_time_lower_bound", ts), function(schema, c"uuid_time_upper_bound", ts)),
        };
        let usable = |f: Oid| f != pg_sys::InvalidOid && may_execute(f);
        let bounds_usable = [catalog.v7_bounds, catalog.time_bounds].iter().all(|&(l, u)| usable(l) && usable(u));
        bounds_usable.then_some(catalog)
    }

    fn reads(&self, funcid: Oid) -> Option<Reads> {
        self.extractors.iter().find(|(f, _)| *f == funcid && funcid != pg_sys::InvalidOid).map(|(_, r)| *r)
    }
}

/// The schema an extension is installed in (`get_extension_schema()`, which
/// PostgreSQL exports only from 16 on).
unsafe fn extension_schema(ext: Oid) -> Oid {
    let lock = pg_sys::AccessShareLock as pg_sys::LOCKMODE;
    let rel = pg_sys::table_open(pg_sys::ExtensionRelationId, lock);
    let mut key = pg_sys::ScanKeyData::default();
    pg_sys::ScanKeyInit(
        &mut key,
        pg_sys::Anum_pg_extension_oid as pg_sys::AttrNumber,
        pg_sys::BTEqualStrategyNumber as pg_sys::StrategyNumber,
        pg_sys::F_OIDEQ.into(),
        ext.into(),
    );
    let scan = pg_sys::systable_beginscan(rel, Oid::from(pg_sys::ExtensionOidIndexId), true, core::ptr::null_mut(), 1, &mut key);
    let tuple = pg_sys::systable_getnext(scan);
    let schema = if tuple.is_null() {
        pg_sys::InvalidOid
    } else {
        (*pg_sys::heap_tuple_get_struct::<pg_sys::FormData_pg_extension>(tuple)).extnamespace
    };
    pg_sys::systable_endscan(scan);
    pg_sys::table_close(rel, lock);
    schema
}

/// Whether the current role may run a function (a bound a DBA revoked is not used).
unsafe fn may_execute(f: Oid) -> bool {
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

/// The pointers of a List of nodes.
unsafe fn cells(list: *mut pg_sys::List) -> impl Iterator<Item = *mut Node> {
    let len = if list.is_null() { 0 } else { (*list).length as usize };
    (0..len).map(move |i| (*(*list).elements.add(i)).ptr_value.cast())
}

/// Rewrites a query and every query inside it: subqueries in FROM (views
/// among them), CTEs and, when the query has any, sublinks. Plain Rust loops
/// for the first two, so a query without sublinks costs no tree walk at all.
unsafe fn rewrite_query(query: *mut pg_sys::Query, catalog: &mut Lazy) {
    if matches!(
        (*query).commandType,
        pg_sys::CmdType::CMD_SELECT | pg_sys::CmdType::CMD_UPDATE | pg_sys::CmdType::CMD_DELETE
    ) {
        rewrite_from(query, (*query).jointree.cast(), catalog);
    }
    for rte in cells((*query).rtable) {
        let rte: *mut pg_sys::RangeTblEntry = rte.cast();
        if (*rte).rtekind == pg_sys::RTEKind::RTE_SUBQUERY && !(*rte).subquery.is_null() {
            rewrite_query((*rte).subquery, catalog);
        }
    }
    for cte in cells((*query).cteList) {
        let cte: *mut pg_sys::CommonTableExpr = cte.cast();
        if !(*cte).ctequery.is_null() && is_a((*cte).ctequery, NodeTag::T_Query) {
            rewrite_query((*cte).ctequery.cast(), catalog);
        }
    }
    if (*query).hasSubLinks {
        let flags = (pg_sys::QTW_IGNORE_RT_SUBQUERIES | pg_sys::QTW_IGNORE_CTE_SUBQUERIES) as i32;
        pg_sys::query_tree_walker(query, Some(sublinks), (catalog as *mut Lazy).cast(), flags);
    }
}

/// Finds the queries of sublinks in a query's expressions.
#[pg_guard]
unsafe extern "C-unwind" fn sublinks(node: *mut Node, catalog: *mut c_void) -> bool {
    if node.is_null() {
        return false;
    }
    if is_a(node, NodeTag::T_Query) {
        rewrite_query(node.cast(), &mut *catalog.cast::<Lazy>());
        return false;
    }
    pg_sys::expression_tree_walker(node, Some(sublinks), catalog)
}

/// Adds derived conjuncts to the quals of every FROM list and JOIN of a query.
unsafe fn rewrite_from(query: *mut pg_sys::Query, node: *mut Node, catalog: &mut Lazy) {
    if node.is_null() {
        return;
    }
    if is_a(node, NodeTag::T_FromExpr) {
        let from: *mut pg_sys::FromExpr = node.cast();
        for item in cells((*from).fromlist) {
            rewrite_from(query, item, catalog);
        }
        (*from).quals = with_derived(query, (*from).quals, catalog);
    } else if is_a(node, NodeTag::T_JoinExpr) {
        let join: *mut pg_sys::JoinExpr = node.cast();
        rewrite_from(query, (*join).larg, catalog);
        rewrite_from(query, (*join).rarg, catalog);
        (*join).quals = with_derived(query, (*join).quals, catalog);
    }
}

/// The top-level conjuncts of a qual (nested ANDs, as BETWEEN makes, flattened).
unsafe fn conjuncts(qual: *mut Node, out: &mut Vec<*mut Node>) {
    if qual.is_null() {
        return;
    }
    if is_a(qual, NodeTag::T_BoolExpr) && (*qual.cast::<pg_sys::BoolExpr>()).boolop == pg_sys::BoolExprType::AND_EXPR {
        for arg in cells((*qual.cast::<pg_sys::BoolExpr>()).args) {
            conjuncts(arg, out);
        }
    } else {
        out.push(qual);
    }
}

unsafe fn with_derived(query: *mut pg_sys::Query, quals: *mut Node, catalog: &mut Lazy) -> *mut Node {
    let mut all = Vec::new();
    conjuncts(quals, &mut all);
    let mut derived = core::ptr::null_mut();
    for clause in all {
        for extra in derive(query, clause, catalog) {
            derived = pg_sys::lappend(derived, extra.cast());
        }
    }
    if derived.is_null() {
        quals
    } else {
        pg_sys::make_and_qual(quals, pg_sys::make_ands_explicit(derived).cast())
    }
}

/// The uuid column a one-argument call reads, if it is `f(column)`.
unsafe fn call_on_uuid_column(node: *mut Node) -> Option<(*mut pg_sys::FuncExpr, *mut pg_sys::Var)> {
    if !is_a(node, NodeTag::T_FuncExpr) {
        return None;
    }
    let call: *mut pg_sys::FuncExpr = node.cast();
    let mut args = cells((*call).args);
    let (Some(arg), None) = (args.next(), args.next()) else { return None };
    if !is_a(arg, NodeTag::T_Var) {
        return None;
    }
    let var: *mut pg_sys::Var = arg.cast();
    ((*var).varlevelsup == 0 && (*var).vartype == pg_sys::UUIDOID && (*var).varattno > 0).then_some((call, var))
}

/// Something an index scan can compute once, before reading the index.
unsafe fn computable_once(x: *mut Node) -> bool {
    !pg_sys::contain_vars_of_level(x, 0)
        && !pg_sys::contain_volatile_functions(x)
        && !pg_sys::checkExprHasSubLink(x)
        && !pg_sys::expression_returns_set(x)
}

/// The conjuncts implied by `clause` that an index on its column can use.
unsafe fn derive(query: *mut pg_sys::Query, clause: *mut Node, catalog: &mut Lazy) -> Vec<*mut pg_sys::Expr> {
    if !is_a(clause, NodeTag::T_OpExpr) {
        return Vec::new();
    }
    let op: *mut pg_sys::OpExpr = clause.cast();
    let Some(cmp) = Cmp::of((*op).opno) else { return Vec::new() };
    let mut args = cells((*op).args);
    let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) else { return Vec::new() };
    let (call, var, x, cmp) = match (call_on_uuid_column(a), call_on_uuid_column(b)) {
        (Some((call, var)), _) => (call, var, b, cmp),
        (None, Some((call, var))) => (call, var, a, cmp.commuted()),
        (None, None) => return Vec::new(),
    };
    if !computable_once(x) {
        return Vec::new();
    }
    let Some(catalog) = catalog.get() else { return Vec::new() };
    let Some(reads) = catalog.reads((*call).funcid) else { return Vec::new() };
    let rte = pg_sys::list_nth((*query).rtable, (*var).varno as i32 - 1).cast::<pg_sys::RangeTblEntry>();
    if (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION {
        return Vec::new();
    }
    let families = index_families((*rte).relid, (*var).varattno);
    let uuid_ops = Oid::from(UUID_BTREE_FAMILY);
    let (family, (lower, upper)) = if families.contains(&uuid_ops)
        && (reads == Reads::V7Only || v7_only_column((*rte).relid, (*var).varattno, catalog))
    {
        (uuid_ops, catalog.v7_bounds)
    } else if catalog.time_family != pg_sys::InvalidOid && families.contains(&catalog.time_family) {
        (catalog.time_family, catalog.time_bounds)
    } else {
        return Vec::new();
    };
    let bound = |strategy: u16, bound_fn: Oid| -> *mut pg_sys::Expr {
        let opno = pg_sys::get_opfamily_member(family, pg_sys::UUIDOID, pg_sys::UUIDOID, strategy as i16);
        let arg = pg_sys::lappend(core::ptr::null_mut(), pg_sys::copyObjectImpl(x.cast()));
        let value = pg_sys::makeFuncExpr(
            bound_fn,
            pg_sys::UUIDOID,
            arg,
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
            pg_sys::CoercionForm::COERCE_EXPLICIT_CALL,
        );
        pg_sys::make_opclause(
            opno,
            pg_sys::BOOLOID,
            false,
            pg_sys::copyObjectImpl(var.cast()).cast(),
            value.cast(),
            pg_sys::InvalidOid,
            pg_sys::InvalidOid,
        )
    };
    // time >= X: id >= lower(X); time > X: id >= upper(X); time < X: id < lower(X); time <= X: id < upper(X).
    match cmp {
        Cmp::Ge => vec![bound(BT_GREATER_EQUAL, lower)],
        Cmp::Gt => vec![bound(BT_GREATER_EQUAL, upper)],
        Cmp::Lt => vec![bound(BT_LESS, lower)],
        Cmp::Le => vec![bound(BT_LESS, upper)],
        Cmp::Eq => vec![bound(BT_GREATER_EQUAL, lower), bound(BT_LESS, upper)],
    }
}

/// The btree operator families of the indexes whose first column is `attno`.
unsafe fn index_families(relid: Oid, attno: pg_sys::AttrNumber) -> Vec<Oid> {
    let rel = pg_sys::RelationIdGetRelation(relid);
    if rel.is_null() {
        return Vec::new();
    }
    let indexes = pg_sys::RelationGetIndexList(rel);
    pg_sys::RelationClose(rel);
    let mut families = Vec::new();
    for index in (0..pg_sys::list_length(indexes)).map(|i| pg_sys::list_nth_oid(indexes, i)) {
        // The planner takes this lock on every index of the table anyway.
        let irel = pg_sys::index_open(index, pg_sys::AccessShareLock as pg_sys::LOCKMODE);
        let form = (*irel).rd_index;
        if (*form).indnkeyatts > 0 && *(*form).indkey.values.as_ptr() == attno {
            families.push(*(*irel).rd_opfamily);
        }
        pg_sys::index_close(irel, pg_sys::NoLock as pg_sys::LOCKMODE);
    }
    families
}

/// Whether a valid, enforced CHECK constraint confines the column to UUIDv7:
/// `uuid_extract_version(col) = 7`, alone or as one conjunct of the CHECK.
/// (A value whose variant is not RFC 9562 passes such a CHECK, as
/// uuid_extract_version() is NULL for it, but no extractor gives it a time.)
unsafe fn v7_only_column(relid: Oid, attno: pg_sys::AttrNumber, catalog: &Catalog) -> bool {
    let rel = pg_sys::RelationIdGetRelation(relid);
    if rel.is_null() {
        return false;
    }
    let constr = (*(*rel).rd_att).constr;
    let mut found = false;
    if !constr.is_null() {
        for i in 0..usize::from((*constr).num_check) {
            let check = &*(*constr).check.add(i);
            #[cfg(feature = "pg18")]
            let enforced = check.ccenforced;
            #[cfg(not(feature = "pg18"))]
            let enforced = true;
            if !(check.ccvalid && enforced) {
                continue;
            }
            let mut parts = Vec::new();
            conjuncts(pg_sys::stringToNode(check.ccbin).cast(), &mut parts);
            if parts.into_iter().any(|part| is_version_7(part, attno, catalog)) {
                found = true;
                break;
            }
        }
    }
    pg_sys::RelationClose(rel);
    found
}

/// `uuid_extract_version(col) = 7`, either way round, 7 of any integer type.
unsafe fn is_version_7(node: *mut Node, attno: pg_sys::AttrNumber, catalog: &Catalog) -> bool {
    if !is_a(node, NodeTag::T_OpExpr) {
        return false;
    }
    let op: *mut pg_sys::OpExpr = node.cast();
    let name = pg_sys::get_opname((*op).opno);
    if name.is_null() || CStr::from_ptr(name) != c"=" {
        return false;
    }
    let mut args = cells((*op).args);
    let (Some(a), Some(b), None) = (args.next(), args.next(), args.next()) else { return false };
    let version_of_col = |n: *mut Node| {
        call_on_uuid_column(n).is_some_and(|(call, var)| {
            (*var).varattno == attno && catalog.versions.contains(&(*call).funcid) && (*call).funcid != pg_sys::InvalidOid
        })
    };
    let seven = |n: *mut Node| {
        is_a(n, NodeTag::T_Const) && {
            let c: *mut pg_sys::Const = n.cast();
            !(*c).constisnull
                && match (*c).consttype {
                    pg_sys::INT2OID => (*c).constvalue.value() as i16 == 7,
                    pg_sys::INT4OID => (*c).constvalue.value() as i32 == 7,
                    pg_sys::INT8OID => (*c).constvalue.value() as i64 == 7,
                    _ => false,
                }
        }
    };
    (version_of_col(a) && seven(b)) || (seven(a) && version_of_col(b))
}
