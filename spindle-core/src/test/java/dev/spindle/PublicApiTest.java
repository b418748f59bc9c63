package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Pins the public API of the exported packages to {@code spindle-core/api.txt}: one line for every public
 * type and every public or protected constructor, method and field in them, with generic signatures. A
 * change that adds, removes or alters any of them fails here until the file is regenerated on purpose:
 * {@code ./mvnw -pl spindle-core test -Dtest=PublicApiTest -Dspindle.api.update=true}, and the diff of
 * api.txt then shows the change for review.
 */
class PublicApiTest {
    private static final List<String> EXPORTED = List.of("dev.spindle", "dev.spindle.sync", "dev.spindle.net");
    private static final Path API_FILE = Path.of("api.txt");

    @Test
    void thePublicApiIsTheOneRecordedInApiTxt() throws IOException {
        String actual = String.join("\n", describeApi()) + "\n";
        if (Boolean.getBoolean("spindle.api.update")) {
            Files.writeString(API_FILE, actual, StandardCharsets.UTF_8);
        }
        assertThat(API_FILE).as("%s (regenerate with -Dspindle.api.update=true)", API_FILE.toAbsolutePath())
                .exists();
        String recorded = Files.readString(API_FILE, StandardCharsets.UTF_8);
        assertThat(actual)
                .as("the public API differs from %s; if the change is meant, regenerate it with"
                        + " -Dspindle.api.update=true and review the diff", API_FILE.toAbsolutePath())
                .isEqualTo(recorded);
    }

    /** Every line of the API, types in name order, each followed by its members in order. */
    static List<String> describeApi() throws IOException {
        List<String> lines = new ArrayList<>();
        for (Class<?> type : publicTypes()) {
            lines.add(declaration(type) + supertypes(type));
            Stream.of(type.getDeclaredConstructors(), type.getDeclaredMethods(), type.getDeclaredFields())
                    .flatMap(Arrays::stream)
                    .filter(m -> isVisible(m.getModifiers()) && !m.isSynthetic() && !isBridge(m))
                    .map(m -> "  " + describe(m))
                    .sorted()
                    .forEach(lines::add);
        }
        return lines;
    }

    private static List<Class<?>> publicTypes() throws IOException {
        Path classes = Path.of("target", "classes");
        List<Class<?>> types = new ArrayList<>();
        for (String pkg : EXPORTED) {
            Path dir = classes.resolve(pkg.replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                    String simple = f.getFileName().toString().replace(".class", "");
                    if (simple.equals("package-info")) {
                        continue;
                    }
                    Class<?> c = load(pkg + "." + simple);
                    if (isExposed(c)) {
                        types.add(c);
                    }
                }
            }
        }
        types.sort((a, b) -> a.getName().compareTo(b.getName()));
        return types;
    }

    /** Public, and (for a nested type) inside public types all the way out. */
    private static boolean isExposed(Class<?> c) {
        for (Class<?> t = c; t != null; t = t.getDeclaringClass()) {
            if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isLocalClass()) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, PublicApiTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("cannot load " + name, e);
        }
    }

    private static boolean isVisible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static boolean isBridge(Object member) {
        return member instanceof Method m && m.isBridge();
    }

    private static String describe(Object member) {
        return switch (member) {
            case Constructor<?> c -> c.toGenericString();
            case Method m -> m.toGenericString();
            case Field f -> f.toGenericString();
            default -> throw new IllegalArgumentException(String.valueOf(member));
        };
    }

    /**
     * The type's declaration as {@link Class#toGenericString} gives it, with {@code sealed} written by this
     * test before the kind of type: JDK 21 leaves it out, later JDKs print it (and {@code non-sealed}, which
     * this drops).
     */
    private static String declaration(Class<?> type) {
        String plain = type.toGenericString().replace("non-sealed ", "").replace("sealed ", "");
        if (!type.isSealed()) {
            return plain;
        }
        int name = plain.lastIndexOf(' ' + type.getName()); // the kind of type ends there
        int kind = plain.lastIndexOf(' ', name - 1) + 1;
        return plain.substring(0, kind) + "sealed " + plain.substring(kind);
    }

    private static String supertypes(Class<?> type) {
        List<String> names = new ArrayList<>();
        if (type.getGenericSuperclass() != null && type.getSuperclass() != Object.class
                && !type.isEnum() && !type.isRecord()) {
            names.add(type.getGenericSuperclass().getTypeName());
        }
        Arrays.stream(type.getGenericInterfaces()).map(java.lang.reflect.Type::getTypeName).forEach(names::add);
        List<String> permitted = type.isSealed()
                ? Arrays.stream(type.getPermittedSubclasses()).filter(PublicApiTest::isExposed).map(Class::getName)
                        .sorted().toList()
                : List.of();
        return (names.isEmpty() ? "" : " : " + String.join(", ", names))
                + (permitted.isEmpty() ? "" : " permits " + String.join(", ", permitted));
    }
}
