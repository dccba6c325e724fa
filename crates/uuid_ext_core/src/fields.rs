//! Bit packing shared by every layout: the version and variant fields.
//!
//! All of uuid_ext's layouts set these two fields through [`set_version`], so
//! there is exactly one place where the bits of octets 6 and 8 are written.
//!
//! # References
//! * RFC 9562 §4.1 (variant field, Table 1), §4.2 (version field, Table 2)
//!
//! RFC 4530's `uuidMatch` and `uuidOrderingMatch` are PostgreSQL's own `=` and
//! `uuid_ops` order (octet-wise, unsigned); `tests/pg_regress/sql/vectors.sql`
//! checks that on every major, so nothing here re-implements them.

use super::Bytes;

/// The variant classes of RFC 9562 §4.1, Table 1 (the top bits of octet 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// `0xxx`: reserved, NCS backward compatibility (this includes Nil).
    Ncs,
    /// `10xx`: the variant RFC 9562 (and RFC 4122) specifies.
    Rfc9562,
    /// `110x`: reserved, Microsoft backward compatibility.
    Microsoft,
    /// `111x`: reserved for future definition (this includes Max).
    Future,
}

impl Variant {
    /// The name used in SQL output.
    pub fn label(self) -> &'static str {
        match self {
            Variant::Ncs => "NCS",
            Variant::Rfc9562 => "RFC 9562",
            Variant::Microsoft => "Microsoft",
            Variant::Future => "Future",
        }
    }
}

/// Sets the 4-bit version (octet 6, high nibble) and the `10` variant
/// (octet 8, two high bits), leaving the other 122 bits as given.
#[inline]
pub fn set_version(mut b: Bytes, version: u8) -> Bytes {
    debug_assert!(version <= 0xf);
    b[6] = (b[6] & 0x0f) | (version << 4);
    b[8] = (b[8] & 0x3f) | 0x80;
    b
}

/// The variant of a UUID (RFC 9562 §4.1, Table 1).
#[inline]
pub fn variant(b: &Bytes) -> Variant {
    match b[8] >> 5 {
        0b000..=0b011 => Variant::Ncs,
        0b100 | 0b101 => Variant::Rfc9562,
        0b110 => Variant::Microsoft,
        _ => Variant::Future,
    }
}

/// The version number, or `None` when the variant is not RFC 9562's (the
/// version field only has a meaning for that variant, §4.2). Like
/// PostgreSQL's `uuid_extract_version()`, any nibble 0..15 is returned.
#[inline]
pub fn version(b: &Bytes) -> Option<u8> {
    (variant(b) == Variant::Rfc9562).then_some(b[6] >> 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;

    #[test]
    fn set_version_overwrites_only_six_bits() {
        for ver in 0..16u8 {
            for fill in [0x00u8, 0xff, 0x5a, 0xa5] {
                let out = set_version([fill; 16], ver);
                assert_eq!(version(&out), Some(ver));
                assert_eq!(variant(&out), Variant::Rfc9562);
                for i in (0..16).filter(|i| *i != 6 && *i != 8) {
                    assert_eq!(out[i], fill);
                }
                assert_eq!(out[6] & 0x0f, fill & 0x0f);
                assert_eq!(out[8] & 0x3f, fill & 0x3f);
            }
        }
    }

    #[test]
    fn variant_table_1() {
        let with_octet8 = |o: u8| {
            let mut b = [0u8; 16];
            b[8] = o;
            variant(&b)
        };
        for o in 0x00..=0x7f {
            assert_eq!(with_octet8(o), Variant::Ncs);
        }
        for o in 0x80..=0xbf {
            assert_eq!(with_octet8(o), Variant::Rfc9562);
        }
        for o in 0xc0..=0xdf {
            assert_eq!(with_octet8(o), Variant::Microsoft);
        }
        for o in 0xe0..=0xff {
            assert_eq!(with_octet8(o), Variant::Future);
        }
    }

    #[test]
    fn version_is_none_for_other_variants() {
        // A Microsoft-variant GUID with a "4" in the version position.
        assert_eq!(version(&hex("00000000-0000-4000-c000-000000000000")), None);
        assert_eq!(version(&hex("00000000-0000-4000-8000-000000000000")), Some(4));
    }

    /// RFC 9562 §4.1, Table 1: the variant field's four meanings, by the high bits of octet 8.
    #[test]
    fn variant_labels() {
        let labels = [(0x00, "NCS"), (0x80, "RFC 9562"), (0xc0, "Microsoft"), (0xe0, "Future")];
        for (octet8, label) in labels {
            let mut b = [0u8; 16];
            b[8] = octet8;
            assert_eq!(variant(&b).label(), label);
        }
    }
}
