//! Ordered reads by time, served by a `uuid_time_ops` index.
//!
//! `ORDER BY uuid_ext_timestamp(id) [DESC] LIMIT n` sorts by a function's result, which no
//! index on `id` provides: PostgreSQL reads and sorts the whole table. Where `id` has a
//! `uuid_time_ops` index, the order of that index *is* the order of `uuid_ext_timestamp(id)`:
//! both call exactly the v1, v6 and v7 values (RFC variant) timed, order them by their time
//! (the extractor truncates to the microsecond, so it can only tie what the index orders), and
//! put every other value after them (the extractor gives NULL, which `ASC` puts last). So
//!
//! ```text
//! ORDER BY uuid_ext_timestamp(col) [ASC] [NULLS LAST]   →  ORDER BY col USING <| NULLS LAST
//! ORDER BY uuid_ext_timestamp(col) DESC [NULLS FIRST]   →  ORDER BY col USING >| NULLS FIRST
//! ```
//!
//! returns the same rows in the same order, except among rows whose times tie, which the
//! query leaves unordered anyway. This rewrite replaces the first sort key with the column,
//! as a junk target entry; the extractor's own target entry stays, so the query's output is
//! unchanged. It applies only when that key is the query's only sort key (a later key would
//! order ties, which the index order does not), with the natural NULLS placement, in a plain
//! SELECT (no GROUP BY, DISTINCT, aggregates, window functions or set operations, whose
//! sorts mean something else, and no `FETCH FIRST … WITH TIES`, whose ties are the time's),
//! on a column of a table with a `uuid_time_ops` index.
//!
//! Keyset pages (`WHERE uuid_ext_timestamp(id) < $1 ORDER BY uuid_ext_timestamp(id) DESC
//! LIMIT 50`) combine it with [`super::time_windows`]: the index is read backwards from the
//! bound.
//!
//! For a byte-order key (`uuid_ops`, a plain primary key) the same holds when every value is a
//! v7 of the RFC variant — proven by `CHECK (uuid_is_v7(col))` ([`V7Proof::Exact`]), not by
//! `CHECK (uuid_extract_version(col) = 7)`, which a value of another variant passes — for any
//! extractor that gives each v7 value its millisecond: `ORDER BY uuid_extract_timestamp(id)
//! DESC` becomes `ORDER BY id DESC`.

use super::catalog::may_execute;
use super::oids::{BT_EQUAL, BT_GREATER, BT_LESS, TIMESTAMPTZ_GT, TIMESTAMPTZ_LT, UUID_BTREE_FAMILY};
use super::relations::{facts, V7Proof};
use super::{call_on_uuid_column, cells, Walk};
use pgrx::pg_sys::{self, Oid};

/// Rewrites the query's sort, if it has the shape above. Returns whether it did (the plan
/// then depends on the role's EXECUTE privilege on the operators used).
pub unsafe fn rewrite(query: *mut pg_sys::Query, walk: &mut Walk) -> bool {
    let q = &mut *query;
    if q.commandType != pg_sys::CmdType::CMD_SELECT
        || pg_sys::list_length(q.sortClause) != 1
        || !q.groupClause.is_null()
        || !q.groupingSets.is_null()
        || !q.distinctClause.is_null()
        || q.hasAggs
        || q.hasWindowFuncs
        || q.hasTargetSRFs
        || !q.setOperations.is_null()
        || !q.havingQual.is_null()
        // FETCH FIRST … WITH TIES takes the sort's equality as the ties: the key's would end
        // the ties at the last row of the same key, not of the same time.
        || q.limitOption == pg_sys::LimitOption::LIMIT_OPTION_WITH_TIES
    {
        return false;
    }
    let sort: *mut pg_sys::SortGroupClause = pg_sys::list_nth(q.sortClause, 0).cast();
    let descending = match (*sort).sortop.to_u32() {
        TIMESTAMPTZ_LT => false,
        TIMESTAMPTZ_GT => true,
        _ => return false,
    };
    let natural_nulls = (*sort).nulls_first == descending;
    let Some(entry) = cells(q.targetList)
        .map(|n| n.cast::<pg_sys::TargetEntry>())
        .find(|te| (**te).ressortgroupref == (*sort).tleSortGroupRef)
    else {
        return false;
    };
    let Some((call, var)) = call_on_uuid_column((*entry).expr.cast()) else {
        return false;
    };
    let Some(catalog) = walk.catalog.get() else {
        return false;
    };
    #[allow(clippy::unnecessary_cast)] // Var.varno is Index (u32) on 14, int from 15.
    let rte = pg_sys::list_nth(q.rtable, (*var).varno as i32 - 1).cast::<pg_sys::RangeTblEntry>();
    if (*rte).rtekind != pg_sys::RTEKind::RTE_RELATION {
        return false;
    }
    let facts = facts((*rte).relid, (*var).varattno, (*rte).inh, catalog);
    let families = &facts.index_families;
    let uuid_ops = Oid::from(UUID_BTREE_FAMILY);
    let family = if (*call).funcid == catalog.time_extractor
        && catalog.time_family != pg_sys::InvalidOid
        && families.contains(&catalog.time_family)
        && natural_nulls
    {
        catalog.time_family
    } else if families.contains(&uuid_ops)
        && catalog.exact_for_v7((*call).funcid)
        // Asked last: only a plan that would rely on it is made transient while it is pending.
        && facts.proof(&mut walk.transient) == V7Proof::Exact
    {
        // Every value an RFC 9562 v7 or NULL: byte order is time order, and the time is NULL
        // exactly where the key is, so any NULLS placement carries over.
        uuid_ops
    } else {
        return false;
    };
    let member = |strategy| pg_sys::get_opfamily_member(family, pg_sys::UUIDOID, pg_sys::UUIDOID, strategy);
    let (sortop, eqop) = (member(if descending { BT_GREATER } else { BT_LESS }), member(BT_EQUAL));
    if sortop == pg_sys::InvalidOid || eqop == pg_sys::InvalidOid || !may_execute(pg_sys::get_opcode(sortop)) {
        return false;
    }
    if family == uuid_ops && (*rte).inh {
        walk.proven_trees.push(((*rte).relid, facts.tree.clone()));
    }
    // The column as a junk target entry with its own sort reference.
    let next_ref =
        cells(q.targetList).map(|n| (*n.cast::<pg_sys::TargetEntry>()).ressortgroupref).max().unwrap_or(0) + 1;
    let column = pg_sys::makeTargetEntry(
        pg_sys::copyObjectImpl(var.cast()).cast(),
        (pg_sys::list_length(q.targetList) + 1) as pg_sys::AttrNumber,
        core::ptr::null_mut(),
        true,
    );
    (*column).ressortgroupref = next_ref;
    q.targetList = pg_sys::lappend(q.targetList, column.cast());
    (*sort).tleSortGroupRef = next_ref;
    (*sort).sortop = sortop;
    (*sort).eqop = eqop;
    (*sort).hashable = false;
    true
}
