//! The glue between the extension and PostgreSQL, which the SQL functions, the planner, the
//! trigger and the migration share: calling conventions ([`fmgr`], [`ffi`], [`boundary`]),
//! conversions and errors, guards that release what they hold, the catalog (lookups, scans,
//! uuid_ext's own objects found through the extension's membership, and [`cache`]s kept until
//! PostgreSQL invalidates them), node helpers, shared memory, and every difference between the
//! majors ([`compat`]).

pub mod boundary;
pub mod cache;
pub mod catalog_ids;
pub mod compat;
pub mod convert;
pub mod errors;
pub mod extension_objects;
pub mod ffi;
pub mod fmgr;
pub mod guards;
pub mod members;
pub mod nodes;
pub mod shmem;
pub mod syscatalog;
