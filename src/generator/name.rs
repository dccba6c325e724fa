//! Name-based UUIDs: v3 (MD5), v5 (SHA-1) and the SHA-256 v8 of Appendix B.2.
//!
//! The hash is taken over the 16 namespace octets followed by the name's
//! octets; its first 16 octets become the UUID and the version and variant
//! bits are overwritten (§5.3, §5.5). uuid_ext hashes the name's bytes as
//! given (for SQL `text`, the database encoding's bytes — as uuid-ossp does);
//! §6.5 leaves canonicalisation of names to the namespace's conventions.
//!
//! # References
//! * RFC 9562 §5.3 (v3), §5.5 (v5), §5.8 + Appendix B.2 (v8 with SHA-256,
//!   with verified erratum EID 7929), §6.5 (name-based rules), §6.6 (namespaces)

use super::fields::set_version;
use super::Bytes;
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256};

fn hash_to_uuid<D: Digest>(namespace: &Bytes, name: &[u8], version: u8) -> Bytes {
    let digest = D::new().chain_update(namespace).chain_update(name).finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    set_version(b, version)
}

/// UUIDv3: MD5(namespace ‖ name) (§5.3).
pub fn v3(namespace: &Bytes, name: &[u8]) -> Bytes {
    hash_to_uuid::<Md5>(namespace, name, 3)
}

/// UUIDv5: SHA-1(namespace ‖ name), truncated to 128 bits (§5.5).
pub fn v5(namespace: &Bytes, name: &[u8]) -> Bytes {
    hash_to_uuid::<Sha1>(namespace, name, 5)
}

/// UUIDv8 by SHA-256(namespace ‖ name), truncated to 128 bits (Appendix B.2).
pub fn v8_sha256(namespace: &Bytes, name: &[u8]) -> Bytes {
    hash_to_uuid::<Sha256>(namespace, name, 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::namespace::DNS;
    use crate::generator::testutil::hex;

    #[test]
    fn appendix_a2_v3() {
        assert_eq!(v3(&DNS, b"www.example.com"), hex("5df41881-3aed-3515-88a7-2f4a814cf09e"));
    }

    #[test]
    fn appendix_a4_v5() {
        assert_eq!(v5(&DNS, b"www.example.com"), hex("2ed6657d-e927-568b-95e1-2665a8aea6a2"));
    }

    #[test]
    fn appendix_b2_v8_sha256_with_erratum_7929() {
        // Figure 29 as corrected by EID 7929: custom_c starts 0b01, so octet 8 is 0x93.
        let b = v8_sha256(&DNS, b"www.example.com");
        assert_eq!(b, hex("5c146b14-3c52-8afd-938a-375d0df1fbf6"));
        assert_eq!(b[8] >> 6, 0b10);
        assert_eq!((b[8] >> 4) & 0b11, 0b01);
    }

    #[test]
    fn empty_name_and_namespace_matter() {
        assert_ne!(v5(&DNS, b""), v5(&crate::generator::namespace::URL, b""));
        assert_ne!(v3(&DNS, b""), v3(&DNS, b"\0"));
    }
}
