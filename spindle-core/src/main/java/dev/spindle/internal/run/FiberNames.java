package dev.spindle.internal.run;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * The names fibers were given with {@code job.named(..)}, kept outside the fiber object so that an unnamed
 * fiber pays nothing (a fiber has no room for a name field: see FiberImpl's size). Keys are weak and
 * compared by identity (fibers do not override {@code equals}), so a finished fiber's name goes with it.
 * One lock: naming is rare next to starting fibers, and only named fibers take it.
 */
final class FiberNames {
    private final Map<FiberBase<?>, String> names = new WeakHashMap<>();

    synchronized void put(FiberBase<?> fiber, String name) {
        names.put(fiber, name);
    }

    synchronized String get(FiberBase<?> fiber) {
        return names.isEmpty() ? null : names.get(fiber);
    }
}
