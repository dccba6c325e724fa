//! UUIDv7: 48-bit Unix milliseconds, then 74 bits that are random, a
//! counter, or a sub-millisecond fraction, depending on the method of §6.2
//! (see [`super::monotonic`] for the state machine that chooses them).
//!
//! ```text
//!  unix_ts_ms (48) | ver=7 (4) | rand_a (12) | var=10 (2) | rand_b (62)
//! ```
//!
//! # References
//! * RFC 9562 §5.7, §6.2 (Methods 1-3), Appendix A.6
//! * draft-peabody-dispatch-new-uuid-format-01 §4.4 (the early v7 had
//!   36-bit seconds + 24-bit subsec; values from it do not decode here)

use super::fields::version;
use super::time::{UnixNanos, MAX_UNIX_TS_MS, NANOS_PER_MILLI};
use super::Bytes;

/// Fractions of a millisecond that `rand_a` holds under §6.2 Method 3.
pub const SUBMS_STEPS: u64 = 1 << 12;

/// Encodes v7 from its fields. `unix_ts_ms` must be < 2^48 (checked by the
/// caller via [`super::time::unix_ms_from_unix`]); higher bits are ignored.
#[inline]
pub fn encode(unix_ts_ms: u64, rand_a: u16, rand_b: u64) -> Bytes {
    debug_assert!(unix_ts_ms <= MAX_UNIX_TS_MS);
    // Version 7 and the RFC 9562 variant set by arithmetic on two words (the same bits
    // fields::set_version(b, 7) sets), so the value leaves in registers rather than through
    // byte stores a 16-byte load then has to wait for.
    let hi = (unix_ts_ms << 16) | 0x7000 | u64::from(rand_a & 0x0fff);
    let lo = (rand_b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    ((u128::from(hi) << 64) | u128::from(lo)).to_be_bytes()
}

/// The `unix_ts_ms` field of a v7 UUID, or `None` for other versions/variants.
#[inline]
pub fn unix_ts_ms(b: &Bytes) -> Option<u64> {
    (version(b) == Some(7)).then(|| u64::from_be_bytes([0, 0, b[0], b[1], b[2], b[3], b[4], b[5]]))
}

/// The `rand_a` field of a v7 UUID.
#[inline]
pub fn rand_a(b: &Bytes) -> Option<u16> {
    (version(b) == Some(7)).then(|| u16::from_be_bytes([b[6], b[7]]) & 0x0fff)
}

/// The instant a v7 UUID denotes, reading `rand_a` as a 12-bit fraction of
/// the millisecond (§6.2 Method 3, as PostgreSQL 18 and uuid_ext's default
/// method write it). Only meaningful for values generated that way; for
/// others the fraction is noise below one millisecond.
pub fn instant_with_subms(b: &Bytes) -> Option<UnixNanos> {
    let ms = unix_ts_ms(b)? as i128;
    let frac = rand_a(b)? as i128;
    Some(ms * NANOS_PER_MILLI + frac * NANOS_PER_MILLI / SUBMS_STEPS as i128)
}

/// The smallest v7 UUID, in byte order, whose timestamp is at or after `t`:
/// for every v7 `u`, `u >= lower_bound(t)` ⇔ `unix_ts_ms(u)` × 1 ms ≥ `t`.
/// Before 1970 that is the first v7 of all; after the last v7 millisecond
/// (year 10889) it is Max, which no v7 reaches.
pub fn lower_bound(t: UnixNanos) -> Bytes {
    // The first millisecond at or after t; in 64 bits for 1678..2262 (a query's bounds, every
    // row of a scan that filters on one): 64-bit division is several times cheaper than 128-bit.
    let ms = match i64::try_from(t) {
        Ok(t) => {
            const MILLI: i64 = NANOS_PER_MILLI as i64;
            i128::from(t.div_euclid(MILLI) + i64::from(t.rem_euclid(MILLI) != 0))
        }
        Err(_) => t.div_euclid(NANOS_PER_MILLI) + i128::from(t.rem_euclid(NANOS_PER_MILLI) != 0),
    };
    match ms {
        ..=0 => encode(0, 0, 0),
        ms if ms > MAX_UNIX_TS_MS as i128 => super::MAX,
        ms => encode(ms as u64, 0, 0),
    }
}

/// The 12-bit Method 3 fraction for the nanoseconds within a millisecond
/// (`sub_ms_ns` < 1 000 000), rounded down as PostgreSQL 18 does.
#[inline]
pub fn subms_fraction(sub_ms_ns: u64) -> u16 {
    ((sub_ms_ns * SUBMS_STEPS) / NANOS_PER_MILLI as u64) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;

    #[test]
    fn lower_bound_splits_v7_values_at_the_instant() {
        let a6 = hex("017F22E2-79B0-7CC3-98C4-DC0C0C07398F"); // 2022-02-22 19:22:22.000
        let t = 1_645_557_742_000 * NANOS_PER_MILLI;
        assert!(a6 >= lower_bound(t));
        assert!(a6 < lower_bound(t + 1)); // one ns later excludes the A.6 millisecond
        assert!(a6 >= lower_bound(t - NANOS_PER_MILLI + 1));
        assert_eq!(lower_bound(t), hex("017F22E2-79B0-7000-8000-000000000000"));
        // Every v7 of the millisecond (any rand_a, rand_b) is at or above it.
        assert!(encode(0x017F22E279B0, 0, 0) >= lower_bound(t));
        assert!(encode(0x017F22E279AF, 0xfff, u64::MAX) < lower_bound(t));
        // Before 1970: every v7; after the last millisecond: none.
        assert_eq!(lower_bound(-NANOS_PER_MILLI * 1000), encode(0, 0, 0));
        assert_eq!(lower_bound(0), encode(0, 0, 0));
        let last = MAX_UNIX_TS_MS as i128 * NANOS_PER_MILLI;
        assert_eq!(lower_bound(last), encode(MAX_UNIX_TS_MS, 0, 0));
        assert_eq!(lower_bound(last + 1), crate::MAX);
        // The 64-bit path and the 128-bit one meet at i64's edges, and agree around them.
        let slow = |t: UnixNanos| {
            let ms = t.div_euclid(NANOS_PER_MILLI) + i128::from(t.rem_euclid(NANOS_PER_MILLI) != 0);
            encode(ms.clamp(0, MAX_UNIX_TS_MS as i128) as u64, 0, 0)
        };
        for edge in [i128::from(i64::MIN), -1, 0, 1, NANOS_PER_MILLI, i128::from(i64::MAX)] {
            let m = NANOS_PER_MILLI;
            for d in [-m - 1, -m, -m + 1, -3, -2, -1, 0, 1, 2, 3, m - 1, m, m + 1] {
                assert_eq!(lower_bound(edge + d), slow(edge + d), "t = {}", edge + d);
            }
        }
        assert!(encode(MAX_UNIX_TS_MS, 0xfff, u64::MAX) < lower_bound(last + 1));
    }

    #[test]
    fn appendix_a6_v7() {
        // rand_b as 62 bits: 0b01 then 0x8C4DC0C0C07398F.
        let rand_b = 0b01u64 << 60 | 0x8C4DC0C0C07398F;
        let b = encode(0x017F22E279B0, 0xCC3, rand_b);
        assert_eq!(b, hex("017F22E2-79B0-7CC3-98C4-DC0C0C07398F"));
        assert_eq!(unix_ts_ms(&b), Some(1_645_557_742_000));
        assert_eq!(rand_a(&b), Some(0xCC3));
    }

    #[test]
    fn a6_decodes_to_2022_02_22_19_22_22_utc() {
        let ms = unix_ts_ms(&hex("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")).unwrap();
        assert_eq!(ms as i128 * NANOS_PER_MILLI, 1_645_557_742_000_000_000);
    }

    #[test]
    fn epoch_and_last_millisecond() {
        assert_eq!(encode(0, 0, 0), hex("00000000-0000-7000-8000-000000000000"));
        let last = encode(MAX_UNIX_TS_MS, 0xfff, u64::MAX);
        assert_eq!(last, hex("FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF"));
        assert_eq!(unix_ts_ms(&last), Some(MAX_UNIX_TS_MS));
    }

    #[test]
    fn decode_encode_roundtrip() {
        let mut s = 0x243F_6A88_85A3_08D3u64;
        for _ in 0..100_000 {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let (ms, a, r) = (s >> 16, (s >> 3) as u16 & 0xfff, s.rotate_left(29));
            let b = encode(ms, a, r);
            assert_eq!((unix_ts_ms(&b), rand_a(&b)), (Some(ms), Some(a)));
            let rand_b = u64::from_be_bytes(b[8..16].try_into().unwrap()) & ((1 << 62) - 1);
            assert_eq!(rand_b, r & ((1 << 62) - 1));
        }
    }

    #[test]
    fn subms_fraction_bounds() {
        assert_eq!(subms_fraction(0), 0);
        assert_eq!(subms_fraction(999_999), 4095);
        assert_eq!(subms_fraction(500_000), 2048);
        // 245 ns is PostgreSQL 18's minimal step: always at least one fraction step.
        for ns in (0..999_755).step_by(997) {
            assert!(subms_fraction(ns + 245) > subms_fraction(ns));
        }
    }

    #[test]
    fn instant_with_subms_reads_method_3() {
        let b = encode(1000, 2048, 0);
        assert_eq!(instant_with_subms(&b), Some(1000 * NANOS_PER_MILLI + 500_000));
        assert_eq!(instant_with_subms(&hex("C232AB00-9414-11EC-B3C8-9F6BDECED846")), None);
    }
}
