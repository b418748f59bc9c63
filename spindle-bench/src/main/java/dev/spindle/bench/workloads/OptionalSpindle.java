package dev.spindle.bench.workloads;

/**
 * Finds Spindle implementations compiled only when the API they need exists in spindle-core: the
 * {@code spindle-channel} and {@code spindle-ivar} profiles of spindle-bench's pom add the source roots
 * {@code src/channel/java} and {@code src/ivar/java} when {@code Channel.java} / {@code IVar.java} exist.
 * Loading by name keeps the always-compiled code free of references to types that may be missing.
 */
public final class OptionalSpindle {
    private OptionalSpindle() {
    }

    /**
     * A new instance of the class {@code className}, which must implement {@code type}.
     *
     * @param needs the missing API, for the message, e.g. {@code dev.spindle.Channel}
     * @throws NotYetImplementedException when the class was not compiled in
     */
    public static <T> T load(Class<T> type, String className, String needs) throws NotYetImplementedException {
        Class<?> c;
        try {
            c = Class.forName(className);
        } catch (ClassNotFoundException e) {
            throw new NotYetImplementedException("not yet implemented for spindle: needs " + needs
                    + ", which spindle-core does not have yet (" + className + " was not compiled in)");
        }
        try {
            return type.cast(c.getConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot instantiate " + className, e);
        }
    }

    /** Whether {@code className} was compiled in. */
    public static boolean isPresent(String className) {
        try {
            Class.forName(className);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
