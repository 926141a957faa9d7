#!/usr/bin/env bash
# The memory team's barrier cost (bench/java/hostside/memory/TeamOverhead.java) for one or more
# jars, each labelled by its file: e.g. the jar of fe6b08b (a Phaser) beside today's (members spin).
#   bench/team-overhead.sh [JAR...]          (default target/hostside.jar; needs a JDK 25's javac)
set -euo pipefail
cd "$(dirname "$0")/.."
jars=("$@"); ((${#jars[@]})) || jars=(target/hostside.jar)
javac=${JAVA_HOME:+$JAVA_HOME/bin/}javac
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
[[ -x .jre/bin/java ]] && java=.jre/bin/java
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for jar in "${jars[@]}"; do
  d=$work/$(basename "$(dirname "$(realpath "$jar")")")-$(basename "$jar" .jar); mkdir -p "$d"
  "$javac" -cp "$jar" -d "$d" bench/java/hostside/memory/TeamOverhead.java
  "$java" --enable-native-access=ALL-UNNAMED -cp "$jar:$d" hostside.memory.TeamOverhead "$jar"
done
