package dev.spindle.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test that runs under many simulation schedules: the method takes a {@link Simulation} and is
 * called once per schedule with a fresh one, as {@link Simulation#explore} does. The first failing
 * schedule fails the test with the exploration report (failure, replay line, trace), also printed to
 * standard error.
 *
 * <pre>{@code
 * class CounterSimTest {
 *     @SimulationTest(schedules = 500)
 *     void incrementsAreNotLost(Simulation sim) {
 *         Counter c = new Counter();
 *         sim.run(Job.all(List.of(c.increment(), c.increment())));
 *         assertEquals(2, c.value());
 *     }
 * }
 * }</pre>
 *
 * <p>System properties (for all {@code @SimulationTest} methods of the run):
 * <ul>
 *   <li>{@code -Dspindle.sim.replay=pct:42:2:31}: run only that schedule (combine with
 *       {@code -Dtest=CounterSimTest#incrementsAreNotLost});</li>
 *   <li>{@code -Dspindle.sim.schedules=10000}: the number of schedules, overriding {@link #schedules()}
 *       (the {@code stress} profile sets it);</li>
 *   <li>{@code -Dspindle.sim.seed=7}: the base seed, overriding {@link #seed()}.</li>
 * </ul>
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(SimulationExtension.class)
public @interface SimulationTest {
    /** {@return schedules to run (at least 1)} */
    int schedules() default 100;

    /** {@return base seed the schedules derive from: runs are reproducible; change it to explore other schedules} */
    long seed() default 0;
}
