//! Short text forms of a UUID's 16 octets, strict in both directions:
//!
//! | form        | length | alphabet                            | sorts like the UUID |
//! |-------------|--------|-------------------------------------|---------------------|
//! | `hex`       | 32     | `0-9a-f`                            | yes                 |
//! | `base32hex` | 26     | `0-9A-V` (RFC 4648 §7), unpadded    | yes                 |
//! | `base64url` | 22     | `A-Za-z0-9-_` (RFC 4648 §5), unpadded | no               |
//! | `crockford` | 26     | `0-9A-Z` without `ILOU` (ULID)      | yes                 |
//!
//! `base32hex` and `base64url` are RFC 4648's encodings of the 16 octets
//! with the padding dropped, as PostgreSQL 19's
//! `rtrim(encode(id::bytea, 'base32hex'), '=')` writes them; decoding takes
//! what its `decode()` takes for 16 octets (padded or not, `base32hex` in any
//! case, whitespace ignored). `crockford` is the text form of a ULID: two zero
//! bits, then the 128 bits, in 26 symbols of Crockford's alphabet, so the
//! first symbol is at most `7`; decoding is case-insensitive (ULID spec) and
//! takes nothing Crockford's scheme would merely tolerate (no `I`/`L`/`O`
//! aliases, no hyphens). [TypeID](typeid) suffixes are the same bits in
//! lower case.
//!
//! Every decoder rejects, rather than repairs: a wrong length, a symbol
//! outside the alphabet, non-zero bits after the 128 (RFC 4648 §3.5: such
//! text is not the canonical encoding of any 16 octets), or a value above
//! 128 bits.
//!
//! # References
//! * RFC 4648 §5 (base64url), §7 (base32hex), §10 (test vectors)
//! * ULID specification (github.com/ulid/spec), Crockford's Base32
//! * TypeID specification v0.3.0 (github.com/jetify-com/typeid, `spec/`)

use super::Bytes;

/// A text form of a UUID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Hex,
    Base32Hex,
    Base64Url,
    Crockford,
}

impl Format {
    /// Every format, in the order the names are listed to users.
    pub const ALL: [Format; 4] = [Format::Base32Hex, Format::Base64Url, Format::Crockford, Format::Hex];

    /// The format a name denotes; like PostgreSQL's `encode()`, the name's case does not matter.
    /// (Bytes in any database encoding: a name outside ASCII is none of them.)
    #[inline]
    pub fn from_name(name: &[u8]) -> Option<Format> {
        let format = match name.len() {
            3 => Format::Hex,
            9 => match name[4].to_ascii_lowercase() {
                b'3' => Format::Base32Hex,
                b'6' => Format::Base64Url,
                _ => Format::Crockford,
            },
            _ => return None,
        };
        format.name().as_bytes().eq_ignore_ascii_case(name).then_some(format)
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Hex => "hex",
            Format::Base32Hex => "base32hex",
            Format::Base64Url => "base64url",
            Format::Crockford => "crockford",
        }
    }

    /// The length of the (unpadded) text form.
    pub fn text_len(self) -> usize {
        match self {
            Format::Hex => 32,
            Format::Base32Hex | Format::Crockford => 26,
            Format::Base64Url => 22,
        }
    }
}

/// Why text is not a form of exactly 16 octets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormError {
    /// Not the number of symbols 16 octets take (`got`, after whitespace and padding).
    Length { expected: usize, got: usize },
    /// A character outside the alphabet.
    Symbol,
    /// Padding that is not exactly the padding 16 octets take.
    Padding,
    /// Bits after the 128 that are not zero: not the encoding of any 16 octets.
    TrailingBits,
    /// A Crockford first symbol above `7`: more than 128 bits.
    Overflow,
}

