#!/usr/bin/env python3
"""SQL-level benchmarks of uuid_ext against its peers, side by side in one run.

Run through scripts/bench.sh, which installs a release build into PostgreSQL
15 and 18 and starts one throwaway cluster per version. This script gets the
clusters' (version, bindir, port) on the command line and writes
docs/BENCHMARKS.md and docs/bench-per-call.svg.

Everything measured here is measured in the same run, interleaved, so ratios
compare like with like. Absolute numbers depend on the machine.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import time

N = int(os.environ.get("BENCH_ROWS", "1000000"))        # rows per per-call query
RUNS = int(os.environ.get("BENCH_RUNS", "11"))           # runs per query (median)
INSERT_ROWS = int(os.environ.get("BENCH_INSERT_ROWS", "2000000"))
EDITION_LOAD_ROWS = int(os.environ.get("BENCH_EDITION_LOAD_ROWS", "1000000"))  # the edition's bulk load
INDEX_ROWS = int(os.environ.get("BENCH_INDEX_ROWS", "2000000"))
WINDOW_ROWS = int(os.environ.get("BENCH_WINDOW_ROWS", "10000000"))  # v7 keys over 30 days
PLANNING_SECONDS = int(os.environ.get("BENCH_PLANNING_SECONDS", "5"))
FORMS_ROWS = int(os.environ.get("BENCH_FORMS_ROWS", "1000000"))
PLPGSQL_ROWS = int(os.environ.get("BENCH_PLPGSQL_ROWS", "20000"))
# BENCH_SECTIONS=forms (or windows, or edition) re-measures only the text forms (or the time
# windows, or the SQL edition) and rewrites only that section of docs/BENCHMARKS.md (between its
# markers) — also public (public IDs); BENCH_SECTIONS=per_call
# prints the per-call costs and writes nothing; BENCH_SECTIONS=newest measures the generators and
# the time windows on every cluster given (bench.sh in the sid chroot: 18 and 19) and writes them
# side by side in their own section (the full run keeps that section as it is); the default
# measures everything.
SECTIONS = os.environ.get("BENCH_SECTIONS", "all")
FORMS_BEGIN, FORMS_END = "<!-- text forms: begin -->", "<!-- text forms: end -->"
NEWEST_BEGIN, NEWEST_END = "<!-- newest major: begin -->", "<!-- newest major: end -->"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def psql(bindir, port, db, sql):
    out = subprocess.run(
        [f"{bindir}/psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
         "-p", str(port), "-U", "postgres", "-d", db],
        input=sql, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"psql failed: {out.stderr}\n{sql}")
    return out.stdout.strip()


def timed(bindir, port, db, setup, statement):
    """Seconds the server reports (psql's \\timing) for `statement`, run after `setup`."""
    out = psql(bindir, port, db, f"{setup}\n\\timing on\n{statement}\n")
    return float(out.split("Time:")[1].split("ms")[0]) / 1000


# Per-call functions: (label, database, SQL expression, peer?)
def per_call_cases(major):
    cases = [
        ("baseline: count(g), no function", "bench_ext", "g", True),
        ("do-nothing C function returning a uuid", "bench_ext", "bench_uuid_floor()", True),
        ("gen_random_uuid()", "bench_ext", "gen_random_uuid()", True),
        ("uuid-ossp uuid_generate_v1()", "bench_ossp", "uuid_generate_v1()", True),
        ("uuid-ossp uuid_generate_v4()", "bench_ossp", "uuid_generate_v4()", True),
    ]
    if major >= 18:
        cases += [("PostgreSQL 18 uuidv4()", "bench_ext", "pg_catalog.uuidv4()", True),
                  ("PostgreSQL 18 uuidv7()", "bench_ext", "pg_catalog.uuidv7()", True)]
    cases += [
        ("uuid_ext uuid_generate_v4()", "bench_ext", "uuid_generate_v4()", False),
        ("uuid_ext uuid_generate_v7()", "bench_ext", "uuid_generate_v7()", False),
        ("uuid_ext uuid_generate_v7() [pg18 method]", "bench_ext_pg18", "uuid_generate_v7()", False),
        ("uuid_ext uuid_generate_v7() [counter method]", "bench_ext_counter", "uuid_generate_v7()", False),
        ("uuid_ext uuid_generate_v1()", "bench_ext", "uuid_generate_v1()", False),
        ("uuid_ext uuid_generate_v6()", "bench_ext", "uuid_generate_v6()", False),
        ("uuid_ext uuid_generate_v5(dns, name)", "bench_ext", "uuid_generate_v5(uuid_ns_dns(), g::text)", False),
        ("uuid-ossp uuid_generate_v5(dns, name)", "bench_ossp", "uuid_generate_v5(uuid_ns_dns(), g::text)", True),
    ]
    return cases


def setup_databases(bindir, port):
    for db in ["bench_ext", "bench_ext_pg18", "bench_ext_counter", "bench_ossp"]:
        psql(bindir, port, "postgres", f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db};")
    for db, method in [("bench_ext", "default"), ("bench_ext_pg18", "pg18"), ("bench_ext_counter", "counter")]:
        psql(bindir, port, db, f"CREATE EXTENSION uuid_ext; ALTER DATABASE {db} SET uuid_ext.v7_method = '{method}';")
    psql(bindir, port, "bench_ossp", 'CREATE EXTENSION "uuid-ossp";')
    # The floor a generator is measured against: a C function that pallocs and returns a zero
    # uuid (scripts/bench_floor.c, built and installed by bench.sh).
    psql(bindir, port, "bench_ext", "CREATE FUNCTION bench_uuid_floor() RETURNS uuid VOLATILE "
                                    "LANGUAGE c AS 'bench_floor', 'bench_uuid_floor';")


def per_call(bindir, port, major):
    cases = per_call_cases(major)
    samples = {label: [] for label, *_ in cases}
    for _ in range(RUNS):  # interleaved: run r of every case before run r+1
        for label, db, expr, _peer in cases:
            secs = timed(bindir, port, db, "", f"SELECT count({expr}) FROM generate_series(1, {N}) g;")
            samples[label].append(secs * 1e9 / N)
    result = []
    base = statistics.median(samples[cases[0][0]])
    for label, db, expr, peer in cases:
        med = statistics.median(samples[label])
        result.append({"label": label, "ns": med, "marginal": med - base, "peer": peer,
                       "spread": (min(samples[label]), max(samples[label]))})
    return result


def inserts(bindir, port):
    rows = []
    per_txn = 100
    txns = INSERT_ROWS // per_txn
    for fn in ["uuid_generate_v7()", "uuid_generate_v4()", "gen_random_uuid()"]:
        psql(bindir, port, "bench_ext", "DROP TABLE IF EXISTS ins; "
             f"CREATE TABLE ins (id uuid PRIMARY KEY DEFAULT {fn}, n int); CHECKPOINT;")
        script = os.path.join(os.environ.get("TMPDIR", "/tmp"), "uuid_ext_bench_insert.sql")
        with open(script, "w") as f:
            f.write(f"INSERT INTO ins (n) SELECT g FROM generate_series(1, {per_txn}) g;\n")
        lsn0 = psql(bindir, port, "bench_ext", "SELECT pg_current_wal_lsn()")
        t0 = time.monotonic()
        subprocess.run([f"{bindir}/pgbench", "-n", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                        "-c", "4", "-j", "2", "-t", str(txns // 4), "-f", script, "bench_ext"],
                       check=True, capture_output=True)
        secs = time.monotonic() - t0
        stats = psql(bindir, port, "bench_ext",
                     f"SELECT count(*), pg_relation_size('ins_pkey'), pg_wal_lsn_diff(pg_current_wal_lsn(), '{lsn0}') FROM ins")
        n, idx, wal = stats.split("|")
        rows.append({"fn": fn, "rows": int(n), "secs": secs, "rows_per_s": int(n) / secs,
                     "index_bytes": int(idx), "wal_bytes": int(float(wal))})
    psql(bindir, port, "bench_ext", "DROP TABLE ins")
    return rows


def index_build(bindir, port):
    """CREATE INDEX with uuid_time_ops vs uuid_ops on the same values."""
    psql(bindir, port, "bench_ext", f"""
        DROP TABLE IF EXISTS ib_mixed, ib_v7;
        CREATE TABLE ib_mixed AS
          SELECT CASE g % 3 WHEN 0 THEN uuid_generate_v1() WHEN 1 THEN uuid_generate_v6()
                 ELSE uuid_generate_v7() END AS u
          FROM generate_series(1, {INDEX_ROWS}) g ORDER BY random();
        CREATE TABLE ib_v7 AS SELECT uuid_generate_v7() AS u FROM generate_series(1, {INDEX_ROWS}) g ORDER BY random();
        VACUUM ANALYZE ib_mixed; VACUUM ANALYZE ib_v7;
        -- comparison function only (no sortsupport), for the effect of sortsupport + abbreviated keys
        DROP OPERATOR FAMILY IF EXISTS uuid_time_ops_cmp_only USING btree CASCADE;
        CREATE OPERATOR FAMILY uuid_time_ops_cmp_only USING btree;
        CREATE OPERATOR CLASS uuid_time_ops_cmp_only FOR TYPE uuid USING btree FAMILY uuid_time_ops_cmp_only AS
          OPERATOR 1 <|, OPERATOR 2 <=|, OPERATOR 3 =, OPERATOR 4 >=|, OPERATOR 5 >|,
          FUNCTION 1 uuid_time_cmp(uuid, uuid);
    """)
    cases = [("mixed v1/v6/v7", "ib_mixed", "uuid_ops"), ("mixed v1/v6/v7", "ib_mixed", "uuid_time_ops"),
             ("mixed v1/v6/v7", "ib_mixed", "uuid_time_ops_cmp_only"),
             ("v7 only", "ib_v7", "uuid_ops"), ("v7 only", "ib_v7", "uuid_time_ops")]
    samples = {c: [] for c in cases}
    for _ in range(max(3, RUNS // 2)):
        for c in cases:
            data, table, opclass = c
            samples[c].append(timed(
                bindir, port, "bench_ext",
                "SET max_parallel_maintenance_workers = 0; SET maintenance_work_mem = '256MB';"
                " DROP INDEX IF EXISTS ib_idx;",
                f"CREATE INDEX ib_idx ON {table} (u {opclass});"))
    psql(bindir, port, "bench_ext", "DROP TABLE ib_mixed, ib_v7; DROP OPERATOR FAMILY uuid_time_ops_cmp_only USING btree CASCADE;")
    return [{"data": d, "opclass": o, "secs": statistics.median(samples[(d, t, o)])} for d, t, o in cases]


# Time windows: the queries a user moving off created_at writes, each measured three ways — on
# the key with the planner hook (docs/TIME_WINDOWS.md, "Ordered reads by time"), on the key with
# the hook off (`uuid_ext.time_index_conditions = off`: PostgreSQL alone, the library loaded), and
# on a created_at column with its own index. The key tables have CHECK (uuid_is_v7(id)).
WINDOWS_BEGIN, WINDOWS_END = "<!-- time windows: begin -->", "<!-- time windows: end -->"
WIDTHS = ["1 hour", "1 day", "7 days", "25 days", "30 days"]
HOOK_OFF = "-c uuid_ext.time_index_conditions=off"
SERIAL = "-c max_parallel_workers_per_gather=0"
# Seconds of repeated execution per measurement (each query run as often as fits, at least once),
# and interleaved rounds per measurement (median).
WINDOW_SECONDS = float(os.environ.get("BENCH_WINDOW_SECONDS", "0.5"))
WINDOW_RUNS = int(os.environ.get("BENCH_WINDOW_RUNS", "7"))
PARTITIONS_MANY = int(os.environ.get("BENCH_PARTITIONS", "1000"))


def shape(label, key_q, col_q, options="", short=False, counted=True):
    """One query shape: `key_q` on the key table ({t} its name, {ts} the extractor), `col_q` the
    same on the created_at table. `short`: a LIMIT read, also measured planning only and as the
    first query of a new connection. `counted`: the first column of the first row is the number
    of rows the query reads (else the rows returned)."""
    return {"label": label, "key": key_q, "col": col_q, "options": options, "short": short, "counted": counted}


def last(width, options="", suffix=""):
    q = "SELECT count(*), sum(payload) FROM {t} WHERE {ts} >= now() - interval '%s'" % width
    return shape(f"last {width}: count + sum{suffix}", q.format(t="{key}", ts="uuid_extract_timestamp(id)"),
                 q.format(t="{col}", ts="created_at"), options)


DAY_LAST_WEEK = "{ts} >= date_trunc('day', now() - interval '7 days') AND {ts} < date_trunc('day', now() - interval '6 days')"
LATEST = shape("latest 20", "SELECT id, payload FROM {key} ORDER BY uuid_extract_timestamp(id) DESC LIMIT 20",
               "SELECT id, payload FROM {col} ORDER BY created_at DESC LIMIT 20", short=True, counted=False)
KEYSET = shape("keyset page three days back",
               "SELECT id, payload FROM {key} WHERE uuid_extract_timestamp(id) < now() - interval '3 days' "
               "ORDER BY uuid_extract_timestamp(id) DESC LIMIT 50",
               "SELECT id, payload FROM {col} WHERE created_at < now() - interval '3 days' "
               "ORDER BY created_at DESC LIMIT 50", short=True, counted=False)
PLAIN_SHAPES = (
    [last(w) for w in WIDTHS]
    + [last(w, SERIAL, ", no parallel workers") for w in WIDTHS]
    + [shape("one day last week: count + sum",
             "SELECT count(*), sum(payload) FROM {key} WHERE " + DAY_LAST_WEEK.format(ts="uuid_extract_timestamp(id)"),
             "SELECT count(*), sum(payload) FROM {col} WHERE " + DAY_LAST_WEEK.format(ts="created_at")),
       shape("per-day counts, last week",
             "SELECT date_trunc('day', uuid_extract_timestamp(id)), count(*) FROM {key} "
             "WHERE uuid_extract_timestamp(id) >= now() - interval '7 days' GROUP BY 1",
             "SELECT date_trunc('day', created_at), count(*) FROM {col} "
             "WHERE created_at >= now() - interval '7 days' GROUP BY 1", counted=False),
       LATEST, KEYSET])
# The windows again once `uuid_extract_timestamp(id)` has statistics of its own (README, "Time
# windows"): PostgreSQL's estimate of a window on the extractor is then the histogram's, as
# created_at's is, rather than a default third of the table.
STATS_SHAPES = [last(w) for w in WIDTHS[:3]]
PARTITIONED_SHAPES = [last(w) for w in ("1 hour", "1 day", "7 days", "30 days")] + [LATEST, KEYSET]
BRIN_SHAPES = [last(w) for w in ("1 hour", "1 day", "7 days")]


def pgbench_latency(bindir, port, db, sql, transactions, options="", new_connections=False, protocol="simple"):
    """Mean seconds per execution of `sql`, run `transactions` times by pgbench with the simple
    protocol (so every execution is parsed and planned, as an application without prepared
    statements does): in one session, or each in a new connection (`new_connections`)."""
    script = os.path.join(os.environ.get("TMPDIR", "/tmp"), "uuid_ext_bench_query.sql")
    with open(script, "w") as f:
        f.write(sql + ";\n")
    env = dict(os.environ, PGOPTIONS=options)
    cmd = [f"{bindir}/pgbench", "-n", "-M", protocol, "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
           "-c", "1", "-t", str(transactions), "-f", script, db] + (["-C"] if new_connections else [])
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return float(next(l for l in out.splitlines() if l.startswith("latency average")).split()[3]) / 1000


def windows_setup(bindir, port, db):
    # Every session of the database loads the library, and with it the planner hook (README,
    # "Time windows").
    psql(bindir, port, "postgres", f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}; "
                                   f"ALTER DATABASE {db} SET session_preload_libraries = 'uuid_ext';")
    psql(bindir, port, db, f"""
        CREATE EXTENSION uuid_ext;
        -- v7 keys spread evenly over the last 30 days, inserted in time order as keys arrive.
        CREATE TABLE by_key (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), payload int NOT NULL);
        INSERT INTO by_key
          SELECT uuid_timestamptz_to_v7(now() - interval '30 days' * (1 - g::float8 / {WINDOW_ROWS})), g
          FROM generate_series(1, {WINDOW_ROWS}) g;
        CREATE TABLE by_column (id uuid PRIMARY KEY, created_at timestamptz NOT NULL, payload int NOT NULL);
        INSERT INTO by_column SELECT id, uuid_v7_to_timestamptz(id), payload FROM by_key;
        CREATE INDEX by_column_created_at ON by_column (created_at);
        CREATE TABLE part_key (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), payload int NOT NULL)
          PARTITION BY RANGE (id);
        CREATE TABLE part_column (id uuid NOT NULL, created_at timestamptz NOT NULL, payload int NOT NULL,
                                  PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at);
        -- part_column with the key's CHECK: PostgreSQL reads a partition's CHECK constraints
        -- each time it plans a scan of it (constraint exclusion), whoever's they are.
        CREATE TABLE part_checked (id uuid NOT NULL CHECK (uuid_is_v7(id)), created_at timestamptz NOT NULL,
                                   payload int NOT NULL, PRIMARY KEY (id, created_at)) PARTITION BY RANGE (created_at);
        DO $$
        DECLARE
            m timestamptz;
        BEGIN
            FOR m IN SELECT generate_series(date_trunc('month', now() - interval '31 days'),
                                            date_trunc('month', now()), interval '1 month') LOOP
                EXECUTE format('CREATE TABLE %I PARTITION OF part_key FOR VALUES FROM (%L) TO (%L)',
                               'part_key_' || to_char(m, 'YYYY_MM'), uuid_v7_lower_bound(m),
                               uuid_v7_lower_bound(m + interval '1 month'));
                EXECUTE format('CREATE TABLE %I PARTITION OF part_column FOR VALUES FROM (%L) TO (%L)',
                               'part_column_' || to_char(m, 'YYYY_MM'), m, m + interval '1 month');
                EXECUTE format('CREATE TABLE %I PARTITION OF part_checked FOR VALUES FROM (%L) TO (%L)',
                               'part_checked_' || to_char(m, 'YYYY_MM'), m, m + interval '1 month');
            END LOOP;
        END $$;
        INSERT INTO part_key SELECT * FROM by_key;
        INSERT INTO part_column SELECT * FROM by_column;
        CREATE INDEX part_column_created_at ON part_column (created_at);
        INSERT INTO part_checked SELECT * FROM by_column;
        CREATE INDEX part_checked_created_at ON part_checked (created_at);
        -- Append-only tables indexed by BRIN alone: on the key, and on created_at.
        CREATE TABLE brin_key (id uuid NOT NULL CHECK (uuid_is_v7(id)), payload int NOT NULL);
        INSERT INTO brin_key SELECT * FROM by_key;
        CREATE INDEX brin_key_id ON brin_key USING brin (id);
        CREATE TABLE brin_column (id uuid NOT NULL, created_at timestamptz NOT NULL, payload int NOT NULL);
        INSERT INTO brin_column SELECT * FROM by_column;
        CREATE INDEX brin_column_created_at ON brin_column USING brin (created_at);
        VACUUM ANALYZE by_key; VACUUM ANALYZE by_column; VACUUM ANALYZE part_key; VACUUM ANALYZE part_column;
        VACUUM ANALYZE part_checked;
        VACUUM ANALYZE brin_key; VACUUM ANALYZE brin_column;
    """)
    sizes = psql(bindir, port, db, "SELECT pg_table_size('by_key'), pg_indexes_size('by_key'), "
                                   "pg_table_size('by_column'), pg_indexes_size('by_column'), "
                                   "(SELECT count(*) FROM pg_inherits WHERE inhparent = 'part_key'::regclass), "
                                   "pg_relation_size('brin_key_id'), pg_relation_size('brin_column_created_at'), "
                                   "pg_relation_size('by_key_pkey'), pg_relation_size('by_column_created_at'), "
                                   "pg_table_size('brin_key'), pg_table_size('brin_column')")
    names = ["key_table", "key_indexes", "col_table", "col_indexes", "partitions", "brin_key", "brin_column",
             "btree_key", "btree_column", "brin_key_table", "brin_column_table"]
    return dict(zip(names, map(int, sizes.split("|"))))


def as_set(options):
    """PGOPTIONS ("-c name=value …") as SET commands."""
    return " ".join(f"SET {o.split('=')[0]} = {o.split('=', 1)[1]};" for o in options.split() if o != "-c")


def windows_measure(bindir, port, db, shapes, key_table, col_table, checked_table=None):
    """Each shape on the key with the hook, on the key without it, and on created_at; short
    reads also planning only (EXPLAIN) and as the first query of a new connection, and, given
    `checked_table` (col_table with the key's CHECK), on it too. Interleaved rounds; medians."""
    results = []
    for s in shapes:
        key_q, col_q = s["key"].format(key=key_table), s["col"].format(col=col_table)
        opts = s["options"]
        variants = {  # name: (SQL, PGOPTIONS, new connection per execution)
            "hook": (key_q, opts, False), "nohook": (key_q, f"{opts} {HOOK_OFF}", False),
            "created_at": (col_q, opts, False)}
        if s["short"]:
            variants.update({"plan_hook": ("EXPLAIN " + key_q, opts, False),
                             "plan_created_at": ("EXPLAIN " + col_q, opts, False),
                             "new_hook": (key_q, opts, True), "new_created_at": (col_q, opts, True)})
            if checked_table:
                checked_q = s["col"].format(col=checked_table)
                variants.update({"checked": (checked_q, opts, False),
                                 "plan_checked": ("EXPLAIN " + checked_q, opts, False)})
        plan = psql(bindir, port, db, f"{as_set(opts)} EXPLAIN (COSTS OFF) {key_q};")
        plan_off = psql(bindir, port, db, f"{as_set(opts + ' ' + HOOK_OFF)} EXPLAIN (COSTS OFF) {key_q};")
        out = psql(bindir, port, db, key_q + ";")
        rows = int(out.splitlines()[0].split("|")[0]) if s["counted"] else len(out.splitlines())
        # How many executions fill WINDOW_SECONDS, from one warm-up execution of each variant.
        counts = {}
        for name, (q, options, new) in variants.items():
            once = pgbench_latency(bindir, port, db, q, 1, options, new)
            counts[name] = max(1, min(1000, int(WINDOW_SECONDS / once)))
        samples = {name: [] for name in variants}
        for _ in range(WINDOW_RUNS):
            for name, (q, options, new) in variants.items():
                samples[name].append(pgbench_latency(bindir, port, db, q, counts[name], options, new))
        med = {name: statistics.median(v) for name, v in samples.items()}
        results.append({"label": s["label"], "short": s["short"], "rows": rows, "plan": plan,
                        "plan_off": plan_off, **med})
    return results


def many_partitions(bindir, port, db):
    """Planning over PARTITIONS_MANY partitions, alone and while another session creates and
    drops temporary tables (a relcache invalidation for each, which must not empty the hook's
    caches); with the hook and without."""
    psql(bindir, port, db, f"""
        CREATE TABLE many (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), payload int NOT NULL)
          PARTITION BY RANGE (id);
        DO $$
        DECLARE
            h timestamptz;
        BEGIN
            FOR h IN SELECT date_trunc('hour', now()) - interval '1 hour' * g
                     FROM generate_series(0, {PARTITIONS_MANY - 1}) g LOOP
                EXECUTE format('CREATE TABLE %I PARTITION OF many FOR VALUES FROM (%L) TO (%L)',
                               'many_' || to_char(h, 'YYYYMMDDHH24'), uuid_v7_lower_bound(h),
                               uuid_v7_lower_bound(h + interval '1 hour'));
            END LOOP;
        END $$;
        INSERT INTO many SELECT uuid_timestamptz_to_v7(now() - interval '1 hour' * {PARTITIONS_MANY - 1} * random()), g
          FROM generate_series(1, 100000) g;
        VACUUM ANALYZE many;""")
    query = "SELECT count(*) FROM many WHERE uuid_extract_timestamp(id) >= now() - interval '90 minutes'"
    churn = os.path.join(os.environ.get("TMPDIR", "/tmp"), "uuid_ext_bench_churn.sql")
    with open(churn, "w") as f:
        f.write("CREATE TEMP TABLE churn (a int);\nDROP TABLE churn;\n")
    variants = {"hook": "", "nohook": HOOK_OFF}
    once = pgbench_latency(bindir, port, db, query, 1)
    count = max(5, min(1000, int(WINDOW_SECONDS * 4 / once)))
    samples = {(v, c): [] for v in variants for c in (False, True)}
    for _ in range(WINDOW_RUNS):
        for v, options in variants.items():
            for with_churn in (False, True):
                background = None
                if with_churn:  # about 100 temporary tables a second, until the measurement ends
                    background = subprocess.Popen(
                        [f"{bindir}/pgbench", "-n", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
                         "-c", "1", "-R", "100", "-T", "600", "-f", churn, db],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    time.sleep(0.5)
                samples[(v, with_churn)].append(pgbench_latency(bindir, port, db, query, count, options))
                if background:
                    background.terminate()
                    background.wait()
    med = {f"{v}{'_churn' if c else ''}": statistics.median(x) for (v, c), x in samples.items()}
    plan = psql(bindir, port, db, f"EXPLAIN (COSTS OFF) {query};")
    return {"query": query, "plan": plan, **med}


def time_windows(bindir, port):
    """Time windows on v7 keys with and without the planner hook vs created_at: plain, monthly
    partitioned and BRIN-only tables; planning over many partitions; planning of queries the hook
    does not rewrite."""
    db = "bench_windows"
    sizes = windows_setup(bindir, port, db)
    results = windows_measure(bindir, port, db, PLAIN_SHAPES, "by_key", "by_column")
    psql(bindir, port, db, "CREATE STATISTICS by_key_time ON (uuid_extract_timestamp(id)) FROM by_key; "
                           "ANALYZE by_key;")
    with_stats = windows_measure(bindir, port, db, STATS_SHAPES, "by_key", "by_column")
    partitioned = windows_measure(bindir, port, db, PARTITIONED_SHAPES, "part_key", "part_column", "part_checked")
    brin = windows_measure(bindir, port, db, BRIN_SHAPES, "brin_key", "brin_column")
    many = many_partitions(bindir, port, db)
    # Planning cost for queries without a time predicate: the hook looks at every query it plans.
    script = os.path.join(os.environ.get("TMPDIR", "/tmp"), "uuid_ext_bench_point.sql")
    with open(script, "w") as f:
        f.write("\\set n random(1, 1000000)\nSELECT payload FROM by_key WHERE payload = :n AND id IS NOT NULL LIMIT 1;\n")
    psql(bindir, port, db, "CREATE INDEX by_key_payload ON by_key (payload);")
    tps = {"on": [], "off": []}
    for _ in range(WINDOW_RUNS):
        for setting in ("on", "off"):
            env = dict(os.environ, PGOPTIONS=f"-c uuid_ext.time_index_conditions={setting}")
            out = subprocess.run([f"{bindir}/pgbench", "-n", "-M", "simple", "-h", "127.0.0.1", "-p", str(port),
                                  "-U", "postgres", "-c", "1", "-T", str(PLANNING_SECONDS), "-f", script, db],
                                 check=True, capture_output=True, text=True, env=env).stdout
            tps[setting].append(float(next(l for l in out.splitlines() if l.startswith("tps")).split()[2]))
    psql(bindir, port, "postgres", f"DROP DATABASE {db}")
    return {"windows": results, "with_stats": with_stats, "partitioned": partitioned, "brin": brin, "many": many, "sizes": sizes,
            "tps": {k: statistics.median(v) for k, v in tps.items()}}


# The SQL edition (uuid_ext_sql, docs/MANAGED.md) beside uuid_ext, core and the two
# UUIDv7 functions users copy into schemas, written here from their descriptions: a LANGUAGE sql
# function that overlays the Unix milliseconds on gen_random_uuid() and sets the version bits,
# and its variant with a 12-bit sub-millisecond fraction in rand_a (RFC 9562 §6.2 Method 3).
EDITION_BEGIN, EDITION_END = "<!-- sql edition: begin -->", "<!-- sql edition: end -->"
SNIPPETS = r"""
CREATE FUNCTION snippet_v7_ms() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                  FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;
CREATE FUNCTION snippet_v7_subms() RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(substring(int8send(floor(t_ms)::bigint) FROM 3)
                  || int2send((7 << 12)::int2 | ((t_ms - floor(t_ms)) * 4096)::int2)
                  || substring(uuid_send(gen_random_uuid()) FROM 9 FOR 8), 'hex')::uuid
    FROM (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS t_ms) s
$$;
"""


def sql_edition(bindir, port, major):
    """Per call: the edition's generators against uuid_ext's, core's and the snippets
    (generate_series), and its extractor and encoder over stored v7 keys."""
    db = "bench_sql"
    psql(bindir, port, "postgres", f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db};")
    script = open(os.path.join(ROOT, "sql-edition", "uuid_ext_sql.sql")).read()
    psql(bindir, port, db, "CREATE SCHEMA n; CREATE EXTENSION uuid_ext SCHEMA n; SET search_path = public;\n"
                           + script + SNIPPETS)
    psql(bindir, port, db, f"CREATE TABLE keys AS SELECT n.uuid_generate_v7() AS id FROM generate_series(1, {N}); "
                           "VACUUM ANALYZE keys;")
    rows = N // 10  # the PL/pgSQL and SQL generators take microseconds a call
    gen = [("baseline: count(g), no function", "g"),
           ("gen_random_uuid()", "gen_random_uuid()"),
           ("snippet: milliseconds over gen_random_uuid() (LANGUAGE sql)", "snippet_v7_ms()"),
           ("snippet: with a sub-millisecond fraction (LANGUAGE sql)", "snippet_v7_subms()"),
           ("uuid_ext_sql uuid_generate_v7()", "uuid_generate_v7()"),
           ("uuid_ext_sql uuid_generate_v4()", "uuid_generate_v4()"),
           ("uuid_ext uuid_generate_v7()", "n.uuid_generate_v7()")]
    if major >= 18:
        gen.insert(2, ("PostgreSQL 18 uuidv7()", "pg_catalog.uuidv7()"))
    stored = [("baseline: count(id)", "id"),
              ("uuid_ext_sql uuid_extract_timestamp(id)", "uuid_extract_timestamp(id)"),
              ("uuid_ext_sql uuid_v7_to_timestamptz(id)", "uuid_v7_to_timestamptz(id)"),
              ("uuid_ext uuid_extract_timestamp(id)", "n.uuid_extract_timestamp(id)"),
              ("uuid_ext_sql uuid_encode(id, 'crockford')", "uuid_encode(id, 'crockford')"),
              ("uuid_ext uuid_encode(id, 'crockford')", "n.uuid_encode(id, 'crockford')")]
    if major >= 17:
        stored.insert(3, ("PostgreSQL uuid_extract_timestamp(id) (core)", "pg_catalog.uuid_extract_timestamp(id)"))
    samples = {label: [] for label, _ in gen + stored}
    for _ in range(RUNS):
        for label, expr in gen:
            secs = timed(bindir, port, db, "SET max_parallel_workers_per_gather = 0;",
                         f"SELECT count({expr}) FROM generate_series(1, {rows}) g;")
            samples[label].append(secs * 1e9 / rows)
        for label, expr in stored:
            secs = timed(bindir, port, db, "SET max_parallel_workers_per_gather = 0;",
                         f"SELECT count({expr}) FROM keys;")
            samples[label].append(secs * 1e9 / N)
    # A bulk load whose key is the DEFAULT: the edition's v7 against the fastest snippet's.
    loads = [("INSERT … SELECT, key DEFAULT snippet_v7_ms()", "snippet_v7_ms()"),
             ("INSERT … SELECT, key DEFAULT uuid_ext_sql uuid_generate_v7()", "uuid_generate_v7()")]
    for _, expr in loads:
        psql(bindir, port, db, f"CREATE TABLE load_{len(expr)} (id uuid PRIMARY KEY DEFAULT {expr}, n int)")
    for label, _ in loads:
        samples[label] = []
    for _ in range(max(RUNS // 2, 3)):
        for label, expr in loads:
            table = f"load_{len(expr)}"
            secs = timed(bindir, port, db, f"TRUNCATE {table}; CHECKPOINT;",
                         f"INSERT INTO {table} (n) SELECT g FROM generate_series(1, {EDITION_LOAD_ROWS}) g;")
            samples[label].append(secs * 1e9 / EDITION_LOAD_ROWS)
    psql(bindir, port, "postgres", f"DROP DATABASE {db}")
    med = {label: statistics.median(v) for label, v in samples.items()}
    return {"generators": [(label, med[label], med[label] - med[gen[0][0]]) for label, _ in gen],
            "stored": [(label, med[label], med[label] - med[stored[0][0]]) for label, _ in stored],
            "loads": [(label, med[label]) for label, _ in loads]}


def edition_markdown(results):
    md = [EDITION_BEGIN, "",
          f"(This section measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; it is rewritten alone by "
          "`BENCH_SECTIONS=edition scripts/bench.sh`.)", ""]
    for major, res in results:
        md += [f"## The SQL edition, PostgreSQL {major}", "",
               "uuid_ext_sql (docs/MANAGED.md) installed with `psql -f` beside uuid_ext; the "
               "two UUIDv7 snippets users copy, as `LANGUAGE sql` functions written from their descriptions "
               "(scripts/bench.py, `SNIPPETS`). Generators: `SELECT count(f()) FROM generate_series(1, "
               f"{N // 10:,})`; extractors and encoder: `SELECT count(f(id))` over {N:,} stored v7 keys. No "
               f"parallel workers; median of {RUNS} interleaved runs; *marginal* = above the baseline.", "",
               "| function | ns/row | marginal ns |", "|---|---|---|"]
        for label, ns, marginal in res["generators"] + res["stored"]:
            md.append(f"| {label} | {ns:.0f} | {'' if label.startswith('baseline') else f'{marginal:.0f}'} |")
        md.append("")
        md += [f"Bulk load: `INSERT INTO t (n) SELECT g FROM generate_series(1, {EDITION_LOAD_ROWS:,}) g` into a "
               "table whose `uuid` primary key is the DEFAULT (the table truncated and a checkpoint taken "
               f"before each; median of {max(RUNS // 2, 3)} interleaved runs).", "",
               "| load | ns/row |", "|---|---|"]
        md += [f"| {label} | {ns:.0f} |" for label, ns in res["loads"]] + [""]
    md += ["| target | PostgreSQL | measured | met |", "|---|---|---|---|"]
    for major, res in results:
        gen = {label: marginal for label, _, marginal in res["generators"]}
        stored = {label: marginal for label, _, marginal in res["stored"]}
        fastest = min(gen["snippet: milliseconds over gen_random_uuid() (LANGUAGE sql)"],
                      gen["snippet: with a sub-millisecond fraction (LANGUAGE sql)"])
        ratio = gen["uuid_ext_sql uuid_generate_v7()"] / fastest
        md.append(f"| uuid_ext_sql's monotonic `uuid_generate_v7()` ≤ 1.5× the fastest snippet | {major} | "
                  f"{ratio:.2f}× | {'yes' if ratio <= 1.5 else 'no'} |")
        loads = dict(res["loads"])
        ratio = loads["INSERT … SELECT, key DEFAULT uuid_ext_sql uuid_generate_v7()"] / loads["INSERT … SELECT, key DEFAULT snippet_v7_ms()"]
        md.append(f"| a {EDITION_LOAD_ROWS:,}-row `INSERT … SELECT` with the edition's v7 as the DEFAULT ≤ 1.2× the "
                  f"snippet's | {major} | {ratio:.2f}× | {'yes' if ratio <= 1.2 else 'no'} |")
        core = stored.get("PostgreSQL uuid_extract_timestamp(id) (core)")
        if core and major >= 18:
            ratio = stored["uuid_ext_sql uuid_extract_timestamp(id)"] / core
            md.append(f"| uuid_ext_sql's `uuid_extract_timestamp()` ≤ 2× core's | {major} | {ratio:.2f}× | "
                      f"{'yes' if ratio <= 2 else 'no'} |")
    md += ["", EDITION_END]
    return md


# Public IDs (docs/PUBLIC_IDS.md): mapping a stored v7 key to its face and back, per call,
# beside the generators' cost in the same run; and a lookup by face against one by key.
PUBLIC_BEGIN, PUBLIC_END = "<!-- public ids: begin -->", "<!-- public ids: end -->"


def public_ids(bindir, port):
    db = "bench_public"
    psql(bindir, port, "postgres", f"DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db};")
    data = psql(bindir, port, db, "SELECT current_setting('data_directory')")
    key_file = f"{data}/uuid_ext_bench.keys"
    psql(bindir, port, db, f"""
        COPY (SELECT encode(uuid_send(gen_random_uuid()), 'hex')) TO PROGRAM 'umask 077 && cat > {key_file}';
        LOAD 'uuid_ext';
        ALTER SYSTEM SET uuid_ext.public_id_key_file = '{key_file}';
        SELECT pg_reload_conf();""")
    time.sleep(1)
    psql(bindir, port, db, f"""
        CREATE EXTENSION uuid_ext;
        CREATE TABLE users (id uuid PRIMARY KEY CHECK (uuid_is_v7(id)), n int);
        INSERT INTO users SELECT uuid_generate_v7(), g FROM generate_series(1, {N}) g;
        CREATE TABLE faces AS SELECT uuid_v7_to_public(id) AS face FROM users;
        VACUUM ANALYZE users; VACUUM ANALYZE faces;""")
    cases = [("baseline: count(id) over stored keys", "SELECT count(id) FROM users", N),
             ("uuid_v7_to_public(id)", "SELECT count(uuid_v7_to_public(id)) FROM users", N),
             ("baseline: count(face) over stored faces", "SELECT count(face) FROM faces", N),
             ("uuid_v7_from_public(face)", "SELECT count(uuid_v7_from_public(face)) FROM faces", N),
             ("baseline: count(g), no function", f"SELECT count(g) FROM generate_series(1, {N}) g", N),
             ("uuid_generate_v4()", f"SELECT count(uuid_generate_v4()) FROM generate_series(1, {N}) g", N),
             ("gen_random_uuid()", f"SELECT count(gen_random_uuid()) FROM generate_series(1, {N}) g", N)]
    samples = {label: [] for label, *_ in cases}
    for _ in range(RUNS):
        for label, q, rows in cases:
            samples[label].append(timed(bindir, port, db, "SET max_parallel_workers_per_gather = 0;", q + ";") * 1e9 / rows)
    med = {label: statistics.median(v) for label, v in samples.items()}
    marginal = {"uuid_v7_to_public(id)": med["uuid_v7_to_public(id)"] - med["baseline: count(id) over stored keys"],
                "uuid_v7_from_public(face)": med["uuid_v7_from_public(face)"] - med["baseline: count(face) over stored faces"],
                "uuid_generate_v4()": med["uuid_generate_v4()"] - med["baseline: count(g), no function"],
                "gen_random_uuid()": med["gen_random_uuid()"] - med["baseline: count(g), no function"]}
    # Point lookups, prepared, one session: by key, and by face.
    face = psql(bindir, port, db, "SELECT face FROM faces LIMIT 1")
    key = psql(bindir, port, db, f"SELECT uuid_v7_from_public('{face}')")
    lookups = {}
    for label, q in (("by key: WHERE id = $1", f"SELECT n FROM users WHERE id = '{key}'"),
                     ("by face: WHERE id = uuid_v7_from_public($1)", f"SELECT n FROM users WHERE id = uuid_v7_from_public('{face}')")):
        lookups[label] = statistics.median(pgbench_latency(bindir, port, db, q, 20000, "", False, "prepared")
                                           for _ in range(RUNS))
    psql(bindir, port, db, "LOAD 'uuid_ext'; ALTER SYSTEM RESET uuid_ext.public_id_key_file; SELECT pg_reload_conf();")
    psql(bindir, port, "postgres", f"DROP DATABASE {db}")
    return {"ns": med, "marginal": marginal, "lookups": lookups}


def public_markdown(results):
    md = [PUBLIC_BEGIN, ""]
    for major, res in results:
        md += [f"## Public IDs, PostgreSQL {major}", "",
               f"Per call over {N:,} stored v7 keys (and their faces), no parallel workers, beside the generators "
               f"in the same run; median of {RUNS} interleaved runs; *marginal* = above the matching baseline.", "",
               "| expression | ns/row | marginal ns |", "|---|---|---|"]
        for label, ns in res["ns"].items():
            marginal = res["marginal"].get(label)
            md.append(f"| {label} | {ns:.0f} | {'' if marginal is None else f'{marginal:.0f}'} |")
        md += ["", "Point lookups, one session, prepared (pgbench -M prepared, 20,000 a run; median of runs):", "",
               "| lookup | latency |", "|---|---|"]
        for label, secs in res["lookups"].items():
            md.append(f"| {label} | {secs * 1e6:.2f} µs |")
        md.append("")
    md += ["| target | PostgreSQL | measured | met |", "|---|---|---|---|"]
    for major, res in results:
        m = res["marginal"]
        worst = max(m["uuid_v7_to_public(id)"], m["uuid_v7_from_public(face)"])
        md.append(f"| mapping either way ≤ `uuid_generate_v4()` per call | {major} | {worst:.0f} vs {m['uuid_generate_v4()']:.0f} ns | "
                  f"{'yes' if worst <= m['uuid_generate_v4()'] else 'no'} |")
        by_key, by_face = res["lookups"].values()
        md.append(f"| lookup by face ≤ 1.05× lookup by key | {major} | {by_face * 1e6:.1f} vs {by_key * 1e6:.1f} µs "
                  f"({by_face / by_key:.2f}×) | {'yes' if by_face <= 1.05 * by_key else 'no'} |")
    md += ["", PUBLIC_END]
    return md


# A Crockford (ULID/TypeID) encoder of the kind pasted into schemas today: PL/pgSQL over
# uuid_send() with get_byte(), 5 bits at a time.
PLPGSQL_CROCKFORD = r"""
CREATE OR REPLACE FUNCTION plpgsql_crockford(id uuid) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    alphabet text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    b bytea := uuid_send(id);
    output text := '';
    acc bigint := 0;
    bits int := 2;   -- two leading zero bits: 130 bits in 26 symbols
    i int;
BEGIN
    FOR i IN 0..15 LOOP
        acc := (acc << 8) | get_byte(b, i);
        bits := bits + 8;
        WHILE bits >= 5 LOOP
            bits := bits - 5;
            output := output || substr(alphabet, ((acc >> bits) & 31)::int + 1, 1);
        END LOOP;
        acc := acc & ((1::bigint << bits) - 1);
    END LOOP;
    RETURN output;
END $$;
"""


def text_forms(bindir, port):
    """Per call: uuid_encode/uuid_decode per format, against encode(uuid_send(id), 'base64')
    and decode(…, 'base64') (C, in core) and a PL/pgSQL Crockford encoder."""
    db = "bench_ext"
    psql(bindir, port, db, f"""
        DROP TABLE IF EXISTS forms; {PLPGSQL_CROCKFORD}
        CREATE TABLE forms AS SELECT id, encode(uuid_send(id), 'base64') AS base64,
               uuid_encode(id, 'hex') AS hex, uuid_encode(id, 'base32hex') AS base32hex,
               uuid_encode(id, 'base64url') AS base64url, uuid_encode(id, 'crockford') AS crockford
        FROM (SELECT uuid_generate_v7() AS id FROM generate_series(1, {FORMS_ROWS})) s;
        VACUUM ANALYZE forms;""")
    cases = [("baseline: count(id)", "id", FORMS_ROWS),
             ("encode(uuid_send(id), 'base64')", "encode(uuid_send(id), 'base64')", FORMS_ROWS),
             ("decode(base64, 'base64')", "decode(base64, 'base64')", FORMS_ROWS)]
    for f in ["hex", "base32hex", "base64url", "crockford"]:
        cases += [(f"uuid_encode(id, '{f}')", f"uuid_encode(id, '{f}')", FORMS_ROWS),
                  (f"uuid_decode({f}, '{f}')", f"uuid_decode({f}, '{f}')", FORMS_ROWS)]
    cases += [("uuid_to_typeid('user', id)", "uuid_to_typeid('user', id)", FORMS_ROWS),
              ("PL/pgSQL Crockford encoder", "plpgsql_crockford(id)", PLPGSQL_ROWS),
              ("baseline, PL/pgSQL rows", "id", PLPGSQL_ROWS)]
    samples = {label: [] for label, *_ in cases}
    for _ in range(RUNS):
        for label, expr, rows in cases:
            secs = timed(bindir, port, db, "SET max_parallel_workers_per_gather = 0;",
                         f"SELECT count({expr}) FROM (SELECT * FROM forms LIMIT {rows}) s;")
            samples[label].append(secs * 1e9 / rows)
    med = {label: statistics.median(v) for label, v in samples.items()}
    out = []
    for label, expr, rows in cases:
        if label.startswith("baseline"):
            continue
        base = med["baseline, PL/pgSQL rows" if rows == PLPGSQL_ROWS else "baseline: count(id)"]
        out.append({"label": label, "ns": med[label], "marginal": med[label] - base})
    psql(bindir, port, db, "DROP TABLE forms")
    return out


def forms_markdown(forms_results):
    md = [FORMS_BEGIN, ""]
    for major, res in forms_results:
        by = {r["label"]: r for r in res}
        ref = by["encode(uuid_send(id), 'base64')"]["marginal"]
        pl = by["PL/pgSQL Crockford encoder"]["marginal"]
        md += [f"## Text forms, PostgreSQL {major}", "",
               f"`SELECT count(f) FROM (SELECT * FROM forms LIMIT n) s` over {FORMS_ROWS:,} stored v7 keys "
               f"and their forms ({PLPGSQL_ROWS:,} rows for PL/pgSQL), no parallel workers, median of {RUNS} "
               "interleaved runs. *Marginal* = ns per row above `count(id)`; the reference is core's "
               "`encode(uuid_send(id), 'base64')`.", "",
               "| expression | ns/row | marginal ns | vs encode(uuid_send(id), 'base64') | PL/pgSQL encoder vs this |",
               "|---|---|---|---|---|"]
        for r in res:
            md.append(f"| `{r['label']}` | {r['ns']:.0f} | {r['marginal']:.0f} | {r['marginal'] / ref:.2f}× | "
                      f"{pl / r['marginal']:.0f}× |")
        md.append("")
    md += ["| target | PostgreSQL | measured | met |", "|---|---|---|---|"]
    for major, res in forms_results:
        by = {r["label"]: r for r in res}
        ref = by["encode(uuid_send(id), 'base64')"]["marginal"]
        pl = by["PL/pgSQL Crockford encoder"]["marginal"]
        worst = max((r for r in res if r["label"].startswith(("uuid_encode", "uuid_decode"))), key=lambda r: r["marginal"])
        md.append(f"| every `uuid_encode`/`uuid_decode` ≤ 1.5× `encode(uuid_send(id), 'base64')` | {major} | "
                  f"worst {worst['marginal'] / ref:.2f}× (`{worst['label']}`) | {'yes' if worst['marginal'] <= 1.5 * ref else 'no'} |")
        crock = by["uuid_encode(id, 'crockford')"]["marginal"]
        md.append(f"| `uuid_encode(id, 'crockford')` ≥ 20× cheaper than the PL/pgSQL encoder | {major} | "
                  f"{pl / crock:.0f}× | {'yes' if pl >= 20 * crock else 'no'} |")
    md += ["", FORMS_END]
    return md


def ms(seconds):
    return f"{seconds * 1000:.3f} ms" if seconds < 0.001 else f"{seconds * 1000:.2f} ms"


def windows_table(rows):
    md = ["| query | rows | key + hook | key, hook off | created_at + index | hook on vs off | key + hook vs created_at |",
          "|---|---|---|---|---|---|---|"]
    for w in rows:
        md.append(f"| {w['label']} | {w['rows']:,} | {ms(w['hook'])} | {ms(w['nohook'])} | {ms(w['created_at'])} | "
                  f"{w['hook'] / w['nohook']:.2f}× | {w['hook'] / w['created_at']:.2f}× |")
    short = [w for w in rows if w["short"]]
    if short:
        md += ["", "The short reads planned only (`EXPLAIN`, simple protocol), and each execution the first query of a "
               "new connection (`pgbench -C`: connection set-up, a cold catalog cache, then the query):", "",
               "| query | planning: key + hook | planning: created_at | key vs created_at | new connection: key + hook "
               "| new connection: created_at | key vs created_at |", "|---|---|---|---|---|---|---|"]
        for w in short:
            md.append(f"| {w['label']} | {ms(w['plan_hook'])} | {ms(w['plan_created_at'])} | "
                      f"{w['plan_hook'] / w['plan_created_at']:.2f}× | {ms(w['new_hook'])} | {ms(w['new_created_at'])} | "
                      f"{w['new_hook'] / w['new_created_at']:.2f}× |")
    checked = [w for w in short if "checked" in w]
    if checked:
        md += ["", "The same short reads on `part_checked`, `part_column` with the key's `CHECK (uuid_is_v7(id))`: "
               "PostgreSQL reads each partition's CHECK constraints whenever it plans a scan of the partition "
               "(constraint exclusion, `get_relation_constraints()`), with or without uuid_ext, so these leave "
               "that cost out of the comparison (docs/PROFILE.md):", "",
               "| query | key + hook | created_at + CHECK | key vs created_at + CHECK | planning: key + hook "
               "| planning: created_at + CHECK | key vs created_at + CHECK |", "|---|---|---|---|---|---|---|"]
        for w in checked:
            md.append(f"| {w['label']} | {ms(w['hook'])} | {ms(w['checked'])} | {w['hook'] / w['checked']:.2f}× | "
                      f"{ms(w['plan_hook'])} | {ms(w['plan_checked'])} | {w['plan_hook'] / w['plan_checked']:.2f}× |")
    return md


def plans(rows):
    md = []
    for w in rows:
        md += [f"{w['label']}, hook on:", "", "```", w["plan"], "```", ""]
        if w["plan_off"] != w["plan"]:
            md += ["hook off:", "", "```", w["plan_off"], "```", ""]
    return md


def windows_markdown(window_results):
    md = [WINDOWS_BEGIN, "",
          f"(This section measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; it is rewritten alone by "
          "`BENCH_SECTIONS=windows scripts/bench.sh`.)", ""]
    for major, res in window_results:
        sz = res["sizes"]
        md += [f"## Time windows on the key, PostgreSQL {major}", "",
               f"{WINDOW_ROWS:,} rows with v7 keys spread over the last 30 days (`by_key (id uuid PRIMARY KEY "
               "CHECK (uuid_is_v7(id)), payload int)`), queried the natural way, through "
               "`uuid_extract_timestamp(id)`: with the planner hook (docs/TIME_WINDOWS.md, \"Ordered reads by "
               "time\"); with the hook off (`uuid_ext.time_index_conditions = off`: PostgreSQL alone, the library "
               "loaded); and the same query on a `created_at timestamptz` column with its own index (`by_column`). "
               f"Each time is the mean of as many executions as fit in {WINDOW_SECONDS} s (at least one) in one "
               "session, with pgbench's simple protocol, so every execution is parsed and planned; the median of "
               f"{WINDOW_RUNS} interleaved rounds. Parallel plans are PostgreSQL's choice at default settings; "
               "\"no parallel workers\" sets `max_parallel_workers_per_gather = 0` for all three.", ""]
        md += windows_table(res["windows"])
        md += ["", f"### With statistics on the extractor, PostgreSQL {major}", "",
               "The narrower windows again after `CREATE STATISTICS by_key_time ON (uuid_extract_timestamp(id)) "
               "FROM by_key; ANALYZE by_key;` (docs/TIME_WINDOWS.md). Without them PostgreSQL estimates a "
               "window on the extractor at a third of the table, hook or no hook, and plans for that many rows "
               "(above: a Gather and two workers started for the 1-hour window); `created_at` has a column's "
               "statistics from the start.", ""]
        md += windows_table(res["with_stats"])
        md += ["", f"### Monthly partitions, PostgreSQL {major}", "",
               f"The same rows in {sz['partitions']} monthly partitions: `part_key` partitioned by `RANGE (id)` at "
               "`uuid_v7_lower_bound()` of each month (docs/TIME_WINDOWS.md, \"Time-partitioned tables\"), `PRIMARY KEY (id)`, "
               "`CHECK (uuid_is_v7(id))`; `part_column` partitioned by `RANGE (created_at)`, `PRIMARY KEY (id, "
               "created_at)` and an index on `created_at`; `part_checked` is `part_column` with "
               "`CHECK (uuid_is_v7(id))` as well.", ""]
        md += windows_table(res["partitioned"])
        md += ["", f"### BRIN only, PostgreSQL {major}", "",
               "The same rows in append-only tables with no btree at all: `brin_key (id uuid CHECK (uuid_is_v7(id)), "
               "payload int)` with `USING brin (id)` (`uuid_minmax_ops`), and `brin_column (id, created_at, payload)` "
               "with `USING brin (created_at)`.", "",
               "| index | size |", "|---|---|",
               f"| BRIN on the key | {sz['brin_key'] / 1024:.0f} kB |",
               f"| BRIN on `created_at` | {sz['brin_column'] / 1024:.0f} kB |",
               f"| btree primary key on the key (`by_key_pkey`) | {sz['btree_key'] / 2**20:.0f} MiB |",
               f"| btree on `created_at` (`by_column_created_at`) | {sz['btree_column'] / 2**20:.0f} MiB |",
               f"| (tables: `brin_key` {sz['brin_key_table'] / 2**20:.0f} MiB, `brin_column` "
               f"{sz['brin_column_table'] / 2**20:.0f} MiB) | |", ""]
        md += windows_table(res["brin"])
        many = res["many"]
        md += ["", f"### {PARTITIONS_MANY:,} partitions, PostgreSQL {major}", "",
               f"`many`: {PARTITIONS_MANY:,} hourly partitions by `RANGE (id)`, 100,000 rows; `{many['query']}` "
               "(simple protocol, every execution planned: PostgreSQL plans every partition, as the bound is "
               "only known at execution), alone and while another session creates and drops a temporary table "
               "about 100 times a second (each a relcache invalidation this session processes).", "",
               "| | alone | other session making temp tables | ratio |", "|---|---|---|---|",
               f"| key + hook | {ms(many['hook'])} | {ms(many['hook_churn'])} | {many['hook_churn'] / many['hook']:.2f}× |",
               f"| key, hook off | {ms(many['nohook'])} | {ms(many['nohook_churn'])} | "
               f"{many['nohook_churn'] / many['nohook']:.2f}× |", ""]
        saved = (sz["col_table"] + sz["col_indexes"]) - (sz["key_table"] + sz["key_indexes"])
        md += ["", "#### Plans", "", "On the key:", ""] + plans(res["windows"])
        md += ["On the partitioned key:", ""] + plans(res["partitioned"])
        md += ["BRIN only:", ""] + plans(res["brin"])
        md += [f"{PARTITIONS_MANY:,} partitions:", "", "```", many["plan"], "```", ""]
        md += [f"Dropping `created_at` and its index saves {saved / 2**20:.0f} MiB of "
               f"{(sz['col_table'] + sz['col_indexes']) / 2**20:.0f} MiB "
               f"({saved / (sz['col_table'] + sz['col_indexes']):.0%}): table {sz['col_table'] / 2**20:.0f} → "
               f"{sz['key_table'] / 2**20:.0f} MiB, indexes {sz['col_indexes'] / 2**20:.0f} → "
               f"{sz['key_indexes'] / 2**20:.0f} MiB.", "",
               f"Planning cost for queries *without* a time predicate (pgbench, simple protocol, so every "
               f"query is parsed and planned; a point query, {PLANNING_SECONDS} s × {WINDOW_RUNS} interleaved runs): "
               f"{res['tps']['on']:.0f} tps with the hook on, {res['tps']['off']:.0f} tps with "
               f"`uuid_ext.time_index_conditions = off` ({res['tps']['on'] / res['tps']['off'] - 1:+.1%}).", ""]
    md += ["| target | PostgreSQL | measured | met |", "|---|---|---|---|"]
    for major, res in window_results:
        every = [("", w) for w in res["windows"]] + [("partitioned: ", w) for w in res["partitioned"]] + \
                [("BRIN: ", w) for w in res["brin"]] + [("statistics: ", w) for w in res["with_stats"]]
        worst_table, worst = max(every, key=lambda tw: tw[1]["hook"] / tw[1]["nohook"])
        ratio = worst["hook"] / worst["nohook"]
        md.append(f"| hook on ≤ 1.05× hook off, every shape above | {major} | worst {ratio:.2f}× "
                  f"({worst_table}\"{worst['label']}\") | {'yes' if ratio <= 1.05 else 'no'} |")
        for table, rows in (("", res["windows"]), ("partitioned: ", res["partitioned"])):
            for w in rows:
                if w["short"]:
                    ratio = w["hook"] / w["created_at"]
                    md.append(f"| {table}\"{w['label']}\" ≤ 1.1× created_at, every execution planned | {major} | "
                              f"{ratio:.2f}× | {'yes' if ratio <= 1.1 else 'no'} |")
                    ratio = w["plan_hook"] / w["plan_created_at"]
                    md.append(f"| {table}\"{w['label']}\" planning only ≤ 1.1× created_at | {major} | "
                              f"{ratio:.2f}× | {'yes' if ratio <= 1.1 else 'no'} |")
                    if "checked" in w:
                        for what, key, other in (("every execution planned", "hook", "checked"),
                                                 ("planning only", "plan_hook", "plan_checked")):
                            ratio = w[key] / w[other]
                            md.append(f"| {table}\"{w['label']}\" {what} ≤ 1.1× created_at with the same CHECK | "
                                      f"{major} | {ratio:.2f}× | {'yes' if ratio <= 1.1 else 'no'} |")
        hour = res["windows"][0]
        speedup = hour["nohook"] / hour["hook"]
        md.append(f"| \"{hour['label']}\" ≥ 100× faster with the hook | {major} | {speedup:.0f}× | "
                  f"{'yes' if speedup >= 100 else 'no'} |")
        hour = res["with_stats"][0]
        speedup = hour["nohook"] / hour["hook"]
        md.append(f"| \"{hour['label']}\" ≥ 100× faster with the hook, statistics on the extractor | {major} | "
                  f"{speedup:.0f}× | {'yes' if speedup >= 100 else 'no'} |")
        for w in res["with_stats"]:
            ratio = w["hook"] / w["created_at"]
            md.append(f"| \"{w['label']}\" ≤ 1.1× created_at, statistics on the extractor | {major} | {ratio:.2f}× | "
                      f"{'yes' if ratio <= 1.1 else 'no'} |")
        brin_hour = res["brin"][0]
        through = "brin_key_id" in brin_hour["plan"]
        md.append(f"| BRIN only: \"{brin_hour['label']}\" through the BRIN index on the key | {major} | "
                  f"{'yes' if through else 'no'}, {brin_hour['nohook'] / brin_hour['hook']:.0f}× faster than "
                  f"hook off, {brin_hour['hook'] / brin_hour['created_at']:.2f}× BRIN on created_at | "
                  f"{'yes' if through else 'no'} |")
        many = res["many"]
        ratio = many["hook_churn"] / many["hook"]
        md.append(f"| {PARTITIONS_MANY:,} partitions: planning kept while other sessions make temp tables (≤ 1.1×) | "
                  f"{major} | {ratio:.2f}× (hook off: {many['nohook_churn'] / many['nohook']:.2f}×) | "
                  f"{'yes' if ratio <= 1.1 else 'no'} |")
    md += ["", WINDOWS_END]
    return md


def rust_bench():
    out = subprocess.run(["cargo", "bench", "-p", "uuid_ext_core", "--bench", "generators"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return "\n".join(line for line in out.splitlines() if line.startswith("|"))


def svg_chart(results_by_version, path):
    """Horizontal bars of marginal ns per call (minus the baseline), per server."""
    bar_h, gap, left, width = 16, 4, 330, 420
    rows = []
    for major, res in results_by_version:
        rows.append(("header", f"PostgreSQL {major}", 0, False))
        rows += [("bar", r["label"], max(r["marginal"], 0), r["peer"]) for r in res[1:]]
    vmax = max(v for kind, _, v, _ in rows if kind == "bar") or 1
    height = len(rows) * (bar_h + gap) + 40
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 90}" height="{height}" '
             'font-family="sans-serif" font-size="12">',
             f'<text x="10" y="16" font-weight="bold">Marginal cost per call, ns (minus count(g) baseline); '
             'blue = uuid_ext, grey = peers</text>']
    y = 30
    for kind, label, v, peer in rows:
        if kind == "header":
            parts.append(f'<text x="10" y="{y + 12}" font-weight="bold">{label}</text>')
        else:
            w = max(1, v / vmax * width)
            colour = "#999999" if peer else "#2a6fdb"
            parts.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{label}</text>')
            parts.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{colour}"/>')
            parts.append(f'<text x="{left + w + 4:.1f}" y="{y + 12}">{v:.0f}</text>')
        y += bar_h + gap
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def newest_markdown(per_call_results, window_results):
    """The generators' per-call cost and the time windows of each cluster, side by side, from one
    run: how the newest major compares with the one before it."""
    majors = [major for major, _ in per_call_results]
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    md = [NEWEST_BEGIN, "", f"## PostgreSQL {majors[-1]} beside {', '.join(str(m) for m in majors[:-1])}", "",
          f"`BENCH_SECTIONS=newest` (DEVELOPING.md, \"Benchmarks\"), "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {cpu}, {os.cpu_count()} cores: every server "
          "in the Debian sid chroot (scripts/sid.sh; PostgreSQL " + str(majors[-1]) + " is Debian's "
          + str(majors[-1]) + ", the others PyPI's builds), uuid_ext built there (`cargo pgrx install --release`). "
          f"Smaller than the sections above, so that one run fits: per call {N:,} rows × {RUNS} runs; time windows "
          f"on {WINDOW_ROWS:,} rows, {WINDOW_RUNS} rounds of {WINDOW_SECONDS} s. Compare the columns of this "
          "section with each other, not with the sections above; the servers are measured one after the "
          "other, and they are different builds (compiler, OpenSSL, uuid-ossp's library), so a peer's ratio "
          "says as much about the build as about the major.", "",
          "### Per-call cost, ns per row (median)", "",
          "| function | " + " | ".join(f"PostgreSQL {m}" for m in majors)
          + (f" | {majors[-1]} / {majors[-2]} |" if len(majors) > 1 else " |"),
          "|---|" + "---|" * (len(majors) + (1 if len(majors) > 1 else 0))]
    by_major = [{r["label"]: r for r in res} for _, res in per_call_results]
    for label in [r["label"] for r in per_call_results[-1][1]]:
        cells = [f"{b[label]['ns']:.0f}" if label in b else "—" for b in by_major]
        ratio = ""
        if len(majors) > 1:
            ratio = (f" {by_major[-1][label]['ns'] / by_major[-2][label]['ns']:.2f}× |"
                     if label in by_major[-2] else "  |")
        md.append(f"| {label} | " + " | ".join(cells) + " |" + ratio)
    md.append("")
    for line in windows_markdown(window_results)[1:-1]:  # without its markers, one heading level down
        md.append("#" + line if line.startswith("#") else line)
    md += ["", NEWEST_END]
    return md


def replace_section(begin_marker, end_marker, lines):
    """Rewrites one marked section of docs/BENCHMARKS.md, leaving the rest as it is."""
    path = os.path.join(ROOT, "docs", "BENCHMARKS.md")
    doc = open(path).read()
    if begin_marker not in doc:  # a section new to the document: before the Rust-level one
        at = doc.index("## Rust level")
        doc = doc[:at] + begin_marker + end_marker + "\n\n" + doc[at:]
    begin, end = doc.index(begin_marker), doc.index(end_marker) + len(end_marker)
    with open(path, "w") as f:
        f.write(doc[:begin] + "\n".join(lines) + doc[end:])


def main():
    clusters = [(int(a.split(":")[0]), a.split(":")[1], int(a.split(":")[2])) for a in sys.argv[1:]]
    per_call_results, insert_results, index_results, window_results, forms_results = [], [], [], [], []
    edition_results, public_results = [], []
    if SECTIONS == "windows":
        for major, bindir, port in clusters:
            print(f"PostgreSQL {major}: time windows ({WINDOW_ROWS} rows)", flush=True)
            window_results.append((major, time_windows(bindir, port)))
        replace_section(WINDOWS_BEGIN, WINDOWS_END, windows_markdown(window_results))
        return
    if SECTIONS == "newest":
        per, win = [], []
        for major, bindir, port in clusters:
            print(f"PostgreSQL {major}: per-call cost ({RUNS} runs x {N} rows)", flush=True)
            setup_databases(bindir, port)
            per.append((major, per_call(bindir, port, major)))
        for major, bindir, port in clusters:
            print(f"PostgreSQL {major}: time windows ({WINDOW_ROWS} rows)", flush=True)
            win.append((major, time_windows(bindir, port)))
        replace_section(NEWEST_BEGIN, NEWEST_END, newest_markdown(per, win))
        return
    if SECTIONS == "per_call":  # printed only, docs untouched: a quick look at the generators
        for major, bindir, port in clusters:
            setup_databases(bindir, port)
            res = per_call(bindir, port, major)
            floor = next(r["ns"] for r in res if r["label"].startswith("do-nothing"))
            for r in res:
                print(f"PostgreSQL {major}: {r['label']:48} {r['ns']:6.0f} ns/row  {r['ns'] / floor:.2f}× the floor")
        return
    if SECTIONS == "edition":
        edition_results = []
        for major, bindir, port in clusters:
            print(f"PostgreSQL {major}: the SQL edition ({RUNS} runs)", flush=True)
            edition_results.append((major, sql_edition(bindir, port, major)))
        replace_section(EDITION_BEGIN, EDITION_END, edition_markdown(edition_results))
        return
    if SECTIONS == "public":
        public_results = []
        for major, bindir, port in clusters:
            print(f"PostgreSQL {major}: public IDs ({RUNS} runs)", flush=True)
            public_results.append((major, public_ids(bindir, port)))
        replace_section(PUBLIC_BEGIN, PUBLIC_END, public_markdown(public_results))
        return
    if SECTIONS == "forms":
        for major, bindir, port in clusters:
            setup_databases(bindir, port)
            print(f"PostgreSQL {major}: text forms ({RUNS} runs x {FORMS_ROWS} rows)", flush=True)
            forms_results.append((major, text_forms(bindir, port)))
        replace_section(FORMS_BEGIN, FORMS_END, forms_markdown(forms_results))
        return
    # The section BENCH_SECTIONS=newest wrote, kept as it is (read first: a broken one stops the
    # run here, not after it has measured).
    path = os.path.join(ROOT, "docs", "BENCHMARKS.md")
    previous = open(path).read() if os.path.exists(path) else ""
    newest = ""
    if NEWEST_BEGIN in previous:
        newest = previous[previous.index(NEWEST_BEGIN):previous.index(NEWEST_END) + len(NEWEST_END)]
    for major, bindir, port in clusters:
        print(f"PostgreSQL {major}: setting up", flush=True)
        setup_databases(bindir, port)
        print(f"PostgreSQL {major}: text forms ({RUNS} runs x {FORMS_ROWS} rows)", flush=True)
        forms_results.append((major, text_forms(bindir, port)))
        print(f"PostgreSQL {major}: per-call cost ({RUNS} runs x {N} rows)", flush=True)
        per_call_results.append((major, per_call(bindir, port, major)))
        print(f"PostgreSQL {major}: inserts ({INSERT_ROWS} rows each)", flush=True)
        insert_results.append((major, inserts(bindir, port)))
        print(f"PostgreSQL {major}: index builds ({INDEX_ROWS} rows)", flush=True)
        index_results.append((major, index_build(bindir, port)))
        print(f"PostgreSQL {major}: time windows ({WINDOW_ROWS} rows)", flush=True)
        window_results.append((major, time_windows(bindir, port)))
        print(f"PostgreSQL {major}: the SQL edition ({RUNS} runs)", flush=True)
        edition_results.append((major, sql_edition(bindir, port, major)))
        print(f"PostgreSQL {major}: public IDs ({RUNS} runs)", flush=True)
        public_results.append((major, public_ids(bindir, port)))
    print("Rust level: generator module vs uuid crate", flush=True)
    rust = rust_bench()

    os.makedirs(os.path.join(ROOT, "docs"), exist_ok=True)
    svg_chart(per_call_results, os.path.join(ROOT, "docs", "bench-per-call.svg"))
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    md = ["# uuid_ext benchmarks", "",
          "Produced by `scripts/bench.sh` (this file and `bench-per-call.svg` are its output; do not edit by hand).",
          "",
          f"- Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
          f"- Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
          f"- Builds: uuid_ext release (`cargo pgrx install --release`); servers started by the script with default settings.",
          f"- Per-call: `SELECT count(f()) FROM generate_series(1, {N}) g`, {RUNS} runs per function, "
          "interleaved; median. *Marginal* = median minus the median of `count(g)` (no function) on the same server.",
          "- Noise: this is a shared 2-core VM. The min–max columns show the spread; marginal costs "
          "below ~150 ns move by tens of percent between runs, so a target near its limit can flip "
          "between runs. The Rust-level table at the end is the stable view of the generators' own cost.",
          "", "![per-call cost](bench-per-call.svg)", ""]
    for major, res in per_call_results:
        gen_random = next(r for r in res if r["label"] == "gen_random_uuid()")
        md += [f"## Per-call cost, PostgreSQL {major}", "",
               "| function | ns/row (median) | min–max | marginal ns | marginal vs gen_random_uuid() |",
               "|---|---|---|---|---|"]
        for r in res:
            ratio = "" if r is res[0] else f"{r['marginal'] / gen_random['marginal']:.3f}×"
            md.append(f"| {r['label']} | {r['ns']:.0f} | {r['spread'][0]:.0f}–{r['spread'][1]:.0f} | "
                      f"{r['marginal']:.0f} | {ratio} |")
        md.append("")
    for major, res in insert_results:
        v4 = next(r for r in res if r["fn"] == "uuid_generate_v4()")
        md += [f"## Inserts, PostgreSQL {major}", "",
               f"pgbench, 4 clients, {INSERT_ROWS} rows in transactions of 100 rows, "
               "`id uuid PRIMARY KEY DEFAULT f()`.", "",
               "| default | rows | seconds | rows/s | rate vs v4 | pkey index | index vs v4 | WAL | WAL vs v4 |",
               "|---|---|---|---|---|---|---|---|---|"]
        for r in res:
            md.append(f"| `{r['fn']}` | {r['rows']} | {r['secs']:.1f} | {r['rows_per_s']:.0f} | "
                      f"{r['rows_per_s'] / v4['rows_per_s']:.2f}× | {r['index_bytes'] / 2**20:.1f} MiB | "
                      f"{r['index_bytes'] / v4['index_bytes']:.2f}× | {r['wal_bytes'] / 2**20:.0f} MiB | "
                      f"{r['wal_bytes'] / v4['wal_bytes']:.2f}× |")
        md.append("")
    for major, res in index_results:
        md += [f"## CREATE INDEX, PostgreSQL {major}", "",
               f"{INDEX_ROWS} values in random order, `max_parallel_maintenance_workers = 0`, "
               "`maintenance_work_mem = 256MB`; median of runs.", "",
               "| data | opclass | seconds | vs uuid_ops |", "|---|---|---|---|"]
        for r in res:
            base = next(x for x in res if x["data"] == r["data"] and x["opclass"] == "uuid_ops")
            md.append(f"| {r['data']} | `{r['opclass']}` | {r['secs']:.2f} | {r['secs'] / base['secs']:.2f}× |")
        md += ["", "`uuid_time_ops_cmp_only` is the same order with only the comparison function "
               "(no sortsupport, no abbreviated keys), created by the benchmark for comparison.", ""]
    md += windows_markdown(window_results) + [""]
    md += ["## Targets: where we stand", "", "| target | PostgreSQL | measured | met |", "|---|---|---|---|"]
    for major, res in per_call_results:
        by = {r["label"]: r for r in res}
        grand = by["gen_random_uuid()"]["marginal"]
        for fn in ["uuid_ext uuid_generate_v7()", "uuid_ext uuid_generate_v4()"]:
            ratio = by[fn]["marginal"] / grand
            md.append(f"| `{fn.split()[1]}` marginal ≤ 1/20 of gen_random_uuid()'s | {major} | "
                      f"{ratio:.3f} (1/{1 / ratio:.0f}) | {'yes' if ratio <= 0.05 else 'no'} |")
        floor = by["do-nothing C function returning a uuid"]["ns"]
        for fn in ["uuid_ext uuid_generate_v7()", "uuid_ext uuid_generate_v4()"]:
            ratio = by[fn]["ns"] / floor
            md.append(f"| `{fn.split()[1]}` per call ≤ 1.3× a do-nothing C function returning a uuid | {major} | "
                      f"{ratio:.2f}× ({by[fn]['ns']:.0f} vs {floor:.0f} ns) | {'yes' if ratio <= 1.3 else 'no'} |")
        if "PostgreSQL 18 uuidv7()" in by:
            ratio = by["uuid_ext uuid_generate_v7()"]["marginal"] / by["PostgreSQL 18 uuidv7()"]["marginal"]
            md.append(f"| `uuid_generate_v7()` marginal vs PostgreSQL 18 `uuidv7()` | {major} | "
                      f"{ratio:.3f} (1/{1 / ratio:.1f}) | {'yes' if ratio < 1 else 'no'} |")
        ossp_v1 = by["uuid-ossp uuid_generate_v1()"]["marginal"]
        for fn in ["uuid_ext uuid_generate_v1()", "uuid_ext uuid_generate_v6()"]:
            speedup = ossp_v1 / by[fn]["marginal"]
            md.append(f"| `{fn.split()[1]}` ≥ 50× cheaper than uuid-ossp v1 | {major} | {speedup:.0f}× | "
                      f"{'yes' if speedup >= 50 else 'no'} |")
    for major, res in insert_results:
        v7 = next(r for r in res if r["fn"] == "uuid_generate_v7()")
        v4 = next(r for r in res if r["fn"] == "uuid_generate_v4()")
        rate, size = v7["rows_per_s"] / v4["rows_per_s"], v7["index_bytes"] / v4["index_bytes"]
        md.append(f"| v7 pkey inserts ≥ 1.3× v4's rate | {major} | {rate:.2f}× | {'yes' if rate >= 1.3 else 'no'} |")
        md.append(f"| v7 pkey index ≤ 0.8× v4's size | {major} | {size:.2f}× | {'yes' if size <= 0.8 else 'no'} |")
    for major, res in index_results:
        get = lambda o: next(x["secs"] for x in res if x["data"] == "mixed v1/v6/v7" and x["opclass"] == o)
        ratio = get("uuid_time_ops") / get("uuid_ops")
        md.append(f"| CREATE INDEX `uuid_time_ops` ≤ 1.2× `uuid_ops` (mixed data) | {major} | {ratio:.2f}× | "
                  f"{'yes' if ratio <= 1.2 else 'no'} |")
    md += ["", "Where the remaining time goes: see [PROFILE.md](PROFILE.md).", ""]
    md += forms_markdown(forms_results) + [""]
    md += edition_markdown(edition_results) + [""]
    md += public_markdown(public_results) + [""]
    md += ["## Rust level: generator module vs the `uuid` crate", "",
           "`cargo bench -p uuid_ext_core --bench generators` (crates/uuid_ext_core/benches/generators.rs): ns per UUID, median of 9 interleaved "
           "rounds of 10^6. uuid_ext's side includes the per-backend state access and the clock read, as "
           "in the SQL functions.", "", rust, ""]
    if newest:  # measured by BENCH_SECTIONS=newest in the chroot: kept as it is
        at = md.index("## Rust level: generator module vs the `uuid` crate")
        md[at:at] = [newest, ""]
    with open(path, "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(ROOT, "target", "bench-results.json"), "w") as f:
        json.dump({"per_call": per_call_results, "inserts": insert_results, "index": index_results,
                   "windows": window_results}, f, indent=1)
    print("wrote docs/BENCHMARKS.md and docs/bench-per-call.svg")


if __name__ == "__main__":
    main()
