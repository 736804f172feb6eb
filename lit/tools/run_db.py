"""run_db.py DATABASE COMPILER [ARGUMENT...]: runs every entry's command in its
directory with COMPILER in place of the entry's compiler and the ARGUMENTs added;
fails on the first that fails. The compilers' messages pass through as they are."""
import json
import subprocess
import sys

database, compiler, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
for entry in json.load(open(database)):
    subprocess.run([compiler, *entry["arguments"][1:], *extra], cwd=entry["directory"], check=True)
