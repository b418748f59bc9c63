package dev.spindle;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that starts a test's child JVM: the {@code java} of the JDK this JVM runs on (not the PATH's,
 * which may be an older one), with this JVM's class path.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** {@code java <options> -cp <this class path> <main> <args>}, with this JVM's JDK. */
    public static List<String> command(List<String> options, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
