//! Hand-written SQL of the install script that is not a function's definition (pgrx writes
//! those from the `#[pg_extern]`s and `extension_sql!` blocks beside the code), in the order it
//! runs: first, last, and what must follow the functions it names.

// First in CREATE EXTENSION: names uuid-ossp or pg_uuidv7 in the way, and the way out.
pgrx::extension_sql_file!("../sql/peer_check.sql", name = "peer_check", bootstrap);

// The operators and the operator class uuid_time_ops, once its functions exist.
pgrx::extension_sql_file!(
    "../sql/uuid_time_ops.sql",
    name = "uuid_time_ops",
    requires = [uuid_time_cmp, uuid_time_lt, uuid_time_le, uuid_time_ge, uuid_time_gt, uuid_time_sortsupport]
);

// Last: on PostgreSQL 17, warn when pg_catalog's uuid_extract_timestamp() (v1 only) would be
// found before uuid_ext's.
pgrx::extension_sql_file!("../sql/pg17_search_path.sql", name = "pg17_search_path", finalize);
