#!/usr/bin/env bash
# Many open change streams beside one-key reads (issue 24; src/test/java/io/verso/feed/StreamFanOutBenchmark.java):
# N SSE streams over T tables while one row is committed every I ms; one-key read p50/p99 (REST and /v1/sql)
# before and during, delivery latency (write acknowledged -> event received) p50/p99/max over every stream and
# commit, streams that missed a commit or had one later than 1 s. On a fresh database of the local PostgreSQL.
# bench/streams.sh [streams] [tables] [writes] [interval ms]   (default 500 10 60 250)
# Report: printed, and target/bench/streams.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

STREAMS=${1:-500}
TABLES=${2:-10}
WRITES=${3:-60}
INTERVAL=${4:-250}
DB=${BENCH_STREAMS_DB:-verso_bench_streams}
OUT=target/bench

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  version=$(ls /etc/postgresql | sort -n | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
psql_admin() { if [ "$(id -u)" = 0 ]; then su postgres -c "psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -q $*"; else psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q "$@"; fi; }
psql_admin "-c 'DROP DATABASE IF EXISTS $DB WITH (FORCE)' -c 'CREATE DATABASE $DB'"
mkdir -p "$OUT"

SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:5432/$DB" SPRING_DATASOURCE_USERNAME=postgres \
  SPRING_DATASOURCE_PASSWORD= ./mvnw -B -q test -Dtest=StreamFanOutBenchmark \
  -Dsurefire.failIfNoSpecifiedTests=false -Dverso.stream-bench=true \
  -Dverso.stream-bench.streams="$STREAMS" -Dverso.stream-bench.tables="$TABLES" \
  -Dverso.stream-bench.writes="$WRITES" -Dverso.stream-bench.interval-ms="$INTERVAL" \
  -Dverso.stream-bench.report="$PWD/$OUT/streams.txt" >"$OUT/streams.log" 2>&1 || { tail -50 "$OUT/streams.log"; exit 1; }
cat "$OUT/streams.txt"
