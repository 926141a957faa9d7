# Shared by the bench scripts that compare hostside with the C references: where refs, Java and the
# jar are, and the JVM flags the ./hostside launcher gives `cpu`. Sourced from the repository root.
#   . bench/lib.sh; bench_refs; bench_java        (sets refs, java, jar and the array CPU_JAVA)

# refs from $PEERS, else .peers/ in the checkout, else the shared peers
bench_refs() {
  refs=
  local d
  for d in "${PEERS:-}" .peers /work/shared/tools/peers ../shared/tools/peers; do
    if [[ -n $d && -x $d/bin/refs ]]; then refs=$d/bin/refs; return 0; fi
  done
  echo "no refs binary: set PEERS, or copy the peers to .peers/" >&2
  exit 1
}

# .jre/bin/java where it was built (the H200 machine has no Java), else $JAVA_HOME's, else java;
# the jar from $JAR, else target/hostside.jar
bench_java() {
  if [[ -x .jre/bin/java ]]; then java=.jre/bin/java
  elif [[ -n ${JAVA_HOME:-} && -x $JAVA_HOME/bin/java ]]; then java=$JAVA_HOME/bin/java
  else java=java; fi
  jar=${JAR:-target/hostside.jar}
  [[ -f $jar ]] || { echo "no jar at $jar: ./mvnw -B -q -o package -DskipTests" >&2; exit 1; }
  # the launcher's flags for `cpu` (./hostside): serial GC, no periodic safepoints, no monitor-deflation thread
  CPU_JAVA=("$java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions
            -XX:GuaranteedSafepointInterval=0 -XX:AsyncDeflationInterval=0)
}
