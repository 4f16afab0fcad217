"""The production diagram and production coverage of a generated fleet."""
import json
import os
import xml.etree.ElementTree as ElementTree

import conftest
from conftest import ROOT, run

SEARCH = "ReactorExamples.GitHubSearchReactor"


def test_the_production_diagram_of_the_merged_fleet_renders(merged_by_tool, tmp_path):
    output = tmp_path / "production.svg"
    result = run("render", "transitions", "--summary", str(merged_by_tool), "--reactor", SEARCH,
                 "-o", str(output))
    assert "production mutations" in result.stdout
    svg = ElementTree.parse(output).getroot()
    text = ElementTree.tostring(svg, encoding="unicode")
    assert "in production" in text
    # Edge width follows frequency; rare edges are drawn, in their own colour.
    widths = {float(path.get("stroke-width")) for path in svg.iter("{http://www.w3.org/2000/svg}path")
              if path.get("stroke-width")}
    assert len(widths) > 3
    assert "#e66101" in text


def test_the_diagram_asks_for_a_reactor_when_the_lines_hold_several(merged_by_tool, tmp_path):
    result = run("render", "transitions", "--summary", str(merged_by_tool), "-o",
                 str(tmp_path / "x.svg"), check=False)
    assert result.returncode == 2
    assert "choose one with --reactor" in result.stderr


def test_production_coverage_names_a_transition_the_fleet_makes_and_traces_do_not(
        merged_by_tool, tmp_path):
    golden = os.path.join(ROOT, "Traces", "github-search.trace.jsonl")
    result = run("coverage", "--production", str(merged_by_tool), "--reactor", SEARCH, golden,
                 "--json")
    report = json.loads(result.stdout)
    missed = report["missedTransitions"]
    assert missed, "the fleet should make transitions the golden trace does not"
    assert missed == sorted(missed, key=lambda line: -line["count"])
    # Checked independently: summarize the golden trace with the fleet's abstraction.
    abstractions = tmp_path / "abstractions.json"
    with open(os.path.join(ROOT, "fleet", "abstractions.json")) as saved:
        abstractions.write_text(saved.read())
    golden_summary = tmp_path / "golden.summary.jsonl"
    run("summarize", golden, "--abstraction", str(abstractions), "-o", str(golden_summary))
    exercised = {(line["from"], line["action"], line["mutation"], line["to"])
                 for line in map(json.loads, open(golden_summary))}
    fleet = {(line["from"], line["action"], line["mutation"], line["to"])
             for line in map(json.loads, open(merged_by_tool)) if line["reactor"] == SEARCH}
    top = missed[0]
    key = (top["from"], top["action"], top["mutation"], top["to"])
    assert key in fleet and key not in exercised
    # Registered: an exploration gives most of them a script.
    assert any(line["script"] for line in missed)
