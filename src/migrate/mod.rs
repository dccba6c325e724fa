//! `uuid_ext_migrate_from(old_extension name) RETURNS SETOF text`: moves a live database from
//! uuid-ossp or pg_uuidv7 — or any extension whose every member is a function that uuid_ext
//! has under the same name and signature — to uuid_ext, then drops the old extension without
//! CASCADE. README, "Migrating".
//!
//! The old extension must first be moved out of uuid_ext's schema (two extensions cannot both
//! own `public.uuid_generate_v4()`). Every object that depends on one of its functions is then
//! re-pointed to uuid_ext's function of the same signature: column and domain defaults, views
//! and other rules, SQL-standard function bodies and argument defaults, CHECK constraints of
//! tables and domains, trigger `WHEN` conditions and row-level security policies — each
//! partition's and inheritance child's own copy included.
//!
//! **How.** Those objects refer to functions by OID, in stored expression trees, and record
//! the reference in `pg_depend`. Each tree is read, its references replaced by OID and written
//! back ([`repoint`]), and the `pg_depend` rows moved to the new function. No definition is
//! turned into SQL text and run: a name or a literal in it (a schema called
//! `"; ALTER ROLE …"`, a string that contains `uuid_ext_retired.uuid_generate_v4(`) stays what
//! it was and cannot inject anything. And none of the objects' code runs as the caller, with
//! one exception: a validated CHECK constraint is validated again (uuid_ext's function need not
//! answer exactly as the old one did: pg_uuidv7's extractors give a time for any UUID,
//! uuid_ext's NULL for one that is not a v7), and that runs its expression over the rows — as
//! the constraint's owner, in a security-restricted operation, the way PostgreSQL's own
//! maintenance commands run an owner's code. So a superuser running the migration lends its
//! rights to nobody (issue 26: a CHECK calling a function of the table owner's once made it a
//! superuser).
//!
//! **What stops it, changing nothing.** The caller must own the old extension and every object
//! it re-points (42501, as `ALTER` would say). An extension with a member uuid_ext cannot take
//! the place of (pgcrypto's `crypt()`, a type) is refused (0A000): code that calls it by name
//! records no dependency and would break when it is dropped. Objects that cannot be re-pointed
//! without a rewrite or rebuild — stored generated columns, index expressions and predicates,
//! materialized views, extended statistics, operators, casts, … — are listed in an error
//! (0A000) before anything changed. It runs in the caller's transaction: all or nothing. Once
//! the old extension is gone it says "nothing to migrate". It returns one line per re-pointed
//! object and a last line for the drop.

mod repoint;

use crate::pg::catalog_ids::{
    pg_depend, AttrDefaultRelationId, ConstraintRelationId, DependReferenceIndexId, DependRelationId, PolicyRelationId,
    RewriteRelationId, TriggerRelidNameIndexId, OID_INDEXES,
};
use crate::pg::convert::catalog_text_for_message;
use crate::pg::errors::error;
use crate::pg::guards::{CatalogScan, Relation, RestrictedUser, SysCacheTuple};
use crate::pg::members;
use crate::pg::syscatalog;
use core::ffi::{c_char, CStr};
use pgrx::pg_sys::{self, Datum, Oid};
use pgrx::{is_a, pg_guard, PgSqlErrorCode};
use repoint::{repoint, FunctionMap, Unhandled};

pgrx::extension_sql!(
    r#"
CREATE FUNCTION uuid_ext_migrate_from(old_extension name) RETURNS SETOF text
VOLATILE STRICT PARALLEL UNSAFE LANGUAGE c
SET search_path = pg_catalog, pg_temp
AS 'MODULE_PATHNAME', 'uuid_ext_migrate_from_wrapper';
"#,
    name = "migrate"
);

/// `uuid_ext_migrate_from(old_extension name)`; see the module documentation.
#[unsafe(export_name = "uuid_ext_migrate_from_wrapper")]
#[pg_guard]
pub unsafe extern "C-unwind" fn uuid_ext_migrate_from_wrapper(fcinfo: pg_sys::FunctionCallInfo) -> Datum {
    // SAFETY: PostgreSQL calls this with the fcinfo of the function declared above: STRICT,
    // so its one argument, a `name` (a pointer to a NUL-terminated NameData), is not NULL.
    let old_extension = unsafe {
        let arg = (*fcinfo).args.as_slice(1)[0].value;
        CStr::from_ptr((*arg.cast_mut_ptr::<pg_sys::NameData>()).data.as_ptr())
    };
    // SAFETY: as above; the result set is set up before anything is done.
    let mut lines = unsafe { Lines::new(fcinfo) };
    migrate(old_extension, &mut lines);
    Datum::from(0)
}

/// PostgreSQL's V1 calling convention marker for the function above.
#[unsafe(export_name = "pg_finfo_uuid_ext_migrate_from_wrapper")]
pub extern "C" fn pg_finfo_uuid_ext_migrate_from_wrapper() -> &'static pg_sys::Pg_finfo_record {
    const V1: pg_sys::Pg_finfo_record = pg_sys::Pg_finfo_record { api_version: 1 };
    &V1
}

