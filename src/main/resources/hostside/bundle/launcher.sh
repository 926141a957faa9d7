#!/bin/sh
# hostside from a bundle (made by `hostside bundle`): runs hostside.jar on the Java runtime beside
# it, so a machine needs no JDK. Unpack anywhere and run it from there:
#
#   tar xzf hostside-bundle.tar.gz && ./hostside/hostside report
#
# Environment:
#   HOSTSIDE_JAVA_OPTS  extra JVM options, appended last (split on spaces)
#   HOSTSIDE_NO_AOT=1   do not use the start-up cache (hostside.aot)
#   HOSTSIDE_DEBUG=1    show the JVM's complaints about the start-up cache on stderr
#
# POSIX sh rather than bash: container images built from busybox have no bash. The JVM flags are
# the repository launcher's (./hostside there; docs/startup.md has the measurements behind them),
# and a test checks that both start the JVM alike for each command.
set -u
set -f # HOSTSIDE_JAVA_OPTS is split on spaces below, never globbed

die() { printf 'hostside: %s\n' "$*" >&2; exit 2; }

# Where the bundle is, through symlinks (ln -s /opt/hostside/hostside /usr/local/bin/hostside).
src=$0
while [ -L "$src" ]; do
  link=$(readlink "$src") || break
  case $link in
    /*) src=$link ;;
    *) case $src in */*) src=${src%/*}/$link ;; *) src=$link ;; esac ;;
  esac
done
case $src in */*) dir=${src%/*} ;; *) dir=. ;; esac
# A physical, absolute path: child JVMs that hostside starts (cpu --trace) get the jar's path
# from this one, whatever their working directory.
here=$(CDPATH='' cd -P -- "${dir:-/}" && pwd -P) || die "cannot enter $dir"

java=$here/runtime/bin/java
jar=$here/hostside.jar
aot=$here/hostside.aot
[ -x "$java" ] || die "$java is missing or not executable: unpack the whole bundle (tar xzf hostside-bundle.tar.gz keeps the modes)"
[ -f "$jar" ] || die "$jar is missing: unpack the whole bundle"

# The repository launcher's flags: C1 only and SerialGC for a fast start; the drills that time
# Java loops (and machine/rack when they measure) run C2 and without the JVM's periodic
# housekeeping, which would cost a timing loop whole scheduler slices.
flags='--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1'
c2=
case ${1:-} in
  vm|cpu|io|report) c2=1 ;;
  machine|rack)
    c2=1
    for arg in "$@"; do
      case $arg in --no-measure|--list|--root|--root=*|-h|--help) c2= ;; esac
    done ;;
esac
if [ -n "$c2" ]; then
  flags='--enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0'
fi

# The start-up cache was trained on this jar when the bundle was made, and both carry the same
# time stamp. JDK 25 would use a cache beside a replaced jar and run the old classes from it, so
# a jar of another time runs without it.
cache=
if [ "${HOSTSIDE_NO_AOT:-}" != 1 ] && [ -f "$aot" ] && [ ! "$aot" -nt "$jar" ] && [ ! "$jar" -nt "$aot" ]; then
  cache=1
fi

# Unified logging goes to stdout by default, where a JVM warning would corrupt --json.
logs=-Xlog:disable
[ "${HOSTSIDE_DEBUG:-}" = 1 ] && logs="$logs -Xlog:aot=warning:stderr"

# The JVM's arguments, put in front of hostside's own in "$@" from the last to the first (sh has
# no arrays), so that the bundle's paths stay one word each whatever spaces they hold. The
# logging options come before HOSTSIDE_JAVA_OPTS, so that a -Xlog given there still logs.
set -- -jar "$jar" "$@"
# shellcheck disable=SC2086 # options split on spaces, by design
if [ -n "${HOSTSIDE_JAVA_OPTS:-}" ]; then set -- $HOSTSIDE_JAVA_OPTS "$@"; fi
# shellcheck disable=SC2086
set -- $logs "$@"
if [ -n "$cache" ]; then set -- "-XX:AOTCache=$aot" "$@"; fi
# shellcheck disable=SC2086
set -- $flags "$@"
exec "$java" "$@"
