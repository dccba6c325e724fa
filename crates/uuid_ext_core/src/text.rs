//! The standard hex spellings of a UUID: canonical `8-4-4-4-12` hex (§4), the URN of
//! RFC 4122 §3 / RFC 9562 §4 (`urn:uuid:` + canonical), braces and the 32-digit "simple"
//! spelling. Parsing accepts hex digits in either case and the `urn:uuid:` prefix in any case
//! (URN namespace IDs are case-insensitive). The short encodings users choose (base32hex,
//! base64url, crockford, and hex as `uuid_encode()` reads it, with spaces between pairs) are
//! [`crate::forms`]; its `hex` writes what [`Spelling::Simple`] writes.
//!
//! # References
//! * RFC 9562 §4 (ABNF), RFC 4122 §3 (URN namespace), RFC 4530 §2.1 (UUID syntax)

use super::{Bytes, Error};

/// A spelling of the standard hex text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// `f81d4fae-7dec-11d0-a765-00a0c91e6bf6`
    Canonical,
    /// `urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6`
    Urn,
    /// `{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}`
    Braced,
    /// `f81d4fae7dec11d0a76500a0c91e6bf6`
    Simple,
}

const HEX: &[u8; 16] = b"0123456789abcdef";
const URN_PREFIX: &str = "urn:uuid:";

fn canonical_into(b: &Bytes, out: &mut String) {
    for (i, byte) in b.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(HEX[usize::from(byte >> 4)] as char);
        out.push(HEX[usize::from(byte & 0xf)] as char);
    }
}

/// Formats in lower-case hex, as RFC 9562 §4 recommends for output.
pub fn format(b: &Bytes, spelling: Spelling) -> String {
    let mut out = String::with_capacity(45);
    match spelling {
        Spelling::Canonical => canonical_into(b, &mut out),
        Spelling::Urn => {
            out.push_str(URN_PREFIX);
            canonical_into(b, &mut out);
        }
        Spelling::Braced => {
            out.push('{');
            canonical_into(b, &mut out);
            out.push('}');
        }
        Spelling::Simple => out.extend(
            b.iter().flat_map(|byte| [HEX[usize::from(byte >> 4)] as char, HEX[usize::from(byte & 0xf)] as char]),
        ),
    }
    out
}

fn hex_digit(c: u8) -> Result<u8, Error> {
    (c as char).to_digit(16).map(|d| d as u8).ok_or(Error::InvalidText)
}

/// Parses any of the four forms, telling which one it was.
pub fn parse(s: &str) -> Result<(Bytes, Spelling), Error> {
    let (body, form) = if s.len() >= URN_PREFIX.len()
        && s.is_char_boundary(URN_PREFIX.len())
        && s[..URN_PREFIX.len()].eq_ignore_ascii_case(URN_PREFIX)
    {
        (&s[URN_PREFIX.len()..], Spelling::Urn)
    } else if let Some(inner) = s.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        (inner, Spelling::Braced)
    } else if s.len() == 32 {
        (s, Spelling::Simple)
    } else {
        (s, Spelling::Canonical)
    };
    let bytes = body.as_bytes();
    let digits: &mut [u8; 32] = &mut [0; 32];
    match (form, bytes.len()) {
        (Spelling::Simple, 32) => digits.copy_from_slice(bytes),
        (_, 36) => {
            let mut n = 0;
            for (i, &c) in bytes.iter().enumerate() {
                if matches!(i, 8 | 13 | 18 | 23) {
                    if c != b'-' {
                        return Err(Error::InvalidText);
                    }
                } else {
                    digits[n] = c;
                    n += 1;
                }
            }
        }
        _ => return Err(Error::InvalidText),
    }
    let mut out = [0u8; 16];
    for i in 0..16 {
        out[i] = hex_digit(digits[2 * i])? << 4 | hex_digit(digits[2 * i + 1])?;
    }
    Ok((out, form))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;

    const EXAMPLE: &str = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";

    #[test]
    fn rfc_example_in_every_form() {
        // RFC 9562 §4 / RFC 4122 §3 example value.
        let b = hex(EXAMPLE);
        assert_eq!(format(&b, Spelling::Canonical), EXAMPLE);
        assert_eq!(format(&b, Spelling::Urn), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
        assert_eq!(format(&b, Spelling::Braced), "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}");
        assert_eq!(format(&b, Spelling::Simple), "f81d4fae7dec11d0a76500a0c91e6bf6");
        assert_eq!(parse("URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"), Ok((b, Spelling::Urn)));
    }

    #[test]
    fn parse_format_roundtrip_for_every_form() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let mut b = [0u8; 16];
            for byte in &mut b {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *byte = (seed >> 56) as u8;
            }
            for form in [Spelling::Canonical, Spelling::Urn, Spelling::Braced, Spelling::Simple] {
                assert_eq!(parse(&format(&b, form)), Ok((b, form)));
            }
        }
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in [
            "",
            "urn:uuid:",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf66",
            "f81d4fae7dec-11d0-a765-00a0c91e6bf6-",
            "g81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "urn:uuid:f81d4fae7dec11d0a76500a0c91e6bf6",
            "urn:oid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "+81d4fae-7dec-11d0-a765-00a0c91e6bf6",
            "f81d4fae-7dec-11d0-a765-00a0c91e6bé",
            "ééééééééé",
        ] {
            assert_eq!(parse(bad), Err(Error::InvalidText), "{bad:?}");
        }
    }
}
