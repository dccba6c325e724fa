//! Maps generator errors to PostgreSQL errors with specific SQLSTATEs.

use crate::generator::Error;
use pgrx::prelude::*;
use pgrx::PgSqlErrorCode;

/// (22008 is named ERRCODE_DATETIME_FIELD_OVERFLOW in pgrx; PostgreSQL calls the
/// same SQLSTATE ERRCODE_DATETIME_VALUE_OUT_OF_RANGE too.)
/// Raises `err` as an ERROR; `what` names the value being built ("UUID version 7").
pub fn raise(err: Error, what: &str) -> ! {
    match err {
        Error::TimestampOutOfRange => {
            ereport!(
                ERROR,
                PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW,
                format!("timestamp out of range for {what}")
            );
        }
        Error::WrongLength { expected, got } => {
            ereport!(
                ERROR,
                PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
                format!("{what} needs exactly {expected} bytes, got {got}")
            );
        }
        Error::InvalidText => {
            ereport!(
                ERROR,
                PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
                format!("invalid input syntax for type uuid: \"{what}\"")
            );
        }
    }
}

/// Unwraps a generator result or raises its error.
pub trait OrRaise<T> {
    fn or_raise(self, what: &str) -> T;
}

impl<T> OrRaise<T> for Result<T, Error> {
    #[inline]
    fn or_raise(self, what: &str) -> T {
        self.unwrap_or_else(|e| raise(e, what))
    }
}
