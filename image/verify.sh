#!/usr/bin/env bash
# Checks an image tarball (default target/jib-image.tar) without a Docker daemon.
#
#   image/verify.sh --static [TAR]  manifest and config: tag verso:0.1.0, linux, user 1000:1000,
#                                   port 8080/tcp, Jib's java entrypoint, JAVA_HOME
#   image/verify.sh --run [TAR]     the above, then (as root) unpacks every layer into a scratch root
#                                   filesystem and starts the image's entrypoint in it as its user, in
#                                   its own mount and PID namespaces (unshare + chroot, host network),
#                                   against PostgreSQL, until /actuator/health/readiness answers UP.
#
# --run uses SPRING_DATASOURCE_URL/_USERNAME/_PASSWORD when set; otherwise it (re)creates a scratch
# database verso_image on the local PostgreSQL (127.0.0.1:5432, user postgres). The service gets a free
# port through PORT (VERIFY_PORT to choose it), so services already running on the machine do not matter.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:---static}
tar=${2:-target/jib-image.tar}
log() { printf '[verify] %s\n' "$*" >&2; }

# Static checks; prints the shell-quoted entrypoint, working directory, user and env on success.
inspect() {
  python3 - "$1" <<'PY'
import json, shlex, sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    manifest = json.load(t.extractfile("manifest.json"))
    assert len(manifest) == 1, manifest
    m = manifest[0]
    config = json.load(t.extractfile(m["Config"]))
    names = set(t.getnames())
    for layer in m["Layers"]:
        assert layer in names, f"missing layer {layer}"
c = config["config"]
problems = []
def expect(cond, what):
    if not cond: problems.append(what)
expect("verso:0.1.0" in (m.get("RepoTags") or []), f"tag verso:0.1.0, got {m.get('RepoTags')}")
expect(config.get("os") == "linux", f"os linux, got {config.get('os')}")
expect(c.get("User") == "1000:1000", f"user 1000:1000, got {c.get('User')}")
expect("8080/tcp" in (c.get("ExposedPorts") or {}), f"port 8080/tcp, got {c.get('ExposedPorts')}")
ep = (c.get("Entrypoint") or []) + (c.get("Cmd") or [])
expect(ep[:1] == ["java"] and "io.verso.VersoApplication" in ep, f"java ... io.verso.VersoApplication, got {ep}")
env = c.get("Env") or []
expect(any(e.startswith("JAVA_HOME=") for e in env), f"JAVA_HOME in env, got {env}")
print(f"image: {m['RepoTags']} {config.get('os')}/{config.get('architecture')}, "
      f"{len(m['Layers'])} layers, user {c.get('User')}, ports {list((c.get('ExposedPorts') or {}))}, "
      f"entrypoint {ep}", file=sys.stderr)
if problems:
    sys.exit("image check failed: " + "; ".join(problems))
print("ENTRYPOINT=" + shlex.quote(shlex.join(ep)))
print("WORKDIR=" + shlex.quote(c.get("WorkingDir") or "/"))
print("IMAGE_USER=" + shlex.quote(c["User"]))
print("IMAGE_ENV=" + shlex.quote(shlex.join(env)))
print("LAYERS=" + shlex.quote(shlex.join(m["Layers"])))
PY
}

[ -s "$tar" ] || { log "no image tarball at $tar"; exit 1; }
facts=$(inspect "$tar")
log "static checks passed: $tar"
[ "$mode" = --static ] && exit 0
[ "$mode" = --run ] || { log "usage: $0 --static|--run [TAR]"; exit 2; }
[ "$(id -u)" = 0 ] || { log "--run needs root (chroot, unshare)"; exit 1; }
eval "$facts"
eval "entrypoint=($ENTRYPOINT)"
eval "image_env=($IMAGE_ENV)"

