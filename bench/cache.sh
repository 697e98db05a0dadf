#!/usr/bin/env bash
# One-key reads and HTTP caching side by side (docs/benchmark.md, "Cached reads"): builds the service,
# starts it on a fresh database of the local PostgreSQL with security on (the admin API key), and runs
# io.verso.bench.CacheBench against it and PostgreSQL directly. Arguments go to the benchmark:
# bench/cache.sh --clients=16 --seconds=5 --rounds=3 --keys=20000 --hot=2000. Result: target/bench/cache.md.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${BENCH_PORT:-18081}
DB=${BENCH_DB:-verso_bench_cache}
DIRECT_DB=${BENCH_DIRECT_DB:-verso_bench_cache_direct}
SERVICE_OPTS=${BENCH_SERVICE_OPTS:-"-Xmx512m"}
# The service's Java, as in run.sh: Temurin 25 where the machine has it (the container image's runtime), else the
# default java; BENCH_JAVA=java runs it on the default (17 here).
BENCH_JAVA=${BENCH_JAVA:-$( [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && echo /usr/lib/jvm/temurin-25-jdk-amd64/bin/java || echo java)}
# BENCH_JAR: another build of the service to measure (e.g. one before issue 26, with --conditional=false).
JAR=${BENCH_JAR:-target/verso-0.1.0-SNAPSHOT.jar}
OUT=target/bench

psql_admin() { if [ "$(id -u)" = 0 ]; then su postgres -c "psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -q $*"; else psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q "$@"; fi; }
for db in "$DB" "$DIRECT_DB"; do
  psql_admin "-c 'DROP DATABASE IF EXISTS $db WITH (FORCE)' -c 'CREATE DATABASE $db'"
done

[ "${BENCH_SKIP_BUILD:-0}" = 1 ] || ./mvnw -B -q -Pbench -DskipTests package
mkdir -p "$OUT"
API_KEY=${BENCH_API_KEY:-bench-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')}
export VERSO_API_KEY=$API_KEY
# shellcheck disable=SC2086
VERSO_SECURITY_ADMIN_API_KEY=$API_KEY SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:5432/$DB" \
  SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD= PORT=$PORT SERVER_PORT=$PORT \
  "$BENCH_JAVA" $SERVICE_OPTS -jar "$JAR" >"$OUT/cache-service.log" 2>&1 &
service=$!
trap 'kill $service 2>/dev/null; wait $service 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/actuator/health/readiness" >/dev/null && break
  kill -0 $service 2>/dev/null || { echo "the service did not start:"; tail -50 "$OUT/cache-service.log"; exit 1; }
  sleep 1
done
java -cp "target/test-classes:$(cat $OUT/classpath.txt)" io.verso.bench.CacheBench --url="http://127.0.0.1:$PORT" \
  --java="$("$BENCH_JAVA" -version 2>&1 | head -1)" --servicePid=$service --pgPid="$(head -1 /var/lib/postgresql/*/main/postmaster.pid 2>/dev/null || true)" --pg="jdbc:postgresql://127.0.0.1:5432/$DIRECT_DB?user=postgres" "$@"
