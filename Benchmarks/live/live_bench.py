#!/usr/bin/env python3
"""The live rows of docs/performance.md (issue 31), with real processes:

  latency  from `reduce` (the event's time in the app: its clock's wall-clock origin plus `t`)
           to the event's arrival in the live page's script in headless Chromium, p50/p95/p99,
           at 100 and 1,000 events/s;
  outage   events lost and dropped when the server is killed for 10 s of a 1,000 events/s run
           and started again on its directory;
  memory   the server's peak resident memory with 10 apps streaming at once and a page open.

    python3 Benchmarks/live/live_bench.py --bin .build/release [--only latency,outage,memory]

Prints one line per row. Timings depend on the machine's load: say it with the figures.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

BIN = None


def poll(what, condition, limit=120.0):
    deadline = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for " + what)
        time.sleep(0.05)


class Server:
    def __init__(self, directory, port=0):
        self.process = subprocess.Popen(
            [os.path.join(BIN, "reactor-trace-serve"), "--port", str(port), "--directory",
             directory], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        first = self.process.stdout.readline()
        second = self.process.stdout.readline()
        self.url = re.search(r"live page: (\S+)", first).group(1)
        match = re.search(r"port (\d+), token (\S+)", second)
        self.port, self.token = int(match.group(1)), match.group(2)

    def peak_rss_kib(self):
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        self.process.stdout.close()


def app(server, stream, actions, rate, pattern="decrease", extra=()):
    return subprocess.Popen(
        [os.path.join(BIN, "reactor-trace-live-example"), "--port", str(server.port), "--token",
         server.token, "--stream", stream, "--actions", str(actions), "--rate", str(rate),
         "--pattern", pattern] + list(extra), stdout=subprocess.PIPE, text=True)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def latency(scratch):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    server = Server(os.path.join(scratch, "latency"))
    try:
        for events_per_second in (100, 1000):
            # `decrease` records 4 events (the action and 3 mutations).
            rate = events_per_second // 4
            stream = "latency%d" % events_per_second
            driver.get(server.url)
            running = app(server, stream, actions=rate * 10, rate=rate)
            # Choose the new stream in the page, as a user would.
            poll("the stream in the page", lambda: driver.execute_script(
                "const s = document.getElementById('streams');"
                "if (![...s.options].some((o) => o.value === arguments[0])) return false;"
                "if (s.value !== arguments[0]) { s.value = arguments[0];"
                " s.dispatchEvent(new Event('change')); }"
                "return true;", stream))
            out, _ = running.communicate(timeout=300)
            report = json.loads(out)
            total = report["observed"] + 1
            poll("every event in the page",
                 lambda: driver.execute_script("return window.reactorTraceLive.events") == total)
            values = driver.execute_script("return window.reactorTraceLive.latencies.slice()")
            print("latency at %d events/s (%d events live in the page): p50 %.1f ms, p95 %.1f ms, "
                  "p99 %.1f ms, max %.1f ms" % (
                      events_per_second, len(values), percentile(values, 0.5),
                      percentile(values, 0.95), percentile(values, 0.99), max(values)))
    finally:
        driver.quit()
        server.stop()


def outage(scratch):
    directory = os.path.join(scratch, "outage")
    server = Server(directory)
    port = server.port
    # 1,000 events/s for 20 s; the server is down from 5 s to 15 s.
    running = app(server, "outage", actions=250 * 20, rate=250)
    time.sleep(5)
    server.process.kill()
    server.stop()
    time.sleep(10)
    server = Server(directory, port=port)
    out, _ = running.communicate(timeout=300)
    server.stop()
    report = json.loads(out)
    with open(os.path.join(directory, "outage.trace.jsonl")) as trace:
        kept = sum(1 for line in trace if line.startswith('{"seq"'))
    print("outage of 10 s at 1,000 events/s: %d events observed, %d kept, %d dropped (gaps), "
          "%d lost, %d connections" % (report["observed"], kept - 1, report["dropped"],
                                       report["lost"], report["connections"]))


def memory(scratch):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    server = Server(os.path.join(scratch, "memory"))
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(server.url)
        idle = server.peak_rss_kib()
        apps = [app(server, "app%d" % n, actions=250, rate=25, pattern="mixed") for n in range(10)]
        for running in apps:
            running.communicate(timeout=300)
        print("server memory: %.1f MiB peak resident with 10 apps streaming at 100 events/s each "
              "and a page open (%.1f MiB before they connected)" % (
                  server.peak_rss_kib() / 1024, idle / 1024))
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--only", default="latency,outage,memory")
    arguments = parser.parse_args()
    BIN = arguments.bin
    with tempfile.TemporaryDirectory() as scratch:
        for name in arguments.only.split(","):
            globals()[name](scratch)
