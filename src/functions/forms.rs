//! Other forms of a UUID in SQL: its 16 octets as `bytea`
//! (`uuid_to_bytea`/`uuid_from_bytea`, PostgreSQL 19's casts on every major),
//! short text forms (`uuid_encode`/`uuid_decode`: hex, base32hex, base64url,
//! crockford) and TypeID. The text forms themselves are
//! [`uuid_ext_core::forms`]; this is the SQL face and its errors.
//!
//! All are IMMUTABLE STRICT PARALLEL SAFE, so they serve generated columns
//! and expression indexes. Text that is not a form of exactly 16 octets is
//! 22P02 with PostgreSQL's wording for `uuid` input and a DETAIL naming the
//! format; an unknown format name is 22023, as `encode()` reports it; a
//! `bytea` of another length is 22P03, as PostgreSQL 19's `bytea::uuid`.

use crate::pg::convert::{bytes, uuid, TextBytes};
use crate::pg::errors::{error, invalid_uuid_text};
use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, Uuid};
use uuid_ext_core::forms::typeid::{self, TypeIdError};
use uuid_ext_core::forms::{self, FormError, Format};

fn format_named(name: TextBytes<'_>) -> Format {
    Format::from_name(name.0).unwrap_or_else(|| {
        error(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("unrecognized encoding: \"{}\"", name.for_message()),
            None,
            Some("Valid formats are \"base32hex\", \"base64url\", \"crockford\", and \"hex\"."),
        )
    })
}

/// Why the text is not the form, for the DETAIL line.
fn reason(err: FormError) -> String {
    match err {
        FormError::Length { expected, got } => format!("{got} symbols where 16 bytes take {expected}"),
        FormError::Symbol => "a character outside its alphabet".to_owned(),
        FormError::Padding => "padding that is neither absent nor exactly that of 16 bytes".to_owned(),
        FormError::TrailingBits => "bits after the 128th that are not zero".to_owned(),
        FormError::Overflow => "a first symbol above 7, so more than 128 bits".to_owned(),
    }
}

/// `id`'s 16 octets, most significant first: what PostgreSQL 19's `id::bytea` and every
/// major's `uuid_send(id)` give. A function, never a cast: 19 has the cast built in, and one
/// an extension made on an older major would collide with it when `pg_upgrade` restores the
/// schema on 19.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_to_bytea(id: Uuid) -> Vec<u8> {
    bytes(&id).to_vec()
}

// LEAKPROOF as 19's `uuid::bytea` is (it cannot fail, and returns only its argument's bytes), so
// that row-level security and security-barrier views push `uuid_to_bytea(id) = $1` down as they
// do the cast. Only a superuser may say so; the install and update scripts run as one (a trusted
// extension's too). `uuid_from_bytea`, which fails on other lengths, is not, as 19's `bytea::uuid`.
pgrx::extension_sql!(
    r#"ALTER FUNCTION @extschema@."uuid_to_bytea"(uuid) LEAKPROOF;"#,
    name = "uuid_to_bytea_leakproof",
    requires = [uuid_to_bytea]
);

/// The UUID whose 16 octets `bytes` holds, the inverse of `uuid_to_bytea`: PostgreSQL 19's
/// `bytes::uuid`, with its error (22P03) for any other length.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_from_bytea(bytes: &[u8]) -> Uuid {
    match <[u8; 16]>::try_from(bytes) {
        Ok(b) => uuid(b),
        Err(_) => error(
            PgSqlErrorCode::ERRCODE_INVALID_BINARY_REPRESENTATION,
            "invalid input length for type uuid".to_owned(),
            Some(format!("Expected 16 bytes, got {}.", bytes.len())),
            None,
        ),
    }
}

