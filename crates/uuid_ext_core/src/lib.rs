//! uuid_ext's core: every RFC 9562 layout in pure Rust, one file per version.
//!
//! Nothing here knows about PostgreSQL or pgrx (the extension in the
//! workspace root is the SQL glue), so `cargo test -p uuid_ext_core` runs
//! without a PostgreSQL. Clocks and random numbers are parameters of every
//! layout function (the process-global clock, RNG and monotonic state are in
//! [`state`]), so those functions are deterministic and unit-tested against
//! the test vectors of RFC 9562 Appendix A and B.
//!
//! # References
//! * RFC 9562, "Universally Unique IDentifiers (UUIDs)" (obsoletes RFC 4122)
//! * draft-peabody-dispatch-new-uuid-format-01 (early v6/v7/v8 layouts)
//! * RFC 4530, LDAP entryUUID (`uuidMatch`, `uuidOrderingMatch`)

pub mod fields;
pub mod forms;
pub mod monotonic;
pub mod name;
pub mod public_ids;
pub mod rng;
pub mod state;
pub mod text;
pub mod time;
pub mod time_order;
pub mod v1;
pub mod v2;
pub mod v3;
pub mod v4;
pub mod v5;
pub mod v6;
pub mod v7;
pub mod v8;

/// A UUID as its 16 octets in network byte order (RFC 9562 §4).
pub type Bytes = [u8; 16];

/// Errors from encoding or decoding. Each maps to one SQLSTATE in the SQL layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A timestamp does not fit the layout's timestamp field (RFC 9562 §5.1, §5.7).
    TimestampOutOfRange,
    /// Input bytes have the wrong length.
    WrongLength { expected: usize, got: usize },
    /// Text is not a UUID in any accepted form.
    InvalidText,
    /// A generator has used up the distinct values of its time step (v2); the
    /// next step starts at this Gregorian timestamp.
    Exhausted { retry_at: u64 },
    /// A generator has handed out values for as many distinct local domains and ids as it
    /// keeps track of in one time step (v2, [`v2::IDS_PER_STEP`]); the next step starts at
    /// this Gregorian timestamp.
    TooManyIds { retry_at: u64 },
}

/// The Nil UUID (RFC 9562 §5.9): all 128 bits zero.
pub const NIL: Bytes = [0; 16];

/// The Max UUID (RFC 9562 §5.10): all 128 bits one.
pub const MAX: Bytes = [0xff; 16];

/// Namespace IDs for name-based UUIDs (RFC 9562 §6.6).
pub mod namespace {
    use super::Bytes;
    /// Fully qualified domain name: 6ba7b810-9dad-11d1-80b4-00c04fd430c8
    pub const DNS: Bytes = *b"\x6b\xa7\xb8\x10\x9d\xad\x11\xd1\x80\xb4\x00\xc0\x4f\xd4\x30\xc8";
    /// URL: 6ba7b811-9dad-11d1-80b4-00c04fd430c8
    pub const URL: Bytes = *b"\x6b\xa7\xb8\x11\x9d\xad\x11\xd1\x80\xb4\x00\xc0\x4f\xd4\x30\xc8";
    /// ISO OID: 6ba7b812-9dad-11d1-80b4-00c04fd430c8
    pub const OID: Bytes = *b"\x6b\xa7\xb8\x12\x9d\xad\x11\xd1\x80\xb4\x00\xc0\x4f\xd4\x30\xc8";
    /// X.500 DN: 6ba7b814-9dad-11d1-80b4-00c04fd430c8
    pub const X500: Bytes = *b"\x6b\xa7\xb8\x14\x9d\xad\x11\xd1\x80\xb4\x00\xc0\x4f\xd4\x30\xc8";
}

/// Test references computed from the RFC's text, not from this module's code
/// (also compiled into the cargo-fuzz target, which sets `cfg(fuzzing)`).
#[cfg(any(test, fuzzing))]
pub mod testutil {
    use super::Bytes;

