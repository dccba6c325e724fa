-- uuid_ext 0.4.1 -> 0.5.0: public IDs that do not tell when (README, "Public IDs";
-- docs/SECURITY.md, "Public IDs"). A v7 key's public face, which looks like a random v4, and
-- back, with uuidv47's construction: with the server's key (uuid_ext.public_id_key_file, a
-- superuser's setting; EXECUTE is not granted to PUBLIC) or with a key given as an argument.
CREATE FUNCTION "uuid_v7_to_public"("id" uuid) RETURNS uuid
STABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_to_public_wrapper';
REVOKE EXECUTE ON FUNCTION "uuid_v7_to_public"(uuid) FROM PUBLIC;

CREATE FUNCTION "uuid_v7_from_public"("face" uuid) RETURNS uuid
STABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_from_public_wrapper';
REVOKE EXECUTE ON FUNCTION "uuid_v7_from_public"(uuid) FROM PUBLIC;

CREATE FUNCTION "uuid_v7_from_public_all"("face" uuid) RETURNS uuid[]
STRICT STABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_from_public_all_wrapper';
REVOKE EXECUTE ON FUNCTION "uuid_v7_from_public_all"(uuid) FROM PUBLIC;

CREATE FUNCTION "uuid_v7_to_public"("id" uuid, "key" bytea) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_to_public_with_wrapper';

CREATE FUNCTION "uuid_v7_from_public"("face" uuid, "key" bytea) RETURNS uuid
IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'uuid_v7_from_public_with_wrapper';
