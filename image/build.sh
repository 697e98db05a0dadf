#!/usr/bin/env bash
# Builds the Verso container image as target/jib-image.tar (verso:0.1.0) with neither a Docker daemon
# nor a container registry: only the Debian mirror apt already uses, and Maven Central.
#
#   1. Base image (cached): debootstrap a minimal Debian bookworm into a scratch directory, add a Java 25
#      runtime made with jlink from the build machine's Temurin 25 JDK (only the modules the service uses,
#      at /opt/java), and pack it as a one-layer image in `docker save` format (image/pack-base.py) at
#      $VERSO_IMAGE_CACHE/jre25-bookworm-<arch>.tar (~/.cache/verso by default). The service is compiled
#      for Java 17 and runs on 25 in the image. Needs root (debootstrap chroots) and installs debootstrap
#      with apt-get when it is missing.
#   2. Jib: `./mvnw package jib:buildTar` with that tarball as base image (`tar://...`), writing
#      target/jib-image.tar. Jib's settings (image name, user 1000, port 8080) stay in pom.xml.
#   3. Static check of the result (image/verify.sh --static): manifest, config, user, port, entrypoint.
#
# Environment:
#   DEBIAN_MIRROR       mirror for debootstrap (default: the bookworm URI in apt's sources)
#   VERSO_IMAGE_CACHE   where the base image tarball is kept (default ~/.cache/verso)
#   VERSO_REBUILD_BASE  1 = rebuild the base image even when cached
#   MAVEN_ARGS_EXTRA    more arguments for ./mvnw (default: -DskipTests)
#   VERSO_JDK25         the JDK jlink runs from (default /usr/lib/jvm/temurin-25-jdk-<arch>)
#
# Exit status: 0 built; 75 the base image could not be built because the Debian mirror (or apt) was
# unreachable (CI treats this as a warning); anything else is a real failure.
set -euo pipefail
cd "$(dirname "$0")/.."

EX_TEMPFAIL=75
log() { printf '[image] %s\n' "$*" >&2; }
now() { date +%s; }

arch=$(dpkg --print-architecture)
jdk=${VERSO_JDK25:-/usr/lib/jvm/temurin-25-jdk-$arch}
java_home=/opt/java
cache=${VERSO_IMAGE_CACHE:-$HOME/.cache/verso}
base=$cache/jre25-bookworm-$arch.tar
# The runtime's modules: what `jdeps --print-module-deps` finds in the packaged jar's classes and libraries,
# with what they reach only by reflection or service loading (JMX, JNDI/DNS, charsets, locales, zip
# file systems, JFR's management API for the flight recordings the benchmark takes).
modules=java.base,java.compiler,java.desktop,java.instrument,java.management,java.naming,java.net.http,java.prefs
modules=$modules,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.sql.rowset,java.xml
modules=$modules,jdk.charsets,jdk.jfr,jdk.localedata,jdk.management,jdk.management.jfr,jdk.naming.dns
modules=$modules,jdk.unsupported,jdk.zipfs

# The URI apt uses for bookworm itself (not -security / -updates), from deb822 *.sources or one-line *.list.
apt_mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN { RS=""; FS="\n" }
         { uri=""; ok=0; deb=0
           for (i = 1; i <= NF; i++) {
             if ($i ~ /^URIs:/)   { sub(/^URIs:[ \t]*/, "", $i); split($i, u, /[ \t]+/); uri = u[1] }
             if ($i ~ /^Types:/ && $i ~ /(^|[ \t])deb([ \t]|$)/) deb = 1
             if ($i ~ /^Suites:/ && $i ~ /(^|[ \t])bookworm([ \t]|$)/) ok = 1
             if ($i ~ /^Enabled:[ \t]*no/) { ok = 0; break }
           }
           if (deb && ok && uri != "") { print uri; exit } }' "$f"
  done
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
    | awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                          if ($(i+1) == "bookworm") print $i }'
}

