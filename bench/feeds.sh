#!/usr/bin/env bash
# Derived tables and change feeds, side by side in one run (issue 13; src/test/java/io/verso/feed/FeedBenchmark.java):
# ingest into a source alone, with one and with three derived tables attached (two kept by changed keys,
# one recomputed), feed replay throughput (changes/s) and live stream lag p50/p99, on a fresh database
# of the local PostgreSQL. bench/feeds.sh [batches] [rows per batch]   (default 40 x 250; small: 4 50)
# Report: printed, and target/bench/feeds.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

BATCHES=${1:-40}
ROWS=${2:-250}
DB=${BENCH_FEEDS_DB:-verso_bench_feeds}
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
  SPRING_DATASOURCE_PASSWORD= ./mvnw -B -q test -Dtest=FeedBenchmark \
  -Dsurefire.failIfNoSpecifiedTests=false -Dverso.feed-bench=true \
  -Dverso.feed-bench.batches="$BATCHES" -Dverso.feed-bench.rows="$ROWS" \
  -Dverso.feed-bench.report="$PWD/$OUT/feeds.txt" >"$OUT/feeds.log" 2>&1 || { tail -50 "$OUT/feeds.log"; exit 1; }
cat "$OUT/feeds.txt"
