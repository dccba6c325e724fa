//! What the name-based versions share (§6.5): the hash is taken over the 16
//! namespace octets followed by the name's octets; its first 16 octets become
//! the UUID and the version and variant bits are overwritten (§5.3, §5.5,
//! Appendix B.2). uuid_ext hashes the name's bytes as given (for SQL `text`,
//! the database encoding's bytes — as uuid-ossp does); §6.5 leaves
//! canonicalisation of names to the namespace's conventions. The versions are
//! [`super::v3`] (MD5), [`super::v5`] (SHA-1) and [`super::v8::from_name_sha256`].
//!
//! # References
//! * RFC 9562 §6.5 (name-based rules), §6.6 (namespaces)

use super::fields::set_version;
use super::Bytes;
use sha2::Digest;

/// The first 16 octets of `D(namespace ‖ name)` with `version` and the RFC variant set.
pub(crate) fn hash_to_uuid<D: Digest>(namespace: &Bytes, name: &[u8], version: u8) -> Bytes {
    let digest = D::new().chain_update(namespace).chain_update(name).finalize();
    let mut b = [0u8; 16];
    b.copy_from_slice(&digest[..16]);
    set_version(b, version)
}
