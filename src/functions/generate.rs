//! SQL generators: thin wrappers over [`uuid_ext_core`] and its per-backend [`state`].
//!
//! Labels follow uuid-ossp (generators VOLATILE STRICT PARALLEL SAFE; name-based
//! and constants IMMUTABLE STRICT PARALLEL SAFE). `uuidv4()` and `uuidv7()`
//! carry PostgreSQL 18's names and are created on every major: on 18 the
//! built-ins in `pg_catalog` are found first, and the extension's copies
//! serve the schema-qualified calls a dump taken on an older major contains.

use crate::functions::gucs;
use crate::functions::gucs::V7Scope;
use crate::pg::convert::{bytes, from_timestamp, from_timestamptz, to_timestamptz, uuid, TextBytes};
use crate::pg::errors::{invalid_argument, raise, Kind, OrRaise};
use crate::pg::fmgr::generator_function;
use crate::pg::shmem;
use pgrx::datum::{Interval, Timestamp, TimestampWithTimeZone};
use pgrx::pg_sys::panic::CaughtError;
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, PgTryBuilder, Uuid};
use uuid_ext_core::monotonic::{self, V7Method};
use uuid_ext_core::state;
use uuid_ext_core::{self, namespace, v1, v2, v3, v4, v5, v6, v7, v8, Bytes, Error};

/// The clock a backend's time-based generators read: the wall clock, moved
/// by `uuid_ext.clock_offset_ms` (a superuser-only test aid, 0 by default).
/// Cluster scope reads the wall clock itself: a session's test aid must not
/// move the position every other session's keys follow.
#[inline]
fn generator_clock() -> i128 {
    state::wall_clock() + gucs::clock_offset_ns()
}

// ---- random (v4) ---------------------------------------------------------

/// UUIDv4: 122 random bits from a per-backend CSPRNG (RFC 9562 §5.4).
pub fn uuid_generate_v4() -> Uuid {
    uuid(v4_bytes())
}

fn v4_bytes() -> Bytes {
    state::with(|s| v4::from_random(s.rng.bytes16()))
}

// The generators a table's DEFAULT calls once per row are plain C functions
// (crate::pg::fmgr::generator_function!), without pgrx's per-call wrapper.
generator_function!(
    /// SQL `uuid_generate_v4()`.
    uuid_generate_v4_sql,
    "uuid_generate_v4",
    r#"CREATE FUNCTION "uuid_generate_v4"() RETURNS uuid
STRICT VOLATILE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_generate_v4_wrapper';"#,
    || { Some(v4_bytes()) },
    uuid_generate_v4
);

generator_function!(
    /// PostgreSQL 18's name for `uuid_generate_v4()` (shadowed by the built-in on 18).
    uuidv4_sql,
    "uuidv4",
    r#"CREATE FUNCTION "uuidv4"() RETURNS uuid
STRICT VOLATILE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuidv4_wrapper';"#,
    || { Some(v4_bytes()) },
    uuid_generate_v4
);

// ---- Unix time (v7) -------------------------------------------------------

fn v7_now(method: V7Method, shift_ns: i128) -> Uuid {
    let result = match gucs::v7_scope() {
        V7Scope::Backend => {
            let now = generator_clock();
            state::with(|s| {
                let rng = &mut s.rng;
                s.v7.next(method, now, shift_ns, || rng.next_u64())
            })
        }
        V7Scope::Cluster => {
            let shared = shmem::cluster_v7();
            monotonic::next_cluster(shared, state::wall_clock(), shift_ns, state::with(|s| s.rng.next_u64()))
        }
    };
    uuid(result.or_raise(Kind::V7))
}

/// UUIDv7, strictly increasing within a backend (layout: `uuid_ext.v7_method`), or
/// across the server under `uuid_ext.v7_scope = 'cluster'`.
pub fn uuid_generate_v7() -> Uuid {
    v7_now(gucs::v7_method(), 0)
}

/// [`uuid_generate_v7`]'s value where nothing can go wrong: backend scope, a value the state
/// machine can make. Anything else (cluster scope, which needs shared memory that may be
/// missing; a clock past the v7 range) is the slow path's, which raises its errors.
fn v7_fast() -> Option<Bytes> {
    if gucs::v7_scope() != V7Scope::Backend {
        return None;
    }
    let (method, now) = (gucs::v7_method(), generator_clock());
    state::with(|s| {
        let rng = &mut s.rng;
        s.v7.next(method, now, 0, || rng.next_u64())
    })
    .ok()
}