/// At most this many objects are named in one error message.
const LISTED: usize = 100;

fn migrate(old_extension: &CStr, lines: &mut Lines) {
    let name = quoted(old_extension);
    // SAFETY: a catalog lookup by name in a transaction.
    let old = unsafe { pg_sys::get_extension_oid(old_extension.as_ptr(), true) };
    if old == pg_sys::InvalidOid {
        lines.push(&[b"extension ", name.as_slice(), b" is not installed: nothing to migrate"].concat());
        return;
    }
    if old_extension.to_bytes() == b"uuid_ext" {
        error(PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE, "cannot migrate uuid_ext to itself".into(), None, None);
    }
    // SAFETY: as above.
    let ours = unsafe { pg_sys::get_extension_oid(c"uuid_ext".as_ptr(), true) };
    if ours == pg_sys::InvalidOid {
        error(
            PgSqlErrorCode::ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
            "extension \"uuid_ext\" is not installed in this database".into(),
            None,
            Some("CREATE EXTENSION uuid_ext first (README, \"Migrating\")."),
        );
    }
    // SAFETY: plain catalog reads in a transaction, and PostgreSQL's own ownership error.
    unsafe { must_own(Owned::Extension(old)) };
    let map = function_map(old, ours, &name);
    let plans = plan(&map, old);
    // Nothing has changed yet. Lock every relation whose rows change, as ALTER TABLE, CREATE OR
    // REPLACE VIEW and ALTER POLICY would (in OID order, as a second migration would too).
    let mut relations: Vec<u32> = plans.iter().filter_map(|p| p.relation).map(|r| r.to_u32()).collect();
    relations.sort_unstable();
    relations.dedup();
    for &rel in &relations {
        // SAFETY: a lock on a relation the caller owns (checked in plan()).
        unsafe { pg_sys::LockRelationOid(Oid::from_u32(rel), pg_sys::AccessExclusiveLock as pg_sys::LOCKMODE) };
    }
    let mut validations = Vec::new();
    let mut done = 0usize;
    for p in &plans {
        // SAFETY: the plan's object was classified, and its owner checked, in this transaction;
        // its relation is locked. The owner is checked again now that nothing can change it.
        if unsafe { p.apply(&map, &mut validations) } {
            done += 1;
            // SAFETY: a NUL-terminated description made by getObjectDescription().
            lines.push(unsafe { CStr::from_ptr(p.description) }.to_bytes());
        }
    }
    // SAFETY: the relation cache entries of changed relations (rules, defaults, CHECKs,
    // triggers, policies live there) are rebuilt; then this transaction sees its changes.
    unsafe {
        for &rel in &relations {
            pg_sys::CacheInvalidateRelcacheByRelid(Oid::from_u32(rel));
        }
        pg_sys::CommandCounterIncrement();
    }
    // Inherited copies last: their parent's VALIDATE already covers most of them.
    validations.sort_by_key(|v: &Validation| v.inherited);
    for v in &validations {
        // SAFETY: a constraint re-pointed in this transaction, its relation or domain locked.
        unsafe { v.run() };
    }
    // SAFETY: quote_identifier() of a NUL-terminated name; the statement runs as the caller.
    unsafe { run_utility(&[b"DROP EXTENSION ".as_slice(), &name].concat()) };
    lines.push(
        &[b"dropped extension ", name.as_slice(), format!(" ({done} objects re-pointed to uuid_ext)").as_bytes()]
            .concat(),
    );
}

/// A name as `quote_ident()` shows it, in the database encoding.
fn quoted(name: &CStr) -> Vec<u8> {
    // SAFETY: quote_identifier() returns its argument or a palloc'd quoted copy, NUL-terminated.
    unsafe { CStr::from_ptr(pg_sys::quote_identifier(name.as_ptr())) }.to_bytes().to_vec()
}

/// `what` appended to a list for an error message: at most [`LISTED`] items, then a count.
struct Listing {
    text: Vec<u8>,
    items: usize,
}

impl Listing {
    fn new() -> Listing {
        Listing { text: Vec::new(), items: 0 }
    }

    fn add(&mut self, what: &[u8]) {
        if self.items < LISTED {
            if self.items > 0 {
                self.text.extend_from_slice(b", ");
            }
            self.text.extend_from_slice(what);
        }
        self.items += 1;
    }

    /// The list for a message (`None` when empty).
    fn finish(self) -> Option<String> {
        (self.items > 0).then(|| {
            let more = self.items.saturating_sub(LISTED);
            let tail = if more > 0 { format!(" and {more} more") } else { String::new() };
            format!("{}{tail}", catalog_text_for_message(&self.text))
        })
    }
}

