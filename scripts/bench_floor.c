/*
 * The floor scripts/bench.py measures the generators against: a C function of no arguments that
 * returns a fresh uuid and does nothing else (a palloc of 16 bytes, zeroed). Built and installed
 * by scripts/bench.sh into the benchmark's servers only.
 */
#include "postgres.h"
#include "fmgr.h"
#include "utils/uuid.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(bench_uuid_floor);

Datum
bench_uuid_floor(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *uuid = palloc0(sizeof(pg_uuid_t));

	PG_RETURN_UUID_P(uuid);
}
