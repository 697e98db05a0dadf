#!/usr/bin/env bash
# What durability costs the zero-set-up run (issue 14): the embedded PostgreSQL acknowledges a write once
# it is on disk (fsync, synchronous_commit and full_page_writes on). This starts the service from the
# build twice on a fresh embedded PostgreSQL each time -- durable (the default) and with the library's
# fast settings (verso.embedded.durable=false: no fsync, synchronous_commit off, for this measurement
# only) -- and times small commits through POST /v1/sql: one writer, then FSYNC_WRITERS at once.
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
  mvn -B -q -Pbench -DskipTests -Dverso.console.skip package
fi
classpath="target/classes:$(cat target/bench/classpath.txt)"

now_ms() { date +%s%3N; }
commit() { # $1: id
  curl -sf -o /dev/null -H 'Content-Type: application/json' \
    -d "{\"sql\": \"UPSERT INTO ingest VALUES ($1, 'row $1')\"}" "http://127.0.0.1:$PORT/v1/sql"
}
export -f commit
export PORT

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
  local start end
  start=$(now_ms)
  for i in $(seq 1 "$COMMITS"); do commit "$i"; done
  end=$(now_ms)
  local one=$(( COMMITS * 1000 / (end - start + 1) ))
  start=$(now_ms)
  seq $((COMMITS + 1)) $((COMMITS * 3)) | xargs -P "$WRITERS" -I{} bash -c 'commit {}'
  end=$(now_ms)
  local many=$(( COMMITS * 2 * 1000 / (end - start + 1) ))
  kill $service; wait $service 2>/dev/null || true
  echo "| $1 | $one | $many |"
}

{
  echo "| embedded durable (fsync, synchronous_commit) | commits/s, 1 writer | commits/s, $WRITERS writers |"
  echo "| --- | --- | --- |"
  run true
  run false
} | tee "$OUT/results.md"
echo "(each commit one row through POST /v1/sql with curl; $COMMITS and $((COMMITS * 2)) commits; $(nproc) cores)"
