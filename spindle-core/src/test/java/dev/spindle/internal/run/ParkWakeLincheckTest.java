package dev.spindle.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.ChildJvm;
import dev.spindle.StressScale;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Lincheck model check of the park/wake decision: a worker going idle ({@code Worker.idle}: announce
 * PARKED, count itself idle, re-check the global queue and its stop condition, park) and producers pushing
 * from outside ({@code Engine.pushGlobal}, then {@code signalWork}) never strand work or a waiter: a lost
 * wake-up shows as a hang, reported with the interleaving that caused it.
 *
 * <p>Each scenario of {@link ParkWakeModel} runs in a JVM of its own, with the idle spin count shrunk to
 * one (a {@code static final} read at class initialisation, so this JVM's value cannot be changed).
 */
@Tag("stress")
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class ParkWakeLincheckTest {
    private static final int INVOCATIONS = StressScale.of(3_000);
    static final List<String> SCENARIOS = List.of(ParkWakeModel.SCENARIOS);

    @ParameterizedTest(name = "{0}")
    @FieldSource("SCENARIOS")
    void noLostWakeUp(String scenario) throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("-ea", "-Dspindle.idleSpins=1",
                "-XX:+EnableDynamicAgentLoading", "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 24) {
            options.add("--sun-misc-unsafe-memory-access=allow");
        }
        List<String> command = ChildJvm.command(options, ParkWakeModel.class, scenario,
                Integer.toString(INVOCATIONS));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        child.getOutputStream().close();
        byte[] output = child.getInputStream().readAllBytes(); // ends when the child exits
        boolean exited = child.waitFor(1, TimeUnit.MINUTES);
        String text = new String(output, StandardCharsets.UTF_8);
        assertThat(exited && child.exitValue() == 0)
                .as("model check of scenario %s failed; its output:%n%s", scenario, text)
                .isTrue();
    }
}
