//! Hand-written SQL of the install script that is not a function's definition (pgrx writes
//! those from the `#[pg_extern]`s and `extension_sql!` blocks beside the code).

// Runs first in CREATE EXTENSION: names uuid-ossp or pg_uuidv7 in the way, and the way out.
pgrx::extension_sql_file!("../sql/peer_check.sql", name = "peer_check", bootstrap);
