package dev.spindle.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Channel;
import dev.spindle.Mailbox;
import dev.spindle.Scheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The soak's checks find what they are meant to find, and a short soak of a sound runtime passes. */
class SoakChecksTest {
    /** A flow reports a message sent and never received, one received twice, and one received unsent. */
    @Test
    void flowFindsLostDuplicatedAndUnsentMessages() {
        Flow flow = new Flow("f", 4, new Channel<Integer>().take());
        flow.sent(0);
        flow.sent(1);
        flow.received(1);
        flow.received(1);
        flow.received(2);
        flow.sent(3);
        flow.received(3);
        Violations violations = new Violations();

        flow.check(violations);

        assertThat(violations.first()).containsExactly(
                "f: message 0 sent 1x, received 0x, left in the queue 0x (expected each sent message received or"
                        + " left exactly once)",
                "f: message 1 sent 1x, received 2x, left in the queue 0x (expected each sent message received or"
                        + " left exactly once)",
                "f: message 2 sent 0x, received 1x, left in the queue 0x (expected each sent message received or"
                        + " left exactly once)");
    }

    /** Messages sent and never taken are drained at rest and count as accounted for. */
    @Test
    void drainAccountsForMessagesLeftInTheQueue() {
        Mailbox<Integer> mailbox = new Mailbox<>("m");
        Flow flow = new Flow("f", 3, mailbox.take());
        try (Scheduler scheduler = Scheduler.create(2)) {
            scheduler.run(flow.sendMarked(0, mailbox.send(0)).then(flow.sendMarked(1, mailbox.send(1)))
                    .then(mailbox.take().map(id -> {
                        flow.received(id);
                        return null;
                    })));
            scheduler.run(flow.drain());
        }
        Violations violations = new Violations();

        flow.check(violations);

        assertThat(violations.first()).isEmpty();
        assertThat(flow.sentCount()).isEqualTo(2);
        assertThat(flow.drainedCount()).isEqualTo(1);
    }

    /** Two sections inside one mutex at once are a violation. */
    @Test
    void guardedMutexReportsTwoHolders() {
        Violations violations = new Violations();
        GuardedMutex m = new GuardedMutex("m", violations);

        m.new Section().enter();
        m.new Section().enter();

        assertThat(violations.first()).containsExactly("Mutex \"m\"[unlocked, waiters=0] held by 2 sections at once");
        assertThat(m.holders()).isEqualTo(2);
    }

    /** Only planned failures, timeouts and cancellations pass, also when wrapped or suppressed. */
    @Test
    void onlyPlannedFailuresArePlanned() {
        Throwable withUnplanned = new TimeoutException();
        withUnplanned.addSuppressed(new IllegalStateException("boom"));

        assertThat(Violations.isPlanned(new PlannedFailure())).isTrue();
        assertThat(Violations.isPlanned(new CompletionException(new TimeoutException()))).isTrue();
        assertThat(Violations.isPlanned(new IllegalStateException("boom"))).isFalse();
        assertThat(Violations.isPlanned(withUnplanned)).isFalse();
    }

    /** A fiber left blocked is found at rest, with the engine's counts. */
    @Test
    void restCheckReportsAFiberLeftBehind() throws InterruptedException {
        SoakState state = new SoakState();
        Scheduler scheduler = Scheduler.create(2);
        try {
            scheduler.submit(new Channel<Integer>("never given").take());
            RestCheck rest = new RestCheck(scheduler, state, EngineProbe.of(scheduler), Duration.ofMillis(200));

            String details = rest.check(new Semaphore(1), 1);

            assertThat(details).isEqualTo("live fibers 1, timers 0");
            assertThat(state.violations.first())
                    .containsExactly("engine not quiescent 200 ms after the workload stopped: live fibers 1, timers 0");
        } finally {
            scheduler.shutdownNow();
        }
    }

    /** A mutex left locked at rest is a violation. */
    @Test
    void restCheckReportsAHeldMutex() throws InterruptedException {
        SoakState state = new SoakState();
        try (Scheduler scheduler = Scheduler.create(2)) {
            assertThat(state.mutexes.get(1).mutex.tryLock()).isTrue();
            RestCheck rest = new RestCheck(scheduler, state, EngineProbe.of(scheduler), Duration.ofSeconds(10));

            rest.check(new Semaphore(1), 1);

            assertThat(state.violations.first()).containsExactly(
                    "Mutex \"soak-mutex-1\"[locked by unknown, waiters=0] at rest: locked=true, sections inside=0");
        }
    }

    /** A connection to the echo service that nobody closes is found at rest, and so is a client stream. */
    @Test
    void echoCheckReportsAConnectionLeftOpen() throws Exception {
        SoakState state = new SoakState();
        try (TcpEchoes echoes = new TcpEchoes(state);
                Socket left = new Socket()) {
            left.connect(echoes.address());
            left.getOutputStream().write(1);
            assertThat(left.getInputStream().read()).as("the echo").isEqualTo(1);

            echoes.check(Duration.ofMillis(100));

            assertThat(state.violations.first()).containsExactly(
                    "1 echo connections still served 100 ms after the workload stopped (a client stream left open)");
        }
    }

    /**
     * Two one-second intervals of the whole workload end with every check passed, a fifth of the wait-group
     * fan-outs with tasks cancelled before their first step (whose ensure must still count the group down).
     */
    @Test
    void shortSoakPasses() throws InterruptedException {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        SoakOptions options = SoakOptions.parse(
                new String[] {"--seed", "7", "--check-seconds", "1", "--early-cancel-percent", "20", "0.0334"});

        int status = SoakMain.run(options, new PrintStream(text, true, StandardCharsets.UTF_8));

        String output = text.toString(StandardCharsets.UTF_8);
        assertThat(status).as(output).isZero();
        assertThat(output).contains("seed 7", "check 2/2", "passed 2 checks").doesNotContain("FAILED");
    }

    /** The command line: positional minutes, options, and clear refusals. */
    @Test
    void parsesTheCommandLine() {
        SoakOptions o = SoakOptions.parse(new String[] {"2", "--seed", "-5", "--early-cancel-percent", "3"});

        assertThat(o.minutes()).isEqualTo(2);
        assertThat(o.seed()).isEqualTo(-5);
        assertThat(o.earlyCancelPercent()).isEqualTo(3);
        assertThat(o.checks()).isEqualTo(12);
        assertThat(o.workers()).isEqualTo(4);
        assertThat(SoakOptions.parse(new String[0]).earlyCancelPercent()).isEqualTo(5);
        assertThatThrownBy(() -> SoakOptions.parse(new String[] {"--bogus", "1"}))
                .hasMessage("unknown option --bogus");
        assertThatThrownBy(() -> SoakOptions.parse(new String[] {"0"}))
                .hasMessage("minutes must be positive, was 0");
    }
}
