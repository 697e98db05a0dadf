#!/usr/bin/env bash
# The benchmark in one command (docs/benchmark.md): build the service, start it on a fresh
# database of the local PostgreSQL, run the workload against it, PostgreSQL directly and MariaDB,
# stop it. Beside it, the one-key read's baseline: bench/bare, the Spring Boot app a user would write instead
# (one MVC endpoint, JdbcTemplate, the direct table), on the same Java; BENCH_BARE=0 leaves it out.
# Arguments go to the benchmark: bench/run.sh --keys=20000 --versions=10 ...
# --scenarios=keyreads (or reads, writers, scale, comma-separated) runs only those after the ingest.
# Results: target/bench/results.md and results.json; the service's flight recording
# target/bench/service.jfr and log target/bench/service.log. The recording uses JFR's "default" settings
# (the production ones, about 1% overhead); BENCH_JFR=profile records with the "profile" settings, which
# cost the service a fifth of its one-key read rate (and only the service: the baselines are not
# recorded), BENCH_JFR=0 records nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${BENCH_PORT:-18080}
BARE_PORT=${BENCH_BARE_PORT:-$((PORT + 1))}
DB=${BENCH_DB:-verso_bench}
DIRECT_DB=${BENCH_DIRECT_DB:-verso_bench_direct}
# The service's Java: Temurin 25 where the machine has it (the container image's runtime), else the default
# java; BENCH_JAVA=java runs it on the default (17 here) for the side-by-side of both.
BENCH_JAVA=${BENCH_JAVA:-$( [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java || echo java)}
# The heap the target is stated for: the service must run the whole benchmark in 512 MiB.
SERVICE_OPTS=${BENCH_SERVICE_OPTS:-"-Xmx512m"}
OUT=target/bench

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  version=$(ls /etc/postgresql | sort -n | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
psql_admin() { if [ "$(id -u)" = 0 ]; then su postgres -c "psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -q $*"; else psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q "$@"; fi; }
for db in "$DB" "$DIRECT_DB"; do
  # Statements slower than BENCH_PG_SLOW_MS go to the PostgreSQL server log with their plans' inputs:
  # the evidence for what dominates a slow scenario.
  psql_admin "-c 'DROP DATABASE IF EXISTS $db WITH (FORCE)' -c 'CREATE DATABASE $db'" \
    "-c 'ALTER DATABASE $db SET log_min_duration_statement = ${BENCH_PG_SLOW_MS:-1000}'"
done

./mvnw -B -q -Pbench -DskipTests package
[ "${BENCH_BARE:-1}" != 0 ] && ./mvnw -B -q -f bench/bare/pom.xml -DskipTests package
mkdir -p "$OUT"

jfr=""
if [ "${BENCH_JFR:-default}" != 0 ]; then
  settings=${BENCH_JFR:-default}
  [ "$settings" = 1 ] && settings=default
  jfr="-XX:StartFlightRecording=filename=$OUT/service.jfr,settings=$settings,dumponexit=true"
fi
# Security on, as in production: the admin API key (compared in memory, no lookup), sent by the client.
API_KEY=${BENCH_API_KEY:-bench-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}
export VERSO_API_KEY=$API_KEY
# shellcheck disable=SC2086
VERSO_SECURITY_ADMIN_API_KEY=$API_KEY SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:5432/$DB" SPRING_DATASOURCE_USERNAME=postgres \
  SPRING_DATASOURCE_PASSWORD= PORT=$PORT \
  "$BENCH_JAVA" $SERVICE_OPTS $jfr -jar target/verso-0.1.0-SNAPSHOT.jar >"$OUT/service.log" 2>&1 &
service=$!
bare=""
bare_args=()
if [ "${BENCH_BARE:-1}" != 0 ]; then
  "$BENCH_JAVA" $SERVICE_OPTS -jar bench/bare/target/bare-0.1.0-SNAPSHOT.jar --server.port="$BARE_PORT" \
    --spring.datasource.url="jdbc:postgresql://127.0.0.1:5432/$DIRECT_DB?currentSchema=baseline" \
    --spring.datasource.username=postgres >"$OUT/bare.log" 2>&1 &
  bare=$!
  bare_args=(--bare="http://127.0.0.1:$BARE_PORT" --barePid="$bare")
fi
trap 'kill $service $bare 2>/dev/null; wait $service $bare 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  kill -0 $service 2>/dev/null || { echo "the service did not start:"; tail -50 "$OUT/service.log"; exit 1; }
  sleep 1
done
if [ -n "$bare" ]; then
  for _ in $(seq 1 60); do
    # Up once it answers at all: its table is made by the benchmark's ingest, so a read 500s until then.
    curl -s -o /dev/null "http://127.0.0.1:$BARE_PORT/v1/tables/balances/row?key=1&key=a&key=b" && break
    kill -0 $bare 2>/dev/null || { echo "the bare app did not start:"; tail -50 "$OUT/bare.log"; exit 1; }
    sleep 1
  done
fi

# BENCH_SIZE=small: every scenario at a small size (2,000 keys × 10 versions), a few minutes, to check
# that the benchmark runs; its figures are not the issue's. Arguments given after it still win.
size_args=()
if [ "${BENCH_SIZE:-full}" = small ]; then
  size_args=(--keys=2000 --versions=10 --keyReads=300 --tableReads=3 --diffReads=3 --concurrentBatches=16
    --concurrentReads=400)
fi
BENCH_SERVICE_JAVA=$("$BENCH_JAVA" -version 2>&1 | head -n 1) BENCH_SERVICE_OPTS="$SERVICE_OPTS $jfr" java -Xmx2g -cp "target/test-classes:$(cat $OUT/classpath.txt)" \
  io.verso.bench.Bench --url="http://127.0.0.1:$PORT" --servicePid=$service \
  --pg="jdbc:postgresql://127.0.0.1:5432/$DIRECT_DB?user=postgres" \
  --versoDb="jdbc:postgresql://127.0.0.1:5432/$DB?user=postgres" --jar=target/verso-0.1.0-SNAPSHOT.jar \
  "${bare_args[@]}" "${size_args[@]}" "$@"
