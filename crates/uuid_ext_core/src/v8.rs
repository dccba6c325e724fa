//! UUIDv8: custom, vendor-specific layouts (§5.8). Only the version and
//! variant bits are fixed. Appendix B gives two examples, both here: a
//! time-based layout and the name-based SHA-256 form (rules in [`super::name`]).
//!
//! ```text
//!  custom_a (48) | ver=8 (4) | custom_b (12) | var=10 (2) | custom_c (62)
//! ```
//!
//! # References
//! * RFC 9562 §5.8, Appendix B.1 (time-based example), B.2 (name-based)

use super::fields::set_version;
use super::name::hash_to_uuid;
use super::{Bytes, Error};
use sha2::Sha256;

/// UUIDv8 from 16 given octets: version and variant overwritten, the other
/// 122 bits kept.
pub fn from_bytes(custom: &[u8]) -> Result<Bytes, Error> {
    let b: Bytes = custom.try_into().map_err(|_| Error::WrongLength { expected: 16, got: custom.len() })?;
    Ok(set_version(b, 8))
}

/// UUIDv8 from its three custom fields (only the low 48, 12 and 62 bits are used).
pub fn from_fields(custom_a: u64, custom_b: u16, custom_c: u64) -> Bytes {
    let mut b = [0u8; 16];
    b[0..8].copy_from_slice(&((custom_a << 16) | u64::from(custom_b & 0x0fff)).to_be_bytes());
    b[8..16].copy_from_slice(&custom_c.to_be_bytes());
    set_version(b, 8)
}

/// UUIDv8 by SHA-256(namespace ‖ name), truncated to 128 bits (Appendix B.2).
pub fn from_name_sha256(namespace: &Bytes, name: &[u8]) -> Bytes {
    hash_to_uuid::<Sha256>(namespace, name, 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::namespace::DNS;
    use crate::testutil::hex;

    #[test]
    fn appendix_b2_v8_sha256_with_erratum_7929() {
        // Figure 29 as corrected by EID 7929: custom_c starts 0b01, so octet 8 is 0x93.
        let b = from_name_sha256(&DNS, b"www.example.com");
        assert_eq!(b, hex("5c146b14-3c52-8afd-938a-375d0df1fbf6"));
        assert_eq!(b[8] >> 6, 0b10);
        assert_eq!((b[8] >> 4) & 0b11, 0b01);
    }

    #[test]
    fn appendix_b1_time_based() {
        // 60 bits of 10-ns Unix time: the top 48 in custom_a, the low 12 in custom_b.
        let t: u64 = 0x2489E9AD2EE2E00;
        assert_eq!(t, 164_555_774_200_000_000);
        let custom_c = 0x0EC932D5F69181C0; // 0b00, 0xEC932D5F69181C0
        let b = from_fields(t >> 12, (t & 0xfff) as u16, custom_c);
        assert_eq!(b, hex("2489E9AD-2EE2-8E00-8EC9-32D5F69181C0"));
        // 10-ns steps back to 2022-02-22 19:22:22 UTC.
        let decoded = u64::from_be_bytes([0, 0, b[0], b[1], b[2], b[3], b[4], b[5]]) << 12
            | u64::from(u16::from_be_bytes([b[6], b[7]]) & 0xfff);
        assert_eq!(decoded as i128 * 10, 1_645_557_742_000_000_000);
    }

    #[test]
    fn custom_bytes_keep_122_bits() {
        let b = from_bytes(&[0xff; 16]).unwrap();
        assert_eq!(b, hex("FFFFFFFF-FFFF-8FFF-BFFF-FFFFFFFFFFFF"));
        assert_eq!(from_bytes(&[0; 15]), Err(Error::WrongLength { expected: 16, got: 15 }));
        assert_eq!(from_bytes(&[0; 17]), Err(Error::WrongLength { expected: 16, got: 17 }));
    }
}