const BASE32HEX: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const CROCKFORD_UPPER: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const CROCKFORD_LOWER: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Symbol → value for an alphabet; `INVALID` for anything else. Built at compile time.
const INVALID: u8 = 0xff;
const fn decode_table(alphabet: &[u8], fold_case: bool) -> [u8; 256] {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < alphabet.len() {
        let c = alphabet[i];
        table[c as usize] = i as u8;
        if fold_case && c.is_ascii_alphabetic() {
            table[(c ^ 0x20) as usize] = i as u8;
        }
        i += 1;
    }
    table
}
static BASE32HEX_ANY_CASE: [u8; 256] = decode_table(BASE32HEX, true);
static BASE64URL_TABLE: [u8; 256] = decode_table(BASE64URL, false);
static CROCKFORD_ANY_CASE: [u8; 256] = decode_table(CROCKFORD_UPPER, true);
static CROCKFORD_LOWER_ONLY: [u8; 256] = decode_table(CROCKFORD_LOWER, false);
static HEX_ANY_CASE: [u8; 256] = decode_table(b"0123456789abcdef", true);

/// The text form of `b` (ASCII). At most 32 bytes are used.
pub fn encode(b: &Bytes, format: Format) -> ([u8; 32], usize) {
    let v = u128::from_be_bytes(*b);
    let mut out = [0u8; 32];
    match format {
        Format::Hex => {
            for (i, byte) in b.iter().enumerate() {
                out[2 * i] = HEX[usize::from(byte >> 4)];
                out[2 * i + 1] = HEX[usize::from(byte & 0xf)];
            }
        }
        // RFC 4648: the 128 bits, then zero bits up to a whole symbol.
        Format::Base32Hex => {
            for (i, o) in out[..26].iter_mut().enumerate() {
                let symbol = if i < 25 { v >> (123 - 5 * i) } else { v << 2 };
                *o = BASE32HEX[(symbol & 31) as usize];
            }
        }
        Format::Base64Url => {
            for (i, o) in out[..22].iter_mut().enumerate() {
                let symbol = if i < 21 { v >> (122 - 6 * i) } else { v << 4 };
                *o = BASE64URL[(symbol & 63) as usize];
            }
        }
        Format::Crockford => crockford_into(v, CROCKFORD_UPPER, &mut out),
    }
    (out, format.text_len())
}

/// ULID/TypeID: two zero bits, then the 128 bits, in 26 symbols.
fn crockford_into(v: u128, alphabet: &[u8; 32], out: &mut [u8; 32]) {
    for (i, o) in out[..26].iter_mut().enumerate() {
        *o = alphabet[((v >> (125 - 5 * i)) & 31) as usize];
    }
}

/// Decodes exactly the symbols of one form.
type SymbolsToBytes = fn(&[u8]) -> Result<Bytes, FormError>;

/// The 16 octets `text` is a form of.
pub fn decode(text: &[u8], format: Format) -> Result<Bytes, FormError> {
    let (want, padding, pairs, symbols_to_bytes): (usize, usize, bool, SymbolsToBytes) = match format {
        Format::Crockford => return crockford_decode(text, &CROCKFORD_ANY_CASE),
        Format::Hex => (32, 0, true, hex_symbols),
        // 16 octets: 26 symbols, and 6 '=' when padded (RFC 4648 §6: 3 full groups + 1 octet).
        Format::Base32Hex => (26, 6, false, base32hex_symbols),
        Format::Base64Url => (22, 2, false, base64url_symbols),
    };
    // The common case, exactly the symbols: decoded as they are (a space, '=' or any other
    // character outside the alphabet fails here and is looked at again below).
    if text.len() == want {
        if let Ok(b) = symbols_to_bytes(text) {
            return Ok(b);
        }
    }
    let symbols = significant(text, want, padding, pairs)?;
    symbols_to_bytes(&symbols[..want])
}

fn hex_symbols(symbols: &[u8]) -> Result<Bytes, FormError> {
    Ok(accumulate(symbols, 4, &HEX_ANY_CASE)?.to_be_bytes())
}

