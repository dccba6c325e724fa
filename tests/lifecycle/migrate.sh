#!/usr/bin/env bash
# Migrating a live database from uuid-ossp and from pg_uuidv7 to uuid_ext, on every major of
# this run, with README's procedure run verbatim (twice: it must be safe to repeat). The
# databases use the old extensions the ways real ones do: column defaults, a domain default
# and CHECK, table CHECK constraints, views (one with options, one on top of another), a
# SQL-standard function body, a string-bodied SQL function, a trigger WHEN clause and a
# row-level security policy. Afterwards: the old extension is gone, nothing depends on
# anything but uuid_ext, no default was dropped, no table was rewritten (same relfilenode),
# the data is unchanged and every object works. pg_uuidv7 is not packaged in any registry
# these machines reach, so a stand-in with its function signatures is used
# (fixtures/pg_uuidv7--1.6.sql says what it is).
set -uo pipefail
source "$(dirname "$0")/lib.bash"
FIXTURES=$(cd "$(dirname "$0")/fixtures" && pwd)

# The procedure from README "Migrating", for extension $1.
procedure() {
    cat <<SQL
BEGIN;
CREATE SCHEMA IF NOT EXISTS uuid_ext_retired;
DO \$\$ BEGIN
    IF EXISTS (SELECT FROM pg_extension WHERE extname = '$1') THEN
        ALTER EXTENSION "$1" SET SCHEMA uuid_ext_retired;
    END IF;
END \$\$;
CREATE EXTENSION IF NOT EXISTS uuid_ext;
ALTER EXTENSION uuid_ext UPDATE;   -- an older uuid_ext's helper must not be the one that runs
SELECT * FROM uuid_ext_migrate_from('$1');
DROP SCHEMA uuid_ext_retired;
COMMIT;
SQL
}

# What the old database looks like: the same queries before and after the migration.
fingerprint="SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM (
    SELECT a::text AS t FROM acct a UNION ALL SELECT v::text FROM acct_view v
    UNION ALL SELECT v::text FROM acct_view_2 v UNION ALL SELECT d::text FROM tagged d) s"
relfilenodes="SELECT string_agg(relname || ':' || relfilenode, ',' ORDER BY relname) FROM pg_class
    WHERE relname IN ('acct', 'tagged', 'acct_pkey') "
# Objects depending on a function of an extension other than uuid_ext.
foreign_deps="SELECT count(*) FROM pg_depend d
    JOIN pg_depend x ON x.classid = 'pg_proc'::regclass AND x.objid = d.refobjid AND x.deptype = 'e'
    JOIN pg_extension e ON e.oid = x.refobjid AND e.extname NOT IN ('uuid_ext', 'plpgsql')
    WHERE d.refclassid = 'pg_proc'::regclass AND d.deptype = 'n'"

for v in "${RUN_MAJORS[@]}"; do
    ext_dir=$("$(pg_config_for "$v")" --sharedir)/extension
    cp "$FIXTURES/pg_uuidv7.control" "$FIXTURES/pg_uuidv7--1.6.sql" "$ext_dir/"
    up "migrate-$v" "$v"
    for old in uuid-ossp pg_uuidv7; do
        db="from_${old//-/_}"
        case $old in
            uuid-ossp) gen="uuid_generate_v4()" derived="uuid_generate_v5(uuid_ns_dns(), id::text)" nil="uuid_nil()" ;;
            pg_uuidv7) gen="uuid_generate_v7()" derived="uuid_v7_to_timestamptz(id)" nil="uuid_timestamptz_to_v7('1970-01-01 00:00:00+00', true)" ;;
        esac
        sql "$BIN" "$PORT" postgres -c "CREATE DATABASE $db"
        sql "$BIN" "$PORT" "$db" <<SQL
