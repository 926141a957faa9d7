#!/usr/bin/env bash
# Which JVM flags shorten `hostside machine --json`? Times each flag set with its own AOT
# cache (trained with the same flags, as the launcher does) and without one. Runs are
# interleaved in a random order, round after round, so that a build or test run elsewhere on
# the machine slows every variant alike instead of the one that happened to run then.
#
#   bench/run startup-flags [ROUNDS]     default 15 rounds, after 2 warm-up rounds; ~3 min on 2 cores
#   ONLY='^aot (c1|serial\+c1)$' bench/run startup-flags 40     only the variants whose name matches
#
# Prints median/min/max wall time and median CPU time (user+sys) per variant. The launcher's
# choice (docs/startup.md) is the set that was fastest by both.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=${1:-15}
warmup=2
./hostside machine --json >/dev/null        # builds the jar if needed
java=$(HOSTSIDE_WHICH_JAVA=1 ./hostside)
jar=target/hostside.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

base="--enable-native-access=ALL-UNNAMED"
declare -A variants=(
  [default]=""
  [serial]="-XX:+UseSerialGC"
  [c1]="-XX:TieredStopAtLevel=1"
  [serial+c1]="-XX:+UseSerialGC -XX:TieredStopAtLevel=1"
  [serial+c1+noperf]="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData"
  [serial+c1+xss512k]="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k"
)
declare -A cmd=()
keep() { [[ -z ${ONLY:-} || $1 =~ $ONLY ]]; }
for v in "${!variants[@]}"; do
  keep "aot $v" || keep "    $v" || continue
  # shellcheck disable=SC2206  # flag lists split on spaces by design
  f=($base ${variants[$v]})
  "$java" "${f[@]}" -XX:AOTCacheOutput="$work/$v.aot" -jar "$jar" machine --json >/dev/null 2>&1
  keep "aot $v" && cmd["aot $v"]="$java ${f[*]} -Xlog:disable -XX:AOTCache=$work/$v.aot -jar $jar machine --json"
  keep "    $v" && cmd["    $v"]="$java ${f[*]} -jar $jar machine --json"
done

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1); $("$java" -version 2>&1 | head -n 1)"
echo "rounds:  $rounds after $warmup warm-up, interleaved; load at start $(cut -d' ' -f1-3 /proc/loadavg)"
for (( r = 0; r < rounds + warmup; r++ )); do
  while IFS= read -r name; do
    # shellcheck disable=SC2086  # the command line is split on spaces by design
    t=$( { TIMEFORMAT='%R %U %S'; time ${cmd[$name]} >/dev/null 2>&1; } 2>&1 )
    (( r >= warmup )) && printf '%s\t%s\n' "$name" "$t" >>"$work/times"
  done < <(printf '%s\n' "${!cmd[@]}" | shuf)
done

printf '\n%-26s %8s %8s %8s %10s\n' "variant (AOT cache or not)" median min max "cpu median"
printf '%-26s %s\n' "" "  (ms)"
for name in $(printf '%s\n' "${!cmd[@]}" | tr ' ' '~' | sort); do
  name=${name//\~/ }
  awk -F'\t' -v n="$name" '$1 == n { split($2, a, " "); w[++k] = a[1] * 1000; c[k] = (a[2] + a[3]) * 1000 }
    function med(x, k,   i, j, t) { for (i = 2; i <= k; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
                                   return (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2 }
    END { cm = med(c, k); wm = med(w, k); printf "%-26s %8.0f %8.0f %8.0f %10.0f\n", n, wm, w[1], w[k], cm }' "$work/times"
done