fn base32hex_symbols(symbols: &[u8]) -> Result<Bytes, FormError> {
    let (high, last) = (accumulate(&symbols[..25], 5, &BASE32HEX_ANY_CASE)?, value(symbols[25], &BASE32HEX_ANY_CASE)?);
    if last & 0b11 != 0 {
        return Err(FormError::TrailingBits);
    }
    Ok(((high << 3) | u128::from(last >> 2)).to_be_bytes())
}

fn base64url_symbols(symbols: &[u8]) -> Result<Bytes, FormError> {
    let (high, last) = (accumulate(&symbols[..21], 6, &BASE64URL_TABLE)?, value(symbols[21], &BASE64URL_TABLE)?);
    if last & 0xf != 0 {
        return Err(FormError::TrailingBits);
    }
    Ok(((high << 2) | u128::from(last >> 4)).to_be_bytes())
}

/// Exactly 26 symbols of a Crockford table, the first at most `7`.
fn crockford_decode(text: &[u8], table: &[u8; 256]) -> Result<Bytes, FormError> {
    if !text.is_ascii() {
        return Err(FormError::Symbol);
    }
    if text.len() != 26 {
        return Err(FormError::Length { expected: 26, got: text.len() });
    }
    let first = value(text[0], table)?;
    let rest = accumulate(&text[1..], 5, table)?;
    if first > 7 {
        return Err(FormError::Overflow);
    }
    Ok(((u128::from(first) << 125) | rest).to_be_bytes())
}

/// Whitespace as PostgreSQL's `decode()` skips it: space, tab, newline, carriage return.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// `text` without whitespace, checked to be `want` symbols followed by no padding or exactly
/// `padding` '=' characters (`padding` 0: no '=' at all). With `pairs` (hex), whitespace is
/// allowed only between two-digit bytes, as in `decode(…, 'hex')`. Any byte outside ASCII is
/// a symbol outside the alphabet, whatever the database encoding (in LATIN1 or SQL_ASCII a
/// byte of 0x80–0xBF is a character of its own, not part of one).
fn significant(text: &[u8], want: usize, padding: usize, pairs: bool) -> Result<[u8; 32], FormError> {
    let mut symbols = [0u8; 32];
    if !text.is_ascii() {
        return Err(FormError::Symbol);
    }
    let (mut n, mut pads) = (0, 0);
    for &c in text {
        if is_space(c) {
            if pairs && n % 2 == 1 {
                return Err(FormError::Symbol);
            }
        } else if c == b'=' && padding > 0 {
            pads += 1;
        } else if pads > 0 {
            return Err(FormError::Padding);
        } else {
            if n < symbols.len() {
                symbols[n] = c;
            }
            n += 1;
        }
    }
    if n != want {
        return Err(FormError::Length { expected: want, got: n });
    }
    if pads != 0 && pads != padding {
        return Err(FormError::Padding);
    }
    Ok(symbols)
}

fn value(c: u8, table: &[u8; 256]) -> Result<u8, FormError> {
    match table[usize::from(c)] {
        INVALID => Err(FormError::Symbol),
        d => Ok(d),
    }
}

/// The symbols' values, `bits` each, most significant first (at most 128 bits).
fn accumulate(symbols: &[u8], bits: u32, table: &[u8; 256]) -> Result<u128, FormError> {
    // Valid values are below 64 and INVALID has the top bit set: one test at the end, no
    // branch per symbol.
    let (mut v, mut seen) = (0u128, 0u8);
    for &c in symbols {
        let d = table[usize::from(c)];
        seen |= d;
        v = (v << bits) | u128::from(d & 0x3f);
    }
    if seen & 0x80 != 0 {
        Err(FormError::Symbol)
    } else {
        Ok(v)
    }
}

/// TypeID (specification v0.3.0): a type prefix, `_`, and the UUID's 26
/// Crockford symbols in lower case; with an empty prefix, the suffix alone.
pub mod typeid {
    use super::{crockford_decode, crockford_into, Bytes, FormError, CROCKFORD_LOWER, CROCKFORD_LOWER_ONLY};