generator_function!(
    /// SQL `uuid_generate_v7()`.
    uuid_generate_v7_sql,
    "uuid_generate_v7",
    r#"CREATE FUNCTION "uuid_generate_v7"() RETURNS uuid
STRICT VOLATILE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_generate_v7_wrapper';"#,
    || { v7_fast() },
    uuid_generate_v7
);

generator_function!(
    /// PostgreSQL 18's `uuidv7()` (shadowed by the built-in on 18).
    uuidv7_sql,
    "uuidv7",
    r#"CREATE FUNCTION "uuidv7"() RETURNS uuid
STRICT VOLATILE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuidv7_wrapper';"#,
    || { v7_fast() },
    uuid_generate_v7
);

/// The offset PostgreSQL's calendar arithmetic gives `shift` at this moment
/// (months and days have no fixed length), in nanoseconds. Like PostgreSQL
/// 18, computed with microsecond precision via `timestamptz + interval`.
/// Every way this fails is a v7 range error with PostgreSQL 18's wording:
/// infinite intervals (PostgreSQL 17+), and shifts past PostgreSQL's own
/// timestamp range, which `timestamptz + interval` rejects with its 22008.
fn shift_ns(shift: Interval) -> i128 {
    let infinite =
        |m: i32, d: i32, us: i64| m == d && (m == i32::MAX && us == i64::MAX || m == i32::MIN && us == i64::MIN);
    if infinite(shift.months(), shift.days(), shift.micros()) {
        invalid_argument(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            "interval out of range for UUID version 7".into(),
            Some("UUID version 7 does not support infinite intervals."),
        );
    }
    let now = to_timestamptz(generator_clock());
    let shifted = PgTryBuilder::new(|| {
        // SAFETY: a built-in, strict function of two non-null arguments.
        unsafe {
            pgrx::direct_function_call::<TimestampWithTimeZone>(
                pg_sys::timestamptz_pl_interval,
                &[now.into_datum(), shift.into_datum()],
            )
        }
    })
    .catch_when(PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW, |_: CaughtError| {
        raise(Error::TimestampOutOfRange, Kind::V7)
    })
    .execute();
    shifted.map_or(0, |s| from_timestamptz(s) - from_timestamptz(now))
}

/// UUIDv7 for the current time shifted by `shift` (as PostgreSQL 18's
/// `uuidv7(interval)`): the backend's monotonic state advances on the
/// unshifted clock, the shift is added afterwards.
#[pg_extern(volatile, strict, parallel_safe, name = "uuid_generate_v7")]
pub fn uuid_generate_v7_shift(shift: Interval) -> Uuid {
    v7_now(gucs::v7_method(), shift_ns(shift))
}

/// PostgreSQL 18's `uuidv7(interval)` (shadowed by the built-in on 18).
#[pg_extern(volatile, strict, parallel_safe, name = "uuidv7")]
pub fn uuidv7_shift(shift: Interval) -> Uuid {
    uuid_generate_v7_shift(shift)
}

/// `n` v7 values from one state: strictly increasing in the order returned.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v7_batch(n: i32) -> SetOfIterator<'static, Uuid> {
    if n < 0 {
        invalid_argument(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("number of UUIDs must not be negative, got {n}"),
            None,
        );
    }
    let method = gucs::v7_method();
    SetOfIterator::new((0..n).map(move |_| v7_now(method, 0)))
}

fn v7_at(ns: i128, zero: bool) -> Uuid {
    let ms = uuid_ext_core::time::unix_ms_from_unix(ns).or_raise(Kind::V7);
    let (rand_a, rand_b) = if zero {
        (0, 0)
    } else {
        state::with(|s| {
            let r = s.rng.next_u64();
            ((r >> 52) as u16, s.rng.next_u64())
        })
    };
    uuid(v7::encode(ms, rand_a, rand_b))
}

/// pg_uuidv7: a v7 for the millisecond of `ts`; random bits zero when `zero`.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_timestamptz_to_v7(ts: TimestampWithTimeZone, zero: default!(bool, false)) -> Uuid {
    v7_at(from_timestamptz(ts), zero)
}

/// pg_uuidv7: as [`uuid_timestamptz_to_v7`], the timestamp read as UTC.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_timestamp_to_v7(ts: Timestamp, zero: default!(bool, false)) -> Uuid {
    v7_at(from_timestamp(ts), zero)
}

// ---- Gregorian time (v1, v2, v6) ----------------------------------------

