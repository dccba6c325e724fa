//! The `uuid_time_ops` btree operator class: UUIDs in the order of the time
//! inside them (v1, v6 and v7 interleaved), with sortsupport and 64-bit
//! abbreviated keys. The order itself is [`uuid_ext_core::time_order`];
//! the operators and the class are declared in `sql/uuid_time_ops.sql`.

use crate::pg::convert::bytes;
use crate::pg::guards::abort_on_panic;
use core::cmp::Ordering;
use core::ffi::c_int;
use pgrx::prelude::*;
use pgrx::{Internal, Uuid};
use uuid_ext_core::time_order;
use uuid_ext_core::Bytes;

/// btree support function 1: -1, 0 or 1 as `a` sorts before, with or after `b`.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_cmp(a: Uuid, b: Uuid) -> i32 {
    time_order::compare(bytes(&a), bytes(&b)) as i32
}

#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_lt(a: Uuid, b: Uuid) -> bool {
    time_order::compare(bytes(&a), bytes(&b)) == Ordering::Less
}

#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_le(a: Uuid, b: Uuid) -> bool {
    time_order::compare(bytes(&a), bytes(&b)) != Ordering::Greater
}

#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_ge(a: Uuid, b: Uuid) -> bool {
    time_order::compare(bytes(&a), bytes(&b)) != Ordering::Less
}

#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_gt(a: Uuid, b: Uuid) -> bool {
    time_order::compare(bytes(&a), bytes(&b)) == Ordering::Greater
}

/// # Safety
/// `d` is a non-null `uuid` datum: a pointer to 16 octets.
#[inline]
unsafe fn datum_bytes<'a>(d: pg_sys::Datum) -> &'a Bytes {
    // SAFETY: the caller passes a uuid datum, a pointer to its 16 bytes.
    unsafe { &*d.cast_mut_ptr::<Bytes>() }
}

// The sort callbacks below are called by PostgreSQL directly, millions of times per sort,
// without pgrx's guard: each body only reads 16 bytes and compares integers, which cannot
// panic, and abort_on_panic() makes sure none could unwind into PostgreSQL.

unsafe extern "C-unwind" fn full_cmp(a: pg_sys::Datum, b: pg_sys::Datum, _: pg_sys::SortSupport) -> c_int {
    // SAFETY: the sort passes non-null uuid datums.
    abort_on_panic(|| unsafe { time_order::compare(datum_bytes(a), datum_bytes(b)) as c_int })
}

unsafe extern "C-unwind" fn abbrev_convert(d: pg_sys::Datum, _: pg_sys::SortSupport) -> pg_sys::Datum {
    // SAFETY: the sort passes a non-null uuid datum.
    abort_on_panic(|| unsafe { pg_sys::Datum::from(time_order::key(datum_bytes(d)) as usize) })
}

/// The key is the full time (or 63 leading bits of an untimed value): it
/// never loses enough to be worth aborting.
unsafe extern "C-unwind" fn abbrev_abort(_: c_int, _: pg_sys::SortSupport) -> bool {
    false
}

/// btree support function 2 (sortsupport).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_sortsupport(mut ssup: Internal) {
    // SAFETY: PostgreSQL calls this with a valid SortSupportData.
    let Some(ssup) = (unsafe { ssup.get_mut::<pg_sys::SortSupportData>() }) else {
        return;
    };
    // Abbreviated keys need a 64-bit Datum (all platforms pgrx supports).
    if ssup.abbreviate && core::mem::size_of::<pg_sys::Datum>() >= 8 {
        ssup.comparator = Some(crate::pg::compat::abbrev_unsigned_cmp);
        ssup.abbrev_converter = Some(abbrev_convert);
        ssup.abbrev_abort = Some(abbrev_abort);
        // Not just the tie-break: PostgreSQL also installs this as *the*
        // comparator when it drops abbreviation (e.g. bounded sorts for LIMIT).
        ssup.abbrev_full_comparator = Some(full_cmp);
    } else {
        ssup.comparator = Some(full_cmp);
    }
}
