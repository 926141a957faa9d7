#!/usr/bin/env bash
# hostside container and io --no-measure beside the classic tools on a machine without Java, with
# the runtime that ../shared/tools/device-jre.sh builds: as the machine is, then in the
# container-like setup of bench/container-vs-tools.sh --shaped.
# Usage (from the repo root, .jre/ and the jar present): bash bench/device-container.sh OUTDIR [JAR]
set -uo pipefail
out=${1:?usage: bench/device-container.sh OUTDIR [JAR]}
jar=${2:-target/hostside.jar}
mkdir -p "$out"
export JAVA=$PWD/.jre/bin/java
export HOSTSIDE="$JAVA --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar $PWD/$jar"
{
  echo "== date: $(date -u +%FT%TZ)  host: $(hostname)  cpus: $(nproc)  kernel: $(uname -r)"
  for t in prlimit nproc df capsh setpriv findmnt lsns systemd-detect-virt lsblk ip lsmod unshare; do
    printf '%s: %s\n' "$t" "$(command -v $t || echo 'not installed')"; done
  echo "== as the machine is"
  bash bench/container-vs-tools.sh /var/tmp; echo "exit $?"
  echo "== container-like: cgroup limits, own ipc/pid/mnt namespaces, 64 MiB /dev/shm, memlock 64 KiB, no CAP_IPC_LOCK"
  bash bench/container-vs-tools.sh --shaped /var/tmp; echo "exit $?"
  echo "== hostside container in the same setup (text)"
  INSIDE='$HOSTSIDE container' bash bench/container-vs-tools.sh --shaped; echo "exit $?"
  echo "== cgroups left: $(ls -d /sys/fs/cgroup/hostside-bench-* /sys/fs/cgroup/*/hostside-bench-* 2>/dev/null || echo none)"
} > "$out/device-container.log" 2>&1
cat "$out/device-container.log"