/// Pushes onto a vector that grows with the database's objects: a fallible reservation, so
/// running out of memory is PostgreSQL's ERROR (53200), not an abort of the server.
fn push<T>(items: &mut Vec<T>, item: T) {
    if items.try_reserve(1).is_err() {
        error(PgSqlErrorCode::ERRCODE_OUT_OF_MEMORY, "out of memory".into(), None, None);
    }
    items.push(item);
}

/// Each member function of the old extension with uuid_ext's function of the same name,
/// argument types, result and kind — one of this library's own ([`members`]); an error naming
/// every member without one.
fn function_map(old: Oid, ours: Oid, name: &[u8]) -> FunctionMap {
    // SAFETY: the extension's own schema, read from its pg_extension row.
    let schema = unsafe { members::extension_schema(ours) };
    let (mut members, mut marked) = (Vec::new(), Listing::new());
    // SAFETY: a catalog scan whose row layout is pg_depend's leading columns.
    unsafe {
        syscatalog::scan::<pg_depend::FormData>(
            DependRelationId.to_u32(),
            DependReferenceIndexId.to_u32(),
            &[(pg_depend::ANUM_REFCLASSID, pg_sys::ExtensionRelationId), (pg_depend::ANUM_REFOBJID, old)],
            |row| match row.deptype as u8 {
                pg_depend::DEPENDENCY_EXTENSION => push(&mut members, (row.classid, row.objid, row.objsubid)),
                pg_depend::DEPENDENCY_AUTO_EXTENSION => {
                    marked.add(CStr::from_ptr(describe(row.classid, row.objid, row.objsubid)).to_bytes())
                }
                _ => {}
            },
        )
    };
    // DROP EXTENSION drops these without CASCADE and without a word (found by review).
    if let Some(marked) = marked.finish() {
        let name = catalog_text_for_message(name);
        error(
            PgSqlErrorCode::ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
            format!("cannot drop extension {name}: objects are marked as depending on it: {marked}"),
            Some(format!("Objects marked with ALTER … DEPENDS ON EXTENSION {name} would be dropped with it.")),
            Some(&format!(
                "Nothing was changed. Remove the mark (ALTER … NO DEPENDS ON EXTENSION {name}) from those that should \
                 stay, or drop them, then run uuid_ext_migrate_from() again."
            )),
        );
    }
    let (mut pairs, mut missing) = (Vec::new(), Vec::new());
    for (class, object, subid) in members {
        // SAFETY: catalog lookups of an existing member.
        match unsafe { counterpart(class, object, schema, ours) } {
            Some(new) => push(&mut pairs, (object, new)),
            // SAFETY: as above.
            None => push(&mut missing, unsafe { member_name(class, object, subid) }),
        }
    }
    missing.sort_unstable();
    let mut listing = Listing::new();
    missing.iter().for_each(|name| listing.add(name));
    if let Some(missing) = listing.finish() {
        let name = catalog_text_for_message(name);
        error(
            PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
            format!("uuid_ext cannot replace extension {name}"),
            Some(format!("uuid_ext has nothing to take the place of {missing}.")),
            Some(&format!(
                "Nothing was changed. Keep extension {name}: code that calls its functions by name records no \
                 dependency, so dropping it could break that code. uuid_ext_migrate_from() replaces only extensions \
                 whose every member is a function uuid_ext has, such as uuid-ossp and pg_uuidv7."
            )),
        );
    }
    FunctionMap::new(pairs)
}

/// uuid_ext's function in place of member `object` of the old extension: same name, argument
/// types, result type, set-returning or not, and kind, in uuid_ext's schema, a member of
/// uuid_ext and this library's C code.
unsafe fn counterpart(class: Oid, object: Oid, schema: Oid, ours: Oid) -> Option<Oid> {
    if class != pg_sys::ProcedureRelationId {
        return None;
    }
    // SAFETY: the caller is in a transaction; the guards release the tuples.
    unsafe {
        let old = SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PROCOID, object.into())?;
        let old_form = old.form::<pg_sys::FormData_pg_proc>();
        // The keys point into the old row, which the guard keeps valid during the lookup.
        let new = SysCacheTuple::search3(
            pg_sys::SysCacheIdentifier::PROCNAMEARGSNSP,
            Datum::from(&raw const old_form.proname),
            Datum::from(&raw const old_form.proargtypes),
            schema.into(),
        )?;
        let new_form = new.form::<pg_sys::FormData_pg_proc>();
        let same = new_form.prokind == old_form.prokind
            && new_form.prorettype == old_form.prorettype
            && new_form.proretset == old_form.proretset;
        let f = new_form.oid;
        (same
            && pg_sys::getExtensionOfObject(pg_sys::ProcedureRelationId, f) == ours
            && members::is_this_library(f, None))
        .then_some(f)
    }
}

