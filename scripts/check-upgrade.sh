#!/usr/bin/env bash
# Compares what uuid_ext created in two databases of one server, typically a fresh
# CREATE EXTENSION and an older version brought up by ALTER EXTENSION ... UPDATE:
# every member object, and for functions, operators and operator classes every
# property a user can observe (signature, argument names and defaults, result,
# volatility, strictness, parallel safety, cost, C symbol, settings, SECURITY DEFINER,
# privileges; operator functions, commutators, negators, estimators; strategies and support
# functions).
# Prints the differences and exits 1 if there are any.
#
# Usage: scripts/check-upgrade.sh BINDIR PORT FRESH_DB UPDATED_DB
set -euo pipefail
bindir=$1 port=$2 fresh=$3 updated=$4

describe() {
    "$bindir/psql" -X -q -t -A -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d "$1" <<'SQL'
WITH members AS (
    SELECT d.classid, d.objid, d.objsubid FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
    WHERE e.extname = 'uuid_ext' AND d.deptype = 'e'
)
SELECT 'version ' || extversion FROM pg_extension WHERE extname = 'uuid_ext'
UNION ALL
SELECT 'member ' || pg_describe_object(classid, objid, objsubid) FROM members
UNION ALL
SELECT format('function %s(%s) returns %s | volatility %s strict %s parallel %s leakproof %s cost %s rows %s | %s %s:%s | support %s | set %s | security definer %s | acl %s',
              p.proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
              p.provolatile, p.proisstrict, p.proparallel, p.proleakproof, p.procost, p.prorows,
              l.lanname, p.probin, p.prosrc, p.prosupport::regproc, p.proconfig, p.prosecdef, p.proacl)
FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
JOIN pg_language l ON l.oid = p.prolang
UNION ALL
SELECT format('operator %s(%s, %s) | %s commutator %s negator %s | restrict %s join %s',
              o.oprname, o.oprleft::regtype, o.oprright::regtype, o.oprcode, o.oprcom::regoperator,
              o.oprnegate::regoperator, o.oprrest, o.oprjoin)
FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
UNION ALL
SELECT format('opclass %s for %s using %s default %s family %s', c.opcname, c.opcintype::regtype,
              a.amname, c.opcdefault, f.opfname)
FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
JOIN pg_am a ON a.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
UNION ALL
SELECT format('opfamily %s strategy %s %s', f.opfname, ao.amopstrategy, ao.amopopr::regoperator)
FROM members m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
JOIN pg_amop ao ON ao.amopfamily = f.oid
UNION ALL
SELECT format('opfamily %s support %s %s', f.opfname, ap.amprocnum, ap.amproc::regprocedure)
FROM members m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid
JOIN pg_amproc ap ON ap.amprocfamily = f.oid
ORDER BY 1;
SQL
}

if diff -u --label "fresh install ($fresh)" --label "updated ($updated)" <(describe "$fresh") <(describe "$updated"); then
    echo "catalogs of $fresh and $updated agree ($(describe "$fresh" | wc -l) lines)"
else
    exit 1
fi