work=$(mktemp -d)
pid=
cleanup() {
  # The entrypoint is unshare's only child and PID 1 of the new PID namespace: stopping it (SIGTERM,
  # as a container runtime does) ends the namespace; unshare then exits with it.
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    local init; init=$(pgrep -P "$pid" || true)
    [ -n "$init" ] && kill -TERM "$init" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    if kill -0 "$pid" 2>/dev/null; then
      [ -n "$init" ] && kill -KILL "$init" 2>/dev/null || true
      kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    log "stopped the service"
  fi
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT

rootfs=$work/rootfs
mkdir -p "$rootfs" "$work/image"
tar -xf "$tar" -C "$work/image"
for layer in $LAYERS; do   # base first; Jib's layers have no whiteouts
  tar -xzf "$work/image/$layer" -C "$rootfs" --numeric-owner --warning=no-unknown-keyword
done
log "unpacked $(echo "$LAYERS" | wc -w) layers: $(du -sh "$rootfs" | cut -f1)"

if [ -z "${SPRING_DATASOURCE_URL:-}" ]; then
  PGOPTIONS=--client-min-messages=warning su postgres -c "psql -h 127.0.0.1 -v ON_ERROR_STOP=1 -q -c 'DROP DATABASE IF EXISTS verso_image WITH (FORCE)' -c 'CREATE DATABASE verso_image'"
  export SPRING_DATASOURCE_URL=jdbc:postgresql://127.0.0.1:5432/verso_image SPRING_DATASOURCE_USERNAME=postgres SPRING_DATASOURCE_PASSWORD=
fi
# A port nobody listens on (a free ephemeral one unless VERIFY_PORT is set): the readiness answer
# must come from this image, not from another service on the machine.
port=${VERIFY_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("", 0)); print(s.getsockname()[1])')}
if curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$port/"; then
  log "port $port is already in use"; exit 1
fi

# Private mount and PID namespaces: /proc, /dev and /sys are mounted for the JVM and vanish with it;
# the entrypoint is PID 1 there, as in a container.
unshare --mount --pid --fork \
  sh -c 'r=$1; shift; mount -t proc proc "$r/proc" && mount --rbind /dev "$r/dev" && mount --rbind /sys "$r/sys" && exec "$@"' sh "$rootfs" \
  chroot --userspec="$IMAGE_USER" "$rootfs" \
  /usr/bin/env -i -C "$WORKDIR" "${image_env[@]}" HOME=/ PORT="$port" \
  SPRING_DATASOURCE_URL="$SPRING_DATASOURCE_URL" SPRING_DATASOURCE_USERNAME="${SPRING_DATASOURCE_USERNAME:-}" \
  SPRING_DATASOURCE_PASSWORD="${SPRING_DATASOURCE_PASSWORD:-}" \
  VERSO_SECURITY_ADMIN_API_KEY="${VERSO_SECURITY_ADMIN_API_KEY:-verify-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')}" \
  "${entrypoint[@]}" >"$work/app.log" 2>&1 &
pid=$!
log "started the image's entrypoint as $IMAGE_USER on port $port (unshare pid $pid)"

url=http://127.0.0.1:$port/actuator/health/readiness
for i in $(seq 1 120); do
  if grep -qs 'Started VersoApplication' "$work/app.log" && body=$(curl -fsS --max-time 2 "$url" 2>/dev/null); then
    log "readiness after ${i} s: $body"
    grep -q '"status":"UP"' <<<"$body" || { tail -n 40 "$work/app.log" >&2; exit 1; }
    grep -m1 -E 'Started VersoApplication' "$work/app.log" >&2 || true
    # The image's runtime is Java 25 (image/build.sh), whatever JDK compiled the service.
    grep -m1 -E 'Starting VersoApplication.* using Java 25' "$work/app.log" >&2 \
      || { log "the service did not run on Java 25:"; grep -m1 'Starting VersoApplication' "$work/app.log" >&2; exit 1; }
    exit 0
  fi
  kill -0 "$pid" 2>/dev/null || { log "the service exited:"; tail -n 60 "$work/app.log" >&2; exit 1; }
  sleep 1
done
log "no readiness after 120 s:"; tail -n 60 "$work/app.log" >&2; exit 1