/// How a member without a counterpart is named: `name(argument types)` for a function (as
/// `pg_get_function_identity_arguments()` writes them), else PostgreSQL's description.
unsafe fn member_name(class: Oid, object: Oid, subid: i32) -> Vec<u8> {
    // SAFETY: catalog lookups of an existing object; results are palloc'd C strings.
    unsafe {
        if class == pg_sys::ProcedureRelationId {
            let name = pg_sys::get_func_name(object);
            let args = pg_sys::DirectFunctionCall1Coll(Some(identity_arguments), pg_sys::InvalidOid, object.into());
            if !name.is_null() {
                let args = CStr::from_ptr(pg_sys::text_to_cstring(args.cast_mut_ptr()));
                return [CStr::from_ptr(name).to_bytes(), b"(", args.to_bytes(), b")"].concat();
            }
        }
        CStr::from_ptr(describe(class, object, subid)).to_bytes().to_vec()
    }
}

crate::pg::ffi::unguarded! {
    /// PostgreSQL's own `pg_get_function_identity_arguments(oid)` (a V1 function; pg_sys
    /// exports only a Rust wrapper of it, which DirectFunctionCall cannot take).
    fn identity_arguments(fcinfo: pg_sys::FunctionCallInfo) -> Datum = pg_get_function_identity_arguments;
}

/// PostgreSQL's description of an object ("default value for column id of table ev").
unsafe fn describe(class: Oid, object: Oid, subid: i32) -> *const c_char {
    let address = pg_sys::ObjectAddress { classId: class, objectId: object, objectSubId: subid };
    // SAFETY: a description of an object that exists in this transaction (missing_ok: an
    // object dropped meanwhile gets NULL, shown as such).
    let description = unsafe { pg_sys::getObjectDescription(&address, true) };
    if description.is_null() {
        c"(dropped object)".as_ptr()
    } else {
        description
    }
}

/// Whose ownership decides whether the caller may change an object.
#[derive(Clone, Copy)]
enum Owned {
    Relation(Oid),
    Type(Oid),
    Function(Oid),
    Extension(Oid),
}

impl Owned {
    /// The owning role.
    unsafe fn owner(self) -> Oid {
        // SAFETY: system-cache lookups; the guards release the tuples.
        unsafe {
            match self {
                Owned::Relation(rel) => SysCacheTuple::search1(pg_sys::SysCacheIdentifier::RELOID, rel.into())
                    .map(|t| t.form::<pg_sys::FormData_pg_class>().relowner),
                Owned::Type(ty) => SysCacheTuple::search1(pg_sys::SysCacheIdentifier::TYPEOID, ty.into())
                    .map(|t| t.form::<pg_sys::FormData_pg_type>().typowner),
                Owned::Function(f) => SysCacheTuple::search1(pg_sys::SysCacheIdentifier::PROCOID, f.into())
                    .map(|t| t.form::<pg_sys::FormData_pg_proc>().proowner),
                Owned::Extension(ext) => {
                    let mut owner = None;
                    syscatalog::scan::<pg_sys::FormData_pg_extension>(
                        syscatalog::pg_extension::RELATION_ID,
                        syscatalog::pg_extension::OID_INDEX_ID,
                        &[(syscatalog::pg_extension::ANUM_OID, ext)],
                        |row| owner = Some(row.extowner),
                    );
                    owner
                }
            }
        }
        .unwrap_or(pg_sys::InvalidOid)
    }
}

/// Raises PostgreSQL's "must be owner of …" (42501) unless the current user owns `what` (or
/// is a superuser, whom PostgreSQL's own ownership checks let pass).
unsafe fn must_own(what: Owned) {
    // SAFETY: catalog reads in a transaction; aclcheck_error() raises the ERROR.
    unsafe {
        let user = pg_sys::GetUserId();
        if pg_sys::superuser_arg(user) || what.owner() == user {
            return;
        }
        let (kind, name) = match what {
            Owned::Relation(rel) => {
                (pg_sys::get_relkind_objtype(pg_sys::get_rel_relkind(rel)), pg_sys::get_rel_name(rel))
            }
            Owned::Type(ty) => (pg_sys::ObjectType::OBJECT_DOMAIN, pg_sys::format_type_be(ty)),
            Owned::Function(f) => (pg_sys::ObjectType::OBJECT_FUNCTION, pg_sys::get_func_name(f)),
            Owned::Extension(ext) => (pg_sys::ObjectType::OBJECT_EXTENSION, pg_sys::get_extension_name(ext)),
        };
        pg_sys::aclcheck_error(pg_sys::AclResult::ACLCHECK_NOT_OWNER, kind, name);
    }
}

/// What re-pointing one dependent object takes.
struct Plan {
    class: Oid,
    object: Oid,
    description: *const c_char,
    /// The relation whose cache entry holds the object (locked, and invalidated afterwards).
    relation: Option<Oid>,
    owned: Owned,
    /// The catalog columns holding expression trees.
    columns: &'static [&'static CStr],
}

