//! UUIDv3: name-based, MD5 ([`super::name`] has the rules all name-based
//! versions share). RFC 9562 prefers v5 (§6.5); v3 stays for compatibility.
//!
//! # References
//! * RFC 9562 §5.3, Appendix A.2

use super::name::hash_to_uuid;
use super::Bytes;
use md5::Md5;

/// UUIDv3: MD5(namespace ‖ name) (§5.3).
pub fn from_name(namespace: &Bytes, name: &[u8]) -> Bytes {
    hash_to_uuid::<Md5>(namespace, name, 3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::namespace::DNS;
    use crate::testutil::hex;

    #[test]
    fn appendix_a2_v3() {
        assert_eq!(from_name(&DNS, b"www.example.com"), hex("5df41881-3aed-3515-88a7-2f4a814cf09e"));
    }

    #[test]
    fn empty_name_and_a_nul_differ() {
        assert_ne!(from_name(&DNS, b""), from_name(&DNS, b"\0"));
    }
}
