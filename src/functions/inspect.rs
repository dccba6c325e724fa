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

use crate::pg::convert::{bytes, pg_micros, to_timestamptz, uuid, TextBytes};
use crate::pg::errors::invalid_uuid_text;
use crate::pg::fmgr::uuid_function;
use pgrx::datum::TimestampWithTimeZone;
use pgrx::pg_sys::Datum;
use pgrx::prelude::*;
use pgrx::Uuid;
use uuid_ext_core::text::{self, Spelling};
use uuid_ext_core::time::{unix_from_gregorian, NANOS_PER_MILLI};
use uuid_ext_core::{fields, v1, v6, v7, Bytes, Error};

/// PostgreSQL 18's `uuid_extract_timestamp()` semantics, in PostgreSQL microseconds: v1 and
/// v7 (to the millisecond) of the RFC variant, NULL otherwise. Every such time is far inside
/// timestamptz's range, so this cannot fail.
fn core_micros(b: &Bytes) -> Option<i64> {
    // v7 first: the keys of time queries.
    v7_micros(b).or_else(|| v1::decode_v1(b).map(|f| pg_micros(unix_from_gregorian(f.timestamp))))
}

/// The millisecond of a v7 UUID, in PostgreSQL microseconds.
fn v7_micros(b: &Bytes) -> Option<i64> {
    v7::unix_ts_ms(b).map(|ms| pg_micros(ms as i128 * NANOS_PER_MILLI))
}

uuid_function!(
    /// The timestamp of a v1 or v7 UUID, as PostgreSQL 18 computes it.
    uuid_extract_timestamp,
    "uuid_extract_timestamp",
    r#"CREATE FUNCTION "uuid_extract_timestamp"("uuid" uuid) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_extract_timestamp_wrapper';"#,
    |b| { core_micros(b).map(Datum::from) }
);

uuid_function!(
    /// The version of an RFC 9562-variant UUID, NULL for other variants (as PostgreSQL 17+).
    uuid_extract_version,
    "uuid_extract_version",
    r#"CREATE FUNCTION "uuid_extract_version"("uuid" uuid) RETURNS smallint
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_extract_version_wrapper';"#,
    |b| { fields::version(b).map(|v| Datum::from(i16::from(v))) }
);

uuid_function!(
    /// Whether a UUID is a version 7 of the RFC 9562 variant: true or false, never NULL for a
    /// value, so `CHECK (uuid_is_v7(id))` admits v7 keys only — unlike
    /// `CHECK (uuid_extract_version(id) = 7)`, which a value of another variant passes (its
    /// version is NULL). The planner hook takes this CHECK as proof that the key's byte order
    /// is its time order (docs/TIME_WINDOWS.md).
    uuid_is_v7,
    "uuid_is_v7",
    r#"CREATE FUNCTION "uuid_is_v7"("uuid" uuid) RETURNS bool
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_is_v7_wrapper';"#,
    |b| { Some(Datum::from(fields::version(b) == Some(7))) }
);

uuid_function!(
    /// The timestamp of a v1, v6 or v7 UUID (v7 to the millisecond).
    uuid_ext_timestamp,
    "uuid_ext_timestamp",
    r#"CREATE FUNCTION "uuid_ext_timestamp"("uuid" uuid) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_ext_timestamp_wrapper';"#,
    |b| {
        v6::decode_v6(b)
            .map(|f| pg_micros(unix_from_gregorian(f.timestamp)))
            .or_else(|| core_micros(b))
            .map(Datum::from)
    }
);

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
    v6::v1_to_v6(bytes(&uuid)).map(crate::pg::convert::uuid)
}

/// v6 → v1, the inverse of `uuid_v1_to_v6`; NULL if not v6.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_v6_to_v1(uuid: Uuid) -> Option<Uuid> {
    v6::v6_to_v1(bytes(&uuid)).map(crate::pg::convert::uuid)
}

uuid_function!(
    /// pg_uuidv7: the millisecond timestamp of a v7 UUID; NULL if not v7.
    uuid_v7_to_timestamptz,
    "uuid_v7_to_timestamptz",
    r#"CREATE FUNCTION "uuid_v7_to_timestamptz"("uuid" uuid) RETURNS timestamp with time zone
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_to_timestamptz_wrapper';"#,
    |b| { v7_micros(b).map(Datum::from) }
);

uuid_function!(
    /// pg_uuidv7: as `uuid_v7_to_timestamptz`, as a UTC timestamp.
    uuid_v7_to_timestamp,
    "uuid_v7_to_timestamp",
    r#"CREATE FUNCTION "uuid_v7_to_timestamp"("uuid" uuid) RETURNS timestamp
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_to_timestamp_wrapper';"#,
    |b| { v7_micros(b).map(Datum::from) }
);

/// The URN form, `urn:uuid:` + canonical text (RFC 4122 §3, RFC 9562 §4).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_to_urn(uuid: Uuid) -> String {
    text::format(bytes(&uuid), Spelling::Urn)
}

/// Parses a `urn:uuid:` URN (prefix in any case); anything else, in any
/// database encoding, is an error (22P02).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_from_urn(urn: TextBytes) -> Uuid {
    match std::str::from_utf8(urn.0).map_err(|_| Error::InvalidText).and_then(text::parse) {
        Ok((b, Spelling::Urn)) => uuid(b),
        _ => invalid_uuid_text(
            &urn.for_message(),
            None,
            Some("uuid_from_urn() accepts only the URN form: urn:uuid: followed by 8-4-4-4-12 hex digits."),
        ),
    }
}
