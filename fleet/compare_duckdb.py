#!/usr/bin/env python3
"""What changed between two sets of transition summaries, beyond chance, with DuckDB.

The comparison of `reactor-trace compare` (fleet/compare.sql) over any number of summary
files: two sets, or one set split by metadata.

    python3 fleet/compare_duckdb.py 'before/*.summary.jsonl.gz' 'after/*.summary.jsonl.gz'
    python3 fleet/compare_duckdb.py 'fleet/*.summary.jsonl.gz' \\
        --before appVersion=3.1.4 --after appVersion=3.2.0

It prints one JSON object: the significant changes ("changes") and the transitions seen on
one side only that are not significant ("oneSided"), each as `compare --json` writes them
(reactor, kind, from, action, mutation, to, outcome, before and after counts, p, q). Exit 0
when nothing changed significantly, 1 when something did.
"""
import argparse
import json
import os
import sys

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))


def condition_sql(conditions):
    """A WHERE clause for KEY=VALUE conditions (appVersion, or a metadata key)."""
    clauses = []
    for condition in conditions:
        key, _, value = condition.partition("=")
        if not key or not _:
            raise SystemExit("'%s' is not a metadata condition KEY=VALUE" % condition)
        literal = "'" + value.replace("'", "''") + "'"
        if key == "appVersion":
            clauses.append("appVersion = " + literal)
        else:
            clauses.append("metadata['%s'] = %s" % (key.replace("'", "''"), literal))
    return " AND ".join(clauses)


def compare(before, after=None, before_conditions=(), after_conditions=(), alpha=0.05, threads=1):
    """The comparison's rows, as dictionaries: (changes, one_sided)."""
    connection = duckdb.connect()
    connection.execute("SET threads = %d" % threads)
    with open(os.path.join(HERE, "merge.sql")) as sql:
        connection.execute(sql.read())
    connection.execute("CREATE TEMP TABLE compare_settings AS SELECT ?::DOUBLE AS alpha", [alpha])
    if after is None:
        connection.execute("CREATE TEMP TABLE set_lines AS FROM summary_lines($files)",
                           {"files": list(before)})
        connection.execute("CREATE TEMP VIEW before_lines AS FROM set_lines WHERE "
                           + condition_sql(before_conditions))
        connection.execute("CREATE TEMP VIEW after_lines AS FROM set_lines WHERE "
                           + condition_sql(after_conditions))
    else:
        connection.execute("CREATE TEMP TABLE before_lines AS FROM summary_lines($files)",
                           {"files": list(before)})
        connection.execute("CREATE TEMP TABLE after_lines AS FROM summary_lines($files)",
                           {"files": list(after)})
    with open(os.path.join(HERE, "compare.sql")) as sql:
        connection.execute(sql.read())
    rows = connection.execute(
        "SELECT reactor, kind, \"from\", action, mutation, \"to\", outcome, before_count, "
        "before_total, after_count, after_total, p, q, significant, exact FROM compare_results"
    ).fetchall()
    connection.close()
    changes, one_sided = [], []
    for (reactor, kind, source, action, mutation, target, outcome, before_count, before_total,
         after_count, after_total, p, q, significant, exact) in rows:
        change = {
            "reactor": reactor, "kind": kind, "from": source, "action": action,
            "mutation": mutation, "to": target, "outcome": outcome,
            "before": {"count": before_count, "total": before_total},
            "after": {"count": after_count, "total": after_total},
            "p": p, "q": q, "test": None if p is None else ("fisher" if exact else "z"),
            "significant": significant,
        }
        if significant:
            changes.append(change)
        elif kind in ("added", "removed"):
            one_sided.append(change)
    key = lambda change: (change["reactor"], change["from"], change["action"], change["mutation"],
                          change["to"], change["outcome"] or "")
    return sorted(changes, key=key), sorted(one_sided, key=key)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+", help="BEFORE AFTER (files or globs), or one SET")
    parser.add_argument("--before", action="append", default=[], help="split SET: KEY=VALUE")
    parser.add_argument("--after", action="append", default=[], help="split SET: KEY=VALUE")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.before or args.after:
        if not args.before or not args.after or len(args.inputs) != 1:
            parser.error("give one SET with both --before and --after")
        changes, one_sided = compare([args.inputs[0]], None, args.before, args.after,
                                     args.alpha, args.threads)
    else:
        if len(args.inputs) != 2:
            parser.error("give BEFORE and AFTER")
        changes, one_sided = compare([args.inputs[0]], [args.inputs[1]], alpha=args.alpha,
                                     threads=args.threads)
    json.dump({"changes": changes, "oneSided": one_sided}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 1 if changes else 0


if __name__ == "__main__":
    sys.exit(main())
