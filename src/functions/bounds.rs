//! Range bounds for time windows on UUID keys: immutable functions of a
//! timestamp that an index scan can compare a UUID column with.
//!
//! For an instant `t`, the *lower bound* is the smallest UUID whose
//! timestamp is at or after `t`, the *upper bound* the smallest whose
//! timestamp, as the extractors return it (to the microsecond), is after
//! `t`. So for the values each pair covers:
//!
//! ```text
//! id >= lower(t0) AND id <  lower(t1)   ⇔   t0 <= time < t1
//! id >= lower(t0) AND id <  upper(t1)   ⇔   t0 <= time <= t1
//! ```
//!
//! * `uuid_v7_lower_bound`/`uuid_v7_upper_bound`: byte order (`uuid_ops`,
//!   a plain primary key), exact for v7 values. Other versions are not
//!   ordered by time in bytes; a range may include some of them.
//! * `uuid_time_lower_bound`/`uuid_time_upper_bound`: the `uuid_time_ops`
//!   order, exact for v1, v6 and v7 together.
//!
//! `-infinity` and `infinity` bound like instants before and after every
//! timestamp a UUID can hold. All four are IMMUTABLE, so a bound of a
//! constant is folded at plan time and a bound of `now() - interval '1 hour'`
//! is an index condition computed once per scan. A filter computes it once per
//! row (a user's own `id >= uuid_v7_lower_bound(…)` read by a sequential scan;
//! the hook's derived bounds are InitPlans, computed once per execution,
//! [`crate::planner`]), so they are plain C functions
//! ([`crate::pg::fmgr::bound_function!`]), as cheap as an extractor.

use crate::pg::convert::instant;
use crate::pg::fmgr::bound_function;
use uuid_ext_core::time::UnixNanos;
use uuid_ext_core::{time_order, v7, Bytes};

/// One microsecond, PostgreSQL's timestamp resolution, in nanoseconds.
const MICROSECOND: UnixNanos = 1_000;

/// The bound the function of that kind computes for a timestamptz of `us` microseconds (see
/// [`instant`] for ∓infinity): byte order (`uuid_v7_…`) or `uuid_time_ops` order
/// (`uuid_time_…`), lower or upper. The four functions below are this; the planner also
/// computes it to fold the bound of a constant, as PostgreSQL would fold the call ([`crate::planner`]).
pub fn bound(byte_order: bool, upper_bound: bool, us: i64) -> Bytes {
    let lower_bound: fn(UnixNanos) -> Bytes = if byte_order { v7::lower_bound } else { time_order::lower_bound };
    // Timestamps are microseconds, so "after `ts`" is "at or after `ts` + 1 µs".
    lower_bound(if upper_bound { instant(us) + MICROSECOND } else { instant(us) })
}

bound_function!(
    /// The smallest v7 in byte order whose timestamp is at or after `ts` (the v7 of `ts`'s
    /// millisecond, rounded up, with all random bits zero): at or below every such v7, and
    /// above every v7 of an earlier time. `id >= bound` selects them.
    uuid_v7_lower_bound,
    "uuid_v7_lower_bound",
    r#"CREATE FUNCTION "uuid_v7_lower_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_lower_bound_wrapper';"#,
    |us| { bound(true, false, us) }
);

bound_function!(
    /// The smallest v7 in byte order whose timestamp is after `ts`: `id < bound` selects the
    /// v7s of `ts` and before.
    uuid_v7_upper_bound,
    "uuid_v7_upper_bound",
    r#"CREATE FUNCTION "uuid_v7_upper_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_upper_bound_wrapper';"#,
    |us| { bound(true, true, us) }
);

bound_function!(
    /// The smallest UUID in `uuid_time_ops` order whose time is at or after `ts`:
    /// `id >=| uuid_time_lower_bound(t0) AND id <| uuid_time_lower_bound(t1)` selects exactly
    /// the v1/v6/v7 values with t0 <= time < t1.
    uuid_time_lower_bound,
    "uuid_time_lower_bound",
    r#"CREATE FUNCTION "uuid_time_lower_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_time_lower_bound_wrapper';"#,
    |us| { bound(false, false, us) }
);

bound_function!(
    /// The smallest UUID in `uuid_time_ops` order whose time, read to the microsecond, is
    /// after `ts`.
    uuid_time_upper_bound,
    "uuid_time_upper_bound",
    r#"CREATE FUNCTION "uuid_time_upper_bound"("ts" timestamp with time zone) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_time_upper_bound_wrapper';"#,
    |us| { bound(false, true, us) }
);
