//! Generator state machines: monotonic UUIDv7 (§6.2) and the v1/v6 clock
//! sequence (§6.3). Pure: the caller passes the clock reading and the RNG and
//! owns the state (one per backend, see `crate::state`).
//!
//! # v7 methods and their bit budgets (74 bits after `unix_ts_ms`)
//!
//! | method | rand_a (12) | rand_b (62) | order within a backend |
//! |---|---|---|---|
//! | `Default` | Method 3 sub-ms fraction (≈244 ns steps) | 14-bit counter, 48 random | strict |
//! | `Pg18` | Method 3 fraction, time forced ahead ≥ 245 ns per value | 62 random | strict |
//! | `Counter` | top 12 bits of a 42-bit Method 1 counter | 30 counter bits, 32 random | strict |
//! | `Random` | 12 random | 62 random | by millisecond only |
//!
//! `Default` keeps the sub-millisecond time exact (to ≈244 ns) *and* draws 48
//! fresh random bits per value. Within one 244-ns tick the counter orders
//! values; on every new tick it is seeded with 13 random bits and its top bit
//! clear (§6.2, "Fixed Bit-Length Dedicated Counter Seeding" with a one-bit
//! rollover guard), so at least 8 193 values fit in one tick before the time
//! would be pushed ahead of the wall clock, and two generators that hit the
//! same tick differ in 13 + 48 = 61 random bits (docs/UNIQUENESS.md).
//! `Pg18` is PostgreSQL 18's algorithm: every value advances the time by at
//! least 245 ns, so at more than ~4 million values per second the embedded
//! time runs ahead of the clock.
//! `Counter` is §6.2 Method 1 with a fixed 42-bit counter seeded randomly
//! each millisecond with its top bit clear (the rollover guard of §6.2), as
//! the Rust `uuid` crate and Python 3.14 do.
//!
//! All strict methods handle a clock that goes backwards by keeping the last
//! timestamp: `Default` and `Counter` advance their counter, `Pg18` steps the
//! time by its minimal step. A counter overflow advances the timestamp by
//! one step. Nothing wraps.
//!
//! A shift (PostgreSQL 18's `uuidv7(interval)`) is added to the instant the
//! value stands for — the clock reading, or the start of the tick the state
//! moved to when it is ahead of the clock — and the result is truncated
//! once, as PostgreSQL 18 computes `(now + shift) / 1 ms`; the state itself
//! advances on the unshifted clock.
//!
//! # References
//! * RFC 9562 §6.2 (Methods 1-3, rollover guards), §6.3 (generator state,
//!   clock sequence), §6.1 (simulated high-resolution timestamp for v1/v6)

use super::time::{gregorian_from_unix, unix_ms_from_unix, UnixNanos, MAX_GREGORIAN_100NS, NANOS_PER_MILLI};
use super::v7::{self, SUBMS_STEPS};
use super::{Bytes, Error};

/// The v7 layouts of §6.2 that `uuid_ext.v7_method` selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum V7Method {
    Default,
    Pg18,
    Counter,
    Random,
}

/// Counter width and random width of the `Default` method.
const DEFAULT_COUNTER_BITS: u32 = 14;
const DEFAULT_RANDOM_BITS: u32 = 48;
/// Method 1 counter: 42 bits, seeded with its top bit (the guard) clear.
const COUNTER_BITS: u32 = 42;
const COUNTER_TAIL_RANDOM_BITS: u32 = 32;
/// PostgreSQL 18's minimal step: 10^6 / 4096 + 1 ns, so each step moves the fraction.
pub const PG18_MINIMAL_STEP_NS: i128 = NANOS_PER_MILLI / SUBMS_STEPS as i128 + 1;

const fn mask(bits: u32) -> u64 {
    (1u64 << bits) - 1
}

/// Method 1's counter bits below the 12 in `rand_a`, at the top of `rand_b`'s 62 bits.
fn counter_tail(counter: u64) -> u64 {
    (counter & mask(COUNTER_BITS - 12)) << COUNTER_TAIL_RANDOM_BITS
}