/// The objects that depend on the old extension's functions, each classified and checked:
/// an error, before anything changes, for objects that cannot be re-pointed or that the
/// caller does not own.
fn plan(map: &FunctionMap, old: Oid) -> Vec<Plan> {
    let mut dependents: Vec<(u32, u32, i32)> = Vec::new();
    for &(old_fn, _) in map.pairs() {
        // SAFETY: a catalog scan whose row layout is pg_depend's leading columns.
        unsafe {
            syscatalog::scan::<pg_depend::FormData>(
                DependRelationId.to_u32(),
                DependReferenceIndexId.to_u32(),
                &[(pg_depend::ANUM_REFCLASSID, pg_sys::ProcedureRelationId), (pg_depend::ANUM_REFOBJID, old_fn)],
                |row| {
                    let kind = row.deptype as u8;
                    if kind == pg_depend::DEPENDENCY_NORMAL || kind == pg_depend::DEPENDENCY_AUTO {
                        push(&mut dependents, (row.classid.to_u32(), row.objid.to_u32(), row.objsubid));
                    }
                },
            )
        };
    }
    // A partitioned table's triggers have a copy on every partition, whose WHEN condition
    // calls the same functions but which PostgreSQL records no dependency for.
    let triggers: Vec<Oid> = dependents
        .iter()
        .filter(|(class, _, _)| *class == pg_sys::TriggerRelationId.to_u32())
        .map(|&(_, object, _)| Oid::from_u32(object))
        .collect();
    for trigger in triggers {
        // SAFETY: catalog reads of a trigger found in pg_depend in this transaction.
        unsafe { trigger_clones(trigger, &mut dependents) };
    }
    dependents.sort_unstable();
    dependents.dedup();
    let (mut plans, mut blocked) = (Vec::new(), Listing::new());
    for (class, object, subid) in dependents {
        let (class, object) = (Oid::from_u32(class), Oid::from_u32(object));
        // The old extension's own objects go with it.
        // SAFETY: a catalog read.
        if unsafe { pg_sys::getExtensionOfObject(class, object) } == old {
            continue;
        }
        // SAFETY: catalog reads of an object found in pg_depend in this transaction.
        match unsafe { classify(class, object, subid, map) } {
            Ok(p) => push(&mut plans, p),
            Err(what) => blocked.add(&what),
        }
    }
    if let Some(blocked) = blocked.finish() {
        error(
            PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
            format!("cannot re-point these objects to uuid_ext without rewriting or rebuilding them: {blocked}"),
            None,
            Some(
                "Recreate them on uuid_ext's functions (e.g. CREATE INDEX CONCURRENTLY, then drop the old index), \
                 then run uuid_ext_migrate_from() again. Nothing was changed.",
            ),
        );
    }
    for p in &plans {
        // SAFETY: catalog reads; PostgreSQL's ownership error.
        unsafe { must_own(p.owned) };
    }
    plans
}

/// Adds to `dependents` the copies PostgreSQL made of a trigger of a partitioned table on
/// every partition below it (`tgparentid` names the copy's parent), at any depth.
unsafe fn trigger_clones(trigger: Oid, dependents: &mut Vec<(u32, u32, i32)>) {
    // SAFETY: catalog reads in a transaction.
    let Some(rel) = (unsafe { CatalogRow::fetch(pg_sys::TriggerRelationId, trigger) }).map(|row| row.oid(c"tgrelid"))
    else {
        return;
    };
    // SAFETY: as above.
    if unsafe { pg_sys::get_rel_relkind(rel) } as u8 != pg_sys::RELKIND_PARTITIONED_TABLE {
        return;
    }
    // The walk reaches every partition after its parent, so a copy's parent is known first.
    let mut parents = vec![trigger];
    syscatalog::any_in_tree(rel, &mut |partition| {
        // SAFETY: an index scan of pg_trigger by tgrelid (its column 2).
        let mut scan =
            unsafe { CatalogScan::new(pg_sys::TriggerRelationId, TriggerRelidNameIndexId, &[(2, partition)]) };
        while let Some(tuple) = scan.next() {
            // SAFETY: a pg_trigger row, whose leading fields pgrx's FormData_pg_trigger lays out.
            let form = unsafe { &*pg_sys::heap_tuple_get_struct::<pg_sys::FormData_pg_trigger>(tuple) };
            if partition != rel && parents.contains(&form.tgparentid) {
                push(&mut parents, form.oid);
                push(dependents, (pg_sys::TriggerRelationId.to_u32(), form.oid.to_u32(), 0));
            }
        }
        false
    });
}

