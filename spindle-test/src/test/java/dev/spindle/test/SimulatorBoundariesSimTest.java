package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.net.TcpListener;
import dev.spindle.net.TcpStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the simulator's driver decides for the runtime: no real threads (Job.blocking, real sockets,
 * binding), timers without a timer thread, and a started child queued rather than run inline.
 */
class SimulatorBoundariesSimTest {

    @Test
    void jobBlockingIsRefused() {
        try (Simulation sim = Simulation.create()) {
            Outcome<Integer> o = sim.runOutcome(Job.blocking(() -> 1));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("Job.blocking").hasMessageContaining("simulator"));
        }
    }

    /** A real socket that must wait (an accept with no client) needs the poller, which a simulation refuses. */
    @Test
    void realSocketsAreRefused() throws IOException {
        try (Simulation sim = Simulation.create();
                TcpListener listener = TcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Outcome<TcpStream> o = sim.runOutcome(listener.accept());
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("real sockets cannot be used in a simulation"));
        }
    }

    /** A connect to a listening loopback socket, which may complete at once, is refused before it starts. */
    @Test
    void aRealConnectIsRefusedEvenWhenItWouldNotWait() throws IOException {
        try (Simulation sim = Simulation.create();
                TcpListener listener = TcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Outcome<TcpStream> o = sim.runOutcome(TcpStream.connect(listener.localAddress()));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("real sockets cannot be used in a simulation"));
        }
    }

    @Test
    void aSimulationCannotBeBound() {
        try (Simulation sim = Simulation.create()) {
            assertThatThrownBy(() -> sim.scheduler().bind()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot be bound");
        }
    }

    @Test
    void timersRunInVirtualTimeWithoutATimerThread() {
        try (Simulation sim = Simulation.create()) {
            List<Thread> before = List.copyOf(Thread.getAllStackTraces().keySet());
            sim.run(Job.all(List.of(Job.sleep(Duration.ofDays(1)), Job.sleep(Duration.ofHours(3)))));
            assertThat(sim.elapsed()).isEqualTo(Duration.ofDays(1));
            List<String> started = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (!before.contains(t) && t.getName().startsWith("simulation")) {
                    started.add(t.getName());
                }
            }
            assertThat(started).as("threads the simulation started").isEmpty();
        }
    }

    /**
     * The driver chooses who runs after a start: both the child and the starter's continuation are queued,
     * and seed 0 runs the child first (as a real worker would, inline), the starter's next step after it.
     */
    @Test
    void aStartedChildRunsFirstAtSeedZero() {
        for (long seed : new long[] {0, 1, 2, 3, 4, 5, 6, 7}) {
            try (Simulation sim = Simulation.withSeed(seed)) {
                StringBuilder out = new StringBuilder();
                sim.run(Job.run(() -> out.append("p1 ")).then(Job.run(() -> out.append("c ")).start())
                        .flatMap(f -> Job.run(() -> out.append("p2 ")).then(f.join())));
                if (seed == 0) {
                    assertThat(out.toString()).isEqualTo("p1 c p2 ");
                } else {
                    assertThat(out.toString()).startsWith("p1 ").contains("c ").contains("p2 ");
                }
            }
        }
    }

    /** Under some seed the starter's continuation runs before the child: the choice is the driver's. */
    @Test
    void someSeedRunsTheStarterBeforeTheChild() {
        boolean starterFirst = false;
        for (long seed = 1; seed < 64 && !starterFirst; seed++) {
            try (Simulation sim = Simulation.withSeed(seed)) {
                StringBuilder out = new StringBuilder();
                sim.run(Job.run(() -> out.append("c ")).start()
                        .flatMap(f -> Job.run(() -> out.append("p ")).then(f.join())));
                starterFirst = out.toString().equals("p c ");
            }
        }
        assertThat(starterFirst).isTrue();
    }
}
