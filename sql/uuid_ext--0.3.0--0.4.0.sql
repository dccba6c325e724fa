-- uuid_ext 0.3.0 -> 0.4.0: short text forms of a UUID (uuid_encode/uuid_decode: hex, base32hex,
-- base64url, crockford) and TypeID (uuid_to_typeid, uuid_from_typeid, uuid_typeid_prefix);
-- uuid_is_v7(), the CHECK that proves a key holds RFC 9562 v7 values only.
-- New functions only; nothing existing changes.
CREATE FUNCTION "uuid_encode"("id" uuid, "format" text) RETURNS text
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_encode_wrapper';
CREATE FUNCTION "uuid_decode"("t" text, "format" text) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_decode_wrapper';
CREATE FUNCTION "uuid_to_typeid"("prefix" text, "id" uuid) RETURNS text
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_to_typeid_wrapper';
CREATE FUNCTION "uuid_from_typeid"("t" text) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_from_typeid_wrapper';
CREATE FUNCTION "uuid_from_typeid"("t" text, "prefix" text) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_from_typeid_of_wrapper';
CREATE FUNCTION "uuid_typeid_prefix"("t" text) RETURNS text
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_typeid_prefix_wrapper';
CREATE FUNCTION "uuid_is_v7"("uuid" uuid) RETURNS boolean
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_is_v7_wrapper';
