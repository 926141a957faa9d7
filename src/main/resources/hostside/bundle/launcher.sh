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
# from this one, whatever their working directory. The same subshell says `ulimit -v` and
# `ulimit -d` (KiB, or "unlimited"), on the last two lines: a fork costs a millisecond or two.
nl='
'
here=$(CDPATH='' cd -P -- "${dir:-/}" && pwd -P || exit 1
       ulimit -v 2>/dev/null || echo unlimited
       ulimit -d 2>/dev/null || echo unlimited) || die "cannot enter $dir"
data_kib=${here##*"$nl"} here=${here%"$nl"*}
as_kib=${here##*"$nl"} here=${here%"$nl"*}

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

# Memory limits, as ./hostside reads them (its comments have the measurements behind each figure):
# under `ulimit -v` or `ulimit -d` the JVM's reservations are sized to what hostside uses, and the
# heap gets half of what is left, never more than the JVM's own choice; in a cgroup of under
# 256 MiB the heap gets half of what is beyond 40 MiB; below what any JVM needs, one line, exit 2.
# The bundle's runtime maps less than a JDK (lib/modules: 27 MiB against 139): with the sized
# flags its JVM took ~318 MiB of address space besides its heap (Temurin 25.0.3, 2026-12-06), so
# 352 here where ./hostside counts 448, and 416 MiB is the least it starts with.
least_heap_mib=32 least_cgroup_mib=64
heap_mib= xmx_mib= sizing=

# size_heap KIB BESIDES_MIB NAME FLAG: see ./hostside.
size_heap() {
  have=$(( $1 >> 10 )) least=$(( $2 + 2 * least_heap_mib ))
  if [ "$have" -lt "$least" ]; then
    die "the $3 ($4) is $have MiB; hostside's Java runtime needs at least $least MiB: raise it ($4 $(( least << 10 ))) or lift it ($4 unlimited)"
  fi
  heap=$(( (have - $2) / 2 ))
  if [ -z "$heap_mib" ] || [ "$heap" -lt "$heap_mib" ]; then heap_mib=$heap; fi
}

# The least memory limit of this process's memory cgroup and its ancestors: see ./hostside.
cgroup_limit= cgroup_file= cg_path= cg_top= cg_name=
if [ -r /proc/self/cgroup ]; then
  while IFS=: read -r _ ctrl path; do
    case ,$ctrl, in
      *,memory,*) cg_path=$path cg_top=/sys/fs/cgroup/memory cg_name=memory.limit_in_bytes; break ;;
      ,,) cg_path=$path cg_top=/sys/fs/cgroup cg_name=memory.max ;;
    esac
  done </proc/self/cgroup
