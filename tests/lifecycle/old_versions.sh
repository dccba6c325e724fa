#!/usr/bin/env bash
# Every version a role can reach is as safe as the newest (docs/SECURITY.md, row 14 and "Fixed
# in 0.5.1"). On every major of this run, the extension directory first holds the install script
# of every earlier release (tests/lifecycle/fixtures/released, made by scripts/released_sql.sh),
# as a server that installed each release in turn; an ordinary role with CREATE on a database
# makes databases at the releases it can, and this build is then installed over them (which puts
# scripts that refuse in place of the old ones). The role then tries every version PostgreSQL
# lists, directly (also with uuid-ossp and a look-alike of what old peer checks called in the
# target schema) and by updating its older databases, and plants the traps of docs/SECURITY.md's
# attacker: a CHECK, a default, a view and a trigger's WHEN that call its function, which makes
# it superuser when run with a superuser's rights. A superuser then runs what the README tells
# a DBA to run: the helper the database has (the issue's repro: without updating first), ALTER
# EXTENSION … UPDATE, and a dump restored schema-first. The role is never superuser, no trap ran
# as anyone but the role, and every function of uuid_ext is this library's C code with the
# signature the current version gives it.
set -uo pipefail
source "$(dirname "$0")/lib.bash"
NEW=$(crate_version)
FIXTURES=$ROOT/tests/lifecycle/fixtures/released

# The attacker's schema, traps and data, in the current database; uuid-ossp in schema ossp.
PLANT=$(cat <<'SQL'
CREATE SCHEMA a;
CREATE TABLE a.ran (who text);
GRANT USAGE ON SCHEMA a TO PUBLIC;
GRANT INSERT ON a.ran TO PUBLIC;
CREATE FUNCTION a.evil(uuid) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO a.ran VALUES (current_user);
    -- (not is_superuser: that setting is the session's, and stays on while a superuser's
    -- command runs this as the owner, where ALTER ROLE would then fail)
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN EXECUTE 'ALTER ROLE atk SUPERUSER'; END IF;
    RETURN true;
END $$;
CREATE FUNCTION a.noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TABLE a.t (id uuid DEFAULT ossp.uuid_generate_v4(),
                  d uuid DEFAULT CASE WHEN a.evil(NULL) THEN ossp.uuid_generate_v1() END,
                  CONSTRAINT c CHECK (a.evil(id) AND id <> ossp.uuid_nil()));
CREATE TRIGGER tr BEFORE UPDATE ON a.t FOR EACH ROW
    WHEN (a.evil(NEW.id) AND NEW.id <> ossp.uuid_nil()) EXECUTE FUNCTION a.noop();
CREATE VIEW a.v AS SELECT a.evil(ossp.uuid_nil()) AS e;
INSERT INTO a.t DEFAULT VALUES;
SQL
)

