//! Any bytes, as text or as a UUID: parsing and every decoder must not panic,
//! whatever parses must format back to the same text (ignoring case), the
//! time order must be a consistent total order, and a time bound must split
//! timed UUIDs exactly at its instant (checked against the RFC layouts read
//! independently, `generator::testutil::reference_time`).
#![no_main]

#[path = "../../src/generator/mod.rs"]
#[allow(dead_code)]
mod generator;

use generator::testutil::reference_time;
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
            let c: generator::Bytes = data[32..48].try_into().unwrap();
            let ord = time_order::compare(&b, &c);
            assert_eq!(ord, time_order::compare(&c, &b).reverse());
            assert_eq!(ord.is_eq(), b == c);
            if time_order::key(&b) < time_order::key(&c) {
                assert!(ord.is_lt(), "abbreviated key contradicts the order");
            }
        }
    }
});
