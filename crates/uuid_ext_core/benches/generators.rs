//! Rust-level benchmark: uuid_ext's core against the `uuid` crate, side by
//! side in one run. Not a test: it prints ns per UUID (median of interleaved
//! rounds) and the ratio. No PostgreSQL needed:
//!
//!     cargo bench -p uuid_ext_core --bench generators
//!
//! uuid_ext's side is what its SQL functions run per call minus PostgreSQL's
//! own overhead: the backend-state access, the clock read and the encoding.

use std::hint::black_box;
use std::time::Instant;
use uuid_ext_core::state;
use uuid_ext_core::{monotonic::V7Method, namespace, v1, v4, v5, v6};

const ITERS: u32 = 1_000_000;
const ROUNDS: usize = 9;

fn ours_v4() -> [u8; 16] {
    state::with(|s| v4::from_random(s.rng.bytes16()))
}

fn ours_v7() -> [u8; 16] {
    let now = state::wall_clock();
    state::with(|s| {
        let rng = &mut s.rng;
        s.v7.next(V7Method::Default, now, 0, || rng.next_u64())
    })
    .unwrap()
}

fn ours_v6() -> [u8; 16] {
    let now = state::wall_clock();
    state::with(|s| {
        let (timestamp, clock_seq) = s.gregorian.next(now).unwrap();
        v6::encode_v6(&v1::GregorianFields { timestamp, clock_seq, node: s.node })
    })
}

fn ours_v1() -> [u8; 16] {
    let now = state::wall_clock();
    state::with(|s| {
        let (timestamp, clock_seq) = s.gregorian.next(now).unwrap();
        v1::encode_v1(&v1::GregorianFields { timestamp, clock_seq, node: s.node })
    })
}

const NODE: [u8; 6] = [0x9F, 0x6B, 0xDE, 0xCE, 0xD8, 0x46];

fn main() {
    type Gen = (&'static str, fn() -> [u8; 16], fn() -> [u8; 16]);
    let cases: [Gen; 5] = [
        ("v4", ours_v4, || *uuid::Uuid::new_v4().as_bytes()),
        ("v7", ours_v7, || *uuid::Uuid::now_v7().as_bytes()),
        ("v1", ours_v1, || *uuid::Uuid::now_v1(&NODE).as_bytes()),
        ("v6", ours_v6, || *uuid::Uuid::now_v6(&NODE).as_bytes()),
        (
            "v5 (DNS, www.example.com)",
            || v5::from_name(&namespace::DNS, b"www.example.com"),
            || *uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_DNS, b"www.example.com").as_bytes(),
        ),
    ];
    let time = |f: fn() -> [u8; 16]| {
        let start = Instant::now();
        for _ in 0..ITERS {
            black_box(f());
        }
        start.elapsed().as_nanos() as f64 / f64::from(ITERS)
    };
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!("| generator | uuid_ext ns/UUID | uuid crate ns/UUID | uuid_ext / uuid |");
    println!("|---|---|---|---|");
    for (label, ours, theirs) in cases {
        // Warm up, then interleave rounds so drift hits both sides alike.
        time(ours);
        time(theirs);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            a.push(time(ours));
            b.push(time(theirs));
        }
        let (a, b) = (median(a), median(b));
        println!("| {label} | {a:.1} | {b:.1} | {:.2} |", a / b);
    }
}
