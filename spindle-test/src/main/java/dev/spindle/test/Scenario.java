package dev.spindle.test;

/**
 * A test body run against a {@link Simulation}, once per schedule by {@link Simulation#explore}. It fails
 * by throwing (an assertion error, a {@link DeadlockException}, a job's failure rethrown by
 * {@link Simulation#run}...).
 *
 * <pre>{@code
 * Scenario twoIncrements = sim -> {
 *     Counter c = new Counter();
 *     sim.run(Job.all(List.of(c.increment(), c.increment())));
 *     assertEquals(2, c.value());
 * };
 * Simulation.check(1_000, 42, twoIncrements);
 * }</pre>
 */
@FunctionalInterface
public interface Scenario {
    /**
     * Runs the test against {@code sim}; throws to report a failure.
     *
     * @param sim a fresh simulation
     * @throws Exception the test's failure
     */
    void run(Simulation sim) throws Exception;
}
