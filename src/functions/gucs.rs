//! Configuration parameters. All names start with `uuid_ext.`, a prefix the
//! extension reserves (PostgreSQL 15+), so a typo is an error, not a silent
//! placeholder.

use pgrx::{GucContext, GucEnum, GucFlags, GucRegistry, GucSetting, PostgresGucEnum};
use uuid_ext_core::monotonic::V7Method;

/// Values of `uuid_ext.v7_method`; see [`uuid_ext_core::monotonic`] for layouts.
#[derive(PostgresGucEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum V7MethodGuc {
    #[name = c"default"]
    Default,
    #[name = c"pg18"]
    Pg18,
    #[name = c"counter"]
    Counter,
    #[name = c"random"]
    Random,
}

static V7_METHOD: GucSetting<V7MethodGuc> = GucSetting::<V7MethodGuc>::new(V7MethodGuc::Default);

/// Values of `uuid_ext.v7_scope`.
#[derive(PostgresGucEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum V7Scope {
    #[name = c"backend"]
    Backend,
    #[name = c"cluster"]
    Cluster,
}

static V7_SCOPE: GucSetting<V7Scope> = GucSetting::<V7Scope>::new(V7Scope::Backend);

/// Whether explicit values may be inserted into server-assigned key columns.
static ALLOW_EXPLICIT_IDS: GucSetting<bool> = GucSetting::<bool>::new(false);

/// Whether the planner hook derives index conditions from time predicates.
static TIME_INDEX_CONDITIONS: GucSetting<bool> = GucSetting::<bool>::new(true);

/// Test aid: milliseconds added to the wall clock for the generators.
static CLOCK_OFFSET_MS: GucSetting<i32> = GucSetting::<i32>::new(0);

/// The v7 method in force for this call.
#[inline]
pub fn v7_method() -> V7Method {
    // A plain read of the variable PostgreSQL assigns: GucSetting::get() adds
    // a thread check per call, and this is on every generator's hot path.
    // SAFETY: PostgreSQL backends are single-threaded; the pointer is static.
    match V7MethodGuc::from_ordinal(unsafe { *V7_METHOD.as_ptr() }) {
        V7MethodGuc::Default => V7Method::Default,
        V7MethodGuc::Pg18 => V7Method::Pg18,
        V7MethodGuc::Counter => V7Method::Counter,
        V7MethodGuc::Random => V7Method::Random,
    }
}

/// Whether v7 values are ordered per backend or across the whole server.
#[inline]
pub fn v7_scope() -> V7Scope {
    // SAFETY: as in v7_method().
    V7Scope::from_ordinal(unsafe { *V7_SCOPE.as_ptr() })
}

/// `uuid_ext.allow_explicit_ids`: explicit keys may be loaded into
/// server-assigned columns (see [`crate::server_assigned`]).
pub fn allow_explicit_ids() -> bool {
    ALLOW_EXPLICIT_IDS.get()
}

/// `uuid_ext.time_index_conditions` (see [`crate::planner`]).
pub fn time_index_conditions() -> bool {
    TIME_INDEX_CONDITIONS.get()
}

/// The test clock offset in nanoseconds (0 unless a superuser set one).
#[inline]
pub fn clock_offset_ns() -> i128 {
    // SAFETY: as in v7_method().
    i128::from(unsafe { *CLOCK_OFFSET_MS.as_ptr() }) * 1_000_000
}

pub fn init() {
    GucRegistry::define_enum_guc(
        c"uuid_ext.v7_method",
        c"How uuid_generate_v7() fills the 74 bits after the millisecond timestamp.",
        c"default: sub-millisecond fraction + 14-bit counter + 48 random bits (strictly increasing); \
          pg18: PostgreSQL 18's algorithm; counter: RFC 9562 Method 1, 42-bit counter; \
          random: 74 random bits, ordered only by millisecond.",
        &V7_METHOD,
        GucContext::Userset,
        GucFlags::default(),
    );
    GucRegistry::define_enum_guc(
        c"uuid_ext.v7_scope",
        c"Whether uuid_generate_v7() values increase per backend or across the whole server.",
        c"cluster needs shared_preload_libraries = 'uuid_ext' and ignores uuid_ext.v7_method.",
        &V7_SCOPE,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_bool_guc(
        c"uuid_ext.allow_explicit_ids",
        c"Lets INSERT and COPY supply their own values for server-assigned UUID keys.",
        c"The analogue of OVERRIDING SYSTEM VALUE for uuid_ext_server_assigned() triggers, for \
          loading data. Superuser only, or a role granted SET on this parameter.",
        &ALLOW_EXPLICIT_IDS,
        GucContext::Suset,
        GucFlags::default(),
    );
    GucRegistry::define_bool_guc(
        c"uuid_ext.time_index_conditions",
        c"Lets time predicates and time orders on UUID columns use the column's indexes and partitions.",
        c"Switches the whole planner hook: uuid_extract_timestamp(id) >= X and the like as index \
          conditions on the key (uuid_time_ops indexes; uuid_ops for v7-only predicates or columns), \
          ordered reads by the key's time, the ranges that prune RANGE (id) partitions, ordered \
          Appends of such partitions, and bounds computed once per execution.",
        &TIME_INDEX_CONDITIONS,
        GucContext::Userset,
        GucFlags::default(),
    );
    GucRegistry::define_int_guc(
        c"uuid_ext.clock_offset_ms",
        c"Test aid: milliseconds added to the clock that time-based generators read.",
        c"Lets tests move the clock back or forward to exercise clock-regression handling. \
          Superuser only; leave it at 0.",
        &CLOCK_OFFSET_MS,
        -(86_400_000 * 24),
        86_400_000 * 24,
        GucContext::Suset,
        GucFlags::UNIT_MS | GucFlags::NO_SHOW_ALL,
    );
}

/// Reserves the `uuid_ext.` prefix, once every setting is defined (from `_PG_init`, last): a
/// placeholder of a name not defined by then (a typo in postgresql.conf) is removed with a
/// WARNING — and so would be the value of a setting defined later, as the key file of public
/// IDs once was, when a session loaded the library after reading the configuration.
pub fn reserve_prefix() {
    // SAFETY: called from _PG_init, after every uuid_ext setting is defined.
    unsafe { crate::pg::compat::reserve_guc_prefix(c"uuid_ext") }
}
