//! UUIDv4: 122 random bits (§5.4).
//!
//! # References
//! * RFC 9562 §5.4, §6.9 (unguessability), Appendix A.3

use super::fields::set_version;
use super::Bytes;

/// UUIDv4 from 16 random octets; 6 of their bits are overwritten.
#[inline]
pub fn from_random(random: Bytes) -> Bytes {
    set_version(random, 4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::hex;

    #[test]
    fn appendix_a3_v4() {
        let random = hex("919108F752D133205BACF847DB4148A8");
        assert_eq!(from_random(random), hex("919108f7-52d1-4320-9bac-f847db4148a8"));
    }
}
