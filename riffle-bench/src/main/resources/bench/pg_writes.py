# PgWriteBenchmark's Python clients: writes rows row by row as applications do, prints "RESULT <rows/s>".
#   pg_writes.py psycopg2|psycopg3|pandas HOST PORT TABLE ROWS
import sys
import time

mode, host, port, table, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
data = [(i, "name-%d" % i, i * 0.5) for i in range(rows)]

if mode == "psycopg2":
    import psycopg2
    conn = psycopg2.connect(host=host, port=port, dbname="riffle", user="riffle")
    cur = conn.cursor()
    started = time.perf_counter()
    # psycopg2 sends each row as its own simple query (literals inlined) inside one transaction
    cur.executemany("INSERT INTO " + table + " (id, name, amount) VALUES (%s, %s, %s)", data)
    conn.commit()
    elapsed = time.perf_counter() - started
elif mode == "psycopg3":
    import psycopg
    conn = psycopg.connect(host=host, port=port, dbname="riffle", user="riffle", autocommit=True)
    cur = conn.cursor()
    started = time.perf_counter()
    # psycopg 3 pipelines executemany: Parse/Bind/Execute per row, one Sync at the end
    cur.executemany("INSERT INTO " + table + " (id, name, amount) VALUES (%s, %s, %s)", data)
    elapsed = time.perf_counter() - started
elif mode == "pandas":
    import pandas
    from sqlalchemy import create_engine
    engine = create_engine("postgresql+psycopg2://riffle@%s:%d/riffle" % (host, port))
    schema, name = table.split(".")
    frame = pandas.DataFrame(data, columns=["id", "name", "amount"])
    started = time.perf_counter()
    frame.to_sql(name, engine, schema=schema, if_exists="append", index=False)
    elapsed = time.perf_counter() - started
else:
    raise SystemExit("unknown mode " + mode)
print("RESULT %.1f rows/s (%d rows in %.3f s)" % (rows / elapsed, rows, elapsed))