/// `id` as text in `format`: `hex` (32 digits, no dashes), `base32hex`
/// (RFC 4648 §7, 26 symbols, unpadded, sorts like the UUID), `base64url`
/// (RFC 4648 §5, 22 symbols, unpadded, does not sort), `crockford` (26
/// symbols, the ULID form, sorts like the UUID).
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_encode(id: Uuid, format: TextBytes<'_>) -> String {
    let (text, n) = forms::encode(bytes(&id), format_named(format));
    // SAFETY: every form is ASCII by construction. (One allocation of the exact size: building
    // the String char by char cost more than the encoding.)
    unsafe { String::from_utf8_unchecked(text[..n].to_vec()) }
}

/// The UUID that `text` is the `format` form of; the inverse of `uuid_encode`.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_decode(t: TextBytes<'_>, format: TextBytes<'_>) -> Uuid {
    let format = format_named(format);
    match forms::decode(t.0, format) {
        Ok(b) => uuid(b),
        Err(err) => invalid_uuid_text(
            &t.for_message(),
            Some(format!("Not a {} form of a UUID: {}.", format.name(), reason(err))),
            None,
        ),
    }
}

const PREFIX_RULE: &str =
    "A TypeID prefix is empty or at most 63 characters of a-z and _, not starting or ending with _.";

fn typeid_detail(err: TypeIdError) -> String {
    match err {
        TypeIdError::PrefixTooLong => "Its prefix is longer than 63 characters.".to_owned(),
        TypeIdError::PrefixCharacter => "Its prefix has a character other than a-z and _.".to_owned(),
        TypeIdError::PrefixUnderscore => "Its prefix starts or ends with _.".to_owned(),
        TypeIdError::EmptyPrefixWithSeparator => "It has a separator _ with no prefix before it.".to_owned(),
        TypeIdError::Suffix(e) => {
            format!("Its suffix is not 26 lower-case crockford symbols of a UUID: {}.", reason(e))
        }
    }
}

/// The TypeID of `id` with type `prefix` (TypeID specification v0.3.0): the
/// prefix, `_`, and the UUID's 26 crockford symbols in lower case; with an
/// empty prefix, the suffix alone.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_to_typeid(prefix: TextBytes<'_>, id: Uuid) -> String {
    match typeid::encode(prefix.0, bytes(&id)) {
        Ok(text) => text,
        Err(err) => error(
            PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
            format!("invalid TypeID prefix: \"{}\"", prefix.for_message()),
            Some(typeid_detail(err)),
            Some(PREFIX_RULE),
        ),
    }
}

fn parse_typeid<'a>(text: &TextBytes<'a>) -> (&'a str, Uuid) {
    match typeid::decode(text.0) {
        Ok((prefix, id)) => (prefix, uuid(id)),
        Err(err) => invalid_uuid_text(
            &text.for_message(),
            Some(format!("Not a TypeID. {}", typeid_detail(err))),
            (!matches!(err, TypeIdError::Suffix(_))).then_some(PREFIX_RULE),
        ),
    }
}

/// The UUID of a TypeID, whatever its prefix.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_from_typeid(t: TextBytes<'_>) -> Uuid {
    parse_typeid(&t).1
}

/// The UUID of a TypeID whose prefix must be `prefix` (22P02 otherwise).
#[pg_extern(immutable, strict, parallel_safe, name = "uuid_from_typeid")]
pub fn uuid_from_typeid_of(t: TextBytes<'_>, prefix: TextBytes<'_>) -> Uuid {
    let (got, id) = parse_typeid(&t);
    if got.as_bytes() != prefix.0 {
        invalid_uuid_text(
            &t.for_message(),
            Some(format!("The TypeID's prefix is \"{got}\", not \"{}\".", prefix.for_message())),
            None,
        )
    }
    id
}

/// The prefix of a TypeID ('' when it has none); 22P02 when it is not a TypeID.
#[pg_extern(immutable, strict, parallel_safe)]
pub fn uuid_typeid_prefix(t: TextBytes<'_>) -> String {
    parse_typeid(&t).0.to_owned()
}
