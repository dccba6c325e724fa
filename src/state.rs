//! The per-backend generator state: clock, RNG, last v7 value, v1/v6 clock
//! sequence and node. This is the only module with process-global state.
//!
//! PostgreSQL backends are single-threaded processes forked from the
//! postmaster; the state is created lazily on first use and rebuilt whenever
//! the process turns out to be a fork child of the process that built it
//! (see [`crate::generator::rng::fork_generation`]), so backends forked from
//! a postmaster that preloaded the library share no random stream, node ID,
//! clock sequence or last value.

use crate::generator::monotonic::{GregorianClock, V7State};
use crate::generator::rng::{fork_generation, ForkSafeRng};
use crate::generator::time::UnixNanos;
use crate::generator::v1::random_node;
use std::cell::RefCell;

pub struct BackendState {
    pub rng: ForkSafeRng,
    pub v7: V7State,
    pub gregorian: GregorianClock,
    /// Random 48-bit node with the multicast bit set (§6.10), fixed per backend.
    pub node: [u8; 6],
    /// v2 keeps only 6 clock-sequence bits and 28 timestamp bits, so values
    /// within one 7-minute window differ only by this per-backend counter.
    pub dce_seq: u8,
    generation: u64,
}

impl BackendState {
    fn new() -> Self {
        let mut rng = ForkSafeRng::from_os();
        let r = rng.bytes16();
        BackendState {
            node: random_node([r[0], r[1], r[2], r[3], r[4], r[5]]),
            gregorian: GregorianClock::new(u16::from_be_bytes([r[6], r[7]])),
            v7: V7State::default(),
            dce_seq: r[8],
            generation: fork_generation(),
            rng,
        }
    }
}

thread_local! {
    static STATE: RefCell<Option<BackendState>> = const { RefCell::new(None) };
}

/// Runs `f` with this backend's state, creating or rebuilding it as needed.
#[inline]
pub fn with<R>(f: impl FnOnce(&mut BackendState) -> R) -> R {
    STATE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let state = match &mut *slot {
            Some(s) if s.generation == fork_generation() => s,
            other => other.insert(BackendState::new()),
        };
        f(state)
    })
}

/// The wall clock, as nanoseconds since the Unix epoch (negative before it).
#[inline]
pub fn now() -> UnixNanos {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: CLOCK_REALTIME always exists; the vDSO answers without a system call.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    i128::from(ts.tv_sec) * 1_000_000_000 + i128::from(ts.tv_nsec)
}
