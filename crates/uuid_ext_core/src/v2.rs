//! UUIDv2, DCE Security.
//!
//! RFC 9562 §5.2 leaves v2 to The Open Group's DCE 1.1 "Authentication and
//! Security Services" (C311), §5.2.1.1, which starts from a v1 UUID and
//! overwrites two fields:
//!
//! ```text
//!  octets 0-3   time_low            <- local_id (e.g. a POSIX UID or GID), big-endian
//!  octets 4-5   time_mid               v1 timestamp bits 32..47
//!  octets 6-7   ver=2 | time_high      v1 timestamp bits 48..59
//!  octet  8     var=10 | clock_seq_hi  6 high bits of the 14-bit clock sequence
//!  octet  9     clock_seq_low       <- local_domain (0 person, 1 group, 2 org)
//!  octets 10-15 node
//! ```
//!
//! So a v2 value keeps only the top 28 bits of the timestamp (a resolution of
//! 2^32 × 100 ns ≈ 7.16 minutes) and 6 bits of clock sequence: at most 64
//! distinct values per node, domain and id in each 7-minute window. This is
//! the reason v2 is rarely used; uuid_ext provides it for completeness.
//! [`DceSequence`] hands out those 64 values and refuses a 65th rather than
//! repeat one.

use super::fields::{set_version, version};
use super::v1::{encode_v1, GregorianFields};
use super::{Bytes, Error};
use std::collections::HashMap;

/// The v2 clock keeps the timestamp's bits from 32 up: one step is 2^32 × 100 ns.
pub const STEP_BITS: u32 = 32;
/// Distinct values per node, domain and id in one step (6 clock-sequence bits).
pub const VALUES_PER_STEP: u8 = 64;
/// Distinct (domain, id) pairs a generator keeps track of in one step: its memory is bounded
/// (about 2 MiB), whatever a caller asks for. A pair beyond it waits for the next step
/// ([`Error::TooManyIds`]), since forgetting one could repeat its values.
pub const IDS_PER_STEP: usize = 65_536;

/// DCE local domains (C311 §5.2.1.1).
pub const DOMAIN_PERSON: u8 = 0;
pub const DOMAIN_GROUP: u8 = 1;
pub const DOMAIN_ORG: u8 = 2;

/// The fields a v2 UUID carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DceFields {
    pub local_domain: u8,
    pub local_id: u32,
    /// The v1 timestamp with its low 32 bits zeroed (they are not stored).
    pub timestamp: u64,
    /// The 6 stored high bits of the clock sequence.
    pub clock_seq_hi: u8,
    pub node: [u8; 6],
}

/// Encodes v2 from v1 fields: time_low becomes `local_id`, clock_seq_low becomes `local_domain`.
pub fn encode_v2(f: &GregorianFields, local_domain: u8, local_id: u32) -> Bytes {
    let mut b = encode_v1(f);
    b[0..4].copy_from_slice(&local_id.to_be_bytes());
    b[9] = local_domain;
    set_version(b, 2)
}

/// The fields of a v2 UUID, or `None` for any other version or variant.
pub fn decode_v2(b: &Bytes) -> Option<DceFields> {
    if version(b) != Some(2) {
        return None;
    }
    let time_mid = u64::from(u16::from_be_bytes([b[4], b[5]]));
    let time_high = u64::from(u16::from_be_bytes([b[6], b[7]]) & 0x0fff);
    let mut node = [0; 6];
    node.copy_from_slice(&b[10..16]);
    Some(DceFields {
        local_domain: b[9],
        local_id: u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
        timestamp: time_high << 48 | time_mid << 32,
        clock_seq_hi: b[8] & 0x3f,
        node,
    })
}

/// A generator's v2 state: which of the 64 clock-sequence values each
/// (domain, id) has used in the current step, for at most [`IDS_PER_STEP`] pairs.
///
/// The step never goes back: a clock that steps back (or a burst that used up
/// a step) keeps the last step, so a value is never handed out twice.
#[derive(Debug, Default)]
pub struct DceSequence {
    step: u64,
    used: HashMap<(u8, u32), u8>,
}

