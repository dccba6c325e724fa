//! Moving a live database from uuid-ossp or pg_uuidv7 to uuid_ext: a check at
//! `CREATE EXTENSION` that names a peer extension in the way (and the way
//! out), and the `uuid_ext_migrate_from()` helper that re-points every object
//! depending on the peer's functions to uuid_ext's and drops the peer. Both
//! are SQL (`sql/peer_check.sql`, `sql/migrate.sql`); README "Migrating".

pgrx::extension_sql_file!("../sql/peer_check.sql", name = "peer_check", bootstrap);
pgrx::extension_sql_file!("../sql/migrate.sql", name = "migrate");
