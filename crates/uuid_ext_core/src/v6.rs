//! UUIDv6: v1's fields reordered so that values sort by time byte-wise, and
//! the lossless conversion between v1 and v6.
//!
//! ```text
//!  time_high (32) | time_mid (16) | ver=6 (4) | time_low (12) | var=10 (2) | clock_seq (14) | node (48)
//! ```
//!
//! # References
//! * RFC 9562 §5.6, Appendix A.5
//! * draft-peabody-dispatch-new-uuid-format-01 §4.3 (early v6 layout, same bits)

use super::fields::set_version;
use super::v1::{decode, decode_v1, encode_v1, put_clock_seq_node, GregorianFields};
use super::Bytes;

/// Encodes a v6 UUID: time_high(32) time_mid(16) ver time_low(12) var clock_seq(14) node(48).
pub fn encode_v6(f: &GregorianFields) -> Bytes {
    let t = f.timestamp;
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&((t >> 28) as u32).to_be_bytes());
    b[4..6].copy_from_slice(&((t >> 12) as u16).to_be_bytes());
    b[6..8].copy_from_slice(&((t & 0x0fff) as u16).to_be_bytes());
    put_clock_seq_node(&mut b, f);
    set_version(b, 6)
}

/// The fields of a v6 UUID, or `None` for any other version or variant.
pub fn decode_v6(b: &Bytes) -> Option<GregorianFields> {
    decode(b, 6)
}

/// v1 → v6, losslessly (§5.6: "the same fields, reordered"); `None` if not v1.
pub fn v1_to_v6(b: &Bytes) -> Option<Bytes> {
    decode_v1(b).map(|f| encode_v6(&f))
}

/// v6 → v1, losslessly; `None` if not v6.
pub fn v6_to_v1(b: &Bytes) -> Option<Bytes> {
    decode_v6(b).map(|f| encode_v1(&f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;
    use crate::v1::tests::A_FIELDS;

    #[test]
    fn appendix_a5_v6() {
        assert_eq!(encode_v6(&A_FIELDS), hex("1EC9414C-232A-6B00-B3C8-9F6BDECED846"));
        assert_eq!(decode_v6(&hex("1EC9414C-232A-6B00-B3C8-9F6BDECED846")), Some(A_FIELDS));
    }

    #[test]
    fn a1_converts_to_a5_and_back() {
        let a1 = hex("C232AB00-9414-11EC-B3C8-9F6BDECED846");
        let a5 = hex("1EC9414C-232A-6B00-B3C8-9F6BDECED846");
        assert_eq!(v1_to_v6(&a1), Some(a5));
        assert_eq!(v6_to_v1(&a5), Some(a1));
        assert_eq!(v1_to_v6(&a5), None);
        assert_eq!(v6_to_v1(&a1), None);
    }

    #[test]
    fn v6_sorts_by_time_bytewise_and_v1_does_not() {
        let at = |t| GregorianFields { timestamp: t, clock_seq: 0, node: [0; 6] };
        let (early, late) = (at(0x0000_0001_0000_0000), at(0x0000_0000_ffff_ffff + 0x1_0000_0001));
        assert!(encode_v6(&at(1)) < encode_v6(&at(0x1000)));
        assert!(encode_v6(&early) < encode_v6(&late));
        // v1: time_low first, so a later time can sort earlier.
        assert!(encode_v1(&at(0xffff_ffff)) > encode_v1(&at(0x1_0000_0000)));
    }
}
