//! Any bytes, as text or as a UUID: parsing and every decoder must not panic,
//! and whatever parses must format back to the same text (ignoring case).
#![no_main]

#[path = "../../src/generator/mod.rs"]
#[allow(dead_code)]
mod generator;

use generator::{fields, text, time_order, v1, v2, v7};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = std::str::from_utf8(data) {
        if let Ok((b, form)) = text::parse(s) {
            assert!(s.eq_ignore_ascii_case(&text::format(&b, form)));
        }
    }
    if data.len() >= 16 {
        let b: generator::Bytes = data[..16].try_into().unwrap();
        let _ = (fields::variant(&b), fields::version(&b), v2::decode_v2(&b), v7::instant_with_subms(&b));
        if let Some(f) = v1::decode_gregorian(&b) {
            assert_eq!(v1::decode_v6(&v1::encode_v6(&f)), Some(f));
        }
        let _ = time_order::key(&b);
        if data.len() >= 32 {
            let t = i128::from_le_bytes(data[16..32].try_into().unwrap()) >> 16;
            let bound = time_order::lower_bound(t);
            assert!(time_order::compare(&bound, &bound).is_eq());
        }
    }
});
