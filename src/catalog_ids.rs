//! Fixed OIDs of PostgreSQL's system catalogs, their indexes and built-in objects that
//! `pg_sys` does not export, under the names PostgreSQL's headers give them
//! (`catalog/*_d.h`, generated from the `.dat` files): the same on every supported major.
//! Whatever `pg_sys` exports is used from there, under the same names.
#![allow(non_upper_case_globals)]

use pgrx::pg_sys::Oid;

/// `pg_attrdef` (column defaults).
pub const AttrDefaultRelationId: Oid = Oid::from_u32(2604);
/// `pg_constraint`.
pub const ConstraintRelationId: Oid = Oid::from_u32(2606);
/// `pg_depend`.
pub const DependRelationId: Oid = Oid::from_u32(2608);
/// `pg_depend_reference_index` (refclassid, refobjid, refobjsubid).
pub const DependReferenceIndexId: Oid = Oid::from_u32(2674);
/// `pg_policy` (row-level security policies).
pub const PolicyRelationId: Oid = Oid::from_u32(3256);
/// `pg_rewrite` (rules, views' `_RETURN` among them).
pub const RewriteRelationId: Oid = Oid::from_u32(2618);

/// The OID index of each catalog whose rows the migration re-points, by catalog.
pub const OID_INDEXES: [(Oid, Oid); 7] = [
    (AttrDefaultRelationId, Oid::from_u32(2657)), // AttrDefaultOidIndexId
    (RewriteRelationId, Oid::from_u32(2692)),     // RewriteOidIndexId
    (pgrx::pg_sys::ProcedureRelationId, Oid::from_u32(2690)), // ProcedureOidIndexId
    (ConstraintRelationId, Oid::from_u32(2667)),  // ConstraintOidIndexId
    (pgrx::pg_sys::TriggerRelationId, Oid::from_u32(2702)), // TriggerOidIndexId
    (PolicyRelationId, Oid::from_u32(3257)),      // PolicyOidIndexId
    (pgrx::pg_sys::TypeRelationId, Oid::from_u32(2703)), // TypeOidIndexId
];
/// `pg_trigger_tgrelid_tgname_index` (tgrelid, tgname); tgrelid is pg_trigger's column 2.
pub const TriggerRelidNameIndexId: Oid = Oid::from_u32(2701);
/// `pg_language` row of language C.
pub const ClanguageId: Oid = Oid::from_u32(13);

/// `pg_depend`'s leading columns (`catalog/pg_depend.h`, unchanged since PostgreSQL 8.2).
pub mod pg_depend {
    use pgrx::pg_sys::Oid;

    pub const ANUM_REFCLASSID: u32 = 4;
    pub const ANUM_REFOBJID: u32 = 5;
    pub const DEPENDENCY_NORMAL: u8 = b'n';
    pub const DEPENDENCY_AUTO: u8 = b'a';
    pub const DEPENDENCY_EXTENSION: u8 = b'e';

    #[repr(C)]
    pub struct FormData {
        pub classid: Oid,
        pub objid: Oid,
        pub objsubid: i32,
        pub refclassid: Oid,
        pub refobjid: Oid,
        pub refobjsubid: i32,
        pub deptype: core::ffi::c_char,
    }
}
