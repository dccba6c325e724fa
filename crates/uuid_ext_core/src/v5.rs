//! UUIDv5: name-based, SHA-1 truncated to 128 bits ([`super::name`] has the
//! rules all name-based versions share).
//!
//! # References
//! * RFC 9562 §5.5, Appendix A.4

use super::name::hash_to_uuid;
use super::Bytes;
use sha1::Sha1;

/// UUIDv5: SHA-1(namespace ‖ name), truncated to 128 bits (§5.5).
pub fn from_name(namespace: &Bytes, name: &[u8]) -> Bytes {
    hash_to_uuid::<Sha1>(namespace, name, 5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::namespace::{DNS, URL};
    use crate::testutil::hex;

    #[test]
    fn appendix_a4_v5() {
        assert_eq!(from_name(&DNS, b"www.example.com"), hex("2ed6657d-e927-568b-95e1-2665a8aea6a2"));
    }

    #[test]
    fn the_namespace_matters_even_for_an_empty_name() {
        assert_ne!(from_name(&DNS, b""), from_name(&URL, b""));
    }
}