impl DceSequence {
    /// The (timestamp, 6-bit clock sequence) of the next v2 value for
    /// `local_domain`/`local_id` at Gregorian time `timestamp`, or
    /// [`Error::Exhausted`] when all 64 values of the step are used, or
    /// [`Error::TooManyIds`] for a pair beyond the [`IDS_PER_STEP`] of the step; the error
    /// carries the first timestamp of the next step.
    pub fn next(&mut self, timestamp: u64, local_domain: u8, local_id: u32) -> Result<(u64, u8), Error> {
        let step = timestamp >> STEP_BITS;
        if step > self.step {
            self.step = step;
            // The memory of a crowded step is given back, not kept for the next.
            self.used = HashMap::new();
        }
        let retry_at = (self.step + 1) << STEP_BITS;
        let key = (local_domain, local_id);
        if self.used.len() >= IDS_PER_STEP && !self.used.contains_key(&key) {
            return Err(Error::TooManyIds { retry_at });
        }
        let used = self.used.entry(key).or_insert(0);
        if *used == VALUES_PER_STEP {
            return Err(Error::Exhausted { retry_at });
        }
        *used += 1;
        Ok((self.step << STEP_BITS, *used - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;

    #[test]
    fn v2_is_v1_with_time_low_and_clock_seq_low_replaced() {
        // Appendix A.1's fields, for uid 1000 in the person domain.
        let f = GregorianFields {
            timestamp: 0x1EC9414C232AB00,
            clock_seq: 0x33C8,
            node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46],
        };
        let b = encode_v2(&f, DOMAIN_PERSON, 1000);
        assert_eq!(b, hex("000003E8-9414-21EC-B300-9F6BDECED846"));
        assert_eq!(
            decode_v2(&b),
            Some(DceFields {
                local_domain: DOMAIN_PERSON,
                local_id: 1000,
                timestamp: 0x01EC_9414_0000_0000,
                clock_seq_hi: 0x33,
                node: f.node,
            })
        );
        assert_eq!(decode_v2(&hex("C232AB00-9414-11EC-B3C8-9F6BDECED846")), None);
    }

    #[test]
    fn sequence_hands_out_64_values_per_step_and_id_then_refuses() {
        let t = 0x1EC9414C232AB00;
        let mut seq = DceSequence::default();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..64 {
            assert!(seen.insert(seq.next(t, DOMAIN_PERSON, 1000).unwrap()));
        }
        let next_step = ((t >> 32) + 1) << 32;
        assert_eq!(seq.next(t + 1, DOMAIN_PERSON, 1000), Err(Error::Exhausted { retry_at: next_step }));
        // Another id or domain has its own 64.
        assert_eq!(seq.next(t, DOMAIN_GROUP, 1000), Ok((t >> 32 << 32, 0)));
        assert_eq!(seq.next(t, DOMAIN_PERSON, 1001), Ok((t >> 32 << 32, 0)));
        // The clock going back keeps the step: still exhausted, nothing repeats.
        assert!(seq.next(t - (1 << 33), DOMAIN_PERSON, 1000).is_err());
        // The next step starts afresh.
        assert_eq!(seq.next(next_step, DOMAIN_PERSON, 1000), Ok((next_step, 0)));
    }

    #[test]
    fn sequence_keeps_track_of_a_bounded_number_of_ids_per_step() {
        let t = 0x1EC9414C232AB00;
        let next_step = ((t >> 32) + 1) << 32;
        let mut seq = DceSequence::default();
        for id in 0..IDS_PER_STEP as u32 {
            assert!(seq.next(t, DOMAIN_PERSON, id).is_ok());
        }
        // One pair more is refused until the next step; pairs already known go on.
        assert_eq!(seq.next(t, DOMAIN_GROUP, 0), Err(Error::TooManyIds { retry_at: next_step }));
        assert_eq!(seq.next(t, DOMAIN_PERSON, 7), Ok((t >> 32 << 32, 1)));
        // The next step forgets them all and starts afresh.
        assert_eq!(seq.next(next_step, DOMAIN_GROUP, 0), Ok((next_step, 0)));
        assert_eq!(seq.used.len(), 1);
    }
}
