#!/usr/bin/env python3
"""The live rows of docs/performance.md (issue 31), with real processes:

  latency  from `reduce` (the event's time in the app: its clock's wall-clock origin plus `t`)
           to the event shown in the live page in headless Chromium (the animation frame that
           puts it in the list), p50/p95/p99, at 100 and 1,000 events/s, each with the
           Counter's small state and with a state of about 100 KB;
  socket   the same latency measured at the page's WebSocket by a client with no browser
           (this script), so that the pipeline (app, server) and the browser are told apart;
  outage   events lost and dropped when the server is killed for 10 s of a 1,000 events/s run
           and started again on its directory;
  memory   the server's peak resident memory with 10 apps streaming at once and a page open.
  command  the command round trip (issue 43): from a command posted by the live page's command
           bar (Dispatch) to the page showing the mutation the app's `reduce` made of it, p50/
           p95/p99, while the same app streams its own taps at each rate with a 100 KB state.

    python3 Benchmarks/live/live_bench.py --bin .build/release \
        [--only latency,socket,outage,memory,command] [--rates 100,1000]
        [--state-bytes 0,100000] [--commands 100] [--report]

Prints one line per row. Timings depend on the machine's load: say it with the figures.
With --report (one latency run: one rate, one state size; or one command run: one rate), it
also prints the `RESULT seconds=… units=… p50=… p95=… p99=…` line that reactor-trace-bench's
live-latency and command-round-trip rows read.
"""

import argparse
import base64
import calendar
import json
import os
import re
import signal
import socket as sockets
import struct
import subprocess
import sys
import tempfile
import time

BIN = None
RATES = (100, 1000)
STATE_SIZES = (0, 100000)
REPORT = False
COMMANDS = 100
# The least time between two commands' clicks: the server takes at most 20 commands a second
# on one connection (its rate limit), and the page's commands share one.
COMMAND_SPACING = 0.06
# The app's queue in front of its ring, in MiB: the file recorder's default (32), so that a
# 100 KB state is not dropped while the app's writer thread encodes it.
QUEUE_MIB = 32


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


