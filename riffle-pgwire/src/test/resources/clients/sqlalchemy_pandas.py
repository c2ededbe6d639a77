"""SQLAlchemy and pandas against Riffle's PostgreSQL port, as an application uses them.

Prints one JSON object with what each step saw; the Java test asserts on it.
Usage: python3 sqlalchemy_check.py HOST PORT SCHEMA
"""
import json
import sys

import pandas
import sqlalchemy
from sqlalchemy import MetaData, Table, inspect, select

host, port, schema = sys.argv[1], sys.argv[2], sys.argv[3]
engine = sqlalchemy.create_engine(f"postgresql+psycopg2://riffle@{host}:{port}/riffle")
out = {}
inspector = inspect(engine)
out["schemas"] = sorted(inspector.get_schema_names())
out["tables"] = sorted(inspector.get_table_names(schema=schema))
out["columns"] = [
    {"name": c["name"], "type": str(c["type"]), "nullable": c["nullable"]}
    for c in inspector.get_columns("orders", schema=schema)
]
out["pk"] = inspector.get_pk_constraint("orders", schema=schema)
out["indexes"] = inspector.get_indexes("orders", schema=schema)
out["foreign_keys"] = inspector.get_foreign_keys("orders", schema=schema)
out["table_comment"] = inspector.get_table_comment("orders", schema=schema)

orders = Table("orders", MetaData(), autoload_with=engine, schema=schema)
with engine.connect() as connection:
    rows = connection.execute(select(orders.c.id, orders.c.region).where(orders.c.amount > 10)
                              .order_by(orders.c.id)).fetchall()
    out["selected"] = [list(r) for r in rows]

frame = pandas.read_sql(f"SELECT id, region, amount FROM {schema}.orders ORDER BY id", engine)
out["read_sql"] = {"columns": list(frame.columns), "rows": frame.astype(str).values.tolist(),
                   "dtypes": [str(t) for t in frame.dtypes]}

written = pandas.DataFrame({"n": [1, 2, 3], "name": ["a", "b", None], "x": [0.5, 1.5, 2.5],
                            "flag": [True, False, True],
                            "at": pandas.to_datetime(["2024-06-01 10:00", "2024-06-02 11:30", "2024-06-03 12:45"])})
out["to_sql"] = written.to_sql("frame", engine, schema=schema, index=False, if_exists="replace")
back = pandas.read_sql(f"SELECT * FROM {schema}.frame ORDER BY n", engine)
out["read_back"] = {"columns": list(back.columns), "rows": back.astype(str).values.tolist(),
                    "dtypes": [str(t) for t in back.dtypes]}
# again: to_sql's if_exists='replace' drops the table it made and makes it anew
written.to_sql("frame", engine, schema=schema, index=False, if_exists="replace")
out["replaced_count"] = pandas.read_sql(f"SELECT count(*) AS c FROM {schema}.frame", engine)["c"].tolist()
out["frame_columns"] = [(c["name"], str(c["type"])) for c in inspect(engine).get_columns("frame", schema=schema)]
print(json.dumps(out, default=str))