/// How an object is re-pointed, or why it cannot be (its description, for the error).
unsafe fn classify(class: Oid, object: Oid, subid: i32, map: &FunctionMap) -> Result<Plan, Vec<u8>> {
    // SAFETY: catalog reads in a transaction; descriptions are palloc'd C strings.
    unsafe {
        let description = describe(class, object, subid);
        let blocked = || CStr::from_ptr(description).to_bytes().to_vec();
        let plan =
            |relation: Option<Oid>, owned, columns| Plan { class, object, description, relation, owned, columns };
        if class == pg_sys::RelationRelationId {
            // PostgreSQL 14 records a stored generated column's functions against the column;
            // otherwise an index, a materialized view's column, ...
            return Err(if subid > 0 && generated(object, subid as i16) {
                generated_column(object, subid as i16)
            } else {
                blocked()
            });
        }
        let Some(row) = CatalogRow::fetch(class, object) else {
            return Err(blocked());
        };
        let p = if class == AttrDefaultRelationId {
            let (rel, attno) = (row.oid(c"adrelid"), row.int2(c"adnum"));
            if generated(rel, attno) {
                return Err(generated_column(rel, attno));
            }
            plan(Some(rel), Owned::Relation(rel), &[c"adbin"])
        } else if class == RewriteRelationId {
            let rel = row.oid(c"ev_class");
            // A materialized view's stored rows were computed by the old function.
            if pg_sys::get_rel_relkind(rel) as u8 == pg_sys::RELKIND_MATVIEW {
                return Err(blocked());
            }
            plan(Some(rel), Owned::Relation(rel), &[c"ev_qual", c"ev_action"])
        } else if class == pg_sys::ProcedureRelationId {
            plan(None, Owned::Function(object), &[c"proargdefaults", c"prosqlbody"])
        } else if class == ConstraintRelationId {
            if row.char(c"contype") != b'c' {
                return Err(blocked());
            }
            match row.oid(c"conrelid") {
                rel if rel != pg_sys::InvalidOid => plan(Some(rel), Owned::Relation(rel), &[c"conbin"]),
                _ => plan(None, Owned::Type(row.oid(c"contypid")), &[c"conbin"]),
            }
        } else if class == pg_sys::TriggerRelationId {
            let rel = row.oid(c"tgrelid");
            plan(Some(rel), Owned::Relation(rel), &[c"tgqual"])
        } else if class == PolicyRelationId {
            let rel = row.oid(c"polrelid");
            plan(Some(rel), Owned::Relation(rel), &[c"polqual", c"polwithcheck"])
        } else if class == pg_sys::TypeRelationId && row.char(c"typtype") == b'd' {
            plan(None, Owned::Type(object), &[c"typdefaultbin"])
        } else {
            // Index expressions and predicates, statistics, operators, casts, aggregates, ...
            return Err(blocked());
        };
        // Every dependency must be one of the references re-pointed below (a function's
        // SUPPORT, say, is not).
        let mut references = false;
        for column in p.columns {
            match row.text(column).map(|tree| repoint(tree, map)) {
                Some(Ok(found)) => references |= found.is_some(),
                Some(Err(Unhandled)) => return Err(blocked()),
                None => {}
            }
        }
        if references {
            Ok(p)
        } else {
            Err(blocked())
        }
    }
}

/// Whether column `attno` of `rel` is a generated column.
unsafe fn generated(rel: Oid, attno: i16) -> bool {
    // SAFETY: a system-cache lookup; the guard releases the tuple.
    unsafe {
        SysCacheTuple::search2(pg_sys::SysCacheIdentifier::ATTNUM, rel.into(), attno.into())
            .is_some_and(|t| t.form::<pg_sys::FormData_pg_attribute>().attgenerated != 0)
    }
}

/// "stored generated column x of table t".
unsafe fn generated_column(rel: Oid, attno: i16) -> Vec<u8> {
    // SAFETY: the description of an existing column.
    let column = unsafe { CStr::from_ptr(describe(pg_sys::RelationRelationId, rel, attno.into())) };
    [b"stored generated ".as_slice(), column.to_bytes()].concat()
}

impl Plan {
    /// Re-points the object's trees and its dependencies; whether it referenced an old
    /// function (a concurrent change may have removed the reference since [`plan`]). A
    /// validated CHECK is marked NOT VALID and queued to be validated again.
    ///
    /// # Safety
    /// In the transaction that planned it, with its relation locked.
    unsafe fn apply(&self, map: &FunctionMap, validations: &mut Vec<Validation>) -> bool {
        // SAFETY: catalog reads and writes of an object the caller owns, under lock.
        unsafe {
            must_own(self.owned);
            let Some(row) = CatalogRow::fetch(self.class, self.object) else {
                return false;
            };
            let mut changes = Vec::new();
            let mut default = None;
            for column in self.columns {
                let Some(tree) = row.text(column) else { continue };
                if let Ok(Some(new)) = repoint(tree, map) {
                    changes.push((row.attnum(column), Datum::from(pg_sys::cstring_to_text(new.text))));
                    default = Some(new.node);
                }
            }
            if changes.is_empty() {
                return false;
            }
            if self.class == ConstraintRelationId && row.bool(c"convalidated") {
                changes.push((row.attnum(c"convalidated"), Datum::from(false)));
                validations.push(Validation {
                    owned: self.owned,
                    name: row.name(c"conname"),
                    inherited: row.int4(c"coninhcount") > 0,
                });
            }
            if self.class == pg_sys::TypeRelationId {
                // typdefault is the default's text, as ALTER DOMAIN … SET DEFAULT writes it.
                let text = pg_sys::deparse_expression(
                    default.unwrap_or(core::ptr::null_mut()),
                    core::ptr::null_mut(),
                    false,
                    false,
                );
                changes.push((row.attnum(c"typdefault"), Datum::from(pg_sys::cstring_to_text(text))));
            }
            row.update(&changes);
            for &(old_fn, new_fn) in map.pairs() {
                pg_sys::changeDependencyFor(self.class, self.object, pg_sys::ProcedureRelationId, old_fn, new_fn);
            }
            true
        }
    }
}

