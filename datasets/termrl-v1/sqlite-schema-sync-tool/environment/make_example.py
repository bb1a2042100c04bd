import random
import sys
sys.path.insert(0, "/tmp")
from schemagen import base_schema, fill, mutate, to_sql

r = random.Random(99)
s = base_schema(r)
fill("/app/schemasync/example.db", s, r)
open("/app/schemasync/example_target.sql", "w").write(to_sql(mutate(s, r, ["add_col", "drop_col", "fk_action", "index_change", "view_change"])))
