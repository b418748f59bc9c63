package dev.spindle.internal.run;

import dev.spindle.Either;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Releases new resources that the runtime drops on the way to user code. A wait that committed (an accept,
 * a connect) hands its value to the next bind step; when the fiber's cancellation arrives between that
 * commit and the step, the step ends cancelled without calling its function. Likewise {@code race},
 * {@code any} and {@code all} drop the values of children whose outcome they do not give. Types registered
 * here are released then instead of leaked; each registered release decides whether the value is still
 * new (the network's streams: no operation called on them yet), so a dropped value that other code already
 * uses is left alone. An {@link Either} is released through the value it holds. A value the user's code
 * has mapped to another type is that code's to release, which {@code Job.bracket} does.
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
        if (value instanceof Either.Left<?, ?> left) {
            release(left.value());
        } else if (value instanceof Either.Right<?, ?> right) {
            release(right.value());
        } else if (value != null) {
            Consumer<Object> release = RELEASES.get(value.getClass());
            if (release != null) {
                release.accept(value);
            }
        }
    }
}
