//! SQL introspection: versions, variants, timestamps and fields of UUIDs.
//!
//! Every extractor returns NULL for a UUID whose version or variant does not
//! carry the field asked for, as PostgreSQL's own `uuid_extract_timestamp()`
//! does; none of them raises an error for any stored value. Names other than
//! the PostgreSQL 17/18 compatibility functions start with `uuid_ext_` or
//! `uuid_v…`, which core PostgreSQL does not use, so they are never shadowed.
//!
//! `uuid_extract_timestamp()` and `uuid_extract_version()` carry PostgreSQL's
//! names and are created on every major. On 17 and 18 `pg_catalog`'s own
//! are found first unless `search_path` lists `pg_catalog` after this
//! extension's schema; that matters on 17, whose built-in
//! `uuid_extract_timestamp()` reads version 1 only (README, "PostgreSQL 17").
//! The copies also serve schema-qualified calls in dumps from older majors.

use crate::convert::{bytes, to_timestamp, to_timestamptz, uuid, TextBytes};
use crate::errors::invalid_uuid_text;
use pgrx::datum::{Timestamp, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::Uuid;
use uuid_ext_core::text::{self, Form};
use uuid_ext_core::time::{unix_from_gregorian, NANOS_PER_MILLI};
use uuid_ext_core::{fields, v1, v6, v7, Error};

fn v7_millis_ns(u: &Uuid) -> Option<i128> {
    v7::unix_ts_ms(bytes(u)).map(|ms| ms as i128 * NANOS_PER_MILLI)
}

/// PostgreSQL 18's `uuid_extract_timestamp()` semantics: v1 and v7 (to the
/// millisecond) of the RFC variant, NULL otherwise.
fn core_timestamp(u: &Uuid) -> Option<TimestampWithTimeZone> {
    let b = bytes(u);
    // v7 first: the keys of time queries.
    v7_millis_ns(u).or_else(|| v1::decode_v1(b).map(|f| unix_from_gregorian(f.timestamp))).map(to_timestamptz)
}

/// The timestamp of a v1 or v7 UUID, as PostgreSQL 18 computes it.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_extract_timestamp(uuid: Uuid) -> Option<TimestampWithTimeZone> {
    core_timestamp(&uuid)
}

/// The version of an RFC 9562-variant UUID, NULL for other variants (as
/// PostgreSQL 17+).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_extract_version(uuid: Uuid) -> Option<i16> {
    fields::version(bytes(&uuid)).map(i16::from)
}

/// Whether a UUID is a version 7 of the RFC 9562 variant: true or false, never NULL for a
/// value, so `CHECK (uuid_is_v7(id))` admits v7 keys only — unlike
/// `CHECK (uuid_extract_version(id) = 7)`, which a value of another variant passes (its
/// version is NULL). The planner hook takes this CHECK as proof that the key's byte order is
/// its time order (README, "Time windows").
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_is_v7(uuid: Uuid) -> bool {
    fields::version(bytes(&uuid)) == Some(7)
}

/// The timestamp of a v1, v6 or v7 UUID (v7 to the millisecond).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ext_timestamp(uuid: Uuid) -> Option<TimestampWithTimeZone> {
    v6::decode_v6(bytes(&uuid))
        .map(|f| to_timestamptz(unix_from_gregorian(f.timestamp)))
        .or_else(|| core_timestamp(&uuid))
}

/// The timestamp of a v7 UUID reading `rand_a` as a 12-bit sub-millisecond
/// fraction (RFC 9562 §6.2 Method 3), rounded down to the microsecond.
/// Meaningful for values from PostgreSQL 18's `uuidv7()` and from
/// uuid_ext's `default` and `pg18` methods; for others it adds noise < 1 ms.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ext_timestamp_subms(uuid: Uuid) -> Option<TimestampWithTimeZone> {
    v7::instant_with_subms(bytes(&uuid)).map(to_timestamptz)
}

/// The variant (RFC 9562 §4.1 Table 1): 'NCS', 'RFC 9562', 'Microsoft' or 'Future'.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ext_variant(uuid: Uuid) -> &'static str {
    fields::variant(bytes(&uuid)).label()
}

/// The 14-bit clock sequence of a v1 or v6 UUID.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ext_clock_seq(uuid: Uuid) -> Option<i32> {
    v1::decode_gregorian(bytes(&uuid)).map(|f| i32::from(f.clock_seq))
}

/// The 48-bit node of a v1 or v6 UUID, as 6 bytes.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ext_node(uuid: Uuid) -> Option<Vec<u8>> {
    v1::decode_gregorian(bytes(&uuid)).map(|f| f.node.to_vec())
}

/// v1 → v6 with the same timestamp, clock sequence and node; NULL if not v1.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v1_to_v6(uuid: Uuid) -> Option<Uuid> {
    v6::v1_to_v6(bytes(&uuid)).map(crate::convert::uuid)
}

/// v6 → v1, the inverse of `uuid_v1_to_v6`; NULL if not v6.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v6_to_v1(uuid: Uuid) -> Option<Uuid> {
    v6::v6_to_v1(bytes(&uuid)).map(crate::convert::uuid)
}

/// pg_uuidv7: the millisecond timestamp of a v7 UUID; NULL if not v7.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v7_to_timestamptz(uuid: Uuid) -> Option<TimestampWithTimeZone> {
    v7_millis_ns(&uuid).map(to_timestamptz)
}

/// pg_uuidv7: as `uuid_v7_to_timestamptz`, as a UTC timestamp.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v7_to_timestamp(uuid: Uuid) -> Option<Timestamp> {
    v7_millis_ns(&uuid).map(to_timestamp)
}

/// The URN form, `urn:uuid:` + canonical text (RFC 4122 §3, RFC 9562 §4).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_to_urn(uuid: Uuid) -> String {
    text::format(bytes(&uuid), Form::Urn)
}

/// Parses a `urn:uuid:` URN (prefix in any case); anything else, in any
/// database encoding, is an error (22P02).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_from_urn(urn: TextBytes) -> Uuid {
    match std::str::from_utf8(urn.0).map_err(|_| Error::InvalidText).and_then(text::parse) {
        Ok((b, Form::Urn)) => uuid(b),
        _ => invalid_uuid_text(
            &urn.for_message(),
            None,
            Some("uuid_from_urn() accepts only the URN form: urn:uuid: followed by 8-4-4-4-12 hex digits."),
        ),
    }
}

pgrx::extension_sql_file!("../sql/pg17_search_path.sql", name = "pg17_search_path", finalize);
