//! SQL generators: thin wrappers over [`crate::generator`] and [`crate::state`].
//!
//! Labels follow uuid-ossp (generators VOLATILE STRICT PARALLEL SAFE; name-based
//! and constants IMMUTABLE STRICT PARALLEL SAFE). Functions PostgreSQL itself
//! provides on newer servers (`uuidv4`, `uuidv7`) are only created where the
//! server lacks them: an extension copy would be shadowed by `pg_catalog`.

use crate::convert::{bytes, from_timestamp, from_timestamptz, to_timestamptz, uuid};
use crate::errors::OrRaise;
use crate::generator::monotonic::{self, V7Method};
use crate::generator::{self, name, namespace, v1, v2, v4, v7, v8};
use crate::gucs::V7Scope;
use crate::{gucs, shmem, state};
use pgrx::datum::{Interval, Timestamp, TimestampWithTimeZone};
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, Uuid};

/// The clock the time-based generators read: the wall clock, moved by
/// `uuid_ext.clock_offset_ms` (a superuser-only test aid, 0 by default).
#[inline]
fn now() -> i128 {
    state::now() + gucs::clock_offset_ns()
}

// ---- random (v4) ---------------------------------------------------------

/// UUIDv4: 122 random bits from a per-backend CSPRNG (RFC 9562 §5.4).
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v4() -> Uuid {
    uuid(state::with(|s| v4::from_random(s.rng.bytes16())))
}

/// PostgreSQL 18's name for [`uuid_generate_v4`], on servers that lack it.
///
/// On 18 the C symbol is still built (`sql = false` only omits the SQL), so a
/// `pg_upgrade` that carries this function over from an older server finds it.
#[cfg_attr(not(feature = "pg18"), pg_extern(volatile, strict, parallel_safe))]
#[cfg_attr(feature = "pg18", pg_extern(volatile, strict, parallel_safe, sql = false))]
pub fn uuidv4() -> Uuid {
    uuid_generate_v4()
}

// ---- Unix time (v7) -------------------------------------------------------

fn v7_now(method: V7Method, shift_ns: i128) -> Uuid {
    let now = now();
    let result = match gucs::v7_scope() {
        V7Scope::Backend => state::with(|s| {
            let rng = &mut s.rng;
            s.v7.next(method, now, shift_ns, || rng.next_u64())
        }),
        V7Scope::Cluster => {
            let shared = shmem::cluster_v7();
            monotonic::next_cluster(shared, now, shift_ns, state::with(|s| s.rng.next_u64()))
        }
    };
    uuid(result.or_raise("UUID version 7"))
}

/// UUIDv7, strictly increasing within a backend (layout: `uuid_ext.v7_method`), or
/// across the server under `uuid_ext.v7_scope = 'cluster'`.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v7() -> Uuid {
    v7_now(gucs::v7_method(), 0)
}

/// The offset PostgreSQL's calendar arithmetic gives `shift` at this moment
/// (months and days have no fixed length), in nanoseconds. Like PostgreSQL
/// 18, computed with microsecond precision via `timestamptz + interval`,
/// which raises its own "timestamp out of range" (22008) on overflow.
fn shift_ns(shift: Interval) -> i128 {
    let now = to_timestamptz(now());
    // SAFETY: a built-in, strict function of two non-null arguments.
    let shifted: Option<TimestampWithTimeZone> = unsafe {
        pgrx::direct_function_call(
            pg_sys::timestamptz_pl_interval,
            &[now.into_datum(), shift.into_datum()],
        )
    };
    shifted.map_or(0, |s| from_timestamptz(s) - from_timestamptz(now))
}

/// UUIDv7 for the current time shifted by `shift` (as PostgreSQL 18's
/// `uuidv7(interval)`): the backend's monotonic state advances on the
/// unshifted clock, the shift is added afterwards.
#[pg_extern(volatile, strict, parallel_safe, name = "uuid_generate_v7")]
pub fn uuid_generate_v7_shift(shift: Interval) -> Uuid {
    v7_now(gucs::v7_method(), shift_ns(shift))
}

/// PostgreSQL 18's `uuidv7()`, on servers that lack it (C symbol always built).
#[cfg_attr(not(feature = "pg18"), pg_extern(volatile, strict, parallel_safe))]
#[cfg_attr(feature = "pg18", pg_extern(volatile, strict, parallel_safe, sql = false))]
pub fn uuidv7() -> Uuid {
    uuid_generate_v7()
}

