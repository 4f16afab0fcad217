#!/usr/bin/env python3
"""The MCP server's first answer on a trace (its index) against `replay --mode structural`.

    scripts/mcp-index-speed.py ROUNDS NEW_MCP OLD_MCP REACTOR_TRACE ROOT TRACE

Interleaved, ROUNDS times: the wall time of `reactor-trace replay ROOT/TRACE --mode structural`,
then of each server's first answer (from its `tools/call` of `events` to the answer, the server
started and initialized before) with the CPU time of each whole process (`perf stat`'s
task-clock); medians at the end. OLD_MCP is another build to compare with (main's).
The trace: `reactor-trace-bench child trace-write 250000 PATH` (1M events). docs/performance.md.
"""
import json, subprocess, sys, time, statistics
rounds, new, old, rt, root, trace = int(sys.argv[1]), *sys.argv[2:7]
def cpu(stderr):
    for line in stderr.strip().splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] == "task-clock": return float(fields[0]) / 1000
def first_answer(server):
    p = subprocess.Popen(["perf", "stat", "-x", ",", "-e", "task-clock", server, "--root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    def send(i, method, params):
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n"); p.stdin.flush()
        while True:
            r = json.loads(p.stdout.readline())
            if r.get("id") == i: return r
    send(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "m", "version": "1"}})
    t = time.perf_counter(); r = send(2, "tools/call", {"name": "events", "arguments": {"trace": trace, "limit": 1}}); d = time.perf_counter() - t
    assert not r["result"].get("isError"), r
    p.stdin.close(); p.wait(); return d, cpu(p.stderr.read())
def structural():
    t = time.perf_counter(); r = subprocess.run(["perf", "stat", "-x", ",", "-e", "task-clock", rt, "replay", root + "/" + trace, "--mode", "structural"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True); d = time.perf_counter() - t
    assert r.returncode == 0, r.returncode
    return d, cpu(r.stderr)
res = {"index, this branch": [], "index, main": [], "replay --mode structural": []}
for i in range(rounds):
    res["replay --mode structural"].append(structural())
    res["index, this branch"].append(first_answer(new))
    res["index, main"].append(first_answer(old))
    print(i, {k: (round(v[-1][0], 2), round(v[-1][1], 2)) for k, v in res.items()}, flush=True)
for k, v in res.items():
    print(f"{k}: wall median {statistics.median(x[0] for x in v):.3f} s, CPU median {statistics.median(x[1] for x in v):.3f} s; wall {[round(x[0], 2) for x in v]} CPU {[round(x[1], 2) for x in v]}")