CREATE EXTENSION "$old";
CREATE DOMAIN tag_id AS uuid DEFAULT $gen CHECK (VALUE <> $nil);
CREATE TABLE acct (id uuid PRIMARY KEY DEFAULT $gen, name text NOT NULL, CHECK (id <> $nil));
CREATE TABLE tagged (tag tag_id, note text);
CREATE VIEW acct_view WITH (security_barrier) AS SELECT id, name, $derived AS derived FROM acct;
CREATE VIEW acct_view_2 AS SELECT id, derived FROM acct_view;
CREATE FUNCTION new_acct_id() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT $gen; END;
CREATE FUNCTION new_acct_id_string() RETURNS uuid LANGUAGE sql AS 'SELECT $gen';
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN RETURN NEW; END \$\$;
CREATE TRIGGER acct_touch BEFORE UPDATE ON acct FOR EACH ROW WHEN (NEW.id <> $nil) EXECUTE FUNCTION touch();
ALTER TABLE acct ENABLE ROW LEVEL SECURITY;
CREATE POLICY acct_not_nil ON acct USING (id <> $nil);
INSERT INTO acct (name) SELECT 'user ' || i FROM generate_series(1, 200) i;
INSERT INTO tagged (note) SELECT 'note ' || i FROM generate_series(1, 50) i;
SQL
        before=$(sql "$BIN" "$PORT" "$db" -c "$fingerprint")
        files_before=$(sql "$BIN" "$PORT" "$db" -c "$relfilenodes")
        defaults_before=$(sql "$BIN" "$PORT" "$db" -c "SELECT count(*) FROM pg_attrdef")
        name="PostgreSQL $v, from $old"
        check "$name: the old extension is in use" "t" \
            "$(sql "$BIN" "$PORT" "$db" -c "SELECT ($foreign_deps) >= 8")"
        check "$name: CREATE EXTENSION names the way out while $old is in the way" "1" \
            "$(sql "$BIN" "$PORT" "$db" -c "CREATE EXTENSION uuid_ext" 2>&1 | grep -c "^HINT: .*uuid_ext_migrate_from('$old')")"
        check_cmd "$name: the procedure runs" sql "$BIN" "$PORT" "$db" -c "$(procedure "$old")"
        check_cmd "$name: and runs again, changing nothing" sql "$BIN" "$PORT" "$db" -c "$(procedure "$old")"
        check "$name: the old extension is gone, uuid_ext is here" "uuid_ext" \
            "$(sql "$BIN" "$PORT" "$db" -c "SELECT string_agg(extname, ',') FROM pg_extension WHERE extname <> 'plpgsql'")"
        check "$name: nothing depends on functions outside uuid_ext" "0" "$(sql "$BIN" "$PORT" "$db" -c "$foreign_deps")"
        check "$name: no default dropped" "$defaults_before" "$(sql "$BIN" "$PORT" "$db" -c "SELECT count(*) FROM pg_attrdef")"
        check "$name: no table rewritten" "$files_before" "$(sql "$BIN" "$PORT" "$db" -c "$relfilenodes")"
        check "$name: data and views unchanged" "$before" "$(sql "$BIN" "$PORT" "$db" -c "$fingerprint")"
        check "$name: the view kept its options" "{security_barrier=true}" \
            "$(sql "$BIN" "$PORT" "$db" -c "SELECT reloptions FROM pg_class WHERE relname = 'acct_view'")"
        check "$name: defaults, domain, functions, trigger and policy work on uuid_ext" "t|t|t|t|1" \
            "$(sql "$BIN" "$PORT" "$db" -c "INSERT INTO acct (name) VALUES ('new')" \
                 -c "INSERT INTO tagged (note) VALUES ('new')" \
                 -c "UPDATE acct SET name = 'renamed' WHERE name = 'new'" \
                 -c "SELECT (SELECT id FROM acct WHERE name = 'renamed') IS NOT NULL,
                            (SELECT tag FROM tagged WHERE note = 'new') IS NOT NULL,
                            new_acct_id() <> new_acct_id(), new_acct_id_string() IS NOT NULL,
                            (SELECT count(*) FROM acct_view_2 WHERE id = (SELECT id FROM acct WHERE name = 'renamed'))")"
        check "$name: the retired schema is gone" "0" \
            "$(sql "$BIN" "$PORT" "$db" -c "SELECT count(*) FROM pg_namespace WHERE nspname = 'uuid_ext_retired'")"
    done

    # What cannot be re-pointed in place stops the helper before anything changes.
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE blocked"
    sql "$BIN" "$PORT" blocked <<'SQL'
CREATE EXTENSION "uuid-ossp";
CREATE TABLE names (name text, id uuid GENERATED ALWAYS AS (uuid_generate_v5(uuid_ns_dns(), name)) STORED,
                    other uuid DEFAULT uuid_generate_v4());
SQL
    out=$(sql "$BIN" "$PORT" blocked -c "$(procedure uuid-ossp)" 2>&1)
    check "PostgreSQL $v: a stored generated column stops the migration, naming it" "1" \
        "$(echo "$out" | grep -c 'cannot re-point these objects.*: stored generated column id of table public.names$')"
    check "PostgreSQL $v: ... and nothing changed" "uuid-ossp|public|0" \
        "$(sql "$BIN" "$PORT" blocked -c "SELECT e.extname, n.nspname, (SELECT count(*) FROM pg_extension WHERE extname = 'uuid_ext')
                                          FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uuid-ossp'")"
    stop_cluster "$BIN" "$DATA"
    rm -f "$ext_dir/pg_uuidv7.control" "$ext_dir/pg_uuidv7--1.6.sql"
done
