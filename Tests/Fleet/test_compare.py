"""fleet/compare.sql (DuckDB) finds what `reactor-trace compare` finds, on a generated fleet
whose version 3.2.0 changed behaviour (fleet/changes-3.2.0.json)."""
import json
import os
import sys

import pytest

import conftest

CHANGES = os.path.join(conftest.ROOT, "fleet", "changes-3.2.0.json")
SEARCH = "ReactorExamples.GitHubSearchReactor"


@pytest.fixture(scope="session")
def changed_fleet(tmp_path_factory):
    """5,000 devices, version 3.2.0's behaviour changed."""
    import generate_fleet
    directory = tmp_path_factory.mktemp("changed")
    sys.argv = ["generate_fleet.py", "--seed", "42", "--count", "5000", "--out", str(directory),
                "--changes", CHANGES]
    assert generate_fleet.main() == 0
    return directory


def by_tool(*arguments):
    result = conftest.run("compare", *arguments, "--json", check=False)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout), result.returncode


def key(change):
    return (change["reactor"], change["kind"], change["from"], change["action"],
            change["mutation"], change["to"], change["outcome"] or "")


def assert_same(tool, duckdb_changes, duckdb_one_sided):
    assert sorted(map(key, tool["changes"])) == sorted(map(key, duckdb_changes))
    assert sorted(map(key, tool["oneSided"])) == sorted(map(key, duckdb_one_sided))
    expected = {key(change): change for change in duckdb_changes + duckdb_one_sided}
    for change in tool["changes"] + tool["oneSided"]:
        other = expected[key(change)]
        assert change["before"] == other["before"] and change["after"] == other["after"]
        for name in ("p", "q"):
            if change[name] is None or other[name] is None:
                assert change[name] == other[name]
            else:
                assert change[name] == pytest.approx(other[name], rel=1e-5, abs=1e-300)


def test_duckdb_finds_what_compare_finds_in_a_fleet_split_by_app_version(changed_fleet):
    import compare_duckdb
    split = ["--before", "appVersion=3.1.4", "--after", "appVersion=3.2.0"]
    tool, code = by_tool(str(changed_fleet), *split)
    assert code == 1
    changes, one_sided = compare_duckdb.compare(
        [str(changed_fleet / "*.summary.jsonl.gz")], None, ["appVersion=3.1.4"],
        ["appVersion=3.2.0"])
    assert_same(tool, changes, one_sided)
    # The release's four changes are found (docs/fleet.md shows this report).
    found = {(change["kind"], change["mutation"], change["outcome"])
             for change in tool["changes"] if change["reactor"] == SEARCH}
    assert ("shift", "setRepos", None) in found
    assert ("added", "setError", None) in found
    assert ("removed", "setQuery", None) in found
    assert ("outcome", "setRepos", "failed") in found


def test_duckdb_and_compare_agree_on_versions_that_did_not_change(fleet):
    import compare_duckdb
    tool, code = by_tool(str(fleet), "--before", "appVersion=3.0.2", "--after",
                         "appVersion=3.1.4")
    changes, one_sided = compare_duckdb.compare(
        [str(fleet / "*.summary.jsonl.gz")], None, ["appVersion=3.0.2"], ["appVersion=3.1.4"])
    assert_same(tool, changes, one_sided)
    assert code == (1 if changes else 0)
