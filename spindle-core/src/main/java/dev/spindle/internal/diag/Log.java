package dev.spindle.internal.diag;

import java.lang.System.Logger.Level;

/**
 * The runtime's one logger, {@code System.getLogger("dev.spindle")}: the default uncaught handler and every
 * warning go through it, so they land in whatever logging the application has bound to System.Logger
 * (java.util.logging by default).
 */
public final class Log {
    /** The logger named {@code dev.spindle}. */
    public static final System.Logger LOGGER = System.getLogger("dev.spindle");

    private Log() {
    }

    /** A failure nobody observes, of {@code fiber} (text, or null) on scheduler {@code scheduler}. */
    public static void uncaught(String scheduler, String fiber, Throwable e) {
        LOGGER.log(Level.ERROR, () -> "uncaught failure in " + (fiber != null ? fiber : "a fiber")
                + " of scheduler \"" + scheduler + "\"", e);
    }

    /** A runtime warning. */
    public static void warn(String message) {
        LOGGER.log(Level.WARNING, message);
    }

    /** A runtime warning with its cause. */
    public static void warn(String message, Throwable cause) {
        LOGGER.log(Level.WARNING, message, cause);
    }
}
