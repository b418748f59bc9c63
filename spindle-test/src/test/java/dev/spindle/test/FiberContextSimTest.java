package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Fiber;
import dev.spindle.FiberLocal;
import dev.spindle.Job;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fiber-local context and {@link Job#self()} under every explored schedule, in virtual time. */
class FiberContextSimTest {
    private static final FiberLocal<String> TENANT = new FiberLocal<>("tenant", "none");

    @Test
    void bindingsStayWithTheirFibersUnderEverySchedule() {
        Simulation.check(300, 24, sim -> {
            Job<String> worker = Job.sleep(Duration.ofMillis(1)).then(TENANT.get());
            Job<List<String>> a = TENANT.with("a", Job.all(List.of(worker, worker)));
            Job<List<String>> b = TENANT.with("b", Job.all(List.of(worker, TENANT.with("b2", worker))));
            List<List<String>> both = sim.run(Job.all(List.of(a, b)));
            assertThat(both).containsExactly(List.of("a", "a"), List.of("b", "b2"));
            assertThat(sim.run(TENANT.get())).isEqualTo("none");
        });
    }

    @Test
    void selfNamesTheFiberThatSimFiberHolds() {
        Simulation sim = Simulation.create();
        SimFiber<Fiber<?>> f = sim.start(Job.self());
        assertThat(f.join()).isSameAs(f.fiber());
    }
}