/// The last v7 value's position, shared by all strict methods so that a
/// change of `uuid_ext.v7_method` mid-session never breaks the order.
#[derive(Debug, Clone, Default)]
pub struct V7State {
    /// The last emitted 48-bit ms + 12-bit `rand_a`, as one 60-bit number.
    last_tick: u64,
    /// `Default`: the 14-bit counter; `Counter`: the 42-bit counter.
    /// `u64::MAX` means "exhausted": the next value must advance the time.
    counter: u64,
    /// `Pg18` only: the last (possibly advanced) clock reading.
    last_ns: UnixNanos,
    /// The strict method that produced `last_tick`.
    method: Option<V7Method>,
}

#[inline]
fn tick_of(ns: UnixNanos) -> Result<u64, Error> {
    let ms = unix_ms_from_unix(ns)?;
    // A multiplication, not a 128-bit remainder (see time.rs's fast path).
    let sub_ms = (ns - ms as i128 * NANOS_PER_MILLI) as u64;
    Ok(ms * SUBMS_STEPS + u64::from(v7::subms_fraction(sub_ms)))
}

/// The first nanosecond of a 60-bit tick: the smallest instant whose
/// [`tick_of`] is `tick` (the inverse of the rounding down in
/// [`v7::subms_fraction`]).
fn tick_start(tick: u64) -> UnixNanos {
    let steps = SUBMS_STEPS as i128;
    let frac = (tick % SUBMS_STEPS) as i128;
    (tick / SUBMS_STEPS) as i128 * NANOS_PER_MILLI + (frac * NANOS_PER_MILLI + steps - 1) / steps
}

/// What every v7 path produces before its last step: the 60-bit tick (ms ×
/// 4096 + `rand_a`), `rand_b`, and the instant the value stands for.
struct Drawn {
    tick: u64,
    rand_b: u64,
    instant: UnixNanos,
    /// `rand_a` holds counter or random bits, not a fraction of the ms.
    whole_ms: bool,
}

impl Drawn {
    /// The last step of every v7 path: apply the shift and pack the value.
    ///
    /// The shifted time is `instant + shift_ns` truncated once, as PostgreSQL
    /// 18 computes it: to the tick for methods that encode a fraction, to the
    /// millisecond for the others (whose `rand_a` bits are kept as they are).
    #[inline]
    fn encode(self, shift_ns: i128) -> Result<Bytes, Error> {
        let tick = match shift_ns {
            0 => self.tick,
            _ if self.whole_ms => {
                (unix_ms_from_unix(self.instant + shift_ns)? * SUBMS_STEPS) | (self.tick % SUBMS_STEPS)
            }
            _ => tick_of(self.instant + shift_ns)?,
        };
        if tick >> 60 != 0 {
            return Err(Error::TimestampOutOfRange);
        }
        Ok(v7::encode(tick >> 12, (tick & 0xfff) as u16, self.rand_b))
    }
}

/// The instant a value of `unit` stands for: the clock reading when the value
/// is at the clock, else the first instant of the unit the state moved to.
#[inline]
fn instant_of(now: UnixNanos, now_unit: u64, unit: u64, unit_start: impl FnOnce(u64) -> UnixNanos) -> UnixNanos {
    if unit == now_unit {
        now
    } else {
        unit_start(unit)
    }
}

