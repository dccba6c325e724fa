//! Conversions between the generator's types and PostgreSQL's.

use crate::generator::time::UnixNanos;
use crate::generator::Bytes;
use pgrx::datum::{Timestamp, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, Uuid};

/// Microseconds from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
const PG_EPOCH_UNIX_US: i128 = 946_684_800_000_000;

#[inline]
pub fn uuid(b: Bytes) -> Uuid {
    Uuid::from_bytes(b)
}

#[inline]
pub fn bytes(u: &Uuid) -> &Bytes {
    u.as_bytes()
}

/// PostgreSQL microseconds since 2000 for an instant, rounded down.
fn pg_micros(ns: UnixNanos) -> i64 {
    // Every instant a UUID can carry (1582..10889) is far inside i64 and
    // PostgreSQL's timestamp range (4713 BC..294276 AD).
    (ns.div_euclid(1000) - PG_EPOCH_UNIX_US) as i64
}

pub fn to_timestamptz(ns: UnixNanos) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(pg_micros(ns)).unwrap_or_else(|_| out_of_range())
}

pub fn to_timestamp(ns: UnixNanos) -> Timestamp {
    Timestamp::try_from(pg_micros(ns)).unwrap_or_else(|_| out_of_range())
}

fn from_pg_micros(us: i64) -> UnixNanos {
    if us == i64::MIN || us == i64::MAX {
        out_of_range();
    }
    (i128::from(us) + PG_EPOCH_UNIX_US) * 1000
}

/// The instant of a finite timestamptz; infinities are an error.
pub fn from_timestamptz(ts: TimestampWithTimeZone) -> UnixNanos {
    from_pg_micros(ts.into_inner())
}

/// The instant of a finite timestamp read as UTC; infinities are an error.
pub fn from_timestamp(ts: Timestamp) -> UnixNanos {
    from_pg_micros(ts.into_inner())
}

fn out_of_range() -> ! {
    ereport!(ERROR, PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW, "timestamp out of range");
}
