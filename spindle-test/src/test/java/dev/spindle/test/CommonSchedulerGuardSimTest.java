package dev.spindle.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.Outcome;
import dev.spindle.net.TcpStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Every way code inside a simulation could reach Spindle's process-wide common scheduler fails with an
 * exception naming the fix, instead of running the job on real threads outside the simulation.
 */
class CommonSchedulerGuardSimTest {

    private static void assertRefusedOnTheDrivingThread(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("drives simulation[")
                .hasMessageContaining("common scheduler")
                .hasMessageContaining("sim.run(job)");
    }

    @Test
    void jobAwaitOnTheDrivingThreadIsRefused() {
        Simulation sim = Simulation.create();
        sim.run(Job.sleep(Duration.ofSeconds(1))); // driven once: between drives the thread still drives it
        assertRefusedOnTheDrivingThread(() -> Job.result(1).await());
        sim.close();
    }

    @Test
    void directAwaitOnTheDrivingThreadIsRefusedBeforeAnyDrive() {
        try (Simulation sim = Simulation.create()) {
            assertRefusedOnTheDrivingThread(() -> Direct.await(Job.result(1)));
            assertThat(sim.elapsed()).isEqualTo(Duration.ZERO);
        }
    }

    /** The network's blocking forms are built on Direct.await: refused before any socket is opened. */
    @Test
    void blockingNetworkFormsOnTheDrivingThreadAreRefused() {
        try (Simulation sim = Simulation.create()) {
            assertRefusedOnTheDrivingThread(() -> {
                try {
                    TcpStream.connectBlocking(new InetSocketAddress(InetAddress.getLoopbackAddress(), 9));
                } catch (java.io.IOException e) {
                    throw new AssertionError("reached the network", e);
                }
            });
            assertThat(sim.uncaughtFailures()).isEmpty();
        }
    }

    @Test
    void directAwaitInsideASimulatedStacklessFiberIsRefused() {
        try (Simulation sim = Simulation.create()) {
            Outcome<Integer> o = sim.runOutcome(Job.defer(() -> Job.result(Direct.await(Job.result(1)))));
            assertThat(o).isInstanceOfSatisfying(Outcome.Failure.class, f -> assertThat(f.error())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("inside a stackless job")
                    .hasMessageContaining("flatMap"));
        }
    }

    /** In a direct body the job runs in the simulation, in virtual time: no common scheduler involved. */
    @Test
    void directAwaitInsideASimulatedDirectBodyStaysInTheSimulation() {
        if (Direct.backend() != Direct.Backend.CONTINUATION) {
            return; // direct bodies are refused in a simulation on the virtual-thread backend
        }
        try (Simulation sim = Simulation.create()) {
            int v = sim.run(Direct.job(() -> Direct.await(Job.sleep(Duration.ofHours(1)).then(Job.result(7)))));
            assertThat(v).isEqualTo(7);
            assertThat(sim.elapsed()).isEqualTo(Duration.ofHours(1));
        }
    }

    @Test
    void closingTheSimulationEndsTheRefusal() {
        Simulation sim = Simulation.create();
        sim.close();
        assertThat(Job.result(3).await()).isEqualTo(3);
    }

    @Test
    void anExplorationLeavesTheThreadFree() {
        Simulation.check(5, 1, s -> s.run(Job.yieldNow()));
        assertThat(Job.result(4).await()).isEqualTo(4);
    }

    @Test
    void otherThreadsAreNotConcerned() throws Exception {
        try (Simulation sim = Simulation.create()) {
            CompletableFuture<Integer> other = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    other.complete(Job.result(5).await());
                } catch (Throwable e) {
                    other.completeExceptionally(e);
                }
            });
            t.start();
            assertThat(other.get()).isEqualTo(5);
            t.join();
            assertThat(sim.elapsed()).isEqualTo(Duration.ZERO);
        }
    }

    @Test
    void theLatestSimulationBuiltConfinesTheThread() {
        try (Simulation first = Simulation.create(); Simulation second = Simulation.withSeed(7)) {
            first.run(Job.unit());
            assertRefusedOnTheDrivingThread(() -> Job.unit().await());
            second.run(Job.unit());
            assertRefusedOnTheDrivingThread(() -> Job.unit().await());
        }
        assertThat(Job.result(6).await()).isEqualTo(6);
    }
}
