#!/usr/bin/env python3
"""Record the fleet generator's model from the example reactors.

Writes seeded random action scripts for the four example reactors, records each with
`reactor-trace record`, and merges their summaries (with the abstractions saved in
fleet/abstractions.json) into fleet/model.summary.jsonl: the transitions the examples really
make, with how often random use makes them. generate_fleet.py walks this model.

    python3 fleet/record_model.py --reactor-trace .build/debug/reactor-trace --seed 32
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def counter_script(rng):
    steps, t = [], 0
    for _ in range(rng.randint(2, 12)):
        t += rng.choice([50, 200, 600, 900])
        steps.append({"t": t, "action": rng.choice(["increase", "increase", "decrease"])})
    limit = str(rng.choice([2, 3, 5, 10]))
    return "ReactorExamples.CounterReactor", {"limit": limit}, steps


def profile_script(rng):
    steps, t = [], 0
    for _ in range(rng.randint(2, 10)):
        t += rng.choice([50, 100, 400, 700])
        steps.append({"t": t, "action": rng.choice(["refresh", "follow", "unfollow"])})
    meta = {}
    if rng.random() < 0.5:
        meta["failingRequests"] = str(rng.randint(1, 4))
    return "ReactorExamples.ProfileReactor", meta, steps


def tasklist_script(rng):
    steps, t, next_id = [], 0, 4
    steps.append({"t": 0, "action": "refresh"})
    for _ in range(rng.randint(1, 10)):
        t += rng.choice([100, 300, 500])
        kind = rng.random()
        if kind < 0.35:
            steps.append({"t": t, "action": {"toggle": {"id": rng.randint(1, next_id)}}})
        elif kind < 0.55:
            steps.append({"t": t, "action": {"add": {"title": "Task %d" % next_id}}})
            next_id += 1
        elif kind < 0.7:
            steps.append({"t": t, "action": {"delete": {"id": rng.randint(1, next_id)}}})
        elif kind < 0.8:
            steps.append({"t": t, "action": "refresh"})
        elif kind < 0.9:
            steps.append({"t": t, "event": {"create": {"title": "Remote %d" % next_id}}})
            next_id += 1
        else:
            steps.append(
                {"t": t, "event": {"setDone": {"id": rng.randint(1, next_id), "isDone": True}}})
    return "ReactorExamples.TaskListReactor", {}, steps


def search_script(rng):
    steps, t = [], 0
    words = ["r", "re", "reactor", "reactor!", "swift", "swiftui", "", "kit"]
    for _ in range(rng.randint(2, 14)):
        t += rng.choice([50, 100, 300, 600, 900])
        if rng.random() < 0.6:
            steps.append({"t": t, "action": {"updateQuery": {"_0": rng.choice(words)}}})
        else:
            steps.append({"t": t, "action": "loadNextPage"})
    return "ReactorExamples.GitHubSearchReactor", {}, steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reactor-trace", default=".build/debug/reactor-trace")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--scripts", type=int, default=60, help="scripts per reactor")
    parser.add_argument("--output", default=os.path.join(HERE, "model.summary.jsonl"))
    parser.add_argument("--abstractions", default=os.path.join(HERE, "abstractions.json"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers = [counter_script, profile_script, tasklist_script, search_script]
    with tempfile.TemporaryDirectory() as work:
        traces = []
        for maker in makers:
            for index in range(args.scripts):
                reactor, meta, steps = maker(rng)
                base = os.path.join(work, "%s-%03d" % (maker.__name__, index))
                with open(base + ".actions.jsonl", "w") as script:
                    script.write(json.dumps({"reactor": reactor, "meta": meta}) + "\n")
                    for step in steps:
                        script.write(json.dumps(step) + "\n")
                subprocess.run(
                    [args.reactor_trace, "record", "--actions", base + ".actions.jsonl",
                     "-o", base + ".trace.jsonl"],
                    check=True, stdout=subprocess.DEVNULL)
                traces.append(base + ".trace.jsonl")
        subprocess.run(
            [args.reactor_trace, "summarize", "--merge", "--abstraction", args.abstractions,
             "-o", args.output] + traces,
            check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