# Unmounts whatever debootstrap left mounted under $1 (it mounts /proc and /sys in the target and
# may leave them on failure), then deletes $1 without crossing into another file system.
remove_tree() {
  local m
  for m in $(awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
  rm -rf --one-file-system "$1"
}

build_base() {
  [ "$(id -u)" = 0 ] || { log "building the base image needs root (debootstrap); run as root or provide $base"; exit 1; }
  local mirror=${DEBIAN_MIRROR:-$(apt_mirror | head -n 1)}
  mirror=${mirror:-http://deb.debian.org/debian}
  log "base image: debootstrap bookworm from $mirror"
  if ! curl -fsS -o /dev/null --max-time 30 --retry 2 "$mirror/dists/bookworm/Release"; then
    log "Debian mirror $mirror unreachable"; exit $EX_TEMPFAIL
  fi
  if ! command -v debootstrap >/dev/null; then
    # Try the package lists already there first; refresh them only when that fails.
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }; } \
      || { log "could not install debootstrap with apt-get"; exit $EX_TEMPFAIL; }
  fi
  mkdir -p "$cache"
  local work; work=$(mktemp -d "$cache/rootfs.XXXXXX")
  # shellcheck disable=SC2064
  trap "remove_tree '$work'" EXIT
  local rootfs=$work/rootfs t0; t0=$(now)
  [ -x "$jdk/bin/jlink" ] || { log "no JDK 25 at $jdk (set VERSO_JDK25)"; exit 1; }
  if ! debootstrap --variant=minbase --include=ca-certificates \
        --arch="$arch" bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
    tail -n 20 "$work/debootstrap.log" >&2
    if grep -qE "Couldn't download|Failed getting release|Couldn't retrieve|Connection|Temporary failure" "$work/debootstrap.log"; then
      log "debootstrap could not download from $mirror"; exit $EX_TEMPFAIL
    fi
    log "debootstrap failed"; exit 1
  fi
  log "debootstrap: $(( $(now) - t0 )) s"
  t0=$(now)
  "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    --compress=zip-6 --output "$rootfs$java_home"
  log "jlink: $(( $(now) - t0 )) s, $(du -sh "$rootfs$java_home" | cut -f1)"
  # java finds libjli.so through $ORIGIN, which glibc resolves with /proc/self/exe: mount a /proc.
  unshare --mount --fork sh -c 'mount -t proc proc "$1/proc" && exec chroot "$1" "$2/bin/java" -version' \
    sh "$rootfs" "$java_home"

  for m in $(awk -v d="$rootfs/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m"; done
  # Trim what a runtime image does not need; a container runtime provides /dev, /proc, /sys,
  # /etc/hosts, /etc/resolv.conf and /etc/hostname.
  rm -rf --one-file-system "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/* \
         "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
         "$rootfs"/usr/share/locale/* "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/lib/dpkg/*-old \
         "$rootfs"/dev/* "$rootfs"/proc/* "$rootfs"/sys/* "$rootfs"/tmp/* "$rootfs"/run/*
  : >"$rootfs/etc/resolv.conf"; : >"$rootfs/etc/hostname"; : >"$rootfs/etc/machine-id" 2>/dev/null || true
  chmod 1777 "$rootfs/tmp"

  t0=$(now)
  python3 image/pack-base.py "$rootfs" "$base" "$arch" "$java_home" "verso-base/jre25:bookworm"
  log "packed base image: $(( $(now) - t0 )) s, $(du -h "$base" | cut -f1) at $base"
  remove_tree "$work"; trap - EXIT
}

start=$(now)
if [ ! -s "$base" ] || [ "${VERSO_REBUILD_BASE:-0}" = 1 ]; then
  build_base
else
  log "base image: cached $base"
fi

t0=$(now)
# shellcheck disable=SC2086
./mvnw -B ${MAVEN_ARGS_EXTRA:--DskipTests} package jib:buildTar -Djib.from.image="tar://$base"
log "jib: $(( $(now) - t0 )) s"

bash image/verify.sh --static target/jib-image.tar
log "done in $(( $(now) - start )) s: target/jib-image.tar ($(du -h target/jib-image.tar | cut -f1))"
