//! A total order of UUIDs by the time inside them, for the `uuid_time_ops`
//! operator class.
//!
//! Byte order (RFC 4530 `uuidOrderingMatch`, PostgreSQL's `uuid_ops`) is time
//! order for v6 and v7 but not for v1, whose low time bits come first, and it
//! does not interleave v1/v6 with v7. This order compares, in turn:
//!
//! 1. [`key`]: the embedded time as 100-ns intervals since 1582-10-15 (v1, v6
//!    exactly; v7 at its millisecond). Every other UUID (v2, v3, v4, v5, v8,
//!    Nil, Max, other variants) gets a key ≥ 2^63 derived from its first
//!    octets, so these form one block after all timed values, in byte order.
//! 2. [`normalized`] octets: a v1 compared as its v6 form, others as they are.
//! 3. v6 before v1 when both carry identical fields.
//!
//! The three components determine the 16 octets, so equality is exactly
//! byte equality. The key is the 64-bit abbreviated key of sortsupport:
//! `key(a) < key(b)` implies `a < b`.
//!
//! [`lower_bound`] gives, for an instant, the smallest UUID of this order whose
//! time is at or after it: `u >= lower_bound(t)` ⇔ `time(u) >= t` for timed `u`.
//!
//! # References
//! * RFC 9562 §6.11 (sorting), §5.1, §5.6, §5.7; RFC 4530 §2.3

use super::fields::version;
use super::time::{gregorian_from_unix, UnixNanos, GREGORIAN_UNIX_OFFSET_100NS, NANOS_PER_MILLI};
use super::v1::{decode_gregorian, GregorianFields};
use super::v6::{encode_v6, v1_to_v6};
use super::{v7, Bytes, NIL};
use core::cmp::Ordering;

/// Keys at or above this mark UUIDs without a timestamp.
pub const UNTIMED: u64 = 1 << 63;

/// 100-ns intervals per millisecond.
const TICKS_PER_MS: u64 = 10_000;

/// The time-order key: see the module documentation.
#[inline]
pub fn key(b: &Bytes) -> u64 {
    if let Some(f) = decode_gregorian(b) {
        f.timestamp
    } else if let Some(ms) = v7::unix_ts_ms(b) {
        // < 2^48 × 10^4 + offset < 2^62: never reaches UNTIMED.
        ms * TICKS_PER_MS + GREGORIAN_UNIX_OFFSET_100NS as u64
    } else {
        UNTIMED | u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]) >> 1
    }
}

/// The octets compared after the key: a v1 as its v6 form.
#[inline]
pub fn normalized(b: &Bytes) -> Bytes {
    v1_to_v6(b).unwrap_or(*b)
}

/// The full comparison (the operator class's support function 1).
#[inline]
pub fn compare(a: &Bytes, b: &Bytes) -> Ordering {
    // Fast path (most comparisons after an abbreviated-key tie): between two
    // v6 or two v7 values this order *is* byte order, as their time fields
    // come first, most significant first.
    let va = version(a);
    if va == version(b) && matches!(va, Some(6 | 7)) {
        return a.cmp(b);
    }
    key(a).cmp(&key(b)).then_with(|| {
        normalized(a).cmp(&normalized(b)).then_with(|| (version(a) == Some(1)).cmp(&(version(b) == Some(1))))
    })
}