# verdict MAJOR LABEL DB: the checks after a superuser ran the helper, updated, dumped and restored.
verdict() {
    local v=$1 label=$2 db=$3 out
    check "PostgreSQL $v: $label: the role is not superuser" "f" \
        "$(sql "$BIN" "$PORT" postgres -c "SELECT rolsuper FROM pg_roles WHERE rolname = 'atk'")"
    check "PostgreSQL $v: $label: no trap ran as another role" "0" \
        "$(sql "$BIN" "$PORT" "$db" -c "SELECT count(*) FROM a.ran WHERE who <> 'atk'" 2>&1)"
    out=$(sql "$BIN" "$PORT" "$db" -c "
        SELECT count(*) FILTER (WHERE NOT (l.lanname = 'c' AND p.probin = '\$libdir/uuid_ext')), count(*)
        FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
        JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
        JOIN pg_language l ON l.oid = p.prolang
        WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'" 2>&1)
    # Every function is C (0 others), and there are some: the extension is there.
    check "PostgreSQL $v: $label: every function of uuid_ext is this library's C code" "0" \
        "$([[ $out =~ ^0\|[1-9][0-9]*$ ]] && echo 0 || echo "$out")"
    # Each C symbol with the signature this version gives it: an old declaration of a symbol
    # with other arguments, result or strictness would call this library's code with
    # arguments it does not expect.
    local mine theirs
    mine=$(signatures "$db" | sort -u)
    theirs=$(signatures fresh | sort -u)
    if [ -z "$mine" ] || [ -z "$theirs" ]; then
        echo "not ok - PostgreSQL $v: $label: every C symbol declared as the current version declares it (no signatures read)"
    else
        check_empty "PostgreSQL $v: $label: every C symbol declared as the current version declares it" \
            "$(comm -23 <(echo "$mine") <(echo "$theirs"))"
    fi    # Each case on its own: a role made superuser by one is not counted again by the next.
    sql "$BIN" "$PORT" postgres -c "ALTER ROLE atk NOSUPERUSER"
}

# signatures DB: symbol, argument types, result, strictness of uuid_ext's C functions in DB.
signatures() {
    sql "$BIN" "$PORT" "$1" -c "
        SELECT p.prosrc || '(' || oidvectortypes(p.proargtypes) || ') ' || pg_get_function_result(p.oid)
               || CASE WHEN p.proisstrict THEN ' strict' ELSE '' END
        FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'uuid_ext'
        JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
        WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND p.prolang = 13" 2>&1
}

# attack MAJOR LABEL DB: a superuser runs the database's helper, updates, dumps and restores.
attack() {
    local v=$1 label=$2 db=$3 out
    # The issue's repro: the helper the database has, run as it is (0.1.0 has none).
    if [ "$(sql "$BIN" "$PORT" "$db" -c "SELECT count(*) FROM pg_proc WHERE oid = to_regprocedure('u.uuid_ext_migrate_from(name)')")" = 0 ]; then
        check "PostgreSQL $v: $label: no migration helper, only at 0.1.0" "0.1.0" \
            "$(sql "$BIN" "$PORT" "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'")"
    else
        out=$(sql "$BIN" "$PORT" "$db" -c "SELECT * FROM u.uuid_ext_migrate_from('uuid-ossp')" 2>&1)
        check "PostgreSQL $v: $label: a superuser's migration re-pointed the attacker's objects" "0" \
            "$(sql "$BIN" "$PORT" "$db" -c "SELECT count(*) FROM pg_extension WHERE extname = 'uuid-ossp'" 2>&1 || echo "$out")"
    fi
    check_cmd "PostgreSQL $v: $label: ALTER EXTENSION uuid_ext UPDATE" \
        sql "$BIN" "$PORT" "$db" -c "ALTER EXTENSION uuid_ext UPDATE"
    check "PostgreSQL $v: $label: updated to $NEW" "$NEW" \
        "$(sql "$BIN" "$PORT" "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'" 2>&1)"
    # Restored schema first, as a superuser: data would run the attacker's CHECK as the
    # restoring role in any PostgreSQL, with or without uuid_ext (pg_restore --role for that).
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE ${db}_restored" >/dev/null
    check_cmd "PostgreSQL $v: $label: pg_dump | pg_restore (schema) as a superuser" \
        bash -c "'$BIN/pg_dump' -h 127.0.0.1 -p $PORT -U postgres -Fc --schema-only '$db' \
                 | '$BIN/pg_restore' -h 127.0.0.1 -p $PORT -U postgres --exit-on-error -d '${db}_restored'"
    verdict "$v" "$label" "$db"
}

# plant_peer: as atk, uuid-ossp in schema u (where uuid_ext is then created, so that a peer check
# runs) and a look-alike of quote_ident(name) there, which 0.2.0's and 0.3.0's peer check called
# unqualified; it records who ran it and makes atk superuser when that was a superuser.
PLANT_PEER=$(cat <<'SQL'
CREATE SCHEMA a;
CREATE TABLE a.ran (who text);
GRANT USAGE ON SCHEMA a TO PUBLIC;
GRANT INSERT ON a.ran TO PUBLIC;
CREATE EXTENSION "uuid-ossp" SCHEMA u;
CREATE FUNCTION u.quote_ident(name) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    -- (a warning reaches the client even when the script then fails and rolls back)
    RAISE WARNING 'look-alike ran as %', current_user;
    INSERT INTO a.ran VALUES (current_user);
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN EXECUTE 'ALTER ROLE atk SUPERUSER'; END IF;
    RETURN $1::text;
END $$;
SQL
)

for v in "${RUN_MAJORS[@]}"; do
    extdir=$("$(pg_config_for "$v")" --sharedir)/extension
    # This build, then every earlier release's own install script over it: a server where the
    # releases were installed in turn, as the databases made then saw it.
    if ! install_debug "$v" "$LIFECYCLE/old-versions-install-$v.log"; then
        echo "not ok - PostgreSQL $v: install $NEW"; continue
    fi
    install -m 644 "$FIXTURES"/uuid_ext--*.sql "$extdir/"
    up "old-versions-$v" "$v"
    sql "$BIN" "$PORT" postgres -c "CREATE ROLE atk LOGIN"
    sql "$BIN" "$PORT" postgres -c "CREATE DATABASE fresh"
    sql "$BIN" "$PORT" fresh -c "CREATE EXTENSION uuid_ext"
    read -r -a versions <<<"$(sql "$BIN" "$PORT" postgres -c \
        "SELECT string_agg(version, ' ' ORDER BY string_to_array(version, '.')::int[]) FROM pg_available_extension_versions WHERE name = 'uuid_ext'")"
    check "PostgreSQL $v: every release's version is listed" "0.1.0 0.2.0 0.3.0 0.4.0 0.4.1 0.5.0 0.5.1 $NEW" "${versions[*]}"

    # new_db NAME [bare]: a database where atk may create schemas, with its schema u; unless
    # bare, atk has uuid-ossp in schema ossp.
    new_db() {
        sql "$BIN" "$PORT" postgres -c "CREATE DATABASE $1" -c "GRANT CREATE ON DATABASE $1 TO atk" >/dev/null
        PGUSER=atk "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -d "$1" -c 'CREATE SCHEMA u' >/dev/null
        [ "${2-}" = bare ] || PGUSER=atk "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -d "$1" \
            -c 'CREATE SCHEMA ossp' -c 'CREATE EXTENSION "uuid-ossp" SCHEMA ossp' >/dev/null
    }
    # as_atk DB SQL: runs SQL as atk; prints the SQLSTATE of a failure, or "ok".
    as_atk() {
        local err
        err=$(PGUSER=atk "$BIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -h 127.0.0.1 -p "$PORT" \
              -d "$1" -c "$2" 2>&1 >/dev/null) && { echo ok; return; }
        sqlstate <<<"$err" | grep . || echo "failed: $err"
    }

    # Databases the role made then, at each release whose script the library lets run (0.2.0's
    # to 0.4.0's create the PL/pgSQL helper: refused, as the direct attempts below show again),
    # one for each later version it will update to.
    updates=()
    i=0
    for from in 0.1.0 0.4.1 0.5.0 0.5.1; do
        later=0
        for x in "${versions[@]}"; do
            if [ "$x" = "$from" ]; then later=1; continue; fi
            [ "$later" = 1 ] || continue
            i=$((i + 1))
            new_db "updated_$i"
            check "PostgreSQL $v: before this release: CREATE EXTENSION uuid_ext VERSION '$from' by an ordinary role, from its own script" \
                "ok" "$(as_atk "updated_$i" "CREATE EXTENSION uuid_ext SCHEMA u VERSION '$from'")"
            updates+=("updated_$i $from $x")
        done
    done
    # One more at 0.1.0, to which the role adds its own functions under the names later versions
    # create (the helper, and on 17 and 18 the extractor 0.1.0 left to core there).
    new_db added
    as_atk added "CREATE EXTENSION uuid_ext SCHEMA u VERSION '0.1.0'" >/dev/null
    for f in "uuid_ext_migrate_from(old_extension name) RETURNS SETOF text" "uuid_extract_timestamp(\"uuid\" uuid) RETURNS timestamptz"; do
        as_atk added "CREATE FUNCTION u.$f LANGUAGE sql AS 'SELECT NULL'" >/dev/null \
            && as_atk added "ALTER EXTENSION uuid_ext ADD FUNCTION u.${f%% RETURNS*}" >/dev/null
    done
    # And one at 0.5.1 with only 0.6.0's uuid_to_bytea added.
    new_db added_051 bare
    as_atk added_051 "CREATE EXTENSION uuid_ext SCHEMA u VERSION '0.5.1'" >/dev/null
    as_atk added_051 "CREATE FUNCTION u.uuid_to_bytea(id uuid) RETURNS bytea LANGUAGE sql AS 'SELECT NULL::bytea'" >/dev/null
    as_atk added_051 "ALTER EXTENSION uuid_ext ADD FUNCTION u.uuid_to_bytea(uuid)" >/dev/null
    for x in 0.2.0 0.3.0 0.4.0; do
        new_db "then_${x//./_}"
        check "PostgreSQL $v: before this release: CREATE EXTENSION uuid_ext VERSION '$x' from its own script: refused by the library (0A000)" \
            "0A000" "$(as_atk "then_${x//./_}" "CREATE EXTENSION uuid_ext SCHEMA u VERSION '$x'")"
    done

    # This release installed over them, as a DBA does: in place of each earlier release's install
    # script, one that refuses.
    if ! install_debug "$v" "$LIFECYCLE/old-versions-install-$v.log"; then
        echo "not ok - PostgreSQL $v: install $NEW over the earlier releases"; continue
    fi
    check "PostgreSQL $v: no earlier release's own install script is left (all but $NEW's refuse)" "uuid_ext--$NEW.sql" \
        "$(cd "$extdir" && grep -L 'can no longer be installed' uuid_ext--?.?.?.sql)"

    # Every version listed, directly: only this one installs. The others are refused without
    # running anything of the role's, also with uuid-ossp in the target schema and a look-alike of
    # what 0.2.0's and 0.3.0's peer check called there.
    i=0
    for x in "${versions[@]}"; do
        i=$((i + 1))
        new_db "peer_$i" bare
        PGUSER=atk "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -d "peer_$i" <<<"$PLANT_PEER" >/dev/null
        out=$(PGUSER=atk "$BIN/psql" -X -q -v VERBOSITY=verbose -h 127.0.0.1 -p "$PORT" -d "peer_$i" \
              -c "CREATE EXTENSION uuid_ext SCHEMA u VERSION '$x'" 2>&1)
        check "PostgreSQL $v: CREATE EXTENSION uuid_ext VERSION '$x' with uuid-ossp and a look-alike quote_ident(name) in the schema: $([ "$x" = "$NEW" ] && echo "the peer check's 42723" || echo "refused, 0A000"), no look-alike run, not superuser" \
            "$([ "$x" = "$NEW" ] && echo 42723 || echo 0A000)|0|f" \
            "$(sqlstate <<<"$out")|$(grep -c 'look-alike ran' <<<"$out")|$(sql "$BIN" "$PORT" postgres -c "SELECT rolsuper FROM pg_roles WHERE rolname = 'atk'")"
        sql "$BIN" "$PORT" postgres -c "ALTER ROLE atk NOSUPERUSER"

        db=direct_$i
        new_db "$db"
        outcome=$(as_atk "$db" "CREATE EXTENSION uuid_ext SCHEMA u VERSION '$x'")
        if [ "$x" != "$NEW" ]; then
            check "PostgreSQL $v: CREATE EXTENSION uuid_ext VERSION '$x' by an ordinary role: refused (0A000)" "0A000" "$outcome"
            [ "$outcome" = ok ] || continue
        else
            check "PostgreSQL $v: CREATE EXTENSION uuid_ext VERSION '$x' by an ordinary role" "ok" "$outcome"
        fi
        PGUSER=atk "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -d "$db" <<<"$PLANT" >/dev/null
        attack "$v" "created at $x" "$db"
    done

    # The functions the role added stop the update (they would stay the role's, members it may
    # change: CALLED ON NULL INPUT on C code, or another language), by its owner and by a
    # superuser; no C member is the role's afterwards. refused_for DB: "refused|refused|N", N the
    # C members of uuid_ext the role owns.
    refused_for() {
        echo "$(as_atk "$1" "ALTER EXTENSION uuid_ext UPDATE" | grep -qxE '0A000|42723' && echo refused)|$(
            sql "$BIN" "$PORT" "$1" -c "ALTER EXTENSION uuid_ext UPDATE" >/dev/null 2>&1 || echo refused)|$(
            sql "$BIN" "$PORT" "$1" -c "
            SELECT count(*) FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
            WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuid_ext')
              AND d.deptype = 'e' AND p.proowner = 'atk'::regrole AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')")"
    }
    check "PostgreSQL $v: ALTER EXTENSION uuid_ext UPDATE where the owner added functions of the names it creates: refused, by the owner and by a superuser; no C member is the role's" \
        "refused|refused|0" "$(refused_for added)"
    # The same at 0.5.1 (made above), with only 0.6.0's uuid_to_bytea added: the last update
    # script alone meets it.
    check "PostgreSQL $v: at 0.5.1 with the owner's uuid_to_bytea added: the same" "refused|refused|0" "$(refused_for added_051)"

    # Each database made before: its owner, the role, updates it to a later version; a superuser
    # runs the helper it then has, updates and restores it.
    for u in "${updates[@]}"; do
        read -r db from x <<<"$u"
        check "PostgreSQL $v: ALTER EXTENSION uuid_ext UPDATE TO '$x' from $from by its owner, an ordinary role" "ok" \
            "$(as_atk "$db" "ALTER EXTENSION uuid_ext UPDATE TO '$x'")"
        PGUSER=atk "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -d "$db" <<<"$PLANT" >/dev/null
        attack "$v" "$from updated to $x" "$db"
    done
    stop_cluster "$BIN" "$DATA"
done
