# The Django project against a database with uuid_ext, run by tests/lifecycle/orms.sh from a
# scratch copy of django_project/ (the migration it generates is written there). Prints one
# "ok - ..." / "not ok - ..." line per check, each prefixed with $ORM_LABEL.
import io
import os
import sys
import uuid

import django

os.environ["DJANGO_SETTINGS_MODULE"] = "settings"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import DateTimeField, F, Func  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from events.models import Event  # noqa: E402

LABEL = os.environ.get("ORM_LABEL", "Django")
CHECKS = 0


def check(name, ok, detail=""):
    global CHECKS
    CHECKS += 1
    print(f"{'ok' if ok else 'not ok'} - {LABEL}: {name}" + ("" if ok else f" ({detail})"), flush=True)


def command(*args):
    out = io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=out)
        return 0, out.getvalue()
    except SystemExit as e:
        return e.code, out.getvalue()


def scalar(sql, *params):
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone()[0]


def is_v7(u):
    return isinstance(u, uuid.UUID) and u.version == 7 and u.variant == uuid.RFC_4122


# Migrations: generated once, applied, and then nothing more to generate or apply.
code, out = command("makemigrations", "events")
migrations = sorted(f for f in os.listdir("events/migrations") if f[0].isdigit())
check("makemigrations writes one initial migration", code == 0 and len(migrations) == 1, out)
code, out = command("migrate")
check("migrate applies it", code == 0 and "Applying events.0001_initial... OK" in out, out)
# The column's default is a call of uuid_ext's own uuid_generate_v7().
ours = scalar(
    """SELECT count(*) FROM pg_attrdef ad
         JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid
                         AND d.refclassid = 'pg_proc'::regclass
         JOIN pg_depend m ON m.classid = 'pg_proc'::regclass AND m.objid = d.refobjid AND m.deptype = 'e'
                         AND m.refclassid = 'pg_extension'::regclass
         JOIN pg_extension e ON e.oid = m.refobjid AND e.extname = 'uuid_ext'
         JOIN pg_proc p ON p.oid = d.refobjid AND p.proname = 'uuid_generate_v7'
        WHERE ad.adrelid = 'events_event'::regclass"""
)
check("the key column's DEFAULT calls uuid_ext's uuid_generate_v7()", ours == 1, f"{ours} such defaults")
code, out = command("makemigrations", "--check", "--dry-run")
check("makemigrations --check afterwards: no changes detected", code == 0 and "No changes detected" in out, out)
code, out = command("migrate")
check("migrate a second time: nothing to apply", code == 0 and "No migrations to apply" in out, out)

# One object: its key comes back from the INSERT.
before = scalar("SELECT clock_timestamp()")
e = Event.objects.create(seq=0)
check("create(): the key the database made comes back, a v7", is_v7(e.pk), repr(e.pk))
e2 = Event(seq=1)
e2.save()
check("save() of a new object: the same", is_v7(e2.pk) and e2.pk > e.pk, repr(e2.pk))

# Many: one INSERT, every key back, each on its own object.
objs = [Event(seq=i) for i in range(2, 1002)]
with CaptureQueriesContext(connection) as q:
    Event.objects.bulk_create(objs)
after = scalar("SELECT clock_timestamp()")
inserts = [x for x in q.captured_queries if x["sql"].startswith("INSERT")]
check("bulk_create of 1,000: one INSERT", len(inserts) == 1, f"{len(inserts)} INSERTs")
keys = [o.pk for o in objs]
check("bulk_create: every key back, a v7, all distinct",
      all(is_v7(k) for k in keys) and len(set(keys)) == len(keys), repr(keys[:3]))
stored = dict(Event.objects.filter(pk__in=keys).values_list("pk", "seq"))
check("bulk_create: each key is its own object's row (keys back in insertion order)",
      all(stored.get(o.pk) == o.seq for o in objs), f"{sum(stored.get(o.pk) != o.seq for o in objs)} differ")
seqs = list(Event.objects.order_by("pk").values_list("seq", flat=True))
check("order_by('pk') is creation order", seqs == list(range(0, 1002)), repr(seqs[:5]))

# The time, through the ORM: uuid_extract_timestamp() as a Func, within the calls' clock window
# (the key keeps milliseconds).
at = Func(F("pk"), function="uuid_extract_timestamp", output_field=DateTimeField())
times = list(Event.objects.annotate(at=at).values_list("at", flat=True))
lo = before.replace(microsecond=before.microsecond // 1000 * 1000)
check("uuid_extract_timestamp(id) through the ORM: each row's time, within the clock window",
      len(times) == 1002 and all(t is not None and lo <= t <= after for t in times),
      f"{min(times, default=None)} .. {max(times, default=None)} outside {lo} .. {after}")
n = Event.objects.annotate(at=at).filter(at__gte=before, at__lte=after).count()
check("a time window through the ORM (filter on the annotation): every row", n == 1002, f"{n} rows")

# Fixtures (loaddata saves raw, past pre_save): with the key, and without it (the database's).
os.makedirs("events/fixtures", exist_ok=True)
with open("events/fixtures/seed.json", "w") as f:
    f.write('[{"model": "events.event", "fields": {"seq": 5001}},'
            ' {"model": "events.event", "pk": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "fields": {"seq": 5002}}]')
code, out = command("loaddata", "seed")
rows = dict(Event.objects.filter(seq__in=[5001, 5002]).values_list("seq", "pk"))
check("loaddata: a fixture without its key gets a v7 from the database, one with it keeps it",
      code == 0 and is_v7(rows.get(5001)) and str(rows.get(5002)) == "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", (out, rows))
# A copy (pk = None, save()) is a new row with a new key; get_or_create makes one once.
e3 = Event.objects.get(seq=0)
old = e3.pk
e3.pk = None
e3._state.adding = True
e3.save()
check("a copy saved with pk = None gets a new key from the database", is_v7(e3.pk) and e3.pk != old, repr(e3.pk))
g1, made1 = Event.objects.get_or_create(seq=6000)
g2, made2 = Event.objects.get_or_create(seq=6000)
check("get_or_create: made once, with a v7 key, found the second time",
      made1 and not made2 and is_v7(g1.pk) and g1.pk == g2.pk, (made1, made2, g1.pk, g2.pk))
print(f"ok - {LABEL}: ran to the end ({CHECKS} checks)")
