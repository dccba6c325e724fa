-- uuid_time_ops: a btree operator class ordering UUIDs by the time inside them.
-- Operator names end in "|" so that ORDER BY ... USING cannot resolve them for
-- another type (PostgreSQL's own ~<~ also exists for text; no core operator
-- is spelled <|, <=|, >=| or >|). Core objects are qualified with pg_catalog: a trusted install
-- runs this with the installer's schema first in search_path (see sql/peer_check.sql).

CREATE OPERATOR <| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_lt,
    COMMUTATOR = >|, NEGATOR = >=|, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <=| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_le,
    COMMUTATOR = >=|, NEGATOR = >|, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR >=| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_ge,
    COMMUTATOR = <=|, NEGATOR = <|, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR >| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_gt,
    COMMUTATOR = <|, NEGATOR = <=|, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);

CREATE OPERATOR FAMILY uuid_time_ops USING btree;

-- Equality is uuid's own "=": the order distinguishes exactly what "=" does,
-- so UNIQUE constraints, merge joins and deduplication (btequalimage) stay correct.
CREATE OPERATOR CLASS uuid_time_ops FOR TYPE uuid USING btree FAMILY uuid_time_ops AS
    OPERATOR 1 <|,
    OPERATOR 2 <=|,
    OPERATOR 3 pg_catalog.= (uuid, uuid),
    OPERATOR 4 >=|,
    OPERATOR 5 >|,
    FUNCTION 1 uuid_time_cmp(uuid, uuid),
    FUNCTION 2 uuid_time_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);
