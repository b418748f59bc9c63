package dev.spindle;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Locale;

/**
 * Chooses the backend for direct bodies once per JVM and says so, once, at debug level on the
 * {@code dev.spindle} {@link System.Logger}. {@code jdk.internal.vm.Continuation} is reached through
 * method handles, so Spindle compiles without the export; when the JVM does not export it to Spindle,
 * the lookups fail and bodies run on virtual threads.
 *
 * <p>The system property {@code spindle.direct.backend} ({@code continuation} or {@code virtual-thread})
 * forces a choice; asking for {@code continuation} without the flag logs a warning that says why (naming
 * the flag) and falls back to virtual threads, as does every JVM without the flag. The one place that
 * refuses to fall back is the simulator, which cannot schedule virtual threads: there a direct body fails
 * with an {@link UnsupportedOperationException} naming the flag.
 */
final class DirectBackend {
    private DirectBackend() {
    }

    /** The JVM flag that opens the continuation backend to Spindle as it is loaded: from the module or class path. */
    static final String FLAG = "--add-exports java.base/jdk.internal.vm="
            + (DirectBackend.class.getModule().isNamed() ? DirectBackend.class.getModule().getName() : "ALL-UNNAMED");

    /** {@code new Continuation(scope, runnable)}: (Runnable)Object, scope bound; null when not accessible. */
    static final MethodHandle NEW_CONTINUATION;
    /** {@code continuation.run()}: (Object)void. */
    static final MethodHandle RUN;
    /** {@code Continuation.yield(scope)}: ()boolean, scope bound. */
    static final MethodHandle YIELD;
    /** {@code continuation.isDone()}: (Object)boolean. */
    static final MethodHandle IS_DONE;
    /**
     * Whether a continuation can yield while its thread holds a monitor (JDK 24 and later): probed once,
     * with a continuation that yields inside a {@code synchronized} block. False without the backend.
     */
    static final boolean YIELDS_HOLDING_MONITORS;
    /** Why the continuation backend is unavailable, or null. */
    static final String UNAVAILABLE_BECAUSE;
    /** The backend in use. */
    static final Direct.Backend SELECTED;

    private static boolean yieldsHoldingMonitor(MethodHandle newCont, MethodHandle run, MethodHandle yield,
            MethodHandle isDone) {
        boolean[] yielded = new boolean[1];
        Object lock = new Object();
        Runnable probe = () -> {
            synchronized (lock) {
                try {
                    yielded[0] = (boolean) yield.invokeExact();
                } catch (Throwable pinned) {
                    yielded[0] = false; // IllegalStateException: pinned by the monitor
                }
            }
        };
        try {
            Object c = (Object) newCont.invokeExact(probe);
            run.invokeExact(c);
            if (!(boolean) isDone.invokeExact(c)) {
                run.invokeExact(c);
            }
            return yielded[0];
        } catch (Throwable e) {
            return false;
        }
    }

    static {
        MethodHandle newCont = null;
        MethodHandle run = null;
        MethodHandle yield = null;
        MethodHandle isDone = null;
        String why = null;
        try {
            Class<?> scopeClass = Class.forName("jdk.internal.vm.ContinuationScope", false, null);
            Class<?> contClass = Class.forName("jdk.internal.vm.Continuation", false, null);
            if (!contClass.getModule().isExported(contClass.getPackageName(), DirectBackend.class.getModule())) {
                why = "java.base does not export jdk.internal.vm to Spindle (JVM flag " + FLAG + ")";
            } else {
                MethodHandles.Lookup l = MethodHandles.lookup();
                Object scope = l.findConstructor(scopeClass, MethodType.methodType(void.class, String.class))
                        .invoke("spindle-direct");
                newCont = MethodHandles.insertArguments(l.findConstructor(contClass,
                        MethodType.methodType(void.class, scopeClass, Runnable.class)), 0, scope)
                        .asType(MethodType.methodType(Object.class, Runnable.class));
                run = l.findVirtual(contClass, "run", MethodType.methodType(void.class))
                        .asType(MethodType.methodType(void.class, Object.class));
                yield = MethodHandles.insertArguments(l.findStatic(contClass, "yield",
                        MethodType.methodType(boolean.class, scopeClass)), 0, scope);
                isDone = l.findVirtual(contClass, "isDone", MethodType.methodType(boolean.class))
                        .asType(MethodType.methodType(boolean.class, Object.class));
            }
        } catch (Throwable e) {
            why = "jdk.internal.vm.Continuation is not usable: " + e;
            newCont = null;
        }
        String forced = System.getProperty("spindle.direct.backend", "").trim().toLowerCase(Locale.ROOT);
        if (forced.equals("virtual-thread") || forced.equals("virtual")) {
            why = why != null ? why : "system property spindle.direct.backend=" + forced;
            newCont = null;
        }
        NEW_CONTINUATION = newCont;
        RUN = run;
        YIELD = yield;
        IS_DONE = isDone;
        UNAVAILABLE_BECAUSE = newCont == null ? why : null;
        YIELDS_HOLDING_MONITORS = newCont != null && yieldsHoldingMonitor(newCont, run, yield, isDone);
        SELECTED = newCont != null ? Direct.Backend.CONTINUATION : Direct.Backend.VIRTUAL_THREAD;
        if (forced.equals("continuation") && newCont == null) {
            System.getLogger("dev.spindle").log(System.Logger.Level.WARNING,
                    "spindle: spindle.direct.backend=continuation asked for, but " + why
                            + "; direct bodies run on virtual threads");
        }
        System.getLogger("dev.spindle").log(System.Logger.Level.DEBUG, SELECTED == Direct.Backend.CONTINUATION
                ? "spindle: direct style runs bodies as continuations on the scheduler's workers"
                : "spindle: direct style runs bodies on virtual threads (" + why + ")");
    }
}
