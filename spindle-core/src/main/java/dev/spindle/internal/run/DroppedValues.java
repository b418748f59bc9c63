package dev.spindle.internal.run;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Releases values that own a resource when a bind step drops them. A wait that committed (an accept, a
 * connect) hands its value to the step's continuation; when the fiber's cancellation arrives between that
 * commit and the step, the step ends cancelled without calling its function, and nobody else holds the
 * value. Types registered here (the network's streams) are released then instead of leaked. A value the
 * user's code has mapped to another type before the step is that code's to release.
 */
public final class DroppedValues {
    /** Release actions by exact class; written once per type, read only on a cancelled step's path. */
    private static final Map<Class<?>, Consumer<Object>> RELEASES = new ConcurrentHashMap<>();

    private DroppedValues() {
    }

    /**
     * Registers how to release a dropped value of exactly {@code type}: {@code release} must not throw or
     * wait.
     */
    public static void register(Class<?> type, Consumer<Object> release) {
        RELEASES.put(Objects.requireNonNull(type, "type"), Objects.requireNonNull(release, "release"));
    }

    /** Releases {@code value} if its type is registered; anything else (null included) is left alone. */
    public static void release(Object value) {
        if (value != null) {
            Consumer<Object> release = RELEASES.get(value.getClass());
            if (release != null) {
                release.accept(value);
            }
        }
    }
}