    /// Why a TypeID or a prefix is invalid.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum TypeIdError {
        /// Longer than 63 characters.
        PrefixTooLong,
        /// A character other than `a`-`z` and `_`.
        PrefixCharacter,
        /// Starts or ends with `_`.
        PrefixUnderscore,
        /// A separator with nothing before it.
        EmptyPrefixWithSeparator,
        /// The suffix is not 26 lower-case symbols of at most 128 bits.
        Suffix(FormError),
    }

    /// Checks a prefix against `^([a-z]([a-z_]*[a-z])?)?$`, at most 63 characters.
    pub fn check_prefix(prefix: &[u8]) -> Result<&str, TypeIdError> {
        if !prefix.iter().all(|c| c.is_ascii_lowercase() || *c == b'_') {
            return Err(TypeIdError::PrefixCharacter);
        }
        if prefix.len() > 63 {
            return Err(TypeIdError::PrefixTooLong);
        }
        if prefix.first() == Some(&b'_') || prefix.last() == Some(&b'_') {
            return Err(TypeIdError::PrefixUnderscore);
        }
        Ok(core::str::from_utf8(prefix).expect("ASCII"))
    }

    /// The TypeID of `id` with `prefix`.
    pub fn encode(prefix: &[u8], id: &Bytes) -> Result<String, TypeIdError> {
        let prefix = check_prefix(prefix)?;
        let mut suffix = [0u8; 32];
        crockford_into(u128::from_be_bytes(*id), CROCKFORD_LOWER, &mut suffix);
        let mut out = String::with_capacity(prefix.len() + 27);
        if !prefix.is_empty() {
            out.push_str(prefix);
            out.push('_');
        }
        out.push_str(core::str::from_utf8(&suffix[..26]).expect("ASCII"));
        Ok(out)
    }

    /// The prefix and UUID of a TypeID (bytes in any database encoding). The separator is the
    /// last `_`.
    pub fn decode(text: &[u8]) -> Result<(&str, Bytes), TypeIdError> {
        let (prefix, suffix) = match text.iter().rposition(|&c| c == b'_') {
            Some(0) => return Err(TypeIdError::EmptyPrefixWithSeparator),
            Some(at) => (&text[..at], &text[at + 1..]),
            None => (&text[..0], text),
        };
        let prefix = check_prefix(prefix)?;
        let id = crockford_decode(suffix, &CROCKFORD_LOWER_ONLY).map_err(TypeIdError::Suffix)?;
        Ok((prefix, id))
    }
}

#[cfg(test)]
mod tests {
    use super::typeid::{self, TypeIdError};
    use super::*;
    use crate::testutil::hex;

    fn text(b: &Bytes, f: Format) -> String {
        let (out, n) = encode(b, f);
        String::from_utf8(out[..n].to_vec()).unwrap()
    }

    /// References computed with Python's base64 module (b32hexencode,
    /// urlsafe_b64encode), padding removed. The first one also carries RFC
    /// 4648 §10's vectors: BASE32-HEX("fooba") = "CPNMUOJ1", BASE64("foobar") = "Zm9vYmFy".
    const PYTHON: [(&str, &str, &str); 4] = [
        ("666f6f626172666f6f626172666f6f62", "CPNMUOJ1E9J6URR2C5P6CRRFC8", "Zm9vYmFyZm9vYmFyZm9vYg"),
        ("017f22e279b07cc398c4dc0c0c07398f", "05VI5OJPM1UC7664RG60O1PPHS", "AX8i4nmwfMOYxNwMDAc5jw"),
        ("00000000000000000000000000000000", "00000000000000000000000000", "AAAAAAAAAAAAAAAAAAAAAA"),
        ("ffffffffffffffffffffffffffffffff", "VVVVVVVVVVVVVVVVVVVVVVVVVS", "_____________________w"),
    ];

