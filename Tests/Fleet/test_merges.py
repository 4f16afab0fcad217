"""The DuckDB query and the Spark job merge a fleet exactly as `summarize --merge` does."""
import glob
import json
import os

import conftest
from conftest import FLEET_SIZE, normalized


def test_the_generated_fleet_has_every_file_and_the_same_seed_gives_the_same_bytes(
        fleet, tmp_path):
    import generate_fleet
    files = sorted(glob.glob(str(fleet / "*.summary.jsonl.gz")))
    assert len(files) == FLEET_SIZE
    import sys
    sys.argv = ["generate_fleet.py", "--seed", str(conftest.FLEET_SEED), "--count", "3",
                "--out", str(tmp_path)]
    generate_fleet.main()
    for name in ["device-000000", "device-000001", "device-000002"]:
        with open(tmp_path / (name + ".summary.jsonl.gz"), "rb") as again, \
                open(fleet / (name + ".summary.jsonl.gz"), "rb") as first:
            assert again.read() == first.read()


def test_the_fleet_spreads_over_reactors_versions_and_rare_transitions(merged_by_tool):
    lines = [json.loads(line) for line in open(merged_by_tool)]
    assert len({line["reactor"] for line in lines}) == 4
    assert len({line["appVersion"] for line in lines}) == 5
    counts = sorted(line["count"] for line in lines)
    # Frequent paths and a long tail of rare ones.
    assert counts[0] == 1 and counts[-1] > 1000


def test_duckdb_merge_equals_summarize_merge_line_for_line(fleet, merged_by_tool, tmp_path):
    import merge_duckdb
    output = tmp_path / "duckdb.jsonl"
    merge_duckdb.merge([str(fleet / "*.summary.jsonl.gz")], str(output))
    expected = normalized([str(merged_by_tool)])
    assert len(expected) > 1000
    assert normalized([str(output)]) == expected


def test_spark_merge_equals_summarize_merge_line_for_line_and_writes_parquet(
        spark, fleet, merged_by_tool, tmp_path):
    import merge_spark
    result = merge_spark.merged(spark, [str(fleet / "*.summary.jsonl.gz")]).cache()
    result.coalesce(1).write.option("ignoreNullFields", "false").json(str(tmp_path / "json"))
    result.write.parquet(str(tmp_path / "parquet"))
    parts = glob.glob(str(tmp_path / "json" / "part-*"))
    assert normalized(parts) == normalized([str(merged_by_tool)])
    parquet = spark.read.parquet(str(tmp_path / "parquet"))
    assert parquet.count() == len(normalized([str(merged_by_tool)]))
    assert parquet.columns == merge_spark.COLUMNS


def test_merged_summaries_merge_again_to_themselves(merged_by_tool, tmp_path):
    again = tmp_path / "again.summary.jsonl.gz"
    conftest.run("summarize", "--merge", str(merged_by_tool), "-o", str(again))
    assert normalized([str(again)]) == normalized([str(merged_by_tool)])


def test_duckdb_merge_refuses_a_line_missing_a_member_or_of_the_wrong_type(tmp_path):
    import duckdb
    import pytest
    import merge_duckdb
    good = json.loads(open(os.path.join(conftest.ROOT, "fleet", "model.summary.jsonl")).readline())
    missing = dict(good)
    del missing["outcomes"]
    for broken, complaint in [(missing, 'does not have key "outcomes"'),
                              (dict(good, count="three"), "three")]:
        path = tmp_path / "broken.summary.jsonl"
        path.write_text(json.dumps(good) + "\n" + json.dumps(broken) + "\n")
        with pytest.raises(duckdb.InvalidInputException, match=complaint):
            merge_duckdb.merge([str(path)], str(tmp_path / "out.jsonl"))


def test_a_sessions_summary_merges_with_traces_summaries_as_summarize_merge_does(tmp_path):
    import merge_duckdb
    session = os.path.join(conftest.ROOT, "Traces", "taskapp.session.jsonl")
    files = []
    for name, source in [("session", session),
                         ("counter", os.path.join(conftest.ROOT, "Traces", "counter.trace.jsonl"))]:
        path = tmp_path / (name + ".summary.jsonl.gz")
        conftest.run("summarize", source, "-o", str(path))
        files.append(str(path))
    # The session twice (its summary and itself): its lines count two traces.
    by_tool = tmp_path / "tool.jsonl"
    conftest.run("summarize", "--merge", *files, session, "-o", str(by_tool))
    session_lines = [json.loads(line) for line in open(by_tool)
                     if json.loads(line)["reactor"].startswith("ReactorExamples.Task")]
    assert len({line["reactor"] for line in session_lines}) == 3
    assert all(line["traces"] == 2 for line in session_lines)
    again = tmp_path / "session-again.summary.jsonl"
    conftest.run("summarize", session, "-o", str(again))
    by_duckdb = tmp_path / "duckdb.jsonl"
    merge_duckdb.merge(files + [str(again)], str(by_duckdb))
    assert normalized([str(by_duckdb)]) == normalized([str(by_tool)])
