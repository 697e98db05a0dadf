#!/usr/bin/env bash
# Read scale-out benchmark (docs/replicas.md): one-key AS OF reads/s at 16 clients through an
# instance with 0 replicas and one with 1 replica, in alternating rounds of the same run.
# Starts its own primary cluster and a hot standby of it (.ci/standby; temp folders, ports
# BENCH_PRIMARY_PORT / BENCH_STANDBY_PORT), two instances of the service, and stops them all.
# Arguments go to io.verso.bench.ReplicaBench: bench/replicas.sh --clients=16 --seconds=8 --rounds=3
# Result: target/bench/replicas.md.
set -euo pipefail
cd "$(dirname "$0")/.."

export VERSO_STANDBY_PRIMARY_PORT=${BENCH_PRIMARY_PORT:-55442}
export VERSO_STANDBY_PRIMARY_DIR=${BENCH_PRIMARY_DIR:-/tmp/verso-bench-primary}
export VERSO_STANDBY_PORT=${BENCH_STANDBY_PORT:-55443}
export VERSO_STANDBY_DIR=${BENCH_STANDBY_DIR:-/tmp/verso-bench-standby}
DB=verso_bench_replicas
OUT=target/bench
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  bash .ci/standby down || true
  su postgres -c "/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -n | tail -n 1)/bin/pg_ctl -D $VERSO_STANDBY_PRIMARY_DIR -m fast stop" >/dev/null 2>&1 || true
  rm -rf "$VERSO_STANDBY_PRIMARY_DIR"
}
trap cleanup EXIT

bash .ci/standby primary
psql -h 127.0.0.1 -p "$VERSO_STANDBY_PRIMARY_PORT" -U postgres -q -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
bash .ci/standby down
bash .ci/standby up

./mvnw -B -q -Pbench -DskipTests package
mkdir -p "$OUT"
primary="jdbc:postgresql://127.0.0.1:$VERSO_STANDBY_PRIMARY_PORT/$DB"
# Security on, as in production: the admin API key, sent by the client (VERSO_API_KEY).
API_KEY=${BENCH_API_KEY:-bench-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}
export VERSO_API_KEY=$API_KEY
start() { # port, replicas
  VERSO_SECURITY_ADMIN_API_KEY=$API_KEY SPRING_DATASOURCE_URL=$primary SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD= PORT=$1 \
    VERSO_READ_REPLICAS=$2 java -Xmx512m -jar target/verso-0.1.0-SNAPSHOT.jar >"$OUT/replicas-$1.log" 2>&1 &
  pids+=($!)
}
start 18091 ""
sleep 15 # the first instance migrates the schema alone
start 18092 "jdbc:postgresql://127.0.0.1:$VERSO_STANDBY_PORT/$DB"
for port in 18091 18092; do
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$port/actuator/health/readiness" >/dev/null && break
    sleep 1
  done
done

java -cp "target/test-classes:$(cat $OUT/classpath.txt)" io.verso.bench.ReplicaBench \
  --primaryOnly=http://127.0.0.1:18091 --withReplica=http://127.0.0.1:18092 "$@"