fn gregorian_fields(node: Option<[u8; 6]>) -> v1::GregorianFields {
    let now = generator_clock();
    state::with(|s| {
        let (timestamp, clock_seq) = s.gregorian.next(now).or_raise(Kind::V1);
        let node = node.unwrap_or(s.node);
        v1::GregorianFields { timestamp, clock_seq, node }
    })
}

/// UUIDv1 with this backend's random multicast node (RFC 9562 §6.10).
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v1() -> Uuid {
    uuid(v1::encode_v1(&gregorian_fields(None)))
}

/// UUIDv1 with a fresh random multicast node for every value (uuid-ossp's v1mc).
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v1mc() -> Uuid {
    let r = state::with(|s| s.rng.next_u64().to_be_bytes());
    let node = v1::random_node([r[0], r[1], r[2], r[3], r[4], r[5]]);
    uuid(v1::encode_v1(&gregorian_fields(Some(node))))
}

/// UUIDv6: v1's fields in time order (RFC 9562 §5.6).
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v6() -> Uuid {
    uuid(v6::encode_v6(&gregorian_fields(None)))
}

/// UUIDv2 (DCE Security): `local_domain` 0..255 (0 person, 1 group, 2 org),
/// `local_id` 0..4294967295 (a POSIX UID/GID). At most 64 distinct values per
/// backend, domain and id in each 7.16-minute step of v2's truncated clock;
/// a 65th is an error (2200H) rather than a repeat.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v2(local_domain: i32, local_id: i64) -> Uuid {
    let domain = u8::try_from(local_domain).unwrap_or_else(|_| {
        invalid_argument(
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!("local_domain must be between 0 and 255, got {local_domain}"),
            None,
        )
    });
    let id = u32::try_from(local_id).unwrap_or_else(|_| {
        invalid_argument(
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!("local_id must be between 0 and 4294967295, got {local_id}"),
            None,
        )
    });
    let fields = gregorian_fields(None);
    let (timestamp, seq) = state::with(|s| s.dce.next(fields.timestamp, domain, id)).or_raise(Kind::V2);
    // The 6 stored clock-sequence bits count values (see uuid_ext_core::v2).
    let fields = v1::GregorianFields { timestamp, clock_seq: u16::from(seq) << 8, ..fields };
    uuid(v2::encode_v2(&fields, domain, id))
}

// ---- name-based (v3, v5, v8) and custom (v8) ----------------------------

/// UUIDv3: MD5 of namespace and name (RFC 9562 §5.3). The name is hashed as
/// the bytes of the text in the database encoding, as uuid-ossp does.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_generate_v3(namespace: Uuid, name: TextBytes) -> Uuid {
    uuid(v3::from_name(bytes(&namespace), name.0))
}

/// UUIDv5: SHA-1 of namespace and name (RFC 9562 §5.5).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_generate_v5(namespace: Uuid, name: TextBytes) -> Uuid {
    uuid(v5::from_name(bytes(&namespace), name.0))
}

/// UUIDv8: SHA-256 of namespace and name (RFC 9562 Appendix B.2).
#[pg_extern(immutable, strict, parallel_safe, name = "uuid_generate_v8")]
pub fn uuid_generate_v8_sha256(namespace: Uuid, name: TextBytes) -> Uuid {
    uuid(v8::from_name_sha256(bytes(&namespace), name.0))
}

/// UUIDv8 from 16 custom bytes; only version and variant are overwritten.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_generate_v8(custom: &[u8]) -> Uuid {
    uuid(v8::from_bytes(custom).or_raise(Kind::V8))
}

// ---- constants ------------------------------------------------------------

/// The Nil UUID, all zeros (RFC 9562 §5.9).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_nil() -> Uuid {
    uuid(uuid_ext_core::NIL)
}

/// The Max UUID, all ones (RFC 9562 §5.10).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_max() -> Uuid {
    uuid(uuid_ext_core::MAX)
}

/// Namespace ID for fully qualified domain names (RFC 9562 §6.6).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ns_dns() -> Uuid {
    uuid(namespace::DNS)
}

/// Namespace ID for URLs (RFC 9562 §6.6).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ns_url() -> Uuid {
    uuid(namespace::URL)
}

/// Namespace ID for ISO OIDs (RFC 9562 §6.6).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ns_oid() -> Uuid {
    uuid(namespace::OID)
}

/// Namespace ID for X.500 DNs (RFC 9562 §6.6).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_ns_x500() -> Uuid {
    uuid(namespace::X500)
}
