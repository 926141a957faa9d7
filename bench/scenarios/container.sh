#!/usr/bin/env bash
# hostside container and io --no-measure beside the classic tools (bench/scenarios/container-tools.py),
# on this machine as it is, or with --shaped in a container-like setup made here: a cgroup with
# memory 2 GiB, pids 256 and a CPU quota of 1.5 CPUs (v1 or v2, whichever is mounted), new ipc,
# pid and mount namespaces with /proc remounted, a 64 MiB /dev/shm, memlock 64 KiB and
# CAP_IPC_LOCK dropped: what `docker run` without --ipc=host, --shm-size or --ulimit memlock gives.
# The cgroup is removed on every exit.
#   bench/run container [--shaped] [DIR]      (JAVA=a java binary: the JVM's view of the container beside)
# INSIDE='$HOSTSIDE container' runs that command line in the shaped setup instead of the comparison.
set -euo pipefail
shaped=0
[ "${1:-}" = --shaped ] && { shaped=1; shift; }
dir=${1:-/var/tmp}
export HOSTSIDE=${HOSTSIDE:-./hostside} JAVA=${JAVA:-java}
[ $shaped = 0 ] && exec python3 bench/scenarios/container-tools.py "$dir"
[ "$(id -u)" = 0 ] || { echo "--shaped needs root (cgroups, namespaces, mounts)"; exit 1; }
for t in unshare mount; do command -v $t >/dev/null || { echo "$t is not installed"; exit 1; }; done
# CAP_IPC_LOCK out of the bounding set: capsh (libcap) or setpriv (util-linux), whichever is here
if command -v capsh >/dev/null; then drop='capsh --drop=cap_ipc_lock -- -c'
elif command -v setpriv >/dev/null; then drop='setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock -- sh -c'
else echo "neither capsh nor setpriv is installed"; exit 1; fi
name=hostside-bench-$$
dirs=()
cleanup() {
  for d in "${dirs[@]}"; do
    [ -d "$d" ] || continue
    for p in $(cat "$d/cgroup.procs" 2>/dev/null); do kill -9 "$p" 2>/dev/null || true; done
    for i in $(seq 50); do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
    [ -d "$d" ] && echo "could not remove $d" >&2
  done
  return 0
}
trap cleanup EXIT
if mountpoint -q /sys/fs/cgroup/memory && mountpoint -q /sys/fs/cgroup/pids; then
  echo "# cgroup v1: /sys/fs/cgroup/{memory,pids,cpu}/$name"
  for c in memory pids cpu; do d=/sys/fs/cgroup/$c/$name; mkdir "$d"; dirs+=("$d"); done
  echo $((2 << 30)) > /sys/fs/cgroup/memory/$name/memory.limit_in_bytes
  echo 256 > /sys/fs/cgroup/pids/$name/pids.max
  echo 100000 > /sys/fs/cgroup/cpu/$name/cpu.cfs_period_us
  echo 150000 > /sys/fs/cgroup/cpu/$name/cpu.cfs_quota_us
else
  root=/sys/fs/cgroup
  echo "# cgroup v2: $root/$name"
  for c in memory pids cpu; do
    grep -qw $c $root/cgroup.subtree_control || echo "+$c" > $root/cgroup.subtree_control \
      || { echo "cannot enable $c in $root (a v2 root whose own cgroup holds processes refuses)"; exit 1; }
  done
  mkdir $root/$name; dirs+=("$root/$name")
  echo $((2 << 30)) > $root/$name/memory.max
  echo 256 > $root/$name/pids.max
  echo "150000 100000" > $root/$name/cpu.max
fi
procs=$(printf '%s/cgroup.procs ' "${dirs[@]}")
# what runs inside: the comparison, or INSIDE (a shell command line) when set
export INSIDE=${INSIDE:-"exec python3 bench/scenarios/container-tools.py $dir"}
# a child moves itself into the cgroup and becomes the "container": this shell stays outside,
# so that it can remove the cgroup afterwards
bash -c 'for f in '"$procs"'; do echo $$ > $f; done
  exec unshare --ipc --pid --mount --fork --mount-proc bash -c "
    mount -t tmpfs -o size=64m tmpfs /dev/shm && ulimit -l 64 && exec '"$drop"' \"eval \\\"\\\$INSIDE\\\"\""'
