# psycopg 3 with binary results against a table keyed by the uid type, with
# and without the loader docs/clients.md gives; the same protocol as
# oid_asyncpg.py: one JSON object of the steps and the application's own
# JSON (json.dumps) of the rows the test seeded.
#
#   python3 oid_psycopg.py DSN TABLE FIX(0|1)
import sys

import psycopg
from psycopg.types import TypeInfo
from psycopg.types.numeric import Int8BinaryLoader

from oid_report import error_text, print_report

dsn, table, fix = sys.argv[1], sys.argv[2], sys.argv[3] == '1'
steps = {}


class UidBinaryLoader(Int8BinaryLoader):
    # the uid type's binary form is bigint's; the application gets the id's
    # text, as in text mode, so that its JSON keeps every digit
    def load(self, data):
        return str(super().load(data))


def step(name, fn):
    try:
        result = fn()
        steps[name] = 'ok'
        return result
    except Exception as e:  # the client's own error is the outcome
        steps[name] = error_text(e)
        return None


conn = psycopg.connect(dsn, autocommit=True)
if fix:
    conn.adapters.register_loader(TypeInfo.fetch(conn, 'uid').oid, UidBinaryLoader)
cur = conn.cursor(binary=True)


def one(sql, *params):
    return cur.execute(sql, params).fetchone()


for n, conv in (('', None), ('_int', int), ('_str', str)):
    item = f'psycopg{n}'
    step('insert' + n, lambda: one(f'INSERT INTO {table} (item) VALUES (%s) RETURNING id', item))
    got = step('read' + n, lambda: one(f'SELECT id FROM {table} WHERE item = %s', item)[0])
    if got is None:
        continue
    p = step('convert' + n, lambda: conv(got)) if conv else got
    if p is None:
        continue
    found = step('lookup' + n, lambda: one(f'SELECT item FROM {table} WHERE id = %s', p))
    if found is not None and found[0] != item:
        steps['lookup' + n] = f'found {found[0]}'
    step('update' + n, lambda: cur.execute(f"UPDATE {table} SET item = item || ' updated' WHERE id = %s", (p,)))
    step('delete' + n, lambda: cur.execute(f'DELETE FROM {table} WHERE id = %s', (p,)))
rows = step('read_seeded', lambda: [
    {'item': r[0], 'id': r[1]} for r in cur.execute(f"SELECT item, id FROM {table} WHERE item LIKE 'seed %'")])
print_report(steps, rows)