/// A CHECK constraint to validate again after re-pointing.
struct Validation {
    owned: Owned,
    name: pg_sys::NameData,
    inherited: bool,
}

impl Validation {
    /// `ALTER TABLE t VALIDATE CONSTRAINT c` (or `ALTER DOMAIN`), as the owner of the table or
    /// domain, in a security-restricted operation: the constraint's expression, which may call
    /// the owner's functions, runs with the owner's rights, never the caller's. (The statement
    /// is built from the names of the objects, each quoted by PostgreSQL; a table's VALIDATE
    /// also validates the copies its inheritance children and partitions hold.)
    ///
    /// # Safety
    /// In the transaction that re-pointed the constraint.
    unsafe fn run(&self) {
        // SAFETY: catalog reads of existing objects, palloc'd results, SPI as in run_utility().
        unsafe {
            let (target, what) = match self.owned {
                Owned::Relation(rel) => {
                    let schema = pg_sys::get_namespace_name(pg_sys::get_rel_namespace(rel));
                    (pg_sys::quote_qualified_identifier(schema, pg_sys::get_rel_name(rel)), b"ALTER TABLE ".as_slice())
                }
                Owned::Type(ty) => (pg_sys::format_type_be_qualified(ty), b"ALTER DOMAIN ".as_slice()),
                Owned::Function(_) | Owned::Extension(_) => return,
            };
            let constraint = CStr::from_ptr(pg_sys::quote_identifier(self.name.data.as_ptr()));
            let sql =
                [what, CStr::from_ptr(target).to_bytes(), b" VALIDATE CONSTRAINT ", constraint.to_bytes()].concat();
            let _owner = RestrictedUser::become_(self.owned.owner());
            run_utility(&sql);
        }
    }
}

/// Runs one utility statement through SPI.
///
/// # Safety
/// Inside a transaction; `sql` is a complete statement.
unsafe fn run_utility(sql: &[u8]) {
    let sql = std::ffi::CString::new(sql).expect("names hold no NUL byte");
    // SAFETY: SPI is connected for the one statement and finished; an ERROR in between is
    // cleaned up by the (sub)transaction's abort.
    unsafe {
        pg_sys::SPI_connect();
        pg_sys::SPI_execute(sql.as_ptr(), false, 0);
        pg_sys::SPI_finish();
    }
}

/// One row of a system catalog, by OID, for reading columns by name and updating some.
struct CatalogRow {
    catalog: Relation,
    tuple: pg_sys::HeapTuple,
}

impl CatalogRow {
    /// The row of `object` in catalog `class` (one of [`OID_INDEXES`]), copied; `None` if
    /// there is none.
    unsafe fn fetch(class: Oid, object: Oid) -> Option<CatalogRow> {
        let index = OID_INDEXES.iter().find(|(catalog, _)| *catalog == class)?.1;
        // SAFETY: the catalog's own OID index, keyed on its oid column (the first, on every
        // supported major); the row found is copied before the scan ends.
        let tuple = unsafe {
            let mut scan = CatalogScan::new(class, index, &[(1, object)]);
            scan.next().map(|t| pg_sys::heap_copytuple(t))
        }?;
        // SAFETY: the catalog opened as PostgreSQL's own commands open it to update a row.
        let catalog = unsafe { Relation::table(class, pg_sys::RowExclusiveLock as pg_sys::LOCKMODE) };
        Some(CatalogRow { catalog, tuple })
    }

    /// The attribute number of a column, which must exist.
    fn attnum(&self, column: &CStr) -> pg_sys::AttrNumber {
        // SAFETY: the catalog is open; the names are PostgreSQL's own column names.
        let attno = unsafe { pg_sys::attnameAttNum(self.catalog.as_ptr(), column.as_ptr(), false) };
        assert!(attno > 0, "catalog column {column:?} exists on every supported major");
        attno as pg_sys::AttrNumber
    }

    fn get(&self, column: &CStr) -> Option<Datum> {
        let mut isnull = false;
        // SAFETY: the tuple is a row of this catalog, described by its tuple descriptor.
        let value = unsafe {
            pg_sys::heap_getattr(self.tuple, self.attnum(column).into(), (*self.catalog.as_ptr()).rd_att, &mut isnull)
        };
        (!isnull).then_some(value)
    }

    fn oid(&self, column: &CStr) -> Oid {
        self.get(column).map_or(pg_sys::InvalidOid, |d| Oid::from_u32(d.value() as u32))
    }

    fn int2(&self, column: &CStr) -> i16 {
        self.get(column).map_or(0, |d| d.value() as i16)
    }

