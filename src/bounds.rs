//! Range bounds for time windows on UUID keys: immutable functions of a
//! timestamp that an index scan can compare a UUID column with.
//!
//! For an instant `t`, the *lower bound* is the smallest UUID whose
//! timestamp is at or after `t`, the *upper bound* the smallest whose
//! timestamp, as the extractors return it (to the microsecond), is after
//! `t`. So for the values each pair covers:
//!
//! ```text
//! id >= lower(t0) AND id <  lower(t1)   ⇔   t0 <= time < t1
//! id >= lower(t0) AND id <  upper(t1)   ⇔   t0 <= time <= t1
//! ```
//!
//! * `uuid_v7_lower_bound`/`uuid_v7_upper_bound`: byte order (`uuid_ops`,
//!   a plain primary key), exact for v7 values. Other versions are not
//!   ordered by time in bytes; a range may include some of them.
//! * `uuid_time_lower_bound`/`uuid_time_upper_bound`: the `uuid_time_ops`
//!   order, exact for v1, v6 and v7 together.
//!
//! `-infinity` and `infinity` bound like instants before and after every
//! timestamp a UUID can hold. All four are IMMUTABLE, so a bound of a
//! constant is folded at plan time and a bound of `now() - interval '1 hour'`
//! is an index condition computed once per scan.

use crate::convert::{from_timestamptz, uuid};
use pgrx::datum::TimestampWithTimeZone;
use pgrx::prelude::*;
use pgrx::Uuid;
use uuid_ext_core::time::UnixNanos;
use uuid_ext_core::{time_order, v7, Bytes};

/// One microsecond, PostgreSQL's timestamp resolution, in nanoseconds.
const MICROSECOND: UnixNanos = 1_000;

fn lower(ts: TimestampWithTimeZone, bound: fn(UnixNanos) -> Bytes) -> Uuid {
    uuid(bound(from_timestamptz(ts)))
}

/// Timestamps are microseconds, so "after `ts`" is "at or after `ts` + 1 µs".
fn upper(ts: TimestampWithTimeZone, bound: fn(UnixNanos) -> Bytes) -> Uuid {
    uuid(bound(from_timestamptz(ts) + MICROSECOND))
}

/// The smallest v7 in byte order whose timestamp is at or after `ts` (the v7 of
/// `ts`'s millisecond, rounded up, with all random bits zero): at or below every
/// such v7, and above every v7 of an earlier time. `id >= bound` selects them.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v7_lower_bound(ts: TimestampWithTimeZone) -> Uuid {
    lower(ts, v7::lower_bound)
}

/// The smallest v7 in byte order whose timestamp is after `ts`: `id < bound`
/// selects the v7s of `ts` and before.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v7_upper_bound(ts: TimestampWithTimeZone) -> Uuid {
    upper(ts, v7::lower_bound)
}

/// The smallest UUID in `uuid_time_ops` order whose time is at or after `ts`:
/// `id >=| uuid_time_lower_bound(t0) AND id <| uuid_time_lower_bound(t1)`
/// selects exactly the v1/v6/v7 values with t0 <= time < t1.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_lower_bound(ts: TimestampWithTimeZone) -> Uuid {
    lower(ts, time_order::lower_bound)
}

/// The smallest UUID in `uuid_time_ops` order whose time, read to the
/// microsecond, is after `ts`.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_time_upper_bound(ts: TimestampWithTimeZone) -> Uuid {
    upper(ts, time_order::lower_bound)
}
