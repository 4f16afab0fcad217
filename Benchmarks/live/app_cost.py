#!/usr/bin/env python3
"""What recording costs an app, in the app's units (issue 44 goal 4; README, "What recording
costs an app"): the live example app (the Counter with a state of about 100 KB, one mutation
per action) tapped at 500 actions/s, 1,000 events/s, recorded to a file with the default
overflow policy (back-pressure: nothing lost).

  writer share   the recorder's thread's CPU time as a share of one core over a 10 s run,
                 median of RUNS (Linux's per-thread counts, /proc/self/task/TID/schedstat,
                 which the example reads itself: `--file PATH` and `--recorder none` print
                 `appCPU` and `recorderCPU`); every run checked to have lost no event;
  app threads    with --callgrind: the instructions recording adds to the app's threads (all
                 but the recorder's: on Linux the main actor's work runs on dispatch's
                 threads) per event, as the slope between runs of 500 and 1,500 actions
                 recorded and not, so that start-up (the first snapshot of the state) does not
                 count; and per 16.7 ms frame at 1,000 events/s. The app threads' CPU time
                 differs between two native runs by more than recording adds to it, so only
                 instruction counts resolve it.

    python3 Benchmarks/live/app_cost.py --bin .build/release [--runs 3] [--seconds 10]
        [--callgrind]
"""

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import tempfile

STATE_BYTES = 100000
EVENTS_PER_SECOND = 1000
FRAME_SECONDS = 1 / 60
# valgrind on Swift's runtime needs sigsuspend answered at once: LD_PRELOAD it if it exists.
SHIM = os.environ.get("REACTOR_TRACE_SIGSUSPEND_SHIM", "")


def example(binary, arguments):
    completed = subprocess.run([binary] + arguments, stdout=subprocess.PIPE, text=True,
                               timeout=1800)
    if completed.returncode != 0:
        raise SystemExit("app_cost: %s exited %d" % (" ".join(arguments), completed.returncode))
    return json.loads(completed.stdout.strip().splitlines()[-1])


def dropped(path):
    with open(path) as trace:
        end = json.loads(trace.read().strip().splitlines()[-1])
    return end.get("dropped", 0)


def writer_share(binary, runs, seconds):
    rate = EVENTS_PER_SECOND // 2
    common = ["--actions", str(rate * seconds), "--rate", str(rate), "--pattern", "decrease",
              "--state-bytes", str(STATE_BYTES)]
    shares = []
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(runs):
            path = os.path.join(scratch, "run.trace.jsonl")
            report = example(binary, ["--file", path, "--overflow", "wait"] + common)
            if "recorderCPU" not in report:
                raise SystemExit("app_cost: the example gave no CPU times (not Linux?)")
            lost = dropped(path)
            if lost:
                raise SystemExit("app_cost: run %d dropped %d events" % (number + 1, lost))
            share = 100 * report["recorderCPU"] / report["seconds"]
            shares.append(share)
            print("run %d: %.1f s, writer %.3f s on a CPU, %.1f %% of a core, nothing lost"
                  % (number + 1, report["seconds"], report["recorderCPU"], share), flush=True)
    return statistics.median(shares)


def app_instructions(binary):
    """(instructions per event not recorded, recorded) on the app's threads, from callgrind."""
    totals = {}
    with tempfile.TemporaryDirectory() as scratch:
        for mode in ("none", "file"):
            for actions in (500, 1500):
                out = os.path.join(scratch, "%s-%d" % (mode, actions))
                recording = (["--recorder", "none"] if mode == "none" else
                             ["--file", out + ".trace.jsonl", "--overflow", "wait"])
                environment = dict(os.environ)
                if SHIM:
                    environment["LD_PRELOAD"] = SHIM
                subprocess.run(
                    ["valgrind", "--tool=callgrind", "--separate-threads=yes",
                     "--callgrind-out-file=" + out + ".%p", binary] + recording +
                    ["--actions", str(actions), "--rate", "1000000", "--pattern", "decrease",
                     "--state-bytes", str(STATE_BYTES)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                    env=environment, timeout=3600)
                app = 0
                for part in glob.glob(out + ".*-*"):
                    text = open(part, errors="replace").read()
                    count = int(re.search(r"^(?:summary|totals): (\d+)", text, re.M).group(1))
                    # The recorder's thread: the one running the file writer's loop
                    # (`TraceFileWriter.run()`, mangled).
                    if "TraceFileWriterC3run" in text:
                        continue
                    app += count
                totals[(mode, actions)] = app
    events = 2 * 1000
    return ((totals[("none", 1500)] - totals[("none", 500)]) / events,
            (totals[("file", 1500)] - totals[("file", 500)]) / events)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--callgrind", action="store_true")
    arguments = parser.parse_args()
    if not (1 <= arguments.runs <= 100 and 1 <= arguments.seconds <= 3600):
        raise SystemExit("app_cost: --runs is 1 to 100, --seconds 1 to 3600")
    binary = os.path.join(arguments.bin, "reactor-trace-live-example")
    share = writer_share(binary, arguments.runs, arguments.seconds)
    print("writer: %.1f %% of a core at %d events/s with a %d KB state (median of %d)"
          % (share, EVENTS_PER_SECOND, STATE_BYTES // 1000, arguments.runs))
    if arguments.callgrind:
        plain, recorded = app_instructions(binary)
        added = recorded - plain
        per_frame = added * EVENTS_PER_SECOND * FRAME_SECONDS
        print("app threads: %.0f instructions an event not recorded, %.0f recorded: +%.0f an "
              "event, +%.0f a 16.7 ms frame at %d events/s"
              % (plain, recorded, added, per_frame, EVENTS_PER_SECOND))


if __name__ == "__main__":
    main()
