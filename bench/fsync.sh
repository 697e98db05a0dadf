#!/usr/bin/env bash
# What durability costs the zero-set-up run (issue 14): the embedded PostgreSQL acknowledges a write once
# it is on disk (fsync, synchronous_commit and full_page_writes on). This starts the service from the
# build twice on a fresh embedded PostgreSQL each time -- durable (the default) and with the library's
# fast settings (verso.embedded.durable=false: no fsync, synchronous_commit off, for this measurement
# only) -- and times commits through POST /v1/sql (bench/commits.py, keep-alive connections): one-row
# commits from one writer, then from FSYNC_WRITERS at once, then 1,000-row commits from one writer.
# Sizes: FSYNC_COMMITS (default 500) single-row commits per run. Measure on an idle machine.
#   bash bench/fsync.sh            FSYNC_COMMITS=50 bash bench/fsync.sh   (a quick check that it runs)
set -euo pipefail
cd "$(dirname "$0")/.."

COMMITS=${FSYNC_COMMITS:-500}
WRITERS=${FSYNC_WRITERS:-8}
PORT=${FSYNC_PORT:-18181}
OUT=target/bench/fsync
mkdir -p "$OUT"

if [ ! -f target/bench/classpath.txt ] || [ ! -d target/classes/io ]; then
  ./mvnw -B -q -Pbench -DskipTests package
fi
classpath="target/classes:$(cat target/bench/classpath.txt)"


run() { # $1: durable true|false
  local data="$OUT/pgdata-$1"
  rm -rf "$data" "$OUT/postgres.log"
  java -Xmx512m -cp "$classpath" io.verso.VersoApplication --server.port="$PORT" \
    --verso.embedded.durable="$1" --verso.embedded.data-dir="$data" --verso.retention.check-interval=365d \
    >"$OUT/service-$1.log" 2>&1 &
  local service=$!
  trap "kill $service 2>/dev/null || true" RETURN
  for _ in $(seq 1 180); do
    curl -sf "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
    kill -0 $service 2>/dev/null || { echo "the service did not start:"; tail -30 "$OUT/service-$1.log"; exit 1; }
    sleep 1
  done
  curl -sf -o /dev/null -H 'Content-Type: application/json' \
    -d '{"sql": "CREATE TABLE ingest (id INT PRIMARY KEY, v TEXT) VERSIONED"}' "http://127.0.0.1:$PORT/v1/sql"
  local one many batch
  one=$(python3 bench/commits.py "$PORT" 0 "$COMMITS" 1 1)
  many=$(python3 bench/commits.py "$PORT" "$COMMITS" $((COMMITS * 2)) "$WRITERS" 1)
  batch=$(python3 bench/commits.py "$PORT" $((COMMITS * 3)) 100 1 1000)
  kill $service; wait $service 2>/dev/null || true
  echo "| $1 | $one | $many | $((batch * 1000)) |"
}

{
  echo "| embedded durable (fsync, synchronous_commit) | commits/s, 1 writer | commits/s, $WRITERS writers | rows/s, 1 writer, 1,000-row commits |"
  echo "| --- | --- | --- | --- |"
  run true
  run false
} | tee "$OUT/results.md"
echo "(POST /v1/sql over keep-alive connections, bench/commits.py: $COMMITS one-row commits, then $((COMMITS * 2)) with $WRITERS writers, then 100 commits of 1,000 rows; $(nproc) cores)"
