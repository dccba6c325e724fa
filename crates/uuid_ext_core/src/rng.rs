//! A fork-safe, buffered CSPRNG.
//!
//! `StdRng` (ChaCha12) seeded from the operating system: it produces a block
//! of output per ChaCha invocation, so a UUID costs no system call. PostgreSQL
//! backends are forked from the postmaster; if the library was preloaded
//! there and the RNG already seeded, every child would continue the *same*
//! stream. A `pthread_atfork` child handler bumps a generation counter, and
//! the RNG reseeds itself from the OS the first time it is used in a process
//! whose generation differs from its own (one relaxed atomic load per call).
//!
//! # References
//! * RFC 9562 §6.9 (unguessability: use a CSPRNG), §6.8 (collision resistance)

use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;

static FORK_GENERATION: AtomicU64 = AtomicU64::new(0);
static REGISTER_ATFORK: Once = Once::new();

extern "C" fn after_fork_in_child() {
    FORK_GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// Increases in every child process created by `fork()` after the first
/// [`ForkSafeRng`] was made. State derived from a process's randomness
/// (node IDs, counters) compares it to know it must start afresh.
#[inline]
pub fn fork_generation() -> u64 {
    FORK_GENERATION.load(Ordering::Relaxed)
}

pub struct ForkSafeRng {
    rng: StdRng,
    generation: u64,
}

impl ForkSafeRng {
    pub fn from_os() -> Self {
        REGISTER_ATFORK.call_once(|| {
            // SAFETY: registers a handler that only touches an atomic. The
            // return value is an errno (ENOMEM) we cannot recover from; without
            // the handler, a process would still reseed on its first use.
            unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
        });
        ForkSafeRng { rng: StdRng::from_os_rng(), generation: fork_generation() }
    }

    #[inline]
    fn check_fork(&mut self) {
        let generation = fork_generation();
        if generation != self.generation {
            self.rng = StdRng::from_os_rng();
            self.generation = generation;
        }
    }

    #[inline]
    pub fn fill(&mut self, buf: &mut [u8]) {
        self.check_fork();
        self.rng.fill_bytes(buf);
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.check_fork();
        self.rng.next_u64()
    }

    /// 16 random bytes: two 64-bit outputs (a third of the instructions of
    /// `fill_bytes`' general loop, which a v4 per call would pay).
    #[inline]
    pub fn bytes16(&mut self) -> [u8; 16] {
        self.check_fork();
        let (hi, lo) = (self.rng.next_u64(), self.rng.next_u64());
        ((u128::from(hi) << 64) | u128::from(lo)).to_ne_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_outputs_differ() {
        let mut r = ForkSafeRng::from_os();
        assert_ne!(r.bytes16(), r.bytes16());
    }

    /// Really forks: the child's next 32 bytes must not equal the parent's.
    #[test]
    fn child_process_does_not_continue_parents_stream() {
        let mut rng = ForkSafeRng::from_os();
        rng.next_u64();
        let from_child = crate::testutil::in_forked_child(|| {
            let mut buf = [0u8; 40];
            rng.fill(&mut buf[..32]);
            buf[32..].copy_from_slice(&fork_generation().to_ne_bytes());
            buf
        });
        let mut from_parent = [0u8; 32];
        rng.fill(&mut from_parent);
        assert_ne!(from_child[..32], from_parent[..], "child continued the parent's stream");
        let child_generation = u64::from_ne_bytes(from_child[32..].try_into().unwrap());
        assert_eq!(child_generation, fork_generation() + 1);
    }

    /// Both halves of bytes16() are random, and without a fork the stream continues as the
    /// generator's own (no reseed on each call).
    #[test]
    fn bytes16_is_the_streams_next_two_words() {
        let mut r = ForkSafeRng::from_os();
        let mut copy = r.rng.clone();
        let (hi, lo) = (copy.next_u64(), copy.next_u64());
        assert_eq!(r.bytes16(), ((u128::from(hi) << 64) | u128::from(lo)).to_ne_bytes());
        assert_eq!(r.next_u64(), copy.next_u64());
    }
}