/// PostgreSQL 18's `uuidv7(interval)`, on servers that lack it (C symbol always built).
#[cfg_attr(not(feature = "pg18"), pg_extern(volatile, strict, parallel_safe, name = "uuidv7"))]
#[cfg_attr(feature = "pg18", pg_extern(volatile, strict, parallel_safe, name = "uuidv7", sql = false))]
pub fn uuidv7_shift(shift: Interval) -> Uuid {
    uuid_generate_v7_shift(shift)
}

/// `n` v7 values from one state: strictly increasing in the order returned.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v7_batch(n: i32) -> SetOfIterator<'static, Uuid> {
    if n < 0 {
        ereport!(
            ERROR,
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("number of UUIDs must not be negative, got {n}")
        );
    }
    let method = gucs::v7_method();
    SetOfIterator::new((0..n).map(move |_| v7_now(method, 0)))
}

fn v7_at(ns: i128, zero: bool) -> Uuid {
    let ms = generator::time::unix_ms_from_unix(ns).or_raise("UUID version 7");
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
    let now = now();
    state::with(|s| {
        let (timestamp, clock_seq) = s.gregorian.next(now).or_raise("UUID version 1");
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
    uuid(v1::encode_v6(&gregorian_fields(None)))
}

/// UUIDv2 (DCE Security): `local_domain` 0..255 (0 person, 1 group, 2 org),
/// `local_id` 0..4294967295 (a POSIX UID/GID). At most 64 distinct values per
/// backend, domain and id in each 7.16-minute step of v2's truncated clock.
#[pg_extern(volatile, strict, parallel_safe)]
pub fn uuid_generate_v2(local_domain: i32, local_id: i64) -> Uuid {
    let domain = u8::try_from(local_domain).unwrap_or_else(|_| {
        ereport!(
            ERROR,
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!("local_domain must be between 0 and 255, got {local_domain}")
        );
    });
    let id = u32::try_from(local_id).unwrap_or_else(|_| {
        ereport!(
            ERROR,
            PgSqlErrorCode::ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE,
            format!("local_id must be between 0 and 4294967295, got {local_id}")
        );
    });
    let fields = gregorian_fields(None);
    let seq = state::with(|s| {
        s.dce_seq = s.dce_seq.wrapping_add(1);
        s.dce_seq & 0x3f
    });
    // The 6 stored clock-sequence bits count values, so 64 in a row differ
    // even within one 7-minute v2 time step (see generator::v2).
    let fields = v1::GregorianFields { clock_seq: u16::from(seq) << 8, ..fields };
    uuid(v2::encode_v2(&fields, domain, id))
}

// ---- name-based (v3, v5, v8) and custom (v8) ----------------------------

/// UUIDv3: MD5 of namespace and name (RFC 9562 §5.3).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_generate_v3(namespace: Uuid, name: &str) -> Uuid {
    uuid(name::v3(bytes(&namespace), name.as_bytes()))
}

/// UUIDv5: SHA-1 of namespace and name (RFC 9562 §5.5).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_generate_v5(namespace: Uuid, name: &str) -> Uuid {
    uuid(name::v5(bytes(&namespace), name.as_bytes()))
}

/// UUIDv8: SHA-256 of namespace and name (RFC 9562 Appendix B.2).
#[pg_extern(immutable, strict, parallel_safe, name = "uuid_generate_v8")]
pub fn uuid_generate_v8_sha256(namespace: Uuid, name: &str) -> Uuid {
    uuid(name::v8_sha256(bytes(&namespace), name.as_bytes()))
}

/// UUIDv8 from 16 custom bytes; only version and variant are overwritten.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_generate_v8(custom: &[u8]) -> Uuid {
    uuid(v8::from_bytes(custom).or_raise("UUID version 8"))
}

// ---- constants ------------------------------------------------------------

/// The Nil UUID, all zeros (RFC 9562 §5.9).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_nil() -> Uuid {
    uuid(generator::NIL)
}

/// The Max UUID, all ones (RFC 9562 §5.10).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_max() -> Uuid {
    uuid(generator::MAX)
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
