#!/usr/bin/env bash
# docs/ORMS.md, run for real on every major of this run: a Django 5.2 project and a
# SQLAlchemy 2 program with Alembic (psycopg 3; pinned in orms/requirements.txt, installed from
# PyPI into target/orm-venv), as an application role that owns its database and creates uuid_ext
# itself (it is trusted). Each: keys made by the database's DEFAULT uuid_generate_v7() and read
# back by the ORM, one at a time and 1,000 in one INSERT (each key on its own object), key order
# = creation order, the time through uuid_extract_timestamp(), and a migration generated,
# applied, and generated again with nothing left to do. On 17 the database gets README's
# search_path for 17 ("PostgreSQL 17"), as its users are told to set.
set -uo pipefail
source "$(dirname "$0")/lib.bash"
HERE=$ROOT/tests/lifecycle/orms
# (In the sid chroot for 19 a virtualenv of its own: the machine's is of its Python 3.11.)
VENV=$ROOT/target/orm-venv${UUID_EXT_IN_SID:+-sid}

# docs/ORMS.md's code is the code run: its Django and SQLAlchemy blocks (between <!-- orm NAME:
# begin/end -->), blank lines aside, are runs of consecutive lines of the files here.
for pair in django:django_project/events/models.py sqlalchemy:sqlalchemy_check.py; do
    check "docs/ORMS.md's ${pair%%:*} block (5 lines or more) is, line for line, code this test runs (orms/${pair#*:})" "yes" \
        "$(python3 - "$ROOT/docs/ORMS.md" "${pair%%:*}" "$HERE/${pair#*:}" <<'PY'
import sys
doc, name, code = sys.argv[1:]
text = open(doc).read()
start, end = f"<!-- orm {name}: begin -->", f"<!-- orm {name}: end -->"
block = [l for l in text[text.index(start) + len(start):text.index(end)].splitlines()
         if l.strip() and not l.startswith("```")] if start in text and end in text else []
lines = [l for l in open(code).read().splitlines() if l.strip()]
n = len(block)
print("yes" if n >= 5 and any(lines[i:i + n] == block for i in range(len(lines) - n + 1)) else "no")
PY
)"
done

# The virtualenv, made again when the requirements change.
stamp=$(sha256sum "$HERE/requirements.txt" | cut -d' ' -f1)
if [ "$(cat "$VENV/.requirements" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$VENV"
    check_cmd "a virtualenv with orms/requirements.txt (pip, from PyPI)" \
        bash -c "python3 -m venv '$VENV' && '$VENV/bin/pip' install -q --disable-pip-version-check -r '$HERE/requirements.txt' && echo '$stamp' >'$VENV/.requirements'"
fi
[ -x "$VENV/bin/python" ] && [ -f "$VENV/.requirements" ] || exit 0

for v in "${RUN_MAJORS[@]}"; do
    up "orms-$v" "$v"
    for app in django sqlalchemy; do
        sql "$BIN" "$PORT" postgres -c "CREATE ROLE app_$app LOGIN" -c "CREATE DATABASE $app OWNER app_$app"
        setup=$("$BIN/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U "app_$app" -d "$app" \
                  -c "CREATE EXTENSION uuid_ext" \
                  -c "$([ "$v" = 17 ] && echo "ALTER DATABASE $app SET search_path = \"\$user\", public, pg_catalog" || echo "SELECT")" \
                  -c "SELECT extversion FROM pg_extension WHERE extname = 'uuid_ext'" 2>&1)
        check "PostgreSQL $v, $app: the application role creates uuid_ext in its database" \
            "$(grep -m1 '^version' "$ROOT/Cargo.toml" | cut -d'"' -f2)" "$(tail -n 1 <<<"$setup")"
    done
    export PGPORT=$PORT
    # Django writes its migration into the project: a scratch copy.
    rm -rf "$LIFECYCLE/orms-django"
    cp -r "$HERE/django_project" "$LIFECYCLE/orms-django"
    out=$(cd "$LIFECYCLE/orms-django" && PGDATABASE=django PGUSER=app_django ORM_LABEL="PostgreSQL $v, Django" \
              "$VENV/bin/python" check.py 2>&1)
    ok_lines "PostgreSQL $v, Django" $? <<<"$out"
    out=$(PGDATABASE=sqlalchemy PGUSER=app_sqlalchemy ORM_LABEL="PostgreSQL $v, SQLAlchemy" \
              "$VENV/bin/python" "$HERE/sqlalchemy_check.py" 2>&1)
    ok_lines "PostgreSQL $v, SQLAlchemy" $? <<<"$out"
    stop_cluster "$BIN" "$DATA"
done
