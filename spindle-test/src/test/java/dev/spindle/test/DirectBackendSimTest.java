package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Direct;
import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Outcome;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/**
 * Direct bodies under a driven (simulated) engine: refused with a message naming the JVM flag on the
 * virtual-thread backend; run deterministically on the continuation backend.
 */
class DirectBackendSimTest {

    private static Simulation simulated(long seed) {
        return Simulation.withSeed(seed);
    }

    @Test
    void virtualThreadBodiesAreRefusedNamingTheFlagContinuationsRun() {
        Job<Integer> job = Direct.job(() -> {
            Direct.await(Job.sleep(Duration.ofSeconds(5))); // virtual time
            int sum = 0;
            for (int i = 0; i < 10; i++) {
                sum += Direct.await(Job.yieldNow().then(Job.result(i)));
            }
            return sum;
        });
        for (long seed = 0; seed < 5; seed++) {
            Simulation s = simulated(seed);
            Outcome<Integer> outcome = s.runOutcome(job);
            if (Direct.backend() == Direct.Backend.VIRTUAL_THREAD) {
                assertThat(outcome).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                        .isInstanceOf(UnsupportedOperationException.class)
                        .hasMessageContaining("--add-exports java.base/jdk.internal.vm=ALL-UNNAMED"));
            } else {
                assertThat(outcome).isEqualTo(Outcome.success(45));
            }
            assertThat(s.uncaughtFailures()).isEmpty();
            s.close();
        }
    }

    @Test
    void cancellationUnderTheSimulator() {
        if (Direct.backend() != Direct.Backend.CONTINUATION) {
            return; // refused on this backend (see above)
        }
        Job<String> body = Direct.job(() -> {
            try {
                Direct.await(new IVar<Void>().read());
                return "not reached";
            } catch (CancellationException e) {
                return "swallowed";
            }
        });
        for (long seed = 0; seed < 5; seed++) {
            Simulation s = simulated(seed);
            Outcome<String> outcome = s.run(body.start().flatMap(f -> Job.sleep(Duration.ofMillis(1))
                    .then(f.cancel()).then(f.outcome())));
            assertThat(outcome).isInstanceOf(Outcome.Cancelled.class);
            assertThat(s.uncaughtFailures()).isEmpty();
            s.close();
        }
    }
}
