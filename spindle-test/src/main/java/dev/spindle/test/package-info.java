/**
 * Deterministic simulation of Spindle programs: {@link dev.spindle.test.Simulation} runs fibers on one
 * thread in virtual time with a seeded order, detects deadlocks, explores many schedules
 * ({@link dev.spindle.test.Simulation#explore}, random and PCT) and reports the failing one with its trace
 * and replay line; {@link dev.spindle.test.SimulationTest} does the same as a JUnit 5 test.
 *
 * <pre>{@code
 * @SimulationTest(schedules = 1_000)
 * void transfersKeepTheTotal(Simulation sim) {
 *     Bank bank = new Bank(100, 100);
 *     sim.run(Job.all(List.of(bank.transfer(0, 1, 30), bank.transfer(1, 0, 50))));
 *     assertEquals(200, bank.total());
 * }
 * }</pre>
 */
package dev.spindle.test;
