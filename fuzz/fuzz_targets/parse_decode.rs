//! Any bytes, as text or as a UUID: parsing and every decoder (text forms and TypeID
//! included) must not panic,
//! whatever parses must format back to the same text (ignoring case), the
//! time order must be a consistent total order, and a time bound must split
//! timed UUIDs exactly at its instant (checked against the RFC layouts read
//! independently, `uuid_ext_core::testutil::reference_time`).
#![no_main]

use uuid_ext_core::testutil::reference_time;
use uuid_ext_core::forms::{self, typeid, Format};
use uuid_ext_core::{fields, text, time_order, v1, v2, v6, v7};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok((b, form)) = text::parse(s) {
            assert!(s.eq_ignore_ascii_case(&text::format(&b, form)));
        }
    }
    // Text forms: whatever decodes re-encodes to the canonical form of the same value, and
    // every value's forms decode back (so no two texts of one format differ but by case,
    // whitespace or padding).
    for f in Format::ALL {
        if let Ok(b) = forms::decode(data, f) {
            let (canonical, n) = forms::encode(&b, f);
            assert_eq!(forms::decode(&canonical[..n], f), Ok(b));
        }
    }
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok((prefix, b)) = typeid::decode(s.as_bytes()) {
            assert_eq!(typeid::encode(prefix.as_bytes(), &b).as_deref(), Ok(s), "a TypeID has one spelling");
        }
    }
    if data.len() >= 16 {
        let b: uuid_ext_core::Bytes = data[..16].try_into().unwrap();
        let _ = (fields::variant(&b), fields::version(&b), v2::decode_v2(&b), v7::instant_with_subms(&b));
        if let Some(f) = v1::decode_gregorian(&b) {
            assert_eq!(v6::decode_v6(&v6::encode_v6(&f)), Some(f));
        }
        let _ = time_order::key(&b);
        for f in Format::ALL {
            let (t, n) = forms::encode(&b, f);
            assert_eq!(forms::decode(&t[..n], f), Ok(b));
        }
        if data.len() >= 32 {
            // Instants over the whole range UUIDs cover and beyond (±2^79 ns).
            let t = i128::from_le_bytes(data[16..32].try_into().unwrap()) >> 48;
            let at_or_after = time_order::compare(&b, &time_order::lower_bound(t)).is_ge();
            if let Some(time) = reference_time(&b) {
                assert_eq!(at_or_after, time >= t, "time_order bound");
            }
            if fields::version(&b) == Some(7) {
                assert_eq!(b >= v7::lower_bound(t), reference_time(&b).unwrap() >= t, "v7 bound");
            }
        }
        if data.len() >= 48 {
            let c: uuid_ext_core::Bytes = data[32..48].try_into().unwrap();
            let ord = time_order::compare(&b, &c);
            assert_eq!(ord, time_order::compare(&c, &b).reverse());
            assert_eq!(ord.is_eq(), b == c);
            if time_order::key(&b) < time_order::key(&c) {
                assert!(ord.is_lt(), "abbreviated key contradicts the order");
            }
        }
    }
});
