"""The bench harness behind bench/run: hostside beside the established tool that measures the
same thing, run in turn on one machine, round after round, so that a machine that drifts drifts
for both. See bench/README.md."""
