#!/usr/bin/env bash
# Start-up, as a newcomer meets it (issue 22): the README's run command (./mvnw spring-boot:run, no datasource
# settings, so the embedded PostgreSQL) timed from the command to the first answer of /actuator/health, in a
# fresh clone of HEAD (compile + initdb; the Maven repository warm) and then restarted in that clone (nothing
# to build, data folder kept). Baseline in the same run: the same application from its packaged jar
# (java -jar) on the machine's PostgreSQL, a fresh database each round: no Maven and no embedded
# PostgreSQL to pay (the jar carries none). bench/startup.sh [rounds]   (default 3)
# Report: printed, and target/bench/startup.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-3}
DB=${BENCH_STARTUP_DB:-verso_bench_startup}
PORT=${BENCH_STARTUP_PORT:-18480}
OUT=$PWD/target/bench
WORK=$(mktemp -d)
mkdir -p "$OUT"
trap 'stop; rm -rf "$WORK"' EXIT
unset SPRING_DATASOURCE_URL SPRING_DATASOURCE_USERNAME SPRING_DATASOURCE_PASSWORD

group=
stop() {
  if [ -n "$group" ]; then
    kill -TERM -- "-$group" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 -- "-$group" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$group" 2>/dev/null || true
    group=
  fi
}

# Seconds from starting "$@" in $1 to the first 200 of the health endpoint.
first_answer() {
  local dir=$1; shift
  local start end
  start=$(date +%s.%N)
  (cd "$dir" && PORT=$PORT exec setsid "$@" >"$WORK/run.log" 2>&1) &
  group=$!
  until curl -sf -o /dev/null "http://127.0.0.1:$PORT/actuator/health"; do
    if ! kill -0 "$group" 2>/dev/null; then tail -30 "$WORK/run.log" >&2; echo "the service did not start" >&2; exit 1; fi
    sleep 0.1
  done
  end=$(date +%s.%N)
  stop
  echo "$end - $start" | bc
}

psql_admin() { if [ "$(id -u)" = 0 ]; then su postgres -c "psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -q $*"; else psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q "$@"; fi; }
./mvnw -B -q -DskipTests package >"$WORK/package.log" 2>&1 || { tail -30 "$WORK/package.log"; exit 1; }
jar=$(ls target/verso-*.jar | grep -v plain | head -n 1)

{
  echo "# start-up to first answer, seconds ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at start)"
  printf '%-6s %14s %14s %14s %10s\n' round fresh-clone restart java-jar restart/jar
  for round in $(seq 1 "$ROUNDS"); do
    clone=$WORK/clone-$round
    git clone -q "$PWD" "$clone"
    fresh=$(first_answer "$clone" ./mvnw -B spring-boot:run)
    again=$(first_answer "$clone" ./mvnw -B spring-boot:run)
    psql_admin "-c 'SET client_min_messages = warning' -c 'DROP DATABASE IF EXISTS $DB WITH (FORCE)' -c 'CREATE DATABASE $DB'"
    bare=$(SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:5432/$DB" SPRING_DATASOURCE_USERNAME=postgres \
      SPRING_DATASOURCE_PASSWORD= VERSO_SECURITY_MODE=none first_answer "$clone" java -jar "$PWD/$jar")
    printf '%-6s %14.1f %14.1f %14.1f %10.2f\n' "$round" "$fresh" "$again" "$bare" "$(echo "$again / $bare" | bc -l)"
    rm -rf "$clone"
  done
} | tee "$OUT/startup.txt"
