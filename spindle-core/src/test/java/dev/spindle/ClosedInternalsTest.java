package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's internals are closed: no class in a {@code dev.spindle.internal} package has a public or
 * protected field that is not final, so code outside a class's package changes its state only through
 * methods that say what may change it and when.
 */
class ClosedInternalsTest {
    private static final Path INTERNAL = Path.of("target", "classes", "dev", "spindle", "internal");

    @Test
    void noInternalClassHasAPublicOrProtectedMutableField() throws IOException {
        List<String> classes = internalClassNames();
        assertThat(classes).as("classes found under %s", INTERNAL.toAbsolutePath()).isNotEmpty();
        List<String> open = new ArrayList<>();
        for (String name : classes) {
            for (Field f : load(name).getDeclaredFields()) {
                int m = f.getModifiers();
                if ((Modifier.isPublic(m) || Modifier.isProtected(m)) && !Modifier.isFinal(m) && !f.isSynthetic()) {
                    open.add(name + "." + f.getName());
                }
            }
        }
        assertThat(open).as("public or protected mutable fields in dev.spindle.internal.*").isEmpty();
    }

    private static List<String> internalClassNames() throws IOException {
        try (Stream<Path> files = Files.walk(INTERNAL)) {
            return files.filter(p -> p.toString().endsWith(".class"))
                    .map(p -> INTERNAL.getParent().getParent().getParent().relativize(p).toString())
                    .map(s -> s.substring(0, s.length() - ".class".length()).replace('/', '.').replace('\\', '.'))
                    .filter(s -> !s.endsWith("package-info"))
                    .sorted()
                    .toList();
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ClosedInternalsTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("cannot load " + name, e);
        }
    }
}
