# The report of the clients of TAP 122 (oid_asyncpg.py, oid_psycopg.py):
# one JSON object, {"steps": {STEP: "ok" or the client's error}, "json":
# the application's own JSON (json.dumps) of the rows the test seeded}.
import json


def error_text(e):
    """A client's error as one line: its class and the first line of its message."""
    return f'{type(e).__name__}: {e}'.splitlines()[0]


def print_report(steps, rows):
    """Writes the rows with json.dumps, as the application would (a step of
    its own, "json", where that fails), and prints the report."""
    try:
        out = json.dumps(rows)
    except TypeError as e:
        steps['json'] = error_text(e)
        out = '[]'
    print(json.dumps({'steps': steps, 'json': out}))
