package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The showcase runs every example's demo to the end, printing each heading. */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class ShowcaseTest {

    /** Every example's demo completes and prints its heading and its key results. */
    @Test
    void runsEveryExample() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
            Showcase.demo(out);
        }
        String printed = buffer.toString(StandardCharsets.UTF_8);
        assertThat(Showcase.EXAMPLES).hasSize(14);
        for (Showcase.Example example : Showcase.EXAMPLES) {
            assertThat(printed).contains("== " + example.title());
        }
        assertThat(printed)
                .contains("runAnswer()              -> 42")
                .contains("sumTo(1_000_000)         -> 500000500000")
                .contains("its detached fiber        -> Success[value=detached finished]")
                .contains("commitThenStop               -> Cancelled[]")
                .contains("10000 fibers slept 100 ms each")
                .contains("lookup(1 h, limit 50 ms)   -> Failure[error=java.util.concurrent.TimeoutException")
                .contains("race(1 h, 10 ms)          -> Right[value=backup], log [primary cancelled]")
                .contains("the answer is 42")
                .contains("session(listener)        -> hello fibers (no greeting: timed out)")
                .contains("session(listener, 3)     -> 200 hello, 200 hello, 200 hello over 1 connection(s)")
                .contains("blocking call ran on a virtual thread: true")
                .contains("slept PT1H of virtual time")
                .contains("uncaught handler got:")
                .contains("channelSum()                 -> 42")
                .contains("ask, server slow (impatient) -> timed out / client gave up, answer dropped")
                .contains("mailboxSum()                 -> 6")
                .contains("guardedIncrements(100)      -> 100")
                .contains("threadWaitsForFibers(100)   -> 100 finished")
                .contains("directSum()                 -> 55")
                .contains("cancelWhileWaiting()        -> Cancelled[], log [finally ran, cancel returned]")
                .contains("directSum() in simulation   -> 55 after PT0.01S");
    }
}
