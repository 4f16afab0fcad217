#!/usr/bin/env python3
"""Merge transition summaries with DuckDB (fleet/merge.sql), in process.

    python3 fleet/merge_duckdb.py 'summaries/*.summary.jsonl.gz' -o merged.jsonl

Inputs are files or globs, JSON Lines, gzipped or not; the output is JSON Lines in the
summaries' own shape (gzipped when it ends in .gz).
"""
import argparse
import os
import sys

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))


def merge(inputs, output, threads=None):
    connection = duckdb.connect()
    if threads:
        connection.execute("SET threads = %d" % threads)
    with open(os.path.join(HERE, "merge.sql")) as sql:
        connection.execute(sql.read())
    compression = ", COMPRESSION gzip" if output.endswith(".gz") else ""
    connection.execute(
        "COPY (FROM merged_summaries($files)) TO '%s' (FORMAT json%s)"
        % (output.replace("'", "''"), compression),
        {"files": list(inputs)})
    connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", help="summary files or globs")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--threads", type=int)
    args = parser.parse_args()
    merge(args.inputs, args.output, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
