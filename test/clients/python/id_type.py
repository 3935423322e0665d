# psycopg2 against a table keyed by the uid type (orders).  Prints
# tab-separated lines for the test to check against the database's id::text:
#   column STAGE TYPES EXACT N   the column fetched, before ("default") and
#                                after ("registered") the one-line
#                                registration of the type's OID with
#                                psycopg2's integer caster; TYPES are the
#                                Python types seen
#   json TYPES EXACT N           json_agg, which psycopg2 decodes itself
#   lookup PARAM FOUND N         a lookup by id passed as a str and as an int
#   any FORM FOUND N             WHERE id = ANY(%s) with the list of ids as
#                                psycopg2 returned them (str): as is
#                                ("plain": psycopg2 sends ARRAY['1', ...], a
#                                text[], so FOUND is the SQLSTATE of the
#                                error) and with the cast of docs/clients.md
#                                ("cast": = ANY(%s::uid[])); "cast-empty":
#                                the cast form with an empty list
#
#   python3 id_type.py DSN
import sys

import psycopg2
import psycopg2.extensions

conn = psycopg2.connect(sys.argv[1])
cur = conn.cursor()
cur.execute('SELECT item, id::text FROM orders')
truth = dict(cur.fetchall())

# = ANY(%s) with a list of the ids psycopg2 returned (str), before the
# registration below turns them into int
cur.execute('SELECT item, id FROM orders ORDER BY id LIMIT 50')
ids = [i for _, i in cur.fetchall()]
try:
    cur.execute('SELECT count(*) FROM orders WHERE id = ANY(%s)', (ids,))
    print('any', 'plain', cur.fetchone()[0], len(ids), sep='\t')
except psycopg2.Error as e:
    conn.rollback()
    print('any', 'plain', e.pgcode, len(ids), sep='\t')
# the line docs/clients.md gives, as it gives it
cur.execute('SELECT * FROM orders WHERE id = ANY(%s::uid[])', (ids,))
found = sorted(str(row[0]) for row in cur.fetchall())
print('any', 'cast', len(found) if found == sorted(ids) else 'other rows', len(ids), sep='\t')
cur.execute('SELECT * FROM orders WHERE id = ANY(%s::uid[])', ([],))
print('any', 'cast-empty', len(cur.fetchall()), 0, sep='\t')


def column(stage):
    cur.execute('SELECT item, id FROM orders')
    rows = cur.fetchall()
    types = sorted({type(i).__name__ for _, i in rows})
    exact = sum(1 for item, i in rows if str(i) == truth[item])
    print('column', stage, ','.join(types), exact, len(rows), sep='\t')


column('default')
# the registration: the type's OID read as an integer, like bigint
cur.execute("SELECT 'uid'::regtype::oid")
uid_oid = cur.fetchone()[0]
psycopg2.extensions.register_type(
    psycopg2.extensions.new_type((uid_oid,), 'UID', psycopg2.extensions.INTEGER))
column('registered')

cur.execute('SELECT json_agg(o) FROM orders o')
rows = cur.fetchone()[0]
types = sorted({type(o['id']).__name__ for o in rows})
exact = sum(1 for o in rows if str(o['id']) == truth[o['item']])
print('json', ','.join(types), exact, len(rows), sep='\t')

sample = list(truth.items())[:50]
for name, conv in (('str', str), ('int', int)):
    found = 0
    for item, i in sample:
        cur.execute('SELECT item FROM orders WHERE id = %s', (conv(i),))
        row = cur.fetchone()
        found += 1 if row and row[0] == item else 0
    print('lookup', name, found, len(sample), sep='\t')
conn.close()
