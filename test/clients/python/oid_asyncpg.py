# asyncpg and SQLAlchemy's asyncpg dialect against a table keyed by the uid
# type, with and without the one line of set-up docs/clients.md gives.
# Prints one JSON object: {"steps": {STEP: "ok" or the error}, "json": the
# application's own JSON (json.dumps) of the rows the test seeded}.  Steps: insert
# with the DEFAULT, read the id back by item, look the row up, update it
# and delete it by the id as a bound parameter, and the same by the id as
# an int; then SQLAlchemy's session.get, update and delete.
#
#   python3 oid_asyncpg.py DSN TABLE FIX(0|1)
import asyncio
import sys

import asyncpg
from sqlalchemy import BigInteger, Column, Text, event, select
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from sqlalchemy.orm import declarative_base

from oid_report import error_text, print_report

dsn, table, fix = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
steps = {}
rows = []


async def uid_codec(conn):
    # the set-up: the uid type's text, read and bound as a str (str() of an
    # int too), so that ids stay exact in the application's JSON
    await conn.set_type_codec('uid', schema='public', encoder=str, decoder=str, format='text')


async def uid_codec_int(conn):
    # the set-up for SQLAlchemy, which binds a BigInteger column's values
    # as $1::bigint (an int): the ids are read as ints, as from bigint
    await conn.set_type_codec('uid', schema='public', encoder=str, decoder=int, format='text')


async def step(name, coro):
    try:
        result = await coro
        steps[name] = 'ok'
        return result
    except Exception as e:  # the client's own error is the outcome
        steps[name] = error_text(e)
        return None


async def plain():
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=1, init=uid_codec if fix else None)
    async with pool.acquire() as c:
        for n, conv in (('', None), ('_int', int)):
            item = f'asyncpg{n}'
            i = await step('insert' + n, c.fetchval(f"INSERT INTO {table} (item) VALUES ($1) RETURNING id", item))
            got = await step('read' + n, c.fetchval(f'SELECT id FROM {table} WHERE item = $1', item))
            if got is None:
                continue
            p = conv(got) if conv else got
            found = await step('lookup' + n, c.fetchval(f'SELECT item FROM {table} WHERE id = $1', p))
            if found is not None and found != item:
                steps['lookup' + n] = f'found {found}'
            await step('update' + n, c.execute(f"UPDATE {table} SET item = item || ' updated' WHERE id = $1", p))
            await step('delete' + n, c.execute(f'DELETE FROM {table} WHERE id = $1', p))
        i = await step('insert_explicit', c.fetchval(
            f"INSERT INTO {table} (id, item) VALUES ($1, 'asyncpg explicit') RETURNING id",
            await c.fetchval('SELECT uid_next()')))
        seeded = await step('read_seeded', c.fetch(f"SELECT item, id FROM {table} WHERE item LIKE 'seed %'"))
        rows.extend(dict(r) for r in seeded or [])
    await pool.close()


Base = declarative_base()


class Order(Base):
    __tablename__ = table
    id = Column(BigInteger, primary_key=True)
    item = Column(Text, nullable=False)


async def orm():
    engine = create_async_engine('postgresql+asyncpg://' + dsn.split('://', 1)[1])
    if fix:
        # the same set-up through SQLAlchemy's connect event
        @event.listens_for(engine.sync_engine, 'connect')
        def on_connect(dbapi_connection, record):
            dbapi_connection.run_async(uid_codec_int)
    async with AsyncSession(engine) as s:
        async def insert():
            s.add(Order(item='sqlalchemy'))
            await s.commit()
        await step('orm_insert', insert())
        got = await step('orm_read', s.scalar(select(Order.id).where(Order.item == 'sqlalchemy')))
        if got is not None:
            s.expunge_all()

            async def get_update_delete():
                o = await s.get(Order, got)
                if o is None:
                    raise LookupError('session.get found nothing')
                o.item = 'sqlalchemy updated'
                await s.commit()
                steps['orm_get_update'] = 'ok'
                await s.delete(o)
                await s.commit()
            await step('orm_get_update_delete', get_update_delete())
    await engine.dispose()


asyncio.run(plain())
asyncio.run(orm())
print_report(steps, rows)