    #[test]
    fn rfc_4648_forms_match_pythons_base64() {
        assert!(PYTHON[0].1.starts_with("CPNMUOJ1") && PYTHON[0].2.starts_with("Zm9vYmFy"));
        for (h, b32, b64) in PYTHON {
            let b = hex(h);
            assert_eq!(text(&b, Format::Base32Hex), b32);
            assert_eq!(text(&b, Format::Base64Url), b64);
            assert_eq!(text(&b, Format::Hex), h);
            assert_eq!(decode(b32.as_bytes(), Format::Base32Hex), Ok(b));
            assert_eq!(decode(b64.as_bytes(), Format::Base64Url), Ok(b));
            assert_eq!(decode(h.as_bytes(), Format::Hex), Ok(b));
            // PostgreSQL 19's decode(): padded or not, base32hex in any case, whitespace ignored.
            assert_eq!(decode(format!("{b32}======").as_bytes(), Format::Base32Hex), Ok(b));
            assert_eq!(decode(b32.to_lowercase().as_bytes(), Format::Base32Hex), Ok(b));
            assert_eq!(decode(format!(" {}\n{} ", &b32[..10], &b32[10..]).as_bytes(), Format::Base32Hex), Ok(b));
            assert_eq!(decode(format!("{b64}==").as_bytes(), Format::Base64Url), Ok(b));
            assert_eq!(decode(h.to_uppercase().as_bytes(), Format::Hex), Ok(b));
        }
    }

    /// ULID specification's example and a second one from the reference
    /// implementation (npm `ulid`), with the UUIDs of the same 128 bits.
    #[test]
    fn crockford_matches_published_ulids() {
        for (ulid, uuid) in [
            ("01ARZ3NDEKTSV4RRFFQ69G5FAV", "01563E3A-B5D3-D676-4C61-EFB99302BD5B"),
            ("01BX5ZZKBKACTAV9WEVGEMMVRZ", "015F4BFF-CD73-5334-ADA7-8EDC1D4A6F1F"),
            ("00000000000000000000000000", "00000000-0000-0000-0000-000000000000"),
            ("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
        ] {
            assert_eq!(text(&hex(uuid), Format::Crockford), ulid);
            assert_eq!(decode(ulid.as_bytes(), Format::Crockford), Ok(hex(uuid)));
            assert_eq!(decode(ulid.to_lowercase().as_bytes(), Format::Crockford), Ok(hex(uuid)));
        }
    }

    #[test]
    fn bad_text_is_rejected_with_its_reason() {
        use FormError::*;
        let d = |s: &str, f| decode(s.as_bytes(), f);
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PPH", Format::Base32Hex), Err(Length { expected: 26, got: 25 }));
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PPHSS", Format::Base32Hex), Err(Length { expected: 26, got: 27 }));
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PPHW", Format::Base32Hex), Err(Symbol));
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PPHT", Format::Base32Hex), Err(TrailingBits));
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PPHS=", Format::Base32Hex), Err(Padding));
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PP=HS", Format::Base32Hex), Err(Padding));
        assert_eq!(d("AX8i4nmwfMOYxNwMDAc5jx", Format::Base64Url), Err(TrailingBits));
        assert_eq!(d("AX8i4nmwfMOYxNwMDAc5j+", Format::Base64Url), Err(Symbol));
        assert_eq!(d("AX8i4nmwfMOYxNwMDAc5jw=", Format::Base64Url), Err(Padding));
        assert_eq!(d("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", Format::Crockford), Err(Overflow));
        assert_eq!(d("01ARZ3NDEKTSV4RRFFQ69G5FAU", Format::Crockford), Err(Symbol));
        assert_eq!(d("01ARZ3NDEKTSV4RRFFQ69G5FAI", Format::Crockford), Err(Symbol));
        assert_eq!(d("01ARZ3NDEK-TSV4RRFFQ69G5FA", Format::Crockford), Err(Symbol));
        assert_eq!(d(" 01ARZ3NDEKTSV4RRFFQ69G5FA", Format::Crockford), Err(Symbol));
        assert_eq!(d("01ARZ3NDEKTSV4RRFFQ69G5FAVV", Format::Crockford), Err(Length { expected: 26, got: 27 }));
        assert_eq!(d("017f22e279b07cc398c4dc0c0c07398", Format::Hex), Err(Length { expected: 32, got: 31 }));
        assert_eq!(d("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", Format::Hex), Err(Length { expected: 32, got: 36 }));
        assert_eq!(d("017f22e279b07cc398c4dc0c0c07398g", Format::Hex), Err(Symbol));
        assert_eq!(d("017f22e279b07cc398c4dc0c0c0739é", Format::Hex), Err(Symbol));
        assert_eq!(d("01FWHE4YDGFK1SHH6W1G60EECé", Format::Crockford), Err(Symbol));
        // Bytes of other encodings (LATIN1 NBSP, SQL_ASCII 0x80-0xBF) are never skipped.
        let b = |bytes: &[u8], f| decode(bytes, f);
        assert_eq!(b(b"\xa0017f22e279b07cc398c4dc0c0c07398f", Format::Hex), Err(Symbol));
        assert_eq!(b(b"05VI5\xa3OJPM1UC7664RG60O1PPH\xb0S", Format::Base32Hex), Err(Symbol));
        assert_eq!(b(b"AX8i4\xbfnmwfMOYxNwMDAc5\xa9jw", Format::Base64Url), Err(Symbol));
        // Whitespace: space, tab, newline, carriage return (not form feed); in hex only between bytes.
        assert_eq!(d("05VI5OJPM1UC7664RG60O1PPHS\x0c", Format::Base32Hex), Err(Length { expected: 26, got: 27 }));
        assert_eq!(d("01 7f22e279b07cc398c4dc0c0c07398f", Format::Hex), Ok(hex("017f22e279b07cc398c4dc0c0c07398f")));
        assert_eq!(d("0 17f22e279b07cc398c4dc0c0c07398f", Format::Hex), Err(Symbol));
        assert_eq!(d("", Format::Base64Url), Err(Length { expected: 22, got: 0 }));
    }

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn round_trips_and_sort_order() {
        let mut s = 0x0123_4567_89ab_cdef;
        let mut values: Vec<Bytes> = (0..10_000)
            .map(|_| {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&xorshift(&mut s).to_le_bytes());
                b[8..].copy_from_slice(&xorshift(&mut s).to_le_bytes());
                b
            })
            .collect();
        values.extend([crate::NIL, crate::MAX]);
        for b in &values {
            for f in Format::ALL {
                let t = text(b, f);
                assert_eq!(t.len(), f.text_len());
                assert_eq!(decode(t.as_bytes(), f), Ok(*b), "{f:?} {t}");
            }
        }
        values.sort();
        for f in [Format::Hex, Format::Base32Hex, Format::Crockford] {
            let texts: Vec<String> = values.iter().map(|b| text(b, f)).collect();
            assert!(texts.windows(2).all(|w| w[0] < w[1]), "{f:?} does not sort like the UUIDs");
        }
    }