impl V7State {
    /// The next v7 value at clock reading `now`, shifted by `shift_ns`.
    /// `random` supplies 64 fresh random bits per call.
    pub fn next(
        &mut self,
        method: V7Method,
        now: UnixNanos,
        shift_ns: i128,
        mut random: impl FnMut() -> u64,
    ) -> Result<Bytes, Error> {
        if method != V7Method::Random && self.method != Some(method) {
            // Another method's counter means nothing here: advance the time.
            self.counter = u64::MAX;
            self.method = Some(method);
        }
        let drawn = match method {
            V7Method::Default => {
                let now_tick = tick_of(now)?;
                let r = random();
                // A fresh tick's counter: 13 random bits, the top (guard) bit clear.
                let seed = r >> DEFAULT_RANDOM_BITS & mask(DEFAULT_COUNTER_BITS - 1);
                if now_tick > self.last_tick {
                    self.last_tick = now_tick;
                    self.counter = seed;
                } else if self.counter < mask(DEFAULT_COUNTER_BITS) {
                    self.counter += 1;
                } else {
                    self.last_tick += 1;
                    self.counter = seed;
                }
                Drawn {
                    tick: self.last_tick,
                    rand_b: self.counter << DEFAULT_RANDOM_BITS | r & mask(DEFAULT_RANDOM_BITS),
                    instant: instant_of(now, now_tick, self.last_tick, tick_start),
                    whole_ms: false,
                }
            }
            V7Method::Pg18 => {
                let ns = now.max(self.last_ns + PG18_MINIMAL_STEP_NS);
                // tick_of(ns) always exceeds the last Pg18 tick; the max() only
                // matters right after a switch from another method.
                let tick = tick_of(ns)?;
                self.last_tick = tick.max(self.last_tick + 1);
                self.last_ns = ns;
                Drawn {
                    tick: self.last_tick,
                    rand_b: random(),
                    instant: instant_of(ns, tick, self.last_tick, tick_start),
                    whole_ms: false,
                }
            }
            V7Method::Counter => {
                let seed = |random: &mut dyn FnMut() -> u64| random() & mask(COUNTER_BITS - 1);
                let now_ms = unix_ms_from_unix(now)?;
                let last_ms = self.last_tick >> 12;
                let ms = if now_ms > last_ms {
                    self.counter = seed(&mut random);
                    now_ms
                } else if self.counter < mask(COUNTER_BITS) {
                    self.counter += 1;
                    last_ms
                } else {
                    self.counter = seed(&mut random);
                    last_ms + 1
                };
                self.last_tick = ms << 12 | self.counter >> (COUNTER_BITS - 12);
                Drawn {
                    tick: self.last_tick,
                    rand_b: counter_tail(self.counter) | random() & mask(COUNTER_TAIL_RANDOM_BITS),
                    instant: instant_of(now, now_ms, ms, |ms| ms as i128 * NANOS_PER_MILLI),
                    whole_ms: true,
                }
            }
            V7Method::Random => {
                let r = random();
                Drawn { tick: unix_ms_from_unix(now)? << 12 | r >> 52, rand_b: random(), instant: now, whole_ms: true }
            }
        };
        drawn.encode(shift_ns)
    }
}

/// Cluster-wide v7 (`uuid_ext.v7_scope = 'cluster'`): one 64-bit position
/// shared by every backend, `unix_ts_ms` (48) | Method 3 fraction (12) |
/// counter (4), advanced with a compare-and-swap loop and no lock. A value's
/// position is strictly greater than that of every value any backend took
/// before it. On a new tick the counter is seeded with 3 random bits and its
/// top (guard) bit clear (§6.2), so servers that hit the same tick differ in
/// those 3 bits and the 58 random bits of `rand_b`, which holds the 4
/// counter bits and 58 fresh random bits. At least 9 values fit in one
/// ≈244-ns tick before the time is pushed ahead, i.e. the embedded time only
/// runs ahead of the clock above ~37 million values/s.
pub fn next_cluster(
    shared: &core::sync::atomic::AtomicU64,
    now: UnixNanos,
    shift_ns: i128,
    random: u64,
) -> Result<Bytes, Error> {
    use core::sync::atomic::Ordering::Relaxed;
    const COUNTER_BITS: u32 = 4;
    const RANDOM_BITS: u32 = 62 - COUNTER_BITS;
    let now_tick = tick_of(now)?;
    let seeded = now_tick << COUNTER_BITS | random >> RANDOM_BITS & mask(COUNTER_BITS - 1);
    let mut last = shared.load(Relaxed);
    let pos = loop {
        let next = if now_tick > last >> COUNTER_BITS {
            seeded
        } else {
            last.checked_add(1).ok_or(Error::TimestampOutOfRange)?
        };
        match shared.compare_exchange_weak(last, next, Relaxed, Relaxed) {
            Ok(_) => break next,
            Err(current) => last = current,
        }
    };
    let tick = pos >> COUNTER_BITS;
    Drawn {
        tick,
        rand_b: (pos & mask(COUNTER_BITS)) << RANDOM_BITS | random & mask(RANDOM_BITS),
        instant: instant_of(now, now_tick, tick, tick_start),
        whole_ms: false,
    }
    .encode(shift_ns)
}

