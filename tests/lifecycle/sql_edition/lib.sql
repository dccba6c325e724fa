-- Functions the SQL edition's tests share (schema t), included by differential.sql and
-- generators.sql.
CREATE SCHEMA IF NOT EXISTS t;

-- The outcome of one statement, as text.
CREATE OR REPLACE FUNCTION t.outcome(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r text;
    st text;
    msg text;
    det text;
    hin text;
BEGIN
    EXECUTE q INTO r;
    RETURN 'value ' || coalesce(r, 'NULL');
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hin = PG_EXCEPTION_HINT;
    RETURN 'error ' || st || ' ' || msg || ' | ' || coalesce(det, '') || ' | ' || coalesce(hin, '');
END $$;

-- A report line: ok when nothing differs, else the count and the first few differences.
CREATE OR REPLACE FUNCTION t.report(what text, checked bigint, diffs text[]) RETURNS text LANGUAGE sql AS $$
    SELECT CASE WHEN coalesce(cardinality(diffs), 0) = 0 AND checked > 0
                THEN 'ok - ' || what || ' (' || checked || ' compared)'
                ELSE 'not ok - ' || what || ': ' || coalesce(cardinality(diffs), 0) || ' of ' || checked
                     || ' differ; first: ' || coalesce(array_to_string(diffs[1:3], ' // '), 'none compared')
           END
$$;

-- A verdict line.
CREATE OR REPLACE FUNCTION t.verdict(what text, good boolean, detail text DEFAULT NULL) RETURNS text LANGUAGE sql AS $$
    SELECT CASE WHEN good THEN 'ok - ' ELSE 'not ok - ' END || what || CASE WHEN good OR detail IS NULL THEN '' ELSE ': ' || detail END
$$;
