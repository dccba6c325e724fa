//! Every ERROR uuid_ext raises goes through here: generator errors mapped to specific SQLSTATEs
//! with PostgreSQL's wording (PostgreSQL 18's `uuidv7()` for timestamp ranges), text that is not
//! a UUID, and arguments out of range; one place to review SQLSTATEs and wording.

use crate::pg::convert::to_timestamptz;
use pgrx::pg_sys::panic::ErrorReport;
use pgrx::{PgLogLevel, PgSqlErrorCode};
use uuid_ext_core::time::unix_from_gregorian;
use uuid_ext_core::{v2, Error};

/// Raises an ERROR with PostgreSQL's optional DETAIL and HINT lines.
pub fn error(code: PgSqlErrorCode, message: String, detail: Option<String>, hint: Option<&str>) -> ! {
    let mut report = ErrorReport::new(code, message, "");
    if let Some(detail) = detail {
        report = report.set_detail(detail);
    }
    if let Some(hint) = hint {
        report = report.set_hint(hint);
    }
    report.report(PgLogLevel::ERROR);
    unreachable!("an ERROR does not return")
}

/// What a value being made is, for messages: each kind's name and the range of its timestamp.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    V1,
    V2,
    V7,
    V8,
    PublicIdKey,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::V1 => "UUID version 1",
            Kind::V2 => "UUID version 2",
            Kind::V7 => "UUID version 7",
            Kind::V8 => "UUID version 8",
            Kind::PublicIdKey => "a public ID key",
        }
    }

    /// The DETAIL of a timestamp out of this kind's range (PostgreSQL 18's wording for v7).
    fn range(self) -> &'static str {
        match self {
            Kind::V7 => "UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.",
            _ => "UUID versions 1, 2 and 6 support timestamps from 1582-10-15 to 5236-03-31.",
        }
    }
}

/// Raises `err` as an ERROR for a value of `kind`. Text that is not a UUID is reported by
/// [`invalid_uuid_text`], which shows the input.
///
/// (22008 is named ERRCODE_DATETIME_FIELD_OVERFLOW in pgrx; PostgreSQL calls the
/// same SQLSTATE ERRCODE_DATETIME_VALUE_OUT_OF_RANGE too.)
pub fn raise(err: Error, kind: Kind) -> ! {
    let name = kind.name();
    match err {
        Error::TimestampOutOfRange => error(
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
            format!("timestamp out of range for {name}"),
            Some(kind.range().to_owned()),
            None,
        ),
        Error::WrongLength { expected, got } => error(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("{name} needs exactly {expected} bytes, got {got}"),
            None,
            None,
        ),
        Error::InvalidText => error(
            PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
            format!("invalid input syntax for {name}"),
            None,
            None,
        ),
        // The SQLSTATE of a sequence that reached its limit.
        Error::Exhausted { retry_at } => error(
            PgSqlErrorCode::ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
            format!("{name} values exhausted for this time step"),
            Some(format!(
                "A backend generates at most {} distinct values per local domain and local id in each \
                 7.16-minute step of the version 2 clock; the next step starts at {}.",
                v2::VALUES_PER_STEP,
                to_timestamptz(unix_from_gregorian(retry_at))
            )),
            None,
        ),
        Error::TooManyIds { retry_at } => error(
            PgSqlErrorCode::ERRCODE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
            format!("{name} values exhausted for this time step"),
            Some(format!(
                "A backend generates values for at most {} distinct local domains and local ids in each \
                 7.16-minute step of the version 2 clock; the next step starts at {}.",
                v2::IDS_PER_STEP,
                to_timestamptz(unix_from_gregorian(retry_at))
            )),
            None,
        ),
    }
}

/// An argument outside the values a function takes (22023, or 22003 for a number out of its
/// range).
pub fn invalid_argument(code: PgSqlErrorCode, message: String, detail: Option<&str>) -> ! {
    error(code, message, detail.map(str::to_owned), None)
}

/// Text that is not a UUID in the form a function reads: 22P02 with
/// PostgreSQL's wording for `uuid` input, `input` as shown in messages
/// (see `TextBytes::for_message`).
pub fn invalid_uuid_text(input: &str, detail: Option<String>, hint: Option<&str>) -> ! {
    error(
        PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
        format!("invalid input syntax for type uuid: \"{input}\""),
        detail,
        hint,
    )
}

/// Unwraps a generator result or raises its error; `kind` as for [`raise`].
pub trait OrRaise<T> {
    fn or_raise(self, kind: Kind) -> T;
}

impl<T> OrRaise<T> for Result<T, Error> {
    #[inline]
    fn or_raise(self, kind: Kind) -> T {
        self.unwrap_or_else(|e| raise(e, kind))
    }
}
