package dev.spindle;

/**
 * Chooses the backend for direct bodies once per JVM and says so, once, at debug level on the
 * {@code dev.spindle} {@link System.Logger}.
 */
final class DirectBackend {
    private DirectBackend() {
    }

    /** The JVM flag that opens the continuation backend. */
    static final String FLAG = "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED";

    /** Whether {@code jdk.internal.vm.Continuation} is accessible to Spindle (the flag was given). */
    static final boolean CONTINUATIONS_ACCESSIBLE = continuationsAccessible();

    /** The backend in use. Only the virtual-thread backend exists so far. */
    static final Direct.Backend SELECTED = Direct.Backend.VIRTUAL_THREAD;

    static {
        System.getLogger("dev.spindle").log(System.Logger.Level.DEBUG,
                "spindle: direct style runs bodies on virtual threads (backend "
                        + SELECTED + "; jdk.internal.vm.Continuation "
                        + (CONTINUATIONS_ACCESSIBLE ? "accessible" : "not exported, flag " + FLAG) + ")");
    }

    private static boolean continuationsAccessible() {
        try {
            Class<?> c = Class.forName("jdk.internal.vm.Continuation", false, null);
            return c.getModule().isExported(c.getPackageName(), DirectBackend.class.getModule());
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return false;
        }
    }
}