/// The smallest UUID, in this order, whose time is at or after `t`.
///
/// Within one key the smallest value is a v7 with all random bits zero when
/// the key falls on a millisecond (v7's octets start with Unix milliseconds,
/// far below v6's Gregorian time at any instant v6 can hold), else a v6 with
/// zero clock sequence and node. Before 1582-10-15 that is the Gregorian
/// epoch; after the last v7 millisecond (year 10889) it is Nil, the first
/// untimed value.
pub fn lower_bound(t: UnixNanos) -> Bytes {
    let v6_at = |timestamp| encode_v6(&GregorianFields { timestamp, clock_seq: 0, node: [0; 6] });
    // The first 100-ns tick at or after t.
    let tick_ns = t.div_euclid(100) * 100 + if t.rem_euclid(100) == 0 { 0 } else { 100 };
    let ms = tick_ns.div_euclid(NANOS_PER_MILLI) + i128::from(tick_ns.rem_euclid(NANOS_PER_MILLI) != 0);
    match gregorian_from_unix(tick_ns) {
        _ if tick_ns < -GREGORIAN_UNIX_OFFSET_100NS * 100 => v6_at(0),
        Ok(timestamp) if ms * NANOS_PER_MILLI != tick_ns || ms < 0 => v6_at(timestamp),
        _ => match super::time::unix_ms_from_unix(ms * NANOS_PER_MILLI) {
            Ok(unix_ms) => v7::encode(unix_ms, 0, 0),
            Err(_) => NIL,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{hex, reference_time};
    use crate::v1::encode_v1;

    const A1: &str = "C232AB00-9414-11EC-B3C8-9F6BDECED846";
    const A5: &str = "1EC9414C-232A-6B00-B3C8-9F6BDECED846";
    const A6: &str = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F";

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *seed
    }

    fn sample(n: usize) -> Vec<Bytes> {
        let mut seed = 42;
        let mut out = vec![hex(A1), hex(A5), hex(A6), NIL, super::super::MAX];
        for i in 0..n {
            let r = lcg(&mut seed);
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&lcg(&mut seed).to_be_bytes());
            b[8..].copy_from_slice(&lcg(&mut seed).to_be_bytes());
            // Times around 2022 within a few seconds, so v1/v6/v7 interleave.
            let t = 1_645_557_742_000_000_000i128 + (r % 5_000_000_000) as i128;
            let fields = GregorianFields {
                timestamp: gregorian_from_unix(t).unwrap(),
                clock_seq: (r >> 40) as u16 & 0x3fff,
                node: [b[10], b[11], b[12], b[13], b[14], b[15]],
            };
            out.push(match i % 5 {
                0 => encode_v1(&fields),
                1 => encode_v6(&fields),
                2 => v7::encode((t / NANOS_PER_MILLI) as u64, (r >> 20) as u16, lcg(&mut seed)),
                3 => super::super::fields::set_version(b, 4),
                _ => b,
            });
        }
        out
    }

    #[test]
    fn order_follows_time_then_a_consistent_tie_break() {
        let values = sample(3000);
        for a in values.iter().step_by(7) {
            for b in &values {
                let ord = compare(a, b);
                assert_eq!(ord == Ordering::Equal, a == b);
                assert_eq!(ord, compare(b, a).reverse());
                match (reference_time(a), reference_time(b)) {
                    (Some(ta), Some(tb)) if ta != tb => assert_eq!(ord, ta.cmp(&tb)),
                    (Some(_), None) => assert_eq!(ord, Ordering::Less),
                    (None, Some(_)) => assert_eq!(ord, Ordering::Greater),
                    (None, None) => assert_eq!(ord, a.cmp(b), "untimed block is in byte order"),
                    _ => {}
                }
                // The abbreviated key never contradicts the full order.
                if key(a) < key(b) {
                    assert_eq!(ord, Ordering::Less);
                }
            }
        }
        // Sorting agrees with pairwise comparison (transitivity on a sample).
        let mut sorted = values.clone();
        sorted.sort_by(compare);
        assert!(sorted.windows(2).all(|w| compare(&w[0], &w[1]) == Ordering::Less));
    }

    #[test]
    fn a1_a5_a6_share_one_instant_and_v6_precedes_v1() {
        let (a1, a5, a6) = (hex(A1), hex(A5), hex(A6));
        assert_eq!(key(&a1), key(&a5));
        assert_eq!(key(&a1), key(&a6));
        assert_eq!(compare(&a6, &a5), Ordering::Less);
        assert_eq!(compare(&a5, &a1), Ordering::Less);
    }

    #[test]
    fn lower_bound_is_exact() {
        let values = sample(3000);
        let t0 = 1_645_557_742_000_000_000i128;
        let instants = [t0, t0 + 1, t0 + 99, t0 + 100, t0 + 1_000_000, t0 + 1_234_567_800, t0 + 5_000_000_000];
        for t in instants {
            let bound = lower_bound(t);
            for u in &values {
                if let Some(tu) = reference_time(u) {
                    assert_eq!(compare(u, &bound) != Ordering::Less, tu >= t, "t={t} u={u:02x?}");
                }
            }
        }
        // Extremes.
        assert_eq!(lower_bound(i128::MIN / 2), hex("00000000-0000-6000-8000-000000000000"));
        assert_eq!(lower_bound(0), hex("00000000-0000-7000-8000-000000000000"));
        assert_eq!(
            lower_bound(-100),
            encode_v6(&GregorianFields {
                timestamp: GREGORIAN_UNIX_OFFSET_100NS as u64 - 1,
                clock_seq: 0,
                node: [0; 6]
            })
        );
        assert_eq!(lower_bound(i128::MAX / 2), NIL);
        assert!(key(&lower_bound(i128::MAX / 2)) >= UNTIMED);
    }

    /// Before the Gregorian epoch the bound is its first v6; between it and 1970 a v6 at the
    /// time; past v1's last tick (year 5236) and off a millisecond, the v7 of the next one.
    #[test]
    fn lower_bound_in_each_era() {
        let v6_at = |timestamp| encode_v6(&GregorianFields { timestamp, clock_seq: 0, node: [0; 6] });
        let epoch = -GREGORIAN_UNIX_OFFSET_100NS * 100;
        assert_eq!(lower_bound(epoch - 1_000_000_000), v6_at(0));
        let t1900 = -2_208_988_800_000_000_000i128;
        assert_eq!(lower_bound(t1900), v6_at(gregorian_from_unix(t1900).unwrap()));
        let t6000 = 127_250_000_000_000_000_000i128; // about year 6002
        assert!(gregorian_from_unix(t6000).is_err());
        let ms = t6000 / NANOS_PER_MILLI;
        assert_eq!(lower_bound(t6000 + 500_000), v7::encode(ms as u64 + 1, 0, 0));
        assert_eq!(lower_bound(t6000), v7::encode(ms as u64, 0, 0));
    }
}
