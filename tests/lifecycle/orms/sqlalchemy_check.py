# A SQLAlchemy 2 program (psycopg 3) against a database with uuid_ext, and Alembic's autogenerate
# on its models; run by tests/lifecycle/orms.sh. Prints one "ok - ..." / "not ok - ..." line per
# check, each prefixed with $ORM_LABEL.
import datetime
import os
import uuid

from alembic.autogenerate import compare_metadata, produce_migrations
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import DateTime, create_engine, event, func, insert, select, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, orm_insert_sentinel

LABEL = os.environ.get("ORM_LABEL", "SQLAlchemy")
CHECKS = 0


def check(name, ok, detail=""):
    global CHECKS
    CHECKS += 1
    print(f"{'ok' if ok else 'not ok'} - {LABEL}: {name}" + ("" if ok else f" ({detail})"), flush=True)


# docs/ORMS.md, SQLAlchemy: as written there.
class Base(DeclarativeBase):
    pass


class Event(Base):
    __tablename__ = "events"
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, server_default=text("uuid_generate_v7()"))
    seq: Mapped[int]
    # Lets a flush of many objects be one INSERT ... RETURNING whose keys SQLAlchemy can match
    # back to the objects (without it, one INSERT per object).
    _sentinel: Mapped[int] = orm_insert_sentinel()


class Plain(Base):
    """The same key without the sentinel column."""

    __tablename__ = "plain"
    id: Mapped[uuid.UUID] = mapped_column(primary_key=True, server_default=text("uuid_generate_v7()"))
    seq: Mapped[int]


def is_v7(u):
    return isinstance(u, uuid.UUID) and u.version == 7 and u.variant == uuid.RFC_4122


engine = create_engine(
    f"postgresql+psycopg://{os.environ.get('PGUSER', 'postgres')}@127.0.0.1:{os.environ['PGPORT']}/{os.environ['PGDATABASE']}"
)
statements = []


@event.listens_for(engine, "before_cursor_execute")
def record(conn, cursor, statement, parameters, context, executemany):
    statements.append(statement)


# Alembic's autogenerate: the migration it makes from the models on an empty database, applied;
# then, compared with server defaults, nothing left to generate; generating and applying again
# changes nothing.
def autogenerate(conn):
    ctx = MigrationContext.configure(conn, opts={"compare_server_default": True, "compare_type": True})
    return ctx, produce_migrations(ctx, Base.metadata).upgrade_ops


with engine.begin() as conn:
    ctx, ops = autogenerate(conn)
    created = sorted(op.table_name for op in ops.ops)
    check("Alembic autogenerate on an empty database: the two tables", created == ["events", "plain"], created)
    op = Operations(ctx)
    for o in ops.ops:
        op.invoke(o)
with engine.begin() as conn:
    ctx = MigrationContext.configure(conn, opts={"compare_server_default": True, "compare_type": True})
    diff = compare_metadata(ctx, Base.metadata)
    check("Alembic compare_metadata (server defaults compared) after the migration: no change", diff == [], diff)
    ctx, ops = autogenerate(conn)
    check("Alembic autogenerate a second time: nothing to apply", ops.is_empty(), ops.ops)
    default = conn.execute(
        text(
            """SELECT count(*) FROM pg_attrdef ad
                 JOIN pg_depend d ON d.classid = 'pg_attrdef'::regclass AND d.objid = ad.oid
                                 AND d.refclassid = 'pg_proc'::regclass
                 JOIN pg_depend m ON m.classid = 'pg_proc'::regclass AND m.objid = d.refobjid
                                 AND m.deptype = 'e' AND m.refclassid = 'pg_extension'::regclass
                 JOIN pg_extension e ON e.oid = m.refobjid AND e.extname = 'uuid_ext'
                 JOIN pg_proc p ON p.oid = d.refobjid AND p.proname = 'uuid_generate_v7'
                WHERE ad.adrelid IN ('events'::regclass, 'plain'::regclass)"""
        )
    ).scalar()
    check("both keys' DEFAULT calls uuid_ext's uuid_generate_v7()", default == 2, default)

with Session(engine) as s:
    before = s.execute(select(func.clock_timestamp())).scalar()
    # The ORM: one object, then 1,000 in one flush.
    e = Event(seq=0)
    s.add(e)
    s.flush()
    check("ORM: one object's key comes back from the INSERT, a v7", is_v7(e.id), e.id)
    objs = [Event(seq=i) for i in range(1, 1001)]
    statements.clear()
    s.add_all(objs)
    s.flush()
    inserts = [x for x in statements if x.startswith("INSERT")]
    check("ORM: a flush of 1,000 with the sentinel column is one INSERT ... RETURNING", len(inserts) == 1, len(inserts))
    keys = [o.id for o in objs]
    check("ORM: every key back, a v7, all distinct", all(is_v7(k) for k in keys) and len(set(keys)) == 1000, keys[:3])
    stored = dict(s.execute(select(Event.id, Event.seq).where(Event.id.in_(keys))).all())
    check("ORM: each key is its own object's row (keys back in insertion order)",
          all(stored.get(o.id) == o.seq for o in objs), sum(stored.get(o.id) != o.seq for o in objs))
    # Without the sentinel: correct, one INSERT per object.
    plain = [Plain(seq=i) for i in range(200)]
    statements.clear()
    s.add_all(plain)
    s.flush()
    inserts = [x for x in statements if x.startswith("INSERT")]
    stored = dict(s.execute(select(Plain.id, Plain.seq)).all())
    check("ORM without the sentinel column: every key right, one INSERT per object",
          len(inserts) == 200 and all(is_v7(p.id) and stored.get(p.id) == p.seq for p in plain), len(inserts))
    # Core: insert().returning() of many rows, in the order of the parameters.
    statements.clear()
    rows = s.execute(
        insert(Event).returning(Event.id, Event.seq, sort_by_parameter_order=True),
        [{"seq": i} for i in range(1001, 2001)],
    ).all()
    inserts = [x for x in statements if x.startswith("INSERT")]
    check("Core: insert().returning(sort_by_parameter_order=True) of 1,000: rows back in parameter order",
          [r.seq for r in rows] == list(range(1001, 2001)) and all(is_v7(r.id) for r in rows), rows[:2])
    check("Core: ... in one INSERT", len(inserts) == 1, len(inserts))
    after = s.execute(select(func.clock_timestamp())).scalar()
    # Order by the key is creation order.
    seqs = s.execute(select(Event.seq).order_by(Event.id)).scalars().all()
    check("ORDER BY id is creation order", seqs == list(range(0, 2001)), seqs[:5])
    # The time through the ORM, within the clock window of the calls (the key keeps milliseconds).
    at = func.uuid_extract_timestamp(Event.id, type_=DateTime(timezone=True))
    times = s.execute(select(at)).scalars().all()
    lo = before.replace(microsecond=before.microsecond // 1000 * 1000)
    check("func.uuid_extract_timestamp(Event.id): each row's time, within the clock window",
          len(times) == 2001 and all(isinstance(t, datetime.datetime) and lo <= t <= after for t in times),
          (min(times, default=None), max(times, default=None), lo, after))
    n = s.execute(select(func.count()).select_from(Event).where(at >= before, at <= after)).scalar()
    check("a time window through the ORM (where on uuid_extract_timestamp): every row", n == 2001, n)
    s.commit()
print(f"ok - {LABEL}: ran to the end ({CHECKS} checks)")
