export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
cd /work/main
for r in 1 2; do for s in 256M 2G 1G; do
  /usr/bin/time -f "%e s %M KB" $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED -jar /tmp/sz/hostside.jar io --size $s --json > /tmp/sz/r$r-$s.json 2> /tmp/sz/r$r-$s.err
done; done
echo done > /tmp/sz/DONE