def runs():
    """The latency runs: (events/s, state bytes, actions per second) for each rate and each
    state size (0: the Counter's small state)."""
    # `decrease` records 4 events per action (the action and 3 mutations); the large-state
    # counter 2 (the action and its mutation).
    return [(rate, state_bytes, rate // 2 if state_bytes else rate // 4)
            for rate in RATES for state_bytes in STATE_SIZES]


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
        for events_per_second, state_bytes, rate in runs():
            stream = "latency%d_%d" % (events_per_second, state_bytes)
            driver.get(server.url)
            # The page keeps one list of latencies for every stream it watched: this run's are
            # those added after this count.
            first = poll("the page's script", lambda: driver.execute_script(
                "return window.reactorTraceLive ? "
                "[window.reactorTraceLive.latencies.length] : null"))[0]
            running = app(server, stream, actions=rate * 10, rate=rate,
                          extra=("--state-bytes", str(state_bytes), "--queue-mib",
                                 str(QUEUE_MIB)))
            # Choose the new stream in the page, as a user would.
            poll("the stream in the page", lambda: driver.execute_script(
                "const s = document.getElementById('streams');"
                "if (![...s.options].some((o) => o.value === arguments[0])) return false;"
                "if (s.value !== arguments[0]) { s.value = arguments[0];"
                " s.dispatchEvent(new Event('change')); }"
                "return true;", stream))
            out, _ = running.communicate(timeout=300)
            report = json.loads(out)
            # Every event the server kept: the end line's seq (fewer than observed + 1 when the
            # app's queue dropped some, each run of them one gap line).
            total = report["acknowledged"]
            poll("every event in the page",
                 lambda: driver.execute_script("return window.reactorTraceLive.events") == total)
            values = driver.execute_script(
                "return window.reactorTraceLive.latencies.slice(arguments[0])", first)
            print("latency at %d events/s%s (%d events shown live in the page, %d dropped by the "
                  "app): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms" % (
                      events_per_second, state_text(state_bytes), len(values), report["dropped"],
                      percentile(values, 0.5), percentile(values, 0.95),
                      percentile(values, 0.99), max(values)))
            if REPORT:
                print("RESULT seconds=%f units=%d p50=%f p95=%f p99=%f" % (
                    len(values) / events_per_second, len(values), percentile(values, 0.5),
                    percentile(values, 0.95), percentile(values, 0.99)))
            sys.stdout.flush()
    finally:
        driver.quit()
        server.stop()


def command(scratch):
    """Each rate: the large-state counter (100 KB) taps `decrease` for 10 s at the rate (2 events
    an action) and takes commands (--control); the page, watching it, dispatches `COMMANDS`
    actions from its command bar, one at a time, each timed in the page from the click to the
    frame that shows its mutation."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(60)
    server = Server(os.path.join(scratch, "command"))
    seconds, state_bytes = 10, 100000
    try:
        for events_per_second in RATES:
            stream = "command%d" % events_per_second
            stop = os.path.join(scratch, stream + ".stop")
            driver.get(server.url)
            rate = max(1, events_per_second // 2)
            running = app(server, stream, actions=rate * seconds, rate=rate,
                          extra=("--state-bytes", str(state_bytes), "--queue-mib", str(QUEUE_MIB),
                                 "--control", "300", "--stop-file", stop))
            try:
                poll("the stream in the page", lambda: driver.execute_script(
                    "const s = document.getElementById('streams');"
                    "if (![...s.options].some((o) => o.value === arguments[0])) return false;"
                    "if (s.value !== arguments[0]) { s.value = arguments[0];"
                    " s.dispatchEvent(new Event('change')); }"
                    "return true;", stream))
                poll("the app's taps in the page and the command bar's cases", lambda: driver.execute_script(
                    "return window.reactorTraceLive.events > 2 &&"
                    " document.querySelectorAll('#command-case option').length > 0"))
                started = time.monotonic()
                values = []
                lost = 0
                # Commands only while the app's own taps still stream (with a second to spare).
                while len(values) + lost < COMMANDS and time.monotonic() - started < seconds - 1:
                    clicked = time.monotonic()
                    took, result = driver.execute_async_script(
                        "const done = arguments[arguments.length - 1];"
                        "const api = window.reactorTraceLive, before = api.commandOutcomes.length;"
                        "const payload = document.getElementById('command-payload');"
                        "payload.value = '{\"decrease\":{}}';"
                        "const start = performance.now();"
                        "document.getElementById('command-send').click();"
                        "(function wait() {"
                        "  if (api.commandOutcomes.length > before)"
                        "    return done([api.commandOutcomes[before][1] - start, null]);"
                        "  const result = document.getElementById('command-result').textContent;"
                        "  if (result.startsWith('refused') || result.startsWith('cannot')"
                        "      || performance.now() - start > 3000) return done([null, result]);"
                        "  setTimeout(wait, 1);"
                        "})();")
                    if took is None and result.startswith(("refused", "cannot")):
                        raise SystemExit("a command was refused: " + str(result))
                    if took is None:
                        # No outcome within 3 s: the app's queue dropped its action or its
                        # mutation (a gap), or they come later. Counted as never shown, and the
                        # run ends here (an outcome shown later cannot be told from the next
                        # command's).
                        lost += 1
                        break
                    values.append(took)
                    # At least 20 ms between one command shown and the next click, and never
                    # faster than the server's rate limit allows.
                    time.sleep(max(0.02, COMMAND_SPACING - (time.monotonic() - clicked)))
                measured = time.monotonic() - started
            finally:
                open(stop, "w").close()
            out, _ = running.communicate(timeout=300)
            report = json.loads(out)
            if running.returncode != 0 or report["lost"]:
                raise SystemExit("the app failed or lost events: " + out)
            # Every command is in the trace the server kept: an action sent from the page.
            with open(os.path.join(scratch, "command", stream + ".trace.jsonl")) as trace:
                sent = sum(1 for line in trace if '"external":"page"' in line)
            if not len(values) <= sent <= len(values) + lost:
                raise SystemExit("%d commands timed, %d never shown, %d in the trace, %d events "
                                 "dropped" % (len(values), lost, sent, report["dropped"]))
            # A command never shown counts as the slowest.
            values += [float("inf")] * lost
            print("command round trip at %d events/s with a %d KB state (%d commands from the "
                  "page's command bar, %d of them not shown within 3 s, counted as never; %d "
                  "events streamed, %d dropped by the app): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, "
                  "max %.1f ms" % (
                      events_per_second, state_bytes // 1000, len(values), lost,
                      report["observed"], report["dropped"], percentile(values, 0.5),
                      percentile(values, 0.95), percentile(values, 0.99), max(values)))
            if REPORT:
                print("RESULT seconds=%f units=%d p50=%f p95=%f p99=%f" % (
                    measured, len(values), percentile(values, 0.5), percentile(values, 0.95),
                    percentile(values, 0.99)))
            sys.stdout.flush()
    finally:
        driver.quit()
        server.stop()


def state_text(state_bytes):
    return " with a %d KB state" % (state_bytes // 1000) if state_bytes else ""


class PageSocket:
    """A WebSocket client of the server's page socket, as the page is: same origin, token
    beside the page's subprotocol, never in the request line (RFC 6455, text frames; what the
    server sends is not masked)."""

    def __init__(self, server):
        self.connection = sockets.create_connection(("127.0.0.1", server.port), timeout=60)
        self.connection.settimeout(1.0)
        host = "127.0.0.1:%d" % server.port
        key = base64.b64encode(os.urandom(16)).decode()
        self.connection.sendall((
            "GET /live/v1/socket HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
            "Sec-WebSocket-Protocol: reactor-trace-live, token.%s\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n" % (host, host, key, server.token)).encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.connection.recv(65536)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise SystemExit("the page socket refused: %r" % head.split(b"\r\n", 1)[0])

    def _read(self, count, may_time_out=False):
        while len(self.buffer) < count:
            try:
                chunk = self.connection.recv(1 << 20)
            except sockets.timeout:
                # Only between messages: within a frame, wait for the rest.
                if may_time_out and not self.buffer:
                    raise
                continue
            if not chunk:
                raise SystemExit("the page socket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        """The next whole text message, and the time its last frame arrived."""
        parts = []
        while True:
            first, second = self._read(2, may_time_out=not parts)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode == 8:
                raise SystemExit("the page socket closed")
            if opcode in (0, 1):
                parts.append(payload)
                if first & 0x80:
                    return b"".join(parts).decode(), time.time() * 1000
            # Pings and pongs are skipped.

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else \
            bytes([0x81, 0xFE]) + struct.pack(">H", len(payload))
        self.connection.sendall(
            header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def socket(scratch):
    server = Server(os.path.join(scratch, "socket"))
    try:
        for events_per_second, state_bytes, rate in runs():
            stream = "socket%d_%d" % (events_per_second, state_bytes)
            client = PageSocket(server)
            running = app(server, stream, actions=rate * 10, rate=rate,
                          extra=("--state-bytes", str(state_bytes), "--queue-mib",
                                 str(QUEUE_MIB)))
            origin = None
            partial = ""
            latencies = []
            received = 0
            watching = False
            total = None
            deadline = time.monotonic() + 300
            while total is None or received < total:
                if time.monotonic() > deadline:
                    raise SystemExit("timed out: %d of %s events at the socket (watching: %s)"
                                     % (received, total, watching))
                try:
                    message, arrival = client.receive()
                except sockets.timeout:
                    if total is None and running.poll() is not None:
                        total = json.loads(running.stdout.read())["acknowledged"]
                    continue
                newline = message.find("\n")
                control = json.loads(message if newline < 0 else message[:newline])
                body = "" if newline < 0 else message[newline + 1:]
                if control.get("type") == "streams" and not watching:
                    if any(entry.get("id") == stream for entry in control.get("streams", [])):
                        client.send(json.dumps({"watch": stream}))
                        watching = True
                if control.get("type") != "lines" or control.get("stream") != stream:
                    if total is None and running.poll() is not None:
                        total = json.loads(running.stdout.read())["acknowledged"]
                    continue
                lines = (partial + body).split("\n")
                partial = lines.pop()
                for line in lines:
                    if line.startswith('{"format"'):
                        origin = json.loads(line)["clock"]["origin"]
                        origin = calendar.timegm(time.strptime(origin[:19], "%Y-%m-%dT%H:%M:%S")) \
                            + float("0" + origin[19:-1])
                        continue
                    received += 1
                    if not control.get("history") and origin is not None:
                        t = json.loads(line)["t"]
                        latencies.append(arrival - (origin * 1000 + t / 1e6))
                if total is None and running.poll() is not None:
                    total = json.loads(running.stdout.read())["acknowledged"]
            running.wait(timeout=300)
            print("latency at the page socket at %d events/s%s (%d events live, no browser): "
                  "p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms" % (
                      events_per_second, state_text(state_bytes), len(latencies),
                      percentile(latencies, 0.5), percentile(latencies, 0.95),
                      percentile(latencies, 0.99), max(latencies)))
            client.connection.close()
    finally:
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
    parser.add_argument("--only", default="latency,socket,outage,memory")
    parser.add_argument("--rates", default="100,1000")
    parser.add_argument("--state-bytes", default="0,100000",
                        help="state sizes for the latency rows; 0 is the Counter's small state")
    parser.add_argument("--commands", type=int, default=100,
                        help="commands each command run dispatches from the page (at most)")
    parser.add_argument("--report", action="store_true",
                        help="also print a RESULT line for reactor-trace-bench")
    arguments = parser.parse_args()
    BIN = arguments.bin
    RATES = tuple(int(rate) for rate in arguments.rates.split(","))
    STATE_SIZES = tuple(int(size) for size in arguments.state_bytes.split(","))
    REPORT = arguments.report
    COMMANDS = arguments.commands
    with tempfile.TemporaryDirectory() as scratch:
        for name in arguments.only.split(","):
            globals()[name](scratch)
