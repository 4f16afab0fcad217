#!/usr/bin/env python3
"""The round trip of one app batch to `reactor-trace-serve` and back (docs/performance.md,
"Live latency"): the header line and one event, sent as LiveStream sends them (one request in
flight on a kept-alive connection, TCP_NODELAY on the client), until the `{"acked":N}` answer
has arrived whole. Prints p50/p95/max over COUNT batches and the load average.

    reactor-trace-live-example --file /tmp/ref.jsonl --actions 300 --rate 2000 --pattern decrease
    python3 Benchmarks/live/batch_round_trip.py .build/debug /tmp/ref.jsonl 300
"""

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

bin_dir, trace, count = sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 300
lines = open(trace, "rb").read().split(b"\n")
header, events = lines[0] + b"\n", [l + b"\n" for l in lines[1:] if l.startswith(b'{"seq"')]
scratch = tempfile.mkdtemp()
server = subprocess.Popen([os.path.join(bin_dir, "reactor-trace-serve"), "--port", "0",
                           "--directory", scratch], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
server.stdout.readline()
port, token = re.search(r"port (\d+), token (\S+)", server.stdout.readline()).groups()
connection = socket.create_connection(("127.0.0.1", int(port)))
connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
times = []
for n in range(min(count, len(events))):
    body = header + events[n]
    request = ("POST /live/v1/streams/rtt?from=%d HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n"
               "Authorization: Bearer %s\r\nContent-Type: application/x-ndjson\r\n"
               "Content-Length: %d\r\n\r\n" % (n + 1, port, token, len(body))).encode() + body
    start = time.monotonic()
    connection.sendall(request)
    response = b""
    while True:
        response += connection.recv(65536)
        head, sep, rest = response.partition(b"\r\n\r\n")
        if sep:
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            if len(rest) >= length:
                break
    times.append((time.monotonic() - start) * 1000)
    if b" 200 " not in head.split(b"\r\n")[0]:
        server.terminate()
        sys.exit("unexpected answer: %r" % response[:200])
server.terminate()
server.wait()
shutil.rmtree(scratch)
times.sort()
print("%s: %d batches, round trip p50 %.2f ms, p95 %.2f ms, max %.2f ms; load average %.1f" % (
    bin_dir, len(times), times[len(times) // 2], times[int(len(times) * 0.95)], times[-1],
    os.getloadavg()[0]))
