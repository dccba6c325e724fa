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

use super::fields::{set_version, version};
use super::v1::{encode_v1, GregorianFields};
use super::Bytes;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::testutil::hex;

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
                timestamp: 0x1EC9414_0000_0000,
                clock_seq_hi: 0x33,
                node: f.node,
            })
        );
        assert_eq!(decode_v2(&hex("C232AB00-9414-11EC-B3C8-9F6BDECED846")), None);
    }
}
