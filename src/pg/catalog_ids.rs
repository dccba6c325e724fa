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
/// `SQLlanguageId`: LANGUAGE sql, whose functions the planner may inline.
pub const SQLlanguageId: Oid = Oid::from_u32(14);

/// `pg_depend`'s leading columns (`catalog/pg_depend.h`, unchanged since PostgreSQL 8.2).
pub mod pg_depend {
    use pgrx::pg_sys::Oid;

    pub const ANUM_REFCLASSID: u32 = 4;
    pub const ANUM_REFOBJID: u32 = 5;
    pub const DEPENDENCY_NORMAL: u8 = b'n';
    pub const DEPENDENCY_AUTO: u8 = b'a';
    pub const DEPENDENCY_EXTENSION: u8 = b'e';
    /// `ALTER … DEPENDS ON EXTENSION`: dropped with the extension, without CASCADE.
    pub const DEPENDENCY_AUTO_EXTENSION: u8 = b'x';

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

/// Operators of `pg_operator.dat`, operator families of `pg_opfamily.dat` and btree strategy
/// numbers (`access/stratnum.h`) that the planner hook recognises or uses.
pub mod operators {
    pub const TIMESTAMPTZ_EQ: u32 = 1320;
    pub const TIMESTAMPTZ_LT: u32 = 1322;
    pub const TIMESTAMPTZ_LE: u32 = 1323;
    pub const TIMESTAMPTZ_GT: u32 = 1324;
    pub const TIMESTAMPTZ_GE: u32 = 1325;
    /// The integer equality operators: an "=" found by OID cannot be a user's operator of that
    /// name.
    pub const INT2_EQ: u32 = 94;
    pub const INT4_EQ: u32 = 96;
    pub const INT8_EQ: u32 = 410;
    pub const INT24_EQ: u32 = 532;
    pub const INT42_EQ: u32 = 533;
    pub const INT28_EQ: u32 = 1862;
    pub const INT82_EQ: u32 = 1868;
    pub const INT48_EQ: u32 = 15;
    pub const INT84_EQ: u32 = 416;
    /// btree `datetime_ops` (date, timestamp, timestamptz): the family of a sort by a time.
    pub const DATETIME_BTREE_FAMILY: u32 = 434;
    /// btree `uuid_ops`: byte order.
    pub const UUID_BTREE_FAMILY: u32 = 2968;
    /// BRIN `uuid_minmax_ops` and `uuid_minmax_multi_ops`: byte order, by block ranges.
    pub const UUID_MINMAX_FAMILY: u32 = 4081;
    pub const UUID_MINMAX_MULTI_FAMILY: u32 = 4614;
    pub const BT_LESS: i16 = 1;
    pub const BT_GREATER_EQUAL: i16 = 4;
}
