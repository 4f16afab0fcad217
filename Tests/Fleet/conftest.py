"""Shared fixtures of the fleet tests: the built tool, a generated fleet, one Spark session."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "fleet"))

FLEET_SIZE = 10_000
FLEET_SEED = 20261125


def tool():
    """The reactor-trace `swift build` made (REACTOR_TRACE overrides)."""
    path = os.environ.get("REACTOR_TRACE", os.path.join(ROOT, ".build", "debug", "reactor-trace"))
    if not os.path.exists(path):
        pytest.fail("%s is missing: run `swift build` first (or set REACTOR_TRACE)" % path)
    return path


def run(*arguments, check=True):
    """Runs reactor-trace; returns the completed process (stdout and stderr as text)."""
    result = subprocess.run([tool()] + list(arguments), capture_output=True, text=True)
    if check and result.returncode != 0:
        pytest.fail("reactor-trace %s exited %d: %s"
                    % (" ".join(arguments), result.returncode, result.stderr))
    return result


def normalized(paths):
    """Every line of the files, each re-serialized with sorted keys, sorted."""
    lines = []
    for path in paths:
        opener = __import__("gzip").open if path.endswith(".gz") else open
        with opener(path, "rt") as file:
            lines += [json.dumps(json.loads(line), sort_keys=True) for line in file if line.strip()]
    return sorted(lines)


@pytest.fixture(scope="session")
def fleet(tmp_path_factory):
    """The generated fleet's directory."""
    import generate_fleet
    directory = tmp_path_factory.mktemp("fleet")
    sys.argv = ["generate_fleet.py", "--seed", str(FLEET_SEED), "--count", str(FLEET_SIZE),
                "--out", str(directory)]
    assert generate_fleet.main() == 0
    return directory


@pytest.fixture(scope="session")
def merged_by_tool(fleet, tmp_path_factory):
    """`summarize --merge` of the whole fleet."""
    output = tmp_path_factory.mktemp("merged") / "merged.summary.jsonl"
    run("summarize", "--merge", str(fleet), "-o", str(output))
    return output


@pytest.fixture(scope="session")
def spark():
    """One local Spark session for every Spark check: its JVM start dominates their time."""
    import merge_spark
    session = merge_spark.session("local[2]")
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
