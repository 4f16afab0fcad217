#!/usr/bin/env python3
"""Merge transition summaries with DuckDB (fleet/merge.sql), in process.

    python3 fleet/merge_duckdb.py 'summaries/*.summary.jsonl.gz' -o merged.jsonl

Inputs are files or globs, JSON Lines, gzipped or not; the output is JSON Lines in the
summaries' own shape (gzipped when it ends in .gz).

One thread by default: a fleet is many small files, and on the shared 2-core machine this was
measured on, a second DuckDB thread made the 100,000-file merge use 2.7 times the CPU and take
3 times as long (docs/performance.md). Give --threads N where cores are free.
"""
import argparse
import os
import sys

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))


def merge(inputs, output, threads=1):
    connection = duckdb.connect()
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
    parser.add_argument("--threads", type=int, default=1,
                        help="DuckDB threads (default 1: see above)")
    args = parser.parse_args()
    merge(args.inputs, args.output, args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