    fn int4(&self, column: &CStr) -> i32 {
        self.get(column).map_or(0, |d| d.value() as i32)
    }

    fn char(&self, column: &CStr) -> u8 {
        self.get(column).map_or(0, |d| d.value() as u8)
    }

    fn bool(&self, column: &CStr) -> bool {
        self.get(column).is_some_and(|d| d.value() & 0xff != 0)
    }

    fn name(&self, column: &CStr) -> pg_sys::NameData {
        // SAFETY: a `name` column's datum points to a NameData inside the tuple.
        self.get(column).map_or_else(pg_sys::NameData::default, |d| unsafe { *d.cast_mut_ptr::<pg_sys::NameData>() })
    }

    /// A text-like column (`text`, `pg_node_tree`) as a C string; `None` for NULL.
    fn text(&self, column: &CStr) -> Option<&CStr> {
        // SAFETY: text_to_cstring() detoasts and returns a palloc'd NUL-terminated copy,
        // which lives as long as the current memory context (longer than this row).
        self.get(column).map(|d| unsafe { CStr::from_ptr(pg_sys::text_to_cstring(d.cast_mut_ptr())) })
    }

    /// Replaces the given columns and writes the row back (updating the catalog's indexes).
    unsafe fn update(&self, changes: &[(pg_sys::AttrNumber, Datum)]) {
        // SAFETY: the arrays have one entry per attribute of the catalog's descriptor.
        unsafe {
            let desc = (*self.catalog.as_ptr()).rd_att;
            let natts = (*desc).natts as usize;
            let mut values = vec![Datum::from(0); natts];
            let mut nulls = vec![false; natts];
            let mut replace = vec![false; natts];
            for &(attno, value) in changes {
                let i = attno as usize - 1;
                values[i] = value;
                replace[i] = true;
            }
            let tuple = pg_sys::heap_modify_tuple(
                self.tuple,
                desc,
                values.as_mut_ptr(),
                nulls.as_mut_ptr(),
                replace.as_mut_ptr(),
            );
            // (`&raw mut`: 19 takes the old TID as const, 14-18 as mut.)
            pg_sys::CatalogTupleUpdate(self.catalog.as_ptr(), &raw mut (*tuple).t_self, tuple);
        }
    }
}

/// The rows of a `SETOF text` result, returned in materialize mode: a tuplestore in the
/// query's memory (spilling to disk past `work_mem`), however many lines there are.
struct Lines {
    store: *mut pg_sys::Tuplestorestate,
    desc: pg_sys::TupleDesc,
}

impl Lines {
    /// # Safety
    /// `fcinfo` is the call's.
    unsafe fn new(fcinfo: pg_sys::FunctionCallInfo) -> Lines {
        // SAFETY: resultinfo, if set, is the executor's ReturnSetInfo for this call; the
        // tuplestore and its descriptor live in the query's memory context, as PostgreSQL's
        // InitMaterializedSRF() makes them.
        unsafe {
            let rsinfo = (*fcinfo).resultinfo.cast::<pg_sys::ReturnSetInfo>();
            let materialize = pg_sys::SetFunctionReturnMode::SFRM_Materialize as i32;
            if rsinfo.is_null()
                || !is_a(rsinfo.cast(), pg_sys::NodeTag::T_ReturnSetInfo)
                || (*rsinfo).allowedModes & materialize == 0
            {
                error(
                    PgSqlErrorCode::ERRCODE_FEATURE_NOT_SUPPORTED,
                    "set-valued function called in context that cannot accept a set".into(),
                    None,
                    None,
                );
            }
            let random = (*rsinfo).allowedModes & pg_sys::SetFunctionReturnMode::SFRM_Materialize_Random as i32 != 0;
            let previous = pg_sys::CurrentMemoryContext;
            pg_sys::CurrentMemoryContext = (*(*rsinfo).econtext).ecxt_per_query_memory;
            let desc = pg_sys::CreateTemplateTupleDesc(1);
            pg_sys::TupleDescInitEntry(desc, 1, c"uuid_ext_migrate_from".as_ptr(), pg_sys::TEXTOID, -1, 0);
            let store = pg_sys::tuplestore_begin_heap(random, false, pg_sys::work_mem);
            pg_sys::CurrentMemoryContext = previous;
            (*rsinfo).returnMode = pg_sys::SetFunctionReturnMode::SFRM_Materialize;
            (*rsinfo).setResult = store;
            (*rsinfo).setDesc = desc;
            Lines { store, desc }
        }
    }

    /// Appends a line (bytes in the database encoding).
    fn push(&mut self, line: &[u8]) {
        // SAFETY: a text datum made from the bytes, copied into the tuplestore.
        unsafe {
            let text = pg_sys::cstring_to_text_with_len(line.as_ptr().cast(), line.len() as i32);
            let mut value = Datum::from(text);
            let mut null = false;
            pg_sys::tuplestore_putvalues(self.store, self.desc, &raw mut value, &raw mut null);
        }
    }
}
