//! Public IDs that do not tell when: a v7's face that looks like a random v4, and back — the
//! construction of uuidv47 (github.com/stateless-me/uuidv47), so application code with its
//! libraries (Go, Rust, C#, JS, C) makes and reads the same faces.
//!
//! With a 128-bit key (k0, k1), the v7's 74 random bits, as a 10-byte message
//! `[b6 & 0x0F, b7, b8 & 0x3F, b9 … b15]`, are hashed with SipHash-2-4; the low 48 bits of the
//! hash are XORed into the 48-bit timestamp (octets 0–5, big-endian) and the version nibble is
//! set to 4. The variant and the random bits stay as they are, so the face's own bits give the
//! same mask back: the mapping is its own inverse up to the version nibble.
//!
//! What it hides and what not (docs/SECURITY.md, "Public IDs"): the time, from anyone without
//! the key. Not: that a face and its v7 belong together (the same 74 random bits); not
//! integrity (a face decoded with another key is a plausible v7 of another time).
//!
//! # References
//! * uuidv47 (stateless-me/uuidv47): the construction and its example vector
//! * J.-P. Aumasson, D. J. Bernstein, "SipHash: a fast short-input PRF" (2012): SipHash-2-4
//!   and its reference vectors
//! * RFC 9562 §5.4 (v4), §5.7 (v7)

use super::fields::{set_version, version};
use super::{Bytes, Error};
use core::hash::Hasher;
use siphasher::sip::SipHasher24;

/// A SipHash key: 16 bytes, k0 then k1, each big-endian (uuidv47's `{k0, k1}` written as hex).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Key {
    k0: u64,
    k1: u64,
}

impl core::fmt::Debug for Key {
    /// Never the key itself (it may end up in a log).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// The key of 16 bytes: k0 (bytes 0–7) and k1 (bytes 8–15), each big-endian.
    pub fn from_bytes(bytes: &[u8]) -> Result<Key, Error> {
        let b: &[u8; 16] = bytes.try_into().map_err(|_| Error::WrongLength { expected: 16, got: bytes.len() })?;
        let (k0, k1) = b.split_at(8);
        Ok(Key {
            k0: u64::from_be_bytes(k0.try_into().expect("8 bytes")),
            k1: u64::from_be_bytes(k1.try_into().expect("8 bytes")),
        })
    }

    /// The key of 32 hex digits (either case), as a key file line holds it.
    pub fn from_hex(text: &[u8]) -> Option<Key> {
        if text.len() != 32 {
            return None;
        }
        let mut bytes = [0u8; 16];
        for (i, pair) in text.chunks(2).enumerate() {
            let digit = |c: u8| (c as char).to_digit(16);
            bytes[i] = (digit(pair[0])? << 4 | digit(pair[1])?) as u8;
        }
        Key::from_bytes(&bytes).ok()
    }
}

/// The 48-bit mask of a UUID's random bits (the same in a v7 and in its face).
fn mask(b: &Bytes, key: &Key) -> u64 {
    let message = [b[6] & 0x0f, b[7], b[8] & 0x3f, b[9], b[10], b[11], b[12], b[13], b[14], b[15]];
    let mut h = SipHasher24::new_with_keys(key.k0, key.k1);
    h.write(&message);
    h.finish() & 0xffff_ffff_ffff
}

/// The timestamp octets XORed with the mask, and the version set.
fn masked(b: &Bytes, key: &Key, to_version: u8) -> Bytes {
    let m = mask(b, key).to_be_bytes();
    let mut out = *b;
    for i in 0..6 {
        out[i] ^= m[i + 2];
    }
    set_version(out, to_version)
}

/// The public face of a v7 (of the RFC 9562 variant), or `None` for any other UUID.
pub fn to_public(v7: &Bytes, key: &Key) -> Option<Bytes> {
    (version(v7) == Some(7)).then(|| masked(v7, key, 4))
}

