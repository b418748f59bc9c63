package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Schedulers never create the platform MBean server (a quarter of a second of CPU that a program nobody
 * watches should not pay), yet register as soon as it exists and unregister when they close. Checked in a
 * fresh JVM ({@link MBeanRegistrationProgram}), since other tests in this one create the server.
 */
class MBeanRegistrationTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void registersOnceThePlatformServerExistsAndNeverCreatesIt() throws Exception {
        List<String> command = ChildJvm.command(List.of(), MBeanRegistrationProgram.class);
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        child.getOutputStream().close();
        byte[] output = child.getInputStream().readAllBytes(); // ends when the child exits
        boolean exited = child.waitFor(1, TimeUnit.MINUTES);
        assertThat(exited && child.exitValue() == 0)
                .as("the child JVM's checks failed; its output:%n%s", new String(output, StandardCharsets.UTF_8))
                .isTrue();
    }
}