/// The v1/v6 clock state (§6.3): the last timestamp and the clock sequence.
#[derive(Debug, Clone)]
pub struct GregorianClock {
    last_observed: u64,
    last_emitted: u64,
    clock_seq: u16,
}

impl GregorianClock {
    /// A clock whose sequence starts at a random 14-bit value (§6.3).
    pub fn new(random_clock_seq: u16) -> Self {
        GregorianClock { last_observed: 0, last_emitted: 0, clock_seq: random_clock_seq & 0x3fff }
    }

    /// The (timestamp, clock_seq) pair for a v1/v6 value at clock reading `now`.
    ///
    /// Calls within one 100-ns tick get successive timestamps (§6.1,
    /// "simulated high-resolution timestamp"); when the clock itself goes
    /// backwards the clock sequence is incremented (§6.3) and time follows
    /// the clock again.
    pub fn next(&mut self, now: UnixNanos) -> Result<(u64, u16), Error> {
        let observed = gregorian_from_unix(now)?;
        let emitted = if observed < self.last_observed {
            self.clock_seq = (self.clock_seq + 1) & 0x3fff;
            observed
        } else if observed > self.last_emitted {
            observed
        } else if self.last_emitted < MAX_GREGORIAN_100NS {
            self.last_emitted + 1
        } else {
            return Err(Error::TimestampOutOfRange);
        };
        self.last_observed = observed;
        self.last_emitted = emitted;
        Ok((emitted, self.clock_seq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fields::{variant, version, Variant};
    use crate::v7::{rand_a, unix_ts_ms};

    /// A deterministic stand-in RNG (splitmix64) so failures reproduce.
    fn splitmix(mut s: u64) -> impl FnMut() -> u64 {
        move || {
            s = s.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^ (z >> 31)
        }
    }

    const T0: UnixNanos = 1_645_557_742_000_000_000;
    const METHODS: [V7Method; 3] = [V7Method::Default, V7Method::Pg18, V7Method::Counter];

    fn ms_of(b: &Bytes) -> i128 {
        unix_ts_ms(b).unwrap() as i128
    }

    #[test]
    fn strictly_increasing_with_a_frozen_clock() {
        for method in METHODS {
            let mut st = V7State::default();
            let mut rng = splitmix(1);
            let mut prev = st.next(method, T0, 0, &mut rng).unwrap();
            for _ in 0..100_000 {
                let b = st.next(method, T0, 0, &mut rng).unwrap();
                assert!(b > prev, "{method:?}");
                assert_eq!((version(&b), variant(&b)), (Some(7), Variant::Rfc9562));
                prev = b;
            }
        }
    }

    #[test]
    fn switching_methods_mid_stream_keeps_strict_order() {
        let mut st = V7State::default();
        let mut rng = splitmix(7);
        let mut prev = [0u8; 16];
        let order = [
            V7Method::Default,
            V7Method::Counter,
            V7Method::Pg18,
            V7Method::Default,
            V7Method::Pg18,
            V7Method::Counter,
            V7Method::Default,
        ];
        for (i, method) in order.into_iter().cycle().take(70).enumerate() {
            for j in 0..100 {
                let b = st.next(method, T0 + i as i128 * 10, 0, &mut rng).unwrap();
                assert!(b > prev, "{method:?} at {i}/{j}");
                prev = b;
            }
        }
    }

    #[test]
    fn default_keeps_time_at_the_clock_during_bursts() {
        // A tick holds 2^14 - seed values (seed < 2^13); the next one advances
        // the fraction by one step, never the millisecond of a frozen clock.
        let mut st = V7State::default();
        let mut rng = splitmix(2);
        let first = st.next(V7Method::Default, T0, 0, &mut rng).unwrap();
        let counter = |b: &Bytes| u16::from_be_bytes([b[8], b[9]]) & 0x3fff;
        assert!(counter(&first) < 1 << 13, "guard bit clear");
        let mut last = first;
        let mut same_tick = 1;
        loop {
            let b = st.next(V7Method::Default, T0, 0, &mut rng).unwrap();
            assert!(b > last);
            if rand_a(&b) != rand_a(&first) {
                assert_eq!(rand_a(&b), Some(rand_a(&first).unwrap() + 1));
                assert_eq!(ms_of(&b), T0 / NANOS_PER_MILLI);
                break;
            }
            last = b;
            same_tick += 1;
        }
        assert_eq!(counter(&last), 0x3fff, "the counter ran to its maximum");
        assert_eq!(same_tick, 0x4000 - u32::from(counter(&first)));
        assert!(same_tick > 1 << 13);
    }

    #[test]
    fn default_encodes_sub_millisecond_time_seeded_counter_and_48_random_bits() {
        let mut st = V7State::default();
        let b = st.next(V7Method::Default, T0 + 500_000, 0, || u64::MAX).unwrap();
        assert_eq!(ms_of(&b), T0 / NANOS_PER_MILLI);
        assert_eq!(rand_a(&b), Some(2048));
        // variant 10, counter 0b01_1111_1111_1111 (13 random bits under a clear guard
        // bit), then 48 random bits
        assert_eq!(&b[8..], &[0x9f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    }

    /// RFC 9562 §6.2 counter seeding: the first counter of a tick is random, so a
    /// constant seed (e.g. 0) fails this test.
    #[test]
    fn first_counter_of_each_tick_is_random() {
        let mut rng = splitmix(11);
        let mut st = V7State::default();
        let cluster = core::sync::atomic::AtomicU64::new(0);
        let (mut default_seeds, mut cluster_seeds) = (std::collections::HashSet::new(), [0u32; 8]);
        for i in 0..4000i128 {
            let now = T0 + i * 1_000; // a new ≈244-ns tick every time
            let b = st.next(V7Method::Default, now, 0, &mut rng).unwrap();
            default_seeds.insert(u16::from_be_bytes([b[8], b[9]]) & 0x3fff);
            let c = next_cluster(&cluster, now, 0, rng()).unwrap();
            cluster_seeds[usize::from(c[8] >> 2 & 0x7)] += 1;
            assert!(c[8] >> 2 & 0x8 == 0, "cluster guard bit clear");
        }
        // 4000 draws from 8192 values: ~3200 distinct expected, 1 for a constant.
        assert!(default_seeds.len() > 2900, "{}", default_seeds.len());
        assert!(default_seeds.iter().all(|&c| c < 1 << 13), "guard bit clear");
        // 3 random bits: every one of the 8 seeds turns up, none dominates.
        assert!(cluster_seeds.iter().all(|&n| (300..700).contains(&n)), "{cluster_seeds:?}");
    }

    #[test]
    fn clock_going_back_ten_seconds_never_repeats_or_decreases() {
        for method in METHODS {
            let mut st = V7State::default();
            let mut rng = splitmix(3);
            let mut prev = st.next(method, T0, 0, &mut rng).unwrap();
            let mut seen = std::collections::HashSet::new();
            for i in 0..50_000i128 {
                let now = T0 - 10_000_000_000 + i * 100;
                let b = st.next(method, now, 0, &mut rng).unwrap();
                assert!(b > prev, "{method:?} at {i}");
                assert!(seen.insert(b));
                prev = b;
            }
            // Time stayed at the last timestamp instead of jumping back.
            assert!(ms_of(&prev) >= T0 / NANOS_PER_MILLI);
        }
    }

    #[test]
    fn counter_overflow_advances_time_instead_of_wrapping() {
        // Method 1: force the 42-bit counter to its maximum.
        let mut st = V7State::default();
        let mut rng = splitmix(4);
        let a = st.next(V7Method::Counter, T0, 0, &mut rng).unwrap();
        st.counter = mask(COUNTER_BITS);
        // (rand_a of `a` holds counter bits; the overflowed value starts a new ms.)
        let b = st.next(V7Method::Counter, T0, 0, &mut rng).unwrap();
        assert!(b > a);
        assert_eq!(ms_of(&b), ms_of(&a) + 1);
        // Default: counter at max advances the tick.
        let mut st = V7State::default();
        let a = st.next(V7Method::Default, T0, 0, &mut rng).unwrap();
        st.counter = mask(DEFAULT_COUNTER_BITS);
        let b = st.next(V7Method::Default, T0, 0, &mut rng).unwrap();
        assert!(b > a);
        assert_eq!(rand_a(&b), Some(rand_a(&a).unwrap() + 1));
    }

    #[test]
    fn counter_method_seeds_with_guard_bit_clear() {
        let mut st = V7State::default();
        let b = st.next(V7Method::Counter, T0, 0, || u64::MAX).unwrap();
        // 42-bit counter = 0x1ff_ffff_ffff (top bit clear) → rand_a = 0x7ff.
        assert_eq!(rand_a(&b), Some(0x7ff));
        assert_eq!(&b[8..], &[0xbf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    }

    #[test]
    fn pg18_steps_245_ns_and_runs_ahead_under_bursts() {
        let mut st = V7State::default();
        let mut rng = splitmix(5);
        let mut last = [0u8; 16];
        for _ in 0..8192 {
            last = st.next(V7Method::Pg18, T0, 0, &mut rng).unwrap();
        }
        // 8191 steps of 245 ns ≈ 2.007 ms ahead of a frozen clock.
        assert_eq!(ms_of(&last), T0 / NANOS_PER_MILLI + 2);
    }

    #[test]
    fn random_method_has_no_state_and_right_bits() {
        let mut st = V7State::default();
        let b = st.next(V7Method::Random, T0, 0, || 0).unwrap();
        assert_eq!(b, v7::encode((T0 / NANOS_PER_MILLI) as u64, 0, 0));
    }

    #[test]
    fn shift_moves_time_but_not_the_state() {
        let mut st = V7State::default();
        let mut rng = splitmix(6);
        let day = 86_400_000_000_000i128;
        let shifted = st.next(V7Method::Default, T0, -day, &mut rng).unwrap();
        assert_eq!(ms_of(&shifted), (T0 - day) / NANOS_PER_MILLI);
        let plain = st.next(V7Method::Default, T0, 0, &mut rng).unwrap();
        assert_eq!(ms_of(&plain), T0 / NANOS_PER_MILLI);
        assert!(plain > shifted);
        assert_eq!(st.next(V7Method::Default, T0, -T0 - 1, &mut rng), Err(Error::TimestampOutOfRange));
        assert_eq!(
            st.next(V7Method::Counter, T0, (1i128 << 48) * NANOS_PER_MILLI, &mut rng),
            Err(Error::TimestampOutOfRange)
        );
    }

    /// PostgreSQL 18's `uuidv7(shift)`: unix_ts_ms = floor((now + shift) / 1 ms)
    /// and, where rand_a is a fraction, rand_a = floor(sub-ms part × 4096 / 10^6).
    /// Checked for every method at clock readings all over a millisecond and
    /// shifts of a few microseconds either way (the sub-ms case the old
    /// whole-millisecond shift got wrong in most calls).
    #[test]
    fn shift_truncates_once_like_postgresql_18() {
        let mut rng = splitmix(12);
        for method in [V7Method::Default, V7Method::Pg18, V7Method::Counter, V7Method::Random] {
            for i in 0..2000i128 {
                // Fresh state per reading, so the value stands at the clock itself.
                let mut st = V7State::default();
                let now = T0 + i * 499 + (rng() % 1000) as i128;
                let shift = [-1_000, 1_000, 900_000, -999_999, 3_600_000_000_000][i as usize % 5];
                let b = st.next(method, now, shift, &mut rng).unwrap();
                let t = now + shift;
                assert_eq!(ms_of(&b), t.div_euclid(NANOS_PER_MILLI), "{method:?} now={now} shift={shift}");
                if matches!(method, V7Method::Default | V7Method::Pg18) {
                    let frac = t.rem_euclid(NANOS_PER_MILLI) * 4096 / NANOS_PER_MILLI;
                    assert_eq!(i128::from(rand_a(&b).unwrap()), frac, "{method:?}");
                }
            }
        }
        // Under cluster scope too.
        for i in 0..2000i128 {
            let shared = core::sync::atomic::AtomicU64::new(0);
            let now = T0 + i * 499;
            let b = next_cluster(&shared, now, -1_000, rng()).unwrap();
            assert_eq!(ms_of(&b), (now - 1_000).div_euclid(NANOS_PER_MILLI));
        }
    }

    /// A value the state pushed ahead of the clock is shifted from the start of
    /// its own tick (or millisecond), so shifting never reorders it before the
    /// clock's position.
    #[test]
    fn shift_of_a_value_ahead_of_the_clock_starts_from_its_own_time() {
        let mut rng = splitmix(13);
        let mut st = V7State::default();
        // The state moved 5 ms ahead of the clock (e.g. a clock step back).
        let ahead = st.next(V7Method::Counter, T0 + 5 * NANOS_PER_MILLI, 0, &mut rng).unwrap();
        let b = st.next(V7Method::Counter, T0, -1, &mut rng).unwrap();
        assert_eq!(ms_of(&b), ms_of(&ahead) - 1);
        for tick in [0u64, 1, 4095, 4096, 123_456_789] {
            let start = tick_start(tick);
            assert_eq!(tick_of(start), Ok(tick));
            if tick > 0 {
                assert_eq!(tick_of(start - 1), Ok(tick - 1), "tick_start is the *first* instant");
            }
        }
    }

    #[test]
    fn clock_before_1970_is_an_error() {
        // (Pg18 is left out: like PostgreSQL 18 it starts from 1970-01-01
        // and treats an earlier clock as a regression, stepping forward.)
        let mut st = V7State::default();
        for method in [V7Method::Default, V7Method::Counter, V7Method::Random] {
            assert_eq!(st.next(method, -NANOS_PER_MILLI, 0, || 0), Err(Error::TimestampOutOfRange));
        }
    }

    #[test]
    fn cluster_positions_are_one_strict_order_across_threads() {
        use std::sync::atomic::AtomicU64;
        use std::sync::Arc;
        let shared = Arc::new(AtomicU64::new(0));
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || {
                    let mut rng = splitmix(100 + t);
                    // A frozen clock forces every value through the counter path.
                    (0..50_000).map(|_| next_cluster(&shared, T0, 0, rng()).unwrap()).collect::<Vec<_>>()
                })
            })
            .collect();
        let per_thread: Vec<Vec<Bytes>> = threads.into_iter().map(|h| h.join().unwrap()).collect();
        let position = |b: &Bytes| (u64::from_be_bytes(b[0..8].try_into().unwrap()), b[8] & 0x3c);
        let mut all = std::collections::HashSet::new();
        for values in &per_thread {
            assert!(values.windows(2).all(|w| w[0] < w[1]), "each thread increases");
            for b in values {
                assert_eq!((version(b), variant(b)), (Some(7), Variant::Rfc9562));
                assert!(all.insert(position(b)), "a position was handed out twice");
            }
        }
        assert_eq!(all.len(), 200_000);
        // 200,000 values on a frozen clock: 12,500 ticks of 16, ~3 ms ahead, no more.
        let last = per_thread.iter().flatten().max().unwrap();
        assert_eq!(ms_of(last), T0 / NANOS_PER_MILLI + 3);
        // A clock ahead of the shared position is taken as is.
        let b = next_cluster(&shared, T0 + 10 * NANOS_PER_MILLI, 0, 0).unwrap();
        assert_eq!(b, v7::encode((T0 / NANOS_PER_MILLI + 10) as u64, 0, 0));
    }

    #[test]
    fn gregorian_clock_bursts_and_regression() {
        let mut c = GregorianClock::new(0x3fff);
        let (t1, s1) = c.next(T0).unwrap();
        let (t2, s2) = c.next(T0).unwrap();
        assert_eq!((t2, s2), (t1 + 1, s1));
        // Clock goes back: sequence increments (and wraps within 14 bits), time follows.
        let (t3, s3) = c.next(T0 - 1_000_000).unwrap();
        assert_eq!(s3, 0);
        assert_eq!(t3, t1 - 10_000);
        // Forward again: no further increment.
        let (_, s4) = c.next(T0 + 1_000).unwrap();
        assert_eq!(s4, 0);
    }

    /// Methods whose rand_a is not a fraction of the millisecond keep it through a shift: only
    /// the millisecond moves.
    #[test]
    fn a_shift_keeps_counter_and_random_rand_a() {
        let shift = 5 * 86_400 * NANOS_PER_MILLI * 1000 + 500_000;
        for method in [V7Method::Counter, V7Method::Random] {
            let (plain, shifted) = (
                V7State::default().next(method, T0 + 123_456, 0, splitmix(3)).unwrap(),
                V7State::default().next(method, T0 + 123_456, shift, splitmix(3)).unwrap(),
            );
            assert_eq!(plain[6..], shifted[6..], "{method:?}");
            assert_eq!(ms_of(&shifted), ms_of(&plain) + 5 * 86_400 * 1000, "{method:?}");
        }
    }

    /// V7Method::Random: the time is the clock's millisecond, whatever the random bits.
    #[test]
    fn random_method_keeps_the_clocks_millisecond() {
        for word in [0, u64::MAX, 0x8000_0000_0000_0001] {
            let b = V7State::default().next(V7Method::Random, T0 + 7_654_321, 0, || word).unwrap();
            assert_eq!(ms_of(&b), (T0 + 7_654_321) / NANOS_PER_MILLI);
        }
    }

    /// A full 42-bit counter moves to the next millisecond with a fresh seed (top bit clear).
    #[test]
    fn counter_rolls_over_to_the_next_millisecond() {
        let ms = (T0 / NANOS_PER_MILLI) as u64;
        let mut st = V7State {
            last_tick: ms << 12 | mask(COUNTER_BITS) >> (COUNTER_BITS - 12),
            counter: mask(COUNTER_BITS),
            method: Some(V7Method::Counter),
            ..V7State::default()
        };
        let b = st.next(V7Method::Counter, T0, 0, || u64::MAX).unwrap();
        assert_eq!(ms_of(&b), ms as i128 + 1);
        let rand_a = u16::from_be_bytes([b[6], b[7]]) & 0xfff;
        assert_eq!(u64::from(rand_a), mask(COUNTER_BITS - 1) >> (COUNTER_BITS - 12));
    }

    /// v1's clock ends at its last 100-ns tick: a call that would need the next one fails.
    #[test]
    fn gregorian_clock_ends_at_its_last_tick() {
        let last = crate::time::unix_from_gregorian(MAX_GREGORIAN_100NS);
        let mut c = GregorianClock::new(0);
        assert_eq!(c.next(last - 100).map(|(t, _)| t), Ok(MAX_GREGORIAN_100NS - 1));
        assert_eq!(c.next(last - 100).map(|(t, _)| t), Ok(MAX_GREGORIAN_100NS));
        assert_eq!(c.next(last - 100), Err(Error::TimestampOutOfRange));
    }

    /// The counter's 30 low bits fill `rand_b` from its 62nd bit down, nothing above.
    #[test]
    fn counter_tail_is_the_counters_low_30_bits_under_rand_bs_top() {
        assert_eq!(counter_tail(mask(COUNTER_BITS)), mask(30) << 32);
        assert_eq!(counter_tail(1 << 30), 0);
        assert_eq!(counter_tail(1), 1 << 32);
    }
}
