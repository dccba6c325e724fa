//! What users call: every SQL function of uuid_ext (`#[pg_extern]`, or plain C functions through
//! [`crate::pg::fmgr`]'s macros), over the core crate, and the `uuid_ext.*` settings.

pub mod bounds;
pub mod forms;
pub mod generate;
pub mod gucs;
pub mod inspect;
pub mod opclass;
pub mod public_ids;
