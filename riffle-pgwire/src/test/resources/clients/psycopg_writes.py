# Row-at-a-time writes as Python applications send them, against Riffle's PostgreSQL port; prints
# what it saw as JSON.  psycopg_writes.py HOST PORT DATABASE
import json
import sys

import psycopg
import psycopg2

host, port, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
out = {}

# psycopg 3: executemany pipelines its rows (Parse/Bind/Execute each, one Sync)
with psycopg.connect(host=host, port=port, dbname="riffle", user="riffle", autocommit=True) as conn:
    cur = conn.cursor()
    cur.executemany("INSERT INTO " + db + ".events (id, name) VALUES (%s, %s)",
                    [(i, "n%d" % i) for i in range(2000)])
    cur.execute("SELECT count(*), sum(id) FROM " + db + ".events")
    out["pipelined"] = list(cur.fetchone())
    try:
        cur.executemany("INSERT INTO " + db + ".strict (id, name) VALUES (%s, %s)",
                        [(1, "a"), (2, "b"), (3, "c"), (None, "bad"), (5, "e")])
        out["failed_batch"] = "no error"
    except psycopg.Error as e:
        out["failed_batch"] = {"sqlstate": e.sqlstate, "message": str(e).splitlines()[0]}
    cur.execute("SELECT count(*) FROM " + db + ".strict")
    out["strict_after_failure"] = cur.fetchone()[0]

# psycopg2: a simple query per row, literals inlined, in one transaction up to commit()
conn = psycopg2.connect(host=host, port=port, dbname="riffle", user="riffle")
cur = conn.cursor()
cur.executemany("INSERT INTO " + db + ".events (id, name) VALUES (%s, %s)",
                [(i, "it's %d" % i) for i in range(2000, 2500)])
cur.execute("SELECT count(*) FROM " + db + ".events")
out["in_transaction"] = cur.fetchone()[0]
conn.commit()
cur.execute("SELECT name FROM " + db + ".events WHERE id = 2499")
out["quoted"] = cur.fetchone()[0]
conn.commit()
conn.close()
print(json.dumps(out))
