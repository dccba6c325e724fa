//! Conversions between the generator's types and PostgreSQL's.

use pgrx::callconv::{Arg, ArgAbi};
use pgrx::datum::{Timestamp, TimestampWithTimeZone};
use pgrx::pgrx_sql_entity_graph::metadata::{
    ArgumentError, ReturnsError, ReturnsRef, SqlMappingRef, SqlTranslatable, TypeOrigin,
};
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, Uuid};
use uuid_ext_core::time::UnixNanos;
use uuid_ext_core::Bytes;

/// Microseconds from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
const PG_EPOCH_UNIX_US: i128 = 946_684_800_000_000;

#[inline]
pub fn uuid(b: Bytes) -> Uuid {
    Uuid::from_bytes(b)
}

#[inline]
pub fn bytes(u: &Uuid) -> &Bytes {
    u.as_bytes()
}

/// A `text` argument as the bytes of its value in the database encoding.
///
/// pgrx's `&str` insists on UTF-8 and raises an internal error (XX000) for
/// any other byte sequence, which every non-ASCII value of a LATIN1 or
/// SQL_ASCII database is. Name-based UUIDs hash the bytes as stored, as
/// uuid-ossp does, so they need no conversion at all.
pub struct TextBytes<'a>(pub &'a [u8]);

// SAFETY: `text` is a varlena like `bytea`; `&[u8]`'s unboxing detoasts it and
// borrows its payload for the duration of the call, whatever the encoding.
unsafe impl<'fcx> ArgAbi<'fcx> for TextBytes<'fcx> {
    unsafe fn unbox_arg_unchecked(arg: Arg<'_, 'fcx>) -> Self {
        TextBytes(unsafe { <&'fcx [u8] as ArgAbi<'fcx>>::unbox_arg_unchecked(arg) })
    }
}

// SAFETY: maps to the built-in `text` type, which the ArgAbi above reads correctly.
unsafe impl SqlTranslatable for TextBytes<'_> {
    const TYPE_IDENT: &'static str = pgrx::pgrx_resolved_type!(TextBytes<'static>);
    const TYPE_ORIGIN: TypeOrigin = TypeOrigin::External;
    const ARGUMENT_SQL: Result<SqlMappingRef, ArgumentError> = Ok(SqlMappingRef::literal("text"));
    const RETURN_SQL: Result<ReturnsRef, ReturnsError> = Err(ReturnsError::Datum);
}

impl TextBytes<'_> {
    /// The value for an error message; see [`bytes_for_message`].
    pub fn for_message(&self) -> String {
        bytes_for_message(self.0)
    }
}

/// At most this many bytes of a value are shown in an error message.
pub const SHOWN_BYTES: usize = 100;

/// A value in the database encoding, as an error message shows it: [`catalog_text_for_message`]
/// of at most [`SHOWN_BYTES`] of it, then `...` — a message's size never grows with the input.
pub fn bytes_for_message(text: &[u8]) -> String {
    if text.len() <= SHOWN_BYTES {
        return catalog_text_for_message(text);
    }
    let mut shown = &text[..SHOWN_BYTES];
    // SAFETY: reads a backend-global integer.
    if unsafe { pg_sys::GetDatabaseEncoding() } == pg_sys::pg_enc::PG_UTF8 as i32 {
        // Cut inside a character: the whole characters before it.
        if let Err(e) = std::str::from_utf8(shown) {
            if e.error_len().is_none() {
                shown = &shown[..e.valid_up_to()];
            }
        }
    }
    catalog_text_for_message(shown) + "..."
}

/// Text in the database encoding whose size the catalog bounds (a name, a list of a few
/// names) for an error message: as is when it is valid UTF-8 in a UTF-8 database, otherwise
/// printable ASCII with every other byte written `\xNN` (so a message never carries bytes
/// invalid in any encoding).
pub fn catalog_text_for_message(text: &[u8]) -> String {
    // SAFETY: reads a backend-global integer.
    let utf8_db = unsafe { pg_sys::GetDatabaseEncoding() } == pg_sys::pg_enc::PG_UTF8 as i32;
    match std::str::from_utf8(text) {
        Ok(s) if utf8_db => s.to_owned(),
        _ => text
            .iter()
            .map(|&b| if (0x20..0x7f).contains(&b) { (b as char).to_string() } else { format!("\\x{b:02x}") })
            .collect(),
    }
}

/// PostgreSQL microseconds since 2000 for an instant, rounded down.
pub fn pg_micros(ns: UnixNanos) -> i64 {
    // Fast path for 1678..2262 (every key of this era): 64-bit division is several times
    // cheaper than 128-bit, and the extractors run once per row of a time query.
    if let Ok(ns) = i64::try_from(ns) {
        return ns.div_euclid(1000) - PG_EPOCH_UNIX_US as i64;
    }
    // Every instant a UUID can carry (1582..10889) is far inside i64 and
    // PostgreSQL's timestamp range (4713 BC..294276 AD).
    (ns.div_euclid(1000) - PG_EPOCH_UNIX_US) as i64
}

pub fn to_timestamptz(ns: UnixNanos) -> TimestampWithTimeZone {
    TimestampWithTimeZone::try_from(pg_micros(ns)).unwrap_or_else(|_| out_of_range())
}

/// The instant of PostgreSQL microseconds since 2000. `-infinity` and
/// `infinity` (i64::MIN/MAX) become instants far before/after any a UUID can
/// hold, so each layout's own range check rejects them with its own error,
/// and a range bound treats them like the finite extremes.
pub fn instant(us: i64) -> UnixNanos {
    (i128::from(us) + PG_EPOCH_UNIX_US) * 1000
}

/// The instant of a timestamptz (see [`instant`] for infinities).
pub fn from_timestamptz(ts: TimestampWithTimeZone) -> UnixNanos {
    instant(ts.into_inner())
}

/// The instant of a timestamp read as UTC (see [`instant`] for infinities).
pub fn from_timestamp(ts: Timestamp) -> UnixNanos {
    instant(ts.into_inner())
}

fn out_of_range() -> ! {
    crate::pg::errors::invalid_argument(
        PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
        "timestamp out of range".into(),
        None,
    )
}