    /// The instant (ns since 1970) a v1, v6 or v7 UUID carries, read straight
    /// from the bit layouts of RFC 9562 §5.1, §5.6 and §5.7 with 128-bit
    /// arithmetic; `None` for other versions and variants.
    pub fn reference_time(b: &Bytes) -> Option<i128> {
        if b[8] >> 6 != 0b10 {
            return None;
        }
        let be = |r: core::ops::Range<usize>| b[r].iter().fold(0i128, |acc, &x| acc << 8 | i128::from(x));
        // 100-ns intervals from 1582-10-15 to 1970-01-01 (§5.1).
        let gregorian = match b[6] >> 4 {
            1 => (be(6..8) & 0x0fff) << 48 | be(4..6) << 32 | be(0..4),
            6 => be(0..4) << 28 | be(4..6) << 12 | (be(6..8) & 0x0fff),
            7 => return Some(be(0..6) * 1_000_000),
            _ => return None,
        };
        Some((gregorian - 0x01B2_1DD2_1381_4000) * 100)
    }

    /// Runs `f` in a forked child process and returns what it produced.
    #[cfg(test)]
    pub fn in_forked_child<const N: usize>(f: impl FnOnce() -> [u8; N]) -> [u8; N] {
        let mut fds = [0i32; 2];
        // SAFETY: plain pipe/fork/_exit; the child only runs `f`, writes and exits.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                let out = f();
                libc::write(fds[1], out.as_ptr().cast(), N);
                libc::_exit(0);
            }
            libc::close(fds[1]);
            let mut from_child = [0u8; N];
            let mut got = 0;
            while got < N {
                let n = libc::read(fds[0], from_child[got..].as_mut_ptr().cast(), N - got);
                assert!(n > 0, "child wrote nothing");
                got += n as usize;
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            libc::close(fds[0]);
            from_child
        }
    }

    /// Parses the RFC's hex spelling of a vector (dashes optional, any case).
    #[cfg(test)]
    pub fn hex(s: &str) -> Bytes {
        let digits: Vec<u8> =
            s.bytes().filter(|c| *c != b'-').map(|c| (c as char).to_digit(16).expect("hex digit") as u8).collect();
        assert_eq!(digits.len(), 32, "{s}");
        let mut out = [0u8; 16];
        for (i, pair) in digits.chunks(2).enumerate() {
            out[i] = pair[0] << 4 | pair[1];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::hex;
    use super::*;

    #[test]
    fn namespace_ids_match_rfc_9562_section_6_6() {
        assert_eq!(namespace::DNS, hex("6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
        assert_eq!(namespace::URL, hex("6ba7b811-9dad-11d1-80b4-00c04fd430c8"));
        assert_eq!(namespace::OID, hex("6ba7b812-9dad-11d1-80b4-00c04fd430c8"));
        assert_eq!(namespace::X500, hex("6ba7b814-9dad-11d1-80b4-00c04fd430c8"));
    }

    #[test]
    fn reference_time_reads_the_appendix_a_vectors() {
        let t = Some(1_645_557_742_000_000_000);
        assert_eq!(testutil::reference_time(&hex("C232AB00-9414-11EC-B3C8-9F6BDECED846")), t);
        assert_eq!(testutil::reference_time(&hex("1EC9414C-232A-6B00-B3C8-9F6BDECED846")), t);
        assert_eq!(testutil::reference_time(&hex("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")), t);
        assert_eq!(testutil::reference_time(&hex("919108F7-52D1-4320-9BAC-F847DB4148A8")), None);
    }

    #[test]
    fn nil_and_max() {
        assert_eq!(NIL, hex("00000000-0000-0000-0000-000000000000"));
        assert_eq!(MAX, hex("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"));
        // §5.9/§5.10: Nil and Max are outside the variant/version scheme.
        assert_eq!(fields::variant(&NIL), fields::Variant::Ncs);
        assert_eq!(fields::variant(&MAX), fields::Variant::Future);
        assert_eq!(fields::version(&NIL), None);
        assert_eq!(fields::version(&MAX), None);
    }
}

/// Randomized robustness: every parser and decoder accepts any input
/// without panicking (debug builds also trap arithmetic overflow). The
/// coverage-guided counterpart is `fuzz/` (cargo fuzz).
#[cfg(test)]
mod robustness {
    use super::*;

    fn xorshift(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    #[test]
    fn decoders_accept_any_16_bytes() {
        let mut s = 0x2545F4914F6CDD1D;
        for i in 0..200_000u32 {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&xorshift(&mut s).to_le_bytes());
            b[8..].copy_from_slice(&xorshift(&mut s).to_le_bytes());
            if i % 3 == 0 {
                // Force the RFC variant and a time-based version half the time.
                b = fields::set_version(b, [1, 2, 6, 7][(i as usize / 3) % 4]);
            }
            let _ = (fields::variant(&b), fields::version(&b), v2::decode_v2(&b));
            let _ = (v7::instant_with_subms(&b), time_order::key(&b));
            if let Some(f) = v1::decode_gregorian(&b) {
                assert_eq!(v6::decode_v6(&v6::encode_v6(&f)), Some(f));
                let _ = time::unix_from_gregorian(f.timestamp);
            }
            let text = text::format(&b, text::Spelling::Urn);
            assert_eq!(text::parse(&text), Ok((b, text::Spelling::Urn)));
            let t = (xorshift(&mut s) as i64 as i128) * 1_000_000;
            let _ = time_order::lower_bound(t);
        }
    }

    /// Random text over the symbols of the forms: the parser returns, never panics. (Few such
    /// strings are UUIDs; the round trip is the next test's.)
    #[test]
    fn parser_never_panics_on_random_text() {
        let alphabet = b"0123456789abcdefABCDEF-{}:urnid \xc3\xa9";
        let mut s = 0x9E3779B97F4A7C15;
        for _ in 0..300_000 {
            let len = (xorshift(&mut s) % 48) as usize;
            let raw: Vec<u8> =
                (0..len).map(|_| alphabet[(xorshift(&mut s) % alphabet.len() as u64) as usize]).collect();
            let _ = text::parse(&String::from_utf8_lossy(&raw));
        }
    }

    /// Every spelling of random UUIDs, in random case, then one symbol changed, removed or
    /// added (or none): whatever the parser accepts is a spelling of what it returns, and an
    /// unchanged spelling returns the UUID it spells. Most inputs parse, so the assertions run.
    #[test]
    fn parser_round_trips_near_spellings() {
        let alphabet = b"0123456789abcdefABCDEFgG-{}:urnid \xc3\xa9";
        let spellings =
            [text::Spelling::Canonical, text::Spelling::Urn, text::Spelling::Braced, text::Spelling::Simple];
        let mut s = 0x2545F4914F6CDD1D;
        let (mut parsed, mut unchanged) = (0, 0);
        for i in 0..300_000 {
            let mut b = [0u8; 16];
            b[..8].copy_from_slice(&xorshift(&mut s).to_le_bytes());
            b[8..].copy_from_slice(&xorshift(&mut s).to_le_bytes());
            let spelling = spellings[i % 4];
            let mut raw: Vec<u8> = text::format(&b, spelling)
                .bytes()
                .map(|c| if xorshift(&mut s).is_multiple_of(2) { c.to_ascii_uppercase() } else { c })
                .collect();
            let at = (xorshift(&mut s) % raw.len() as u64) as usize;
            let symbol = alphabet[(xorshift(&mut s) % alphabet.len() as u64) as usize];
            match xorshift(&mut s) % 8 {
                0 => raw[at] = symbol,
                1 => {
                    raw.remove(at);
                }
                2 => raw.insert(at, symbol),
                _ => {}
            }
            let text = String::from_utf8_lossy(&raw);
            let same = text.eq_ignore_ascii_case(&text::format(&b, spelling));
            match text::parse(&text) {
                Ok((got, form)) => {
                    parsed += 1;
                    assert!(text.eq_ignore_ascii_case(&text::format(&got, form)), "{text}");
                    if same {
                        unchanged += 1;
                        assert_eq!((got, form), (b, spelling), "{text}");
                    }
                }
                Err(_) => assert!(!same, "{text} spells a UUID"),
            }
        }
        assert!(parsed > 150_000 && unchanged > 150_000, "{parsed} parsed, {unchanged} unchanged");
    }
}
