//! UUIDv1 (Gregorian time-based), and the fields it shares with UUIDv6
//! ([`super::v6`], the same fields reordered for sorting).
//!
//! Both carry the same three fields: a 60-bit count of 100-ns intervals since
//! 1582-10-15 ([`super::time`]), a 14-bit `clock_seq` and a 48-bit `node`.
//! v1 stores the timestamp low-field first; v6 stores it most significant
//! first, so v6 values sort by time byte-wise.
//!
//! # References
//! * RFC 9562 §5.1 (v1), §5.6 (v6), §6.3 (clock sequence), §6.10 (random node)
//! * draft-peabody-dispatch-new-uuid-format-01 §4.3 (early v6 layout, same bits)

use super::fields::{set_version, version};
use super::Bytes;

/// The fields shared by v1 and v6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GregorianFields {
    /// 60-bit count of 100-ns intervals since 1582-10-15 00:00:00 UTC.
    pub timestamp: u64,
    /// 14-bit clock sequence (§6.3).
    pub clock_seq: u16,
    /// 48-bit node ID, octets in transmission order.
    pub node: [u8; 6],
}

pub(crate) fn put_clock_seq_node(b: &mut Bytes, f: &GregorianFields) {
    b[8] = (f.clock_seq >> 8) as u8 & 0x3f;
    b[9] = f.clock_seq as u8;
    b[10..16].copy_from_slice(&f.node);
}

fn clock_seq_node(b: &Bytes) -> (u16, [u8; 6]) {
    let clock_seq = u16::from(b[8] & 0x3f) << 8 | u16::from(b[9]);
    let mut node = [0; 6];
    node.copy_from_slice(&b[10..16]);
    (clock_seq, node)
}

/// Encodes a v1 UUID: time_low(32) time_mid(16) ver time_high(12) var clock_seq(14) node(48).
pub fn encode_v1(f: &GregorianFields) -> Bytes {
    let t = f.timestamp;
    let mut b = [0u8; 16];
    b[0..4].copy_from_slice(&(t as u32).to_be_bytes());
    b[4..6].copy_from_slice(&((t >> 32) as u16).to_be_bytes());
    b[6..8].copy_from_slice(&(((t >> 48) & 0x0fff) as u16).to_be_bytes());
    put_clock_seq_node(&mut b, f);
    set_version(b, 1)
}

/// The fields of a v1 or v6 UUID (`version` 1 or 6), or `None` if `b` is
/// not that version of the RFC variant. Both layouts split the timestamp
/// into a 32-bit, a 16-bit and a 12-bit field; only the order differs.
pub(crate) fn decode(b: &Bytes, want: u8) -> Option<GregorianFields> {
    if version(b) != Some(want) {
        return None;
    }
    let first = u64::from(u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    let mid = u64::from(u16::from_be_bytes([b[4], b[5]]));
    let last = u64::from(u16::from_be_bytes([b[6], b[7]]) & 0x0fff);
    let timestamp = if want == 1 { last << 48 | mid << 32 | first } else { first << 28 | mid << 12 | last };
    let (clock_seq, node) = clock_seq_node(b);
    Some(GregorianFields { timestamp, clock_seq, node })
}

/// The fields of a v1 UUID, or `None` for any other version or variant.
pub fn decode_v1(b: &Bytes) -> Option<GregorianFields> {
    decode(b, 1)
}

/// The fields of a v1 or v6 UUID.
pub fn decode_gregorian(b: &Bytes) -> Option<GregorianFields> {
    decode_v1(b).or_else(|| super::v6::decode_v6(b))
}

/// A random node ID with the multicast bit set, so it can never collide
/// with an IEEE 802 address (§6.10), and the locally-administered bit set,
/// as uuid-ossp's `uuid_generate_v1mc()` does (`node[0] |= 0x03`).
pub fn random_node(random: [u8; 6]) -> [u8; 6] {
    let mut node = random;
    node[0] |= 0x03;
    node
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::testutil::hex;
    use crate::time::{gregorian_from_unix, unix_from_gregorian, MAX_GREGORIAN_100NS};
    use crate::v6::{decode_v6, encode_v6, v6_to_v1};

    /// Appendix A: the fields shared by the v1 and v6 vectors.
    pub(crate) const A_FIELDS: GregorianFields =
        GregorianFields { timestamp: 0x1EC9414C232AB00, clock_seq: 0x33C8, node: [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46] };

    #[test]
    fn appendix_a1_v1() {
        assert_eq!(encode_v1(&A_FIELDS), hex("C232AB00-9414-11EC-B3C8-9F6BDECED846"));
        assert_eq!(decode_v1(&hex("C232AB00-9414-11EC-B3C8-9F6BDECED846")), Some(A_FIELDS));
    }

    #[test]
    fn vectors_decode_to_2022_02_22_19_22_22_utc() {
        for v in ["C232AB00-9414-11EC-B3C8-9F6BDECED846", "1EC9414C-232A-6B00-B3C8-9F6BDECED846"] {
            let f = decode_gregorian(&hex(v)).unwrap();
            assert_eq!(unix_from_gregorian(f.timestamp), 1_645_557_742_000_000_000);
        }
    }

    #[test]
    fn a1_node_has_multicast_bit_as_section_6_10_says() {
        // Appendix A: 0x9E6BDECED846 becomes 0x9F6BDECED846.
        assert_eq!(random_node([0x9E, 0x6B, 0xDE, 0xCE, 0xD8, 0x46]), A_FIELDS.node);
        // Multicast (0x01) and locally administered (0x02), as uuid-ossp's v1mc.
        assert_eq!(random_node([0; 6]), [0x03, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn decode_encode_roundtrip_over_field_edges() {
        let timestamps = [0, 1, 0xfff, 0x1000, 0xffff_ffff, 1 << 32, 1 << 48, MAX_GREGORIAN_100NS];
        for &timestamp in &timestamps {
            for clock_seq in [0, 1, 0x2000, 0x3fff] {
                for node in [[0; 6], [0xff; 6], [1, 2, 3, 4, 5, 6]] {
                    let f = GregorianFields { timestamp, clock_seq, node };
                    assert_eq!(decode_v1(&encode_v1(&f)), Some(f));
                    assert_eq!(decode_v6(&encode_v6(&f)), Some(f));
                    assert_eq!(v6_to_v1(&encode_v6(&f)), Some(encode_v1(&f)));
                }
            }
        }
    }

    #[test]
    fn gregorian_epoch_encodes_as_zero_time() {
        let t = gregorian_from_unix(-12_219_292_800i128 * 1_000_000_000).unwrap();
        let b = encode_v1(&GregorianFields { timestamp: t, clock_seq: 0, node: [0; 6] });
        assert_eq!(b, hex("00000000-0000-1000-8000-000000000000"));
    }
}
