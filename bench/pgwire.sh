#!/usr/bin/env bash
# One-key reads through the PostgreSQL protocol (issue 27): pgbench, prepared statements (-M prepared: Parse
# once, then Bind/Execute/Sync per read), against Verso's pgwire listener and against PostgreSQL directly, at
# 1, 4 and 16 clients in the same run, on the same machine; the report gives the ratio per client count.
# bench/pgwire.sh [keys] [seconds per run]   (default 10000 10)
# BENCH_PGWIRE_PORT=<port>: use a service already running with security none on that port (its database
# gets the table); else the jar is built and started on a fresh database of the local PostgreSQL.
# Then COPY of COPY_ROWS rows (BENCH_COPY_ROWS, default 100000) in text format into a VERSIONED and an APPEND
# Verso table through the listener, into a plain PostgreSQL table directly, and the same file through MariaDB's
# LOAD DATA LOCAL INFILE into an InnoDB table, plain and WITH SYSTEM VERSIONING, on a private mariadbd started
# here (durable defaults; skipped with a note when MariaDB's binaries are missing): rows per second and ratio.
# Report: printed, and target/bench/pgwire.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

KEYS=${1:-10000}
SECONDS_PER_RUN=${2:-10}
DB=${BENCH_PGWIRE_DB:-verso_bench_pgwire}
DIRECT_DB=${BENCH_PGWIRE_DIRECT_DB:-verso_bench_pgwire_direct}
OUT=target/bench
mkdir -p "$OUT"

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  version=$(ls /etc/postgresql | sort -n | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
psql_admin() { if [ "$(id -u)" = 0 ]; then su postgres -c "psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -q $*"; else psql -h 127.0.0.1 -U postgres -v ON_ERROR_STOP=1 -q "$@"; fi; }
psql_admin "-c 'DROP DATABASE IF EXISTS $DIRECT_DB WITH (FORCE)' -c 'CREATE DATABASE $DIRECT_DB'"

PORT=${BENCH_PGWIRE_PORT:-}
if [ -z "$PORT" ]; then
  PORT=15433
  psql_admin "-c 'DROP DATABASE IF EXISTS $DB WITH (FORCE)' -c 'CREATE DATABASE $DB'"
  ./mvnw -B -q -DskipTests package
  SPRING_DATASOURCE_URL="jdbc:postgresql://127.0.0.1:5432/$DB" SPRING_DATASOURCE_USERNAME=postgres \
    SPRING_DATASOURCE_PASSWORD= VERSO_SECURITY_MODE=none SERVER_ADDRESS=127.0.0.1 \
    VERSO_PGWIRE_PORT=$PORT PORT=18081 java -Xmx512m -jar target/verso-0.1.0-SNAPSHOT.jar >"$OUT/pgwire-service.log" 2>&1 &
  service=$!
  trap 'kill $service 2>/dev/null; wait $service 2>/dev/null || true' EXIT
  for _ in $(seq 1 120); do
    pg_isready -h 127.0.0.1 -p "$PORT" -q && break
    kill -0 $service 2>/dev/null || { echo "the service did not start:"; tail -50 "$OUT/pgwire-service.log"; exit 1; }
    sleep 1
  done
fi

table=bench_keys_$$
verso() { psql -X -q -h 127.0.0.1 -p "$PORT" -U bench -d verso -v ON_ERROR_STOP=1 "$@"; }
verso -c "CREATE TABLE $table (id INT PRIMARY KEY, v TEXT)"
# The keys in requests of 500 rows: one commit each.
for ((from = 1; from <= KEYS; from += 500)); do
  to=$((from + 499 < KEYS ? from + 499 : KEYS))
  rows=$(seq "$from" "$to" | awk '{printf "%s(%d, '\''value %d'\'')", (NR > 1 ? ", " : ""), $1, $1}')
  verso -c "UPSERT INTO $table VALUES $rows"
done
psql -X -q -h 127.0.0.1 -U postgres -d "$DIRECT_DB" -v ON_ERROR_STOP=1 \
  -c "CREATE TABLE $table (id INT PRIMARY KEY, v TEXT)" \
  -c "INSERT INTO $table SELECT i, 'value ' || i FROM generate_series(1, $KEYS) i" -c "ANALYZE $table"

script="$OUT/pgwire-read.sql"
printf '\\set id random(1, %d)\nSELECT v FROM %s WHERE id = :id;\n' "$KEYS" "$table" >"$script"
rate() { # host port user db clients -> transactions per second
  pgbench -n -M prepared -h 127.0.0.1 -p "$2" -U "$3" -f "$script" -c "$5" -j "$5" -T "$SECONDS_PER_RUN" "$4" 2>&1 \
    | awk '/^tps/ {print int($3)}'
}
{
  echo "One-key reads, pgbench -M prepared, $KEYS keys, ${SECONDS_PER_RUN}s per run, $(nproc) cores"
  printf '%-8s %14s %18s %8s\n' clients "pgwire reads/s" "PostgreSQL reads/s" ratio
  for clients in 1 4 16; do
    v=$(rate 127.0.0.1 "$PORT" bench verso "$clients")
    d=$(rate 127.0.0.1 5432 postgres "$DIRECT_DB" "$clients")
    printf '%-8s %14s %18s %8s\n' "$clients" "$v" "$d" "$(awk -v a="$v" -v b="$d" 'BEGIN {printf "%.2f", a / b}')"
  done
} | tee "$OUT/pgwire.txt"

COPY_ROWS=${BENCH_COPY_ROWS:-100000}
data="$OUT/pgwire-copy.tsv"
seq 1 "$COPY_ROWS" | awk '{print $1 "\tvalue " $1 "\t" $1 / 100}' >"$data"
elapsed() { local start; start=$(date +%s%N); "$@" >/dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }
psql -X -q -h 127.0.0.1 -U postgres -d "$DIRECT_DB" -v ON_ERROR_STOP=1 \
  -c "CREATE TABLE copy_$table (id INT PRIMARY KEY, v TEXT, n NUMERIC(12,2))"
direct_ms=$(elapsed psql -X -q -h 127.0.0.1 -U postgres -d "$DIRECT_DB" -v ON_ERROR_STOP=1 \
  -c "\\copy copy_$table FROM '$data'")
{
  echo
  echo "COPY FROM STDIN, $COPY_ROWS rows (text format, psql \\copy, its start included)"
  printf '%-26s %12s %8s\n' target "rows/s" ratio
  printf '%-26s %12s %8s\n' "PostgreSQL (plain)" "$((COPY_ROWS * 1000 / direct_ms))" 1.00
  for mode in VERSIONED APPEND; do
    verso -c "CREATE TABLE copy_${mode}_$table (id INT$([ $mode = APPEND ] || echo ' PRIMARY KEY'), v TEXT, n NUMERIC(12,2)) $mode"
    ms=$(elapsed verso -c "\\copy copy_${mode}_$table FROM '$data'")
    printf '%-26s %12s %8s\n' "Verso $mode" "$((COPY_ROWS * 1000 / ms))" "$(awk -v a="$direct_ms" -v b="$ms" 'BEGIN {printf "%.2f", a / b}')"
  done
} | tee -a "$OUT/pgwire.txt"

# MariaDB 10.11, a private server in a temporary folder on a free port, its defaults (durable commits).
installdb=$(command -v mariadb-install-db || true)
mariadbd=$(command -v mariadbd || { [ -x /usr/sbin/mariadbd ] && echo /usr/sbin/mariadbd; } || true)
if [ -z "$installdb" ] || [ -z "$mariadbd" ]; then
  echo "MariaDB LOAD DATA: skipped, no mariadb-install-db/mariadbd on this machine" | tee -a "$OUT/pgwire.txt"
  exit 0
fi
maria=$(mktemp -d)
as_root=(); [ "$(id -u)" = 0 ] && as_root=(--user=root)
"$installdb" --no-defaults --datadir="$maria/data" --auth-root-authentication-method=normal --skip-test-db \
  "${as_root[@]}" >"$maria/install.log" 2>&1
maria_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$mariadbd" --no-defaults --datadir="$maria/data" --port="$maria_port" --bind-address=127.0.0.1 \
  --socket="$maria/mariadb.sock" --skip-log-bin --local-infile=1 --pid-file="$maria/mariadb.pid" \
  "${as_root[@]}" >"$maria/server.log" 2>&1 &
maria_pid=$!
trap 'kill $maria_pid 2>/dev/null; wait $maria_pid 2>/dev/null || true; rm -rf "$maria"; [ -n "${service:-}" ] && { kill $service 2>/dev/null; wait $service 2>/dev/null || true; }' EXIT
mdb() { mariadb --no-defaults -h 127.0.0.1 -P "$maria_port" -u root --local-infile=1 "$@"; }
for _ in $(seq 1 60); do mdb -e "SELECT 1" >/dev/null 2>&1 && break; sleep 1; done
mdb -e "CREATE DATABASE bench"
{
  for versioning in "" " WITH SYSTEM VERSIONING"; do
    name=copy_maria$([ -z "$versioning" ] || echo _sv)
    mdb bench -e "CREATE TABLE $name (id INT PRIMARY KEY, v TEXT, n DECIMAL(12,2))$versioning ENGINE=InnoDB"
    ms=$(elapsed mdb bench -e "LOAD DATA LOCAL INFILE '$PWD/$data' INTO TABLE $name")
    loaded=$(mdb -N bench -e "SELECT count(*) FROM $name")
    [ "$loaded" = "$COPY_ROWS" ] || { echo "MariaDB loaded $loaded of $COPY_ROWS rows" >&2; exit 1; }
    printf '%-26s %12s %8s\n' "MariaDB LOAD DATA${versioning:+ (sys.)}" "$((COPY_ROWS * 1000 / ms))" \
      "$(awk -v a="$direct_ms" -v b="$ms" 'BEGIN {printf "%.2f", a / b}')"
  done
} | tee -a "$OUT/pgwire.txt"
