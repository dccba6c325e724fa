//! Time scales used by the timestamp fields, and conversions between them.
//!
//! Every instant is carried as signed nanoseconds since the Unix epoch
//! (`i128`, so the Gregorian epoch of 1582 and the last v7 millisecond of
//! year 10889 both fit without overflow). Each layout converts to its own
//! field width and *rejects* instants outside it: a timestamp never wraps.
//!
//! # References
//! * RFC 9562 §5.1 (60-bit count of 100-ns intervals since 1582-10-15 00:00 UTC)
//! * RFC 9562 §5.7 (48-bit Unix milliseconds), Appendix A (Figure 15 pseudocode)

use super::Error;

/// Nanoseconds since 1970-01-01 00:00:00 UTC (leap seconds ignored, §5.7).
pub type UnixNanos = i128;

pub const NANOS_PER_MILLI: i128 = 1_000_000;

/// 100-ns intervals between 1582-10-15 and 1970-01-01 (Appendix A, Figure 15).
pub const GREGORIAN_UNIX_OFFSET_100NS: i128 = 0x01B2_1DD2_1381_4000;

/// Largest value of a 60-bit Gregorian timestamp (v1, v6).
pub const MAX_GREGORIAN_100NS: u64 = (1 << 60) - 1;

/// Largest value of the 48-bit `unix_ts_ms` field (v7).
pub const MAX_UNIX_TS_MS: u64 = (1 << 48) - 1;

/// The v1/v6 timestamp of an instant, truncated to 100 ns.
#[inline]
pub fn gregorian_from_unix(ns: UnixNanos) -> Result<u64, Error> {
    // Fast path for clock readings (1970..2554): 64-bit division is several
    // times cheaper than 128-bit, and every generated UUID goes through here.
    if let Ok(ns) = u64::try_from(ns) {
        return Ok(ns / 100 + GREGORIAN_UNIX_OFFSET_100NS as u64);
    }
    let t = ns.div_euclid(100) + GREGORIAN_UNIX_OFFSET_100NS;
    if (0..=MAX_GREGORIAN_100NS as i128).contains(&t) {
        Ok(t as u64)
    } else {
        Err(Error::TimestampOutOfRange)
    }
}

/// The instant a v1/v6 timestamp denotes.
pub fn unix_from_gregorian(t: u64) -> UnixNanos {
    (t as i128 - GREGORIAN_UNIX_OFFSET_100NS) * 100
}

/// The v7 `unix_ts_ms` of an instant, truncated to the millisecond.
#[inline]
pub fn unix_ms_from_unix(ns: UnixNanos) -> Result<u64, Error> {
    // Fast path as above; u64::MAX ns is far below 2^48 ms.
    if let Ok(ns) = u64::try_from(ns) {
        return Ok(ns / NANOS_PER_MILLI as u64);
    }
    let ms = ns.div_euclid(NANOS_PER_MILLI);
    if (0..=MAX_UNIX_TS_MS as i128).contains(&ms) {
        Ok(ms as u64)
    } else {
        Err(Error::TimestampOutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2022-02-22 19:22:22 UTC, the instant of every time-based vector.
    pub const VECTOR_INSTANT: UnixNanos = 1_645_557_742_000_000_000;

    #[test]
    fn figure_15_pseudocode() {
        assert_eq!(gregorian_from_unix(VECTOR_INSTANT), Ok(0x1EC9414C232AB00));
        assert_eq!(0x1EC9414C232AB00u64, 138_648_505_420_000_000);
        assert_eq!(unix_from_gregorian(0x1EC9414C232AB00), VECTOR_INSTANT);
        assert_eq!(GREGORIAN_UNIX_OFFSET_100NS, 122_192_928_000_000_000);
    }

    #[test]
    fn fast_and_slow_paths_agree() {
        for ns in [
            0i128,
            1,
            99,
            100,
            999_999,
            1_000_000,
            VECTOR_INSTANT,
            u64::MAX as i128,
            u64::MAX as i128 + 1,
            -1,
            -100,
            -101,
        ] {
            let slow_g = ns.div_euclid(100) + GREGORIAN_UNIX_OFFSET_100NS;
            assert_eq!(gregorian_from_unix(ns), Ok(slow_g as u64), "{ns}");
            let slow_ms = ns.div_euclid(NANOS_PER_MILLI);
            assert_eq!(unix_ms_from_unix(ns), u64::try_from(slow_ms).map_err(|_| Error::TimestampOutOfRange), "{ns}");
        }
    }

    #[test]
    fn gregorian_limits() {
        // 1582-10-15 00:00:00 UTC is 12219292800 s before the Unix epoch.
        let epoch = -12_219_292_800i128 * 1_000_000_000;
        assert_eq!(gregorian_from_unix(epoch), Ok(0));
        assert_eq!(gregorian_from_unix(epoch - 1), Err(Error::TimestampOutOfRange));
        let last = unix_from_gregorian(MAX_GREGORIAN_100NS);
        assert_eq!(gregorian_from_unix(last), Ok(MAX_GREGORIAN_100NS));
        assert_eq!(gregorian_from_unix(last + 99), Ok(MAX_GREGORIAN_100NS));
        assert_eq!(gregorian_from_unix(last + 100), Err(Error::TimestampOutOfRange));
        // 2^60 ticks of 100 ns are 3653.9 years, so the last instant falls in
        // year 5236. RFC 9562 §6.1 says "valid until 5623 AD": a transposition
        // of the digits; the arithmetic below is the authority.
        let secs = last / 1_000_000_000;
        let year = 1970 + secs / 31_556_952; // mean Gregorian year
        assert_eq!(year, 5236);
    }

    #[test]
    fn unix_ms_limits() {
        assert_eq!(unix_ms_from_unix(0), Ok(0));
        assert_eq!(unix_ms_from_unix(-1), Err(Error::TimestampOutOfRange));
        let last = MAX_UNIX_TS_MS as i128 * NANOS_PER_MILLI;
        assert_eq!(unix_ms_from_unix(last + 999_999), Ok(MAX_UNIX_TS_MS));
        assert_eq!(unix_ms_from_unix(last + NANOS_PER_MILLI), Err(Error::TimestampOutOfRange));
        // 2^48 ms after 1970 is in year 10889 (§5.7 / §6.1 "year 10889").
        let year = 1970 + (last / 1_000_000_000) / 31_556_952;
        assert_eq!(year, 10889);
    }
}
