# Shared by the bench scripts that compare hostside with its peers: where the peers, Java and the
# jar are, and the JVM flags the ./hostside launcher gives `cpu`. Paths come out absolute, so a
# script may run from anywhere.
#   . "$(dirname "$0")/lib.sh"; bench_refs; bench_fio; bench_java   (sets refs, fio, java, jar, CPU_JAVA)
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# a peer's binary from $PEERS, else .peers/ in the checkout, else the shared peers; exits when none
bench_peer() {
  local d
  for d in "${PEERS:-}" "$bench_root/.peers" /work/shared/tools/peers "$bench_root/../shared/tools/peers"; do
    if [[ -n $d && -x $d/bin/$1 ]]; then (cd "$d/bin" && echo "$PWD/$1"); return 0; fi
  done
  echo "no $1 binary: set PEERS, or copy the peers to .peers/" >&2
  return 1
}
bench_refs() { refs=$(bench_peer refs) || exit 1; }
bench_fio() { fio=$(bench_peer fio) || exit 1; }

# .jre/bin/java where it was built (the H200 machine has no Java), else $JAVA_HOME's, else java;
# the jar from $JAR (already absolute, or relative to the repository), else target/hostside.jar
bench_java() {
  if [[ -x $bench_root/.jre/bin/java ]]; then java=$bench_root/.jre/bin/java
  elif [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then java=$JAVA_HOME/bin/java
  else java=java; fi
  jar=${JAR:-$bench_root/target/hostside.jar}
  [[ $jar == /* ]] || jar=$bench_root/$jar
  [[ -f $jar ]] || { echo "no jar at $jar: ./mvnw -B -q -o package -DskipTests" >&2; exit 1; }
  # the launcher's flags for `cpu` (./hostside): serial GC, no periodic safepoints, no monitor-deflation thread
  CPU_JAVA=("$java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions
            -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0)
}

# OUTDIR made if need be, printed as an absolute path:   out=$(bench_out "$out")
bench_out() { mkdir -p "$1" && (cd "$1" && pwd); }

# FILE... removed on every exit path, interrupts included (call once per script: it sets the traps)
bench_remove_on_exit() {
  local q; q=$(printf ' %q' "$@")
  trap "rm -f$q" EXIT; trap 'exit 130' INT; trap 'exit 143' TERM
}

# FILE laid out by fio as for a read job of its own (written, then fio drops its pages), SIZE
# bytes (default 2 GiB): a file as fresh below the guest as hostside's test file. Needs bench_fio.
bench_layout() {
  "$fio" --name=layout --filename="$1" --size="${2:-2147483648}" --rw=read --bs=1M --io_size=1M --output-format=json > /dev/null
}
