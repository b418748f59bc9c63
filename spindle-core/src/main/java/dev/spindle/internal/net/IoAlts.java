package dev.spindle.internal.net;

import dev.spindle.Alt;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * Makes alternatives from {@link IoOp}s: the API package installs the factory (its class that implements
 * the commit protocol initialises on first use and installs itself here, the {@code Bridge} idea). Users
 * never see it.
 */
public final class IoAlts {
    /** Implemented once, by the API package. */
    public interface Factory {
        /** An alternative that runs {@code op}. */
        <A> Alt<A> alt(IoOp<A> op);
    }

    /** The API package's class that installs the factory when it initialises. */
    private static final String IMPLEMENTATION = "dev.spindle.IoAlt";

    private static volatile Factory factory;

    private IoAlts() {
    }

    /**
     * Installs the factory: called once, by the API package's implementation class.
     *
     * @throws IllegalStateException when called from anywhere else, or a second time
     */
    public static void install(Factory f) {
        Class<?> caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass();
        if (!caller.getName().equals(IMPLEMENTATION) || caller.getModule() != IoAlts.class.getModule()) {
            throw new IllegalStateException("IoAlts.install is for " + IMPLEMENTATION + " only");
        }
        if (!FACTORY.compareAndSet(null, Objects.requireNonNull(f, "factory"))) {
            throw new IllegalStateException("the I/O alternative factory is installed already");
        }
    }

    /** An alternative that runs {@code op}. */
    public static <A> Alt<A> alt(IoOp<A> op) {
        Factory f = factory;
        if (f == null) {
            try {
                Class.forName(IMPLEMENTATION, true, IoAlts.class.getClassLoader()); // installs the factory
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            f = factory;
        }
        return f.alt(op);
    }

    private static final VarHandle FACTORY;

    static {
        try {
            FACTORY = MethodHandles.lookup().findStaticVarHandle(IoAlts.class, "factory", Factory.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