fi
if [ -n "$cg_top" ]; then
  d=$cg_top${cg_path%/}
  case $d in *..*) d=$cg_top ;; esac
  [ -d "$d" ] || d=$cg_top
  while :; do
    if read -r m 2>/dev/null <"$d/$cg_name"; then
      case $m in
        ''|*[!0-9]*) ;;
        *) if [ -z "$cgroup_limit" ] || [ "$m" -lt "$cgroup_limit" ]; then cgroup_limit=$m cgroup_file=$d/$cg_name; fi ;;
      esac
    fi
    d=${d%/*}
    case $d in "$cg_top"/*) ;; *) break ;; esac
  done
fi
if [ -n "$cgroup_limit" ] && [ "$cgroup_limit" -lt $(( least_cgroup_mib << 20 )) ]; then
  die "this process's memory cgroup allows $(( cgroup_limit >> 20 )) MiB ($cgroup_file); hostside's Java runtime needs at least $least_cgroup_mib MiB: give the container or cgroup more memory"
fi
case $as_kib in ''|*[!0-9]*) ;; *) size_heap "$as_kib" 352 'address-space limit' 'ulimit -v' ;; esac
case $data_kib in ''|*[!0-9]*) ;; *) size_heap "$data_kib" 64 'data-segment limit' 'ulimit -d' ;; esac
if [ -n "$heap_mib" ]; then
  sizing='-XX:CompressedClassSpaceSize=32m -XX:ReservedCodeCacheSize=48m'
  jvm_heap_mib=$(( 31 << 10 )) ram_kib=
  [ -r /proc/meminfo ] && read -r _ ram_kib _ </proc/meminfo
  case $ram_kib in
    ''|*[!0-9]*) ;;
    *) [ $(( ram_kib >> 12 )) -lt "$jvm_heap_mib" ] && jvm_heap_mib=$(( ram_kib >> 12 )) ;;
  esac
  if [ -n "$cgroup_limit" ] && [ $(( cgroup_limit >> 22 )) -lt "$jvm_heap_mib" ]; then jvm_heap_mib=$(( cgroup_limit >> 22 )); fi
  [ "$heap_mib" -lt "$jvm_heap_mib" ] && xmx_mib=$heap_mib
  [ -n "${MALLOC_ARENA_MAX+x}" ] || { MALLOC_ARENA_MAX=2; export MALLOC_ARENA_MAX; }
fi
if [ -n "$cgroup_limit" ] && [ "$cgroup_limit" -lt $(( 256 << 20 )) ]; then
  heap_mib=$(( ((cgroup_limit >> 20) - 40) / 2 ))
  if [ -z "$xmx_mib" ] || [ "$heap_mib" -lt "$xmx_mib" ]; then xmx_mib=$heap_mib; fi
fi
[ -n "$xmx_mib" ] && sizing="$sizing -Xmx${xmx_mib}m"

# The start-up cache was trained on this jar when the bundle was made, and both carry the same
# time stamp. JDK 25 would use a cache beside a replaced jar and run the old classes from it, so
# a jar of another time runs without it. The drills that time Java loops run without it too: the
# cache holds the profiles of a C1-only training run, and under C2 with it the STREAM kernels ran
# 5-15x slower (one-thread Triad 1.0-2.4 GB/s against 11.4-16.4 without it on the busy dev VM, 2.7
# against 14-16 GB/s on the H100 VM, 2026-12-06: docs/measurements/2026-12-06-findings-h100.md);
# their start-up is noise beside their tens of seconds.
cache=
if [ -z "$c2" ] && [ "${HOSTSIDE_NO_AOT:-}" != 1 ] && [ -f "$aot" ] && [ ! "$aot" -nt "$jar" ] && [ ! "$jar" -nt "$aot" ]; then
  cache=1
fi

# Unified logging goes to stdout by default, where a JVM warning would corrupt --json.
logs=-Xlog:disable
[ "${HOSTSIDE_DEBUG:-}" = 1 ] && logs="$logs -Xlog:aot=warning:stderr"
# A crashing JVM's report goes to the bundle's folder, or to stderr where that is not writable;
# never into the working directory, never a fixed name in /tmp; no core, no replay file (see
# ./hostside).
error_file=
[ -w "$here" ] && error_file="-XX:ErrorFile=$here/hs_err_pid%p.log"

# The JVM's arguments, put in front of hostside's own in "$@" from the last to the first (sh has
# no arrays), so that the bundle's paths stay one word each whatever spaces they hold. The
# logging options and the sizing come before HOSTSIDE_JAVA_OPTS, so that a -Xlog or an -Xmx given
# there wins.
set -- -jar "$jar" "$@"
# shellcheck disable=SC2086 # options split on spaces, by design
if [ -n "${HOSTSIDE_JAVA_OPTS:-}" ]; then set -- $HOSTSIDE_JAVA_OPTS "$@"; fi
# shellcheck disable=SC2086
set -- $sizing "$@"
if [ -n "$error_file" ]; then set -- "$error_file" "$@"; else set -- -XX:+ErrorFileToStderr "$@"; fi
set -- -XX:-CreateCoredumpOnCrash -XX:-DumpReplayDataOnError "$@"
# shellcheck disable=SC2086
set -- $logs "$@"
if [ -n "$cache" ]; then set -- "-XX:AOTCache=$aot" "$@"; fi
# shellcheck disable=SC2086
set -- $flags "$@"
exec "$java" "$@"
