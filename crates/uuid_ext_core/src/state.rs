//! The per-backend generator state: clock, RNG, last v7 value, v1/v6 clock
//! sequence and node. The process-global state of the core is here and in [`crate::rng`]
//! (the fork generation its `pthread_atfork` handler advances).
//!
//! PostgreSQL backends are single-threaded processes forked from the
//! postmaster; the state is created lazily on first use and rebuilt whenever
//! the process turns out to be a fork child of the process that built it
//! (see [`crate::rng::fork_generation`]), so backends forked from
//! a postmaster that preloaded the library share no random stream, node ID,
//! clock sequence or last value.

use crate::monotonic::{GregorianClock, V7State};
use crate::rng::{fork_generation, ForkSafeRng};
use crate::time::UnixNanos;
use crate::v1::random_node;
use crate::v2::DceSequence;
use std::cell::RefCell;

pub struct BackendState {
    pub rng: ForkSafeRng,
    pub v7: V7State,
    pub gregorian: GregorianClock,
    /// Random 48-bit node with the multicast bit set (§6.10), fixed per backend.
    pub node: [u8; 6],
    /// v2 keeps only 6 clock-sequence bits and 28 timestamp bits, so values
    /// within one 7-minute step differ only by this per-backend sequence.
    pub dce: DceSequence,
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
            dce: DceSequence::default(),
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
pub fn wall_clock() -> UnixNanos {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: CLOCK_REALTIME always exists; the vDSO answers without a system call.
    unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts) };
    i128::from(ts.tv_sec) * 1_000_000_000 + i128::from(ts.tv_nsec)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A postmaster that preloads the library may build this state before it
    /// forks backends: a child must then start afresh, with its own random
    /// stream, node and clock sequence. (This fails without the
    /// `pthread_atfork` handler of `uuid_ext_core::rng`.)
    #[test]
    fn state_built_before_a_fork_is_rebuilt_in_the_child() {
        let parent_node = with(|s| s.node);
        let from_child = crate::testutil::in_forked_child(|| {
            let mut out = [0u8; 14];
            with(|s| {
                out[..6].copy_from_slice(&s.node);
                out[6..].copy_from_slice(&s.rng.next_u64().to_ne_bytes());
            });
            out
        });
        let parent_next = with(|s| s.rng.next_u64());
        assert_ne!(from_child[..6], parent_node, "the child kept the parent's node");
        assert_ne!(from_child[6..], parent_next.to_ne_bytes(), "the child continued the parent's stream");
        assert_eq!(with(|s| s.node), parent_node, "the parent keeps its own state");
    }

    #[test]
    fn wall_clock_is_the_system_clock() {
        let system = || std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as i128;
        let (before, clock, after) = (system(), wall_clock(), system());
        assert!(before <= clock && clock <= after, "{clock} not within [{before}, {after}]");
    }
}
