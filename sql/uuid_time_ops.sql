-- uuid_time_ops: a btree operator class ordering UUIDs by the time inside them.
-- Operator names end in "|" so that ORDER BY ... USING cannot resolve them for
-- another type (PostgreSQL's own ~<~ also exists for text; no core operator
-- is spelled <|, <=|, >=| or >|).

CREATE OPERATOR <| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_lt,
    COMMUTATOR = >|, NEGATOR = >=|, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <=| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_le,
    COMMUTATOR = >=|, NEGATOR = >|, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR >=| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_ge,
    COMMUTATOR = <=|, NEGATOR = <|, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
CREATE OPERATOR >| (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_gt,
    COMMUTATOR = <|, NEGATOR = <=|, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);

CREATE OPERATOR FAMILY uuid_time_ops USING btree;

-- Equality is uuid's own "=": the order distinguishes exactly what "=" does,
-- so UNIQUE constraints, merge joins and deduplication (btequalimage) stay correct.
CREATE OPERATOR CLASS uuid_time_ops FOR TYPE uuid USING btree FAMILY uuid_time_ops AS
    OPERATOR 1 <|,
    OPERATOR 2 <=|,
    OPERATOR 3 = (uuid, uuid),
    OPERATOR 4 >=|,
    OPERATOR 5 >|,
    FUNCTION 1 uuid_time_cmp(uuid, uuid),
    FUNCTION 2 uuid_time_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
