package hostside.harness;

/**
 * What a result holds beside its figure: the conditions it was measured under (buffer size, CPUs,
 * file) and the further figures of the same run (a distribution's quantiles, a sweep's points).
 * Each test case declares its detail record ({@link TestCase#detailType()}); a result's JSON
 * carries it under "detail", and reading it back gives the same record again
 * ({@link DetailTypes}), never a map to pick through by name.
 */
public interface Detail {}
