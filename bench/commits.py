#!/usr/bin/env python3
"""Commits per second through POST /v1/sql: `commits.py PORT FIRST COUNT WRITERS ROWS`.

Each commit is one request upserting ROWS rows into the table `ingest`; WRITERS threads, each
with its own keep-alive connection, share COUNT commits. Prints commits/s."""
import http.client
import json
import sys
import threading
import time

port, first, count, writers, rows = (int(a) for a in sys.argv[1:6])
next_commit = [first]
lock = threading.Lock()
failures = []


def writer():
    connection = http.client.HTTPConnection("127.0.0.1", port)
    while True:
        with lock:
            n = next_commit[0]
            if n >= first + count:
                return
            next_commit[0] += 1
        values = ", ".join(f"({n * rows + i}, 'row {n}')" for i in range(rows))
        connection.request("POST", "/v1/sql", json.dumps({"sql": f"UPSERT INTO ingest VALUES {values}"}),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            failures.append(f"{response.status} {body[:200]!r}")
            return


threads = [threading.Thread(target=writer) for _ in range(writers)]
start = time.monotonic()
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.monotonic() - start
if failures:
    sys.exit("failed: " + failures[0])
print(round(count / elapsed))