    #[test]
    fn format_names_ignore_case() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name().as_bytes()), Some(f));
            assert_eq!(Format::from_name(f.name().to_uppercase().as_bytes()), Some(f));
        }
        assert_eq!(Format::from_name(b"Base32Hex"), Some(Format::Base32Hex));
        assert_eq!(Format::from_name(b"BASE64URL"), Some(Format::Base64Url));
        for other in ["base64", "ulid", "base32", "crockfore", "base64ur", " hex", "he\u{17f}", ""] {
            assert_eq!(Format::from_name(other.as_bytes()), None, "{other}");
        }
    }

    /// TypeID spec v0.3.0, spec/valid.yml: every example, both directions.
    #[test]
    fn typeid_valid_examples() {
        for (tid, prefix, uuid) in [
            ("00000000000000000000000000", "", "00000000-0000-0000-0000-000000000000"),
            ("00000000000000000000000001", "", "00000000-0000-0000-0000-000000000001"),
            ("0000000000000000000000000a", "", "00000000-0000-0000-0000-00000000000a"),
            ("0000000000000000000000000g", "", "00000000-0000-0000-0000-000000000010"),
            ("00000000000000000000000010", "", "00000000-0000-0000-0000-000000000020"),
            ("7zzzzzzzzzzzzzzzzzzzzzzzzz", "", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
            ("prefix_0123456789abcdefghjkmnpqrs", "prefix", "0110c853-1d09-52d8-d73e-1194e95b5f19"),
            ("prefix_01h455vb4pex5vsknk084sn02q", "prefix", "01890a5d-ac96-774b-bcce-b302099a8057"),
            ("pre_fix_00000000000000000000000000", "pre_fix", "00000000-0000-0000-0000-000000000000"),
        ] {
            assert_eq!(typeid::decode(tid.as_bytes()), Ok((prefix, hex(uuid))), "{tid}");
            assert_eq!(typeid::encode(prefix.as_bytes(), &hex(uuid)).as_deref(), Ok(tid));
        }
    }

    /// TypeID spec v0.3.0, spec/invalid.yml: every example is rejected.
    #[test]
    fn typeid_invalid_examples() {
        let sixty_four = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000";
        for tid in [
            "PREFIX_00000000000000000000000000",
            "12345_00000000000000000000000000",
            "pre.fix_00000000000000000000000000",
            "préfix_00000000000000000000000000",
            "  prefix_00000000000000000000000000",
            sixty_four,
            "_00000000000000000000000000",
            "_",
            "prefix_1234567890123456789012345",
            "prefix_123456789012345678901234567",
            "prefix_1234567890123456789012345 ",
            "prefix_0123456789ABCDEFGHJKMNPQRS",
            "prefix_123456789-123456789-123456",
            "prefix_ooooooiiiiiiuuuuuuulllllll",
            "prefix_i23456789ol23456789oi23456",
            "prefix_123456789-0123456789-0123456",
            "prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz",
            "_prefix_00000000000000000000000000",
            "prefix__00000000000000000000000000",
        ] {
            assert!(typeid::decode(tid.as_bytes()).is_err(), "{tid} was accepted");
        }
        assert_eq!(typeid::decode(sixty_four.as_bytes()), Err(TypeIdError::PrefixTooLong));
        assert_eq!(typeid::decode(b"prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz"), Err(TypeIdError::Suffix(FormError::Overflow)));
        // A byte outside ASCII in the suffix is the suffix's fault, in any encoding.
        assert_eq!(typeid::decode(b"user_7zzzzzzzzzzzzzzzzzzzzzzzz\xe9"), Err(TypeIdError::Suffix(FormError::Symbol)));
        assert_eq!(
            typeid::decode("user_7zzzzzzzzzzzzzzzzzzzzzzzzé".as_bytes()),
            Err(TypeIdError::Suffix(FormError::Symbol))
        );
        assert_eq!(typeid::encode(b"User", &crate::NIL), Err(TypeIdError::PrefixCharacter));
        assert_eq!(typeid::encode(b"user_", &crate::NIL), Err(TypeIdError::PrefixUnderscore));
        assert_eq!(typeid::encode("a".repeat(64).as_bytes(), &crate::NIL), Err(TypeIdError::PrefixTooLong));
        assert_eq!(typeid::encode("a".repeat(63).as_bytes(), &crate::NIL).map(|t| t.len()), Ok(63 + 1 + 26));
    }

    /// '=' is padding only where the form has padding, and only at the end.
    #[test]
    fn padding_only_at_the_end_of_padded_forms() {
        // Hex has no padding: a '=' is a symbol outside the alphabet.
        let hex_text = format!("{}=", "0".repeat(31));
        assert_eq!(decode(hex_text.as_bytes(), Format::Hex), Err(FormError::Symbol));
        // base32hex: 26 symbols and 6 '=', but a symbol after the first '='.
        let middle = format!("{}={}=====", "0".repeat(25), "0");
        assert_eq!(decode(middle.as_bytes(), Format::Base32Hex), Err(FormError::Padding));
        let end = format!("{}======", "0".repeat(26));
        assert_eq!(decode(end.as_bytes(), Format::Base32Hex), Ok(crate::NIL));
    }
}
