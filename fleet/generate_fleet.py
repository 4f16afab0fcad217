#!/usr/bin/env python3
"""Write N transition-summary files of a synthetic fleet, seeded.

Each file is the summary of one synthetic trace window from one device: a random walk over
the transitions the example reactors really make (fleet/model.summary.jsonl, recorded from
them by record_model.py), each step taken with the probability random use gave it, its
effect outcome drawn from the outcomes recorded for it. Devices run one of several app
versions (a realistic spread: most on the newest, a tail on old ones, a few on a beta) and
platforms; windows start at random times over 30 days and last 5 to 400 transitions, so
frequent paths are common everywhere and rare transitions show up in a few files only.

    python3 fleet/generate_fleet.py --seed 7 --count 10000 --out /tmp/fleet

Files are named device-NNNNNN.summary.jsonl.gz (gzipped; --plain for .jsonl). The same seed
always gives the same bytes.

A release can change behaviour: --changes FILE (fleet/changes-3.2.0.json) gives, per app
version, transitions whose weight is multiplied (a failure path taken twice as often), added
(a new transition) or removed, and outcomes drawn differently (effects that now fail), so
that `reactor-trace compare` and fleet/compare.sql have real findings to find. --version V
puts every device on one version (two fleets of one version each, or the same distribution
drawn twice with two seeds).

    python3 fleet/generate_fleet.py --seed 1 --count 10000 --version 3.1.4 --out /tmp/before
    python3 fleet/generate_fleet.py --seed 2 --count 10000 --version 3.2.0 \
        --changes fleet/changes-3.2.0.json --out /tmp/after
"""
import copy
import argparse
import collections
import gzip
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

VERSIONS = [("3.2.0", 0.46), ("3.1.4", 0.27), ("3.0.2", 0.14), ("2.9.7", 0.08), ("3.3.0-beta.1", 0.05)]
PLATFORMS = [("iOS 26", 0.55), ("iOS 18", 0.35), ("iPadOS 26", 0.10)]
REACTORS = [
    ("ReactorExamples.GitHubSearchReactor", 0.4),
    ("ReactorExamples.TaskListReactor", 0.3),
    ("ReactorExamples.ProfileReactor", 0.2),
    ("ReactorExamples.CounterReactor", 0.1),
]
START = 1_795_000_000 * 10**9  # 2026-11-18, Unix nanoseconds
DAYS = 30
OUTCOMES = ["sync", "finished", "cancelled", "failed", "running"]


def pick(rng, weighted):
    total = sum(weight for _, weight in weighted)
    point = rng.random() * total
    for value, weight in weighted:
        point -= weight
        if point < 0:
            return value
    return weighted[-1][0]


def load_model(path):
    """Per reactor: its abstraction, schema, initial state and transitions by from-state."""
    model = {}
    with open(path) as lines:
        for line in lines:
            line = json.loads(line)
            reactor = model.setdefault(line["reactor"], {
                "schema": line["schema"], "abstraction": line["abstraction"],
                "initial": None, "earliest": None, "edges": collections.defaultdict(list)})
            outcomes = [(name, line["outcomes"][name]) for name in OUTCOMES
                        if line["outcomes"][name] > 0]
            reactor["edges"][line["from"]].append(
                ((line["action"], line["mutation"], line["to"], outcomes), line["count"]))
            # The walks start where the recorded runs started: the state before the
            # earliest transition.
            if reactor["earliest"] is None or line["first"] < reactor["earliest"]:
                reactor["earliest"] = line["first"]
                reactor["initial"] = line["from"]
    for reactor in model.values():
        for edges in reactor["edges"].values():
            edges.sort(key=lambda edge: (edge[0][0], edge[0][1], edge[0][2]))
    return model


def changed_model(model, changes):
    """The model as a version changed it: each change names a reactor and a transition
    (from, action, mutation, to) and either multiplies its weight (`times`), adds it with a
    weight (`add`, with its `outcomes`), removes it (`remove`), or replaces how its effects
    end (`outcomes`, weights by kind)."""
    model = copy.deepcopy(model)
    for change in changes:
        edges = model[change["reactor"]]["edges"][change["from"]]
        key = (change["action"], change["mutation"], change["to"])
        found = [index for index, edge in enumerate(edges) if edge[0][:3] == key]
        if "add" in change:
            if found:
                raise ValueError("already in the model: %r" % (key,))
            outcomes = sorted(change.get("outcomes", {"sync": 1}).items())
            edges.append(((key[0], key[1], key[2], outcomes), change["add"]))
            edges.sort(key=lambda edge: (edge[0][0], edge[0][1], edge[0][2]))
            continue
        if not found:
            raise ValueError("not in the model: %r" % (key,))
        (action, mutation, target, outcomes), weight = edges[found[0]]
        if change.get("remove"):
            del edges[found[0]]
            continue
        if "outcomes" in change:
            outcomes = [(name, change["outcomes"][name]) for name in OUTCOMES
                        if change["outcomes"].get(name, 0) > 0]
        edges[found[0]] = ((action, mutation, target, outcomes), weight * change.get("times", 1))
    return model


def summary_of_walk(rng, name, reactor, version, platform):
    state = reactor["initial"]
    steps = min(400, max(5, int(rng.lognormvariate(3.4, 0.9))))
    time = START + rng.randrange(DAYS * 86_400) * 10**9
    lines = {}
    for _ in range(steps):
        edges = reactor["edges"].get(state)
        if not edges:
            state = reactor["initial"]
            continue
        action, mutation, target, outcomes = pick(rng, edges)
        outcome = pick(rng, outcomes)
        time += rng.randrange(20, 3_000) * 10**6
        key = (state, action, mutation, target)
        line = lines.get(key)
        if line is None:
            line = lines[key] = {
                "reactor": name, "schema": reactor["schema"], "appVersion": version,
                "metadata": {"platform": platform}, "abstraction": reactor["abstraction"],
                "timeBase": "unix", "from": state, "action": action, "mutation": mutation,
                "to": target, "count": 0, "traces": 1, "first": time, "last": time,
                "outcomes": {name: 0 for name in OUTCOMES}}
        line["count"] += 1
        line["last"] = time
        line["outcomes"][outcome] += 1
        state = target
    return [lines[key] for key in sorted(lines)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--model", default=os.path.join(HERE, "model.summary.jsonl"))
    parser.add_argument("--plain", action="store_true", help="write .jsonl, not .jsonl.gz")
    parser.add_argument("--changes", help="a JSON file of behaviour changes per app version")
    parser.add_argument("--version", help="put every device on this app version")
    args = parser.parse_args()
    if args.count < 1:
        parser.error("--count must be at least 1")
    model = load_model(args.model)
    models = {}
    if args.changes:
        with open(args.changes) as file:
            for version, changes in json.load(file).items():
                models[version] = changed_model(model, changes)
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    for index in range(args.count):
        name = pick(rng, [(reactor, weight) for reactor, weight in REACTORS if reactor in model])
        version, platform = pick(rng, VERSIONS), pick(rng, PLATFORMS)
        version = args.version or version
        reactor = models.get(version, model)[name]
        lines = summary_of_walk(rng, name, reactor, version, platform)
        text = "".join(json.dumps(line, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
                       + "\n" for line in lines).encode()
        path = os.path.join(args.out, "device-%06d.summary.jsonl" % index)
        if args.plain:
            with open(path, "wb") as file:
                file.write(text)
        else:
            with open(path + ".gz", "wb") as raw:
                # mtime 0: the same seed gives the same bytes.
                with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as file:
                    file.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