/// The v7 of a public face (a v4 of the RFC 9562 variant), or `None` for any other UUID. A
/// face decoded with another key than it was made with gives another, plausible, v7.
pub fn from_public(face: &Bytes, key: &Key) -> Option<Bytes> {
    (version(face) == Some(4)).then(|| masked(face, key, 7))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;

    const EXAMPLE_KEY: &[u8; 16] = b"\x01\x23\x45\x67\x89\xab\xcd\xef\xfe\xdc\xba\x98\x76\x54\x32\x10";

    /// uuidv47's published example.
    #[test]
    fn the_published_example() {
        let key = Key::from_bytes(EXAMPLE_KEY).unwrap();
        let v7 = hex("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f");
        let face = hex("2463c780-7fca-4def-8c3f-7b1a2c4d5e6f");
        assert_eq!(to_public(&v7, &key), Some(face));
        assert_eq!(from_public(&face, &key), Some(v7));
        assert_eq!(Key::from_hex(b"0123456789ABCDEFfedcba9876543210"), Some(key));
    }

    /// The SipHash paper's reference vectors (vectors.h, `vectors_sip64`): key bytes
    /// 00 01 … 0f read as two little-endian words, message i = bytes 00 … i-1, outputs as the
    /// little-endian bytes of the 64-bit hash.
    #[test]
    fn siphash_reference_vectors() {
        let vectors: [(usize, [u8; 8]); 6] = [
            (0, [0x31, 0x0e, 0x0e, 0xdd, 0x47, 0xdb, 0x6f, 0x72]),
            (1, [0xfd, 0x67, 0xdc, 0x93, 0xc5, 0x39, 0xf8, 0x74]),
            (7, [0x37, 0xd1, 0x01, 0x8b, 0xf5, 0x00, 0x02, 0xab]),
            (8, [0x62, 0x24, 0x93, 0x9a, 0x79, 0xf5, 0xf5, 0x93]),
            (9, [0xb0, 0xe4, 0xa9, 0x0b, 0xdf, 0x82, 0x00, 0x9e]),
            (15, [0xe5, 0x45, 0xbe, 0x49, 0x61, 0xca, 0x29, 0xa1]),
        ];
        for (len, want) in vectors {
            let message: Vec<u8> = (0..len as u8).collect();
            let mut h = SipHasher24::new_with_keys(0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908);
            h.write(&message);
            assert_eq!(h.finish().to_le_bytes(), want, "message of {len} bytes");
        }
    }

    /// A 10-byte message, the length uuidv47 hashes, through the paper's vector of that length.
    #[test]
    fn mask_hashes_the_ten_random_bytes() {
        // The paper's key (bytes 00 … 0f as two little-endian words); the message 00 … 09.
        let key = Key { k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908 };
        let mut b = [0u8; 16];
        b[6..16].copy_from_slice(&[0x70, 0x01, 0x82, 3, 4, 5, 6, 7, 8, 9]);
        // vectors_sip64[10]; the mask is the hash's low 48 bits.
        let want = u64::from_le_bytes([0xf3, 0xb9, 0xdd, 0x94, 0xc5, 0xbb, 0x5d, 0x7a]) & 0xffff_ffff_ffff;
        assert_eq!(mask(&b, &key), want);
    }

    #[test]
    fn round_trips_and_rejects_other_versions() {
        let key = Key::from_bytes(&[7u8; 16]).unwrap();
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for i in 0..100_000u32 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&s.to_le_bytes());
            b[8..].copy_from_slice(&s.rotate_left(29).to_le_bytes());
            let v7 = set_version(b, 7);
            let face = to_public(&v7, &key).unwrap();
            assert_eq!(version(&face), Some(4), "{i}");
            assert_eq!(
                face[6..],
                v7[6..]
                    .iter()
                    .enumerate()
                    .map(|(j, &x)| if j == 0 { (x & 0x0f) | 0x40 } else { x })
                    .collect::<Vec<_>>()[..]
            );
            assert_eq!(from_public(&face, &key), Some(v7));
            assert_eq!(to_public(&face, &key), None);
            assert_eq!(from_public(&v7, &key), None);
        }
        assert_eq!(to_public(&crate::NIL, &key), None);
        assert_eq!(from_public(&crate::MAX, &key), None);
        assert_eq!(Key::from_bytes(&[0u8; 15]), Err(Error::WrongLength { expected: 16, got: 15 }));
        assert_eq!(Key::from_hex(b"0123456789abcdeffedcba987654321"), None);
        assert_eq!(Key::from_hex(b"0123456789abcdeffedcba987654321g"), None);
        assert_eq!(format!("{key:?}"), "Key(..)");
    }
}
