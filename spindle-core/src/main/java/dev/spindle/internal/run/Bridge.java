package dev.spindle.internal.run;

import dev.spindle.Alt;
import dev.spindle.Job;
import dev.spindle.internal.select.AltImpl;
import dev.spindle.internal.select.JobImpl;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * Lets Spindle's own packages outside {@code dev.spindle} build jobs and alternatives (the JDK's
 * SharedSecrets idea): the API package installs a factory when {@link Job} initialises; users never see it.
 * {@link #job} and {@link #alt} wrap a {@link JobImpl} or {@link AltImpl} into the public types.
 */
public final class Bridge {
    /** Implemented once, by the API package. */
    public interface JobFactory {
        /** A job that runs {@code impl}. */
        <A> Job<A> job(JobImpl<A> impl);

        /** An alternative that {@code impl} implements: offered in a choose, or run as a job. */
        <A> Alt<A> alt(AltImpl<A> impl);

        /** Starts {@code job} as a root fiber of {@code scheduler} without running it; its handle. */
        <A> dev.spindle.Fiber<A> startRoot(dev.spindle.Scheduler scheduler, Job<A> job);

        /** A scheduler running on {@code engine} (the simulator's). */
        dev.spindle.Scheduler scheduler(Engine engine);

        /** What {@code fiber} waits on, or null when it is not blocked. */
        Blocker blockerOf(FiberBase<?> fiber);
    }

    private static volatile JobFactory factory;

    private Bridge() {
    }

    /**
     * Installs the factory: called once, by {@link Job}'s static initialiser, and by nothing else.
     *
     * @throws IllegalStateException when called from anywhere else, or a second time
     */
    public static void install(JobFactory f) {
        Class<?> caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass();
        if (caller != Job.class) {
            throw new IllegalStateException("Bridge.install is for the initialiser of " + Job.class.getName()
                    + " only, not " + caller.getName());
        }
        if (!FACTORY.compareAndSet(null, Objects.requireNonNull(f, "factory"))) {
            throw new IllegalStateException("the job factory is installed already");
        }
    }

    /** The installed factory (initialising the API package first if needed). */
    public static JobFactory get() {
        JobFactory f = factory;
        if (f == null) {
            Job.unit(); // runs Job's static initialiser, which installs the factory
            f = factory;
        }
        return f;
    }

    /** Shorthand for {@code get().job(impl)}: a job defined outside {@code dev.spindle}. */
    public static <A> Job<A> job(JobImpl<A> impl) {
        return get().job(impl);
    }

    /** Shorthand for {@code get().alt(impl)}: an alternative defined outside {@code dev.spindle}. */
    public static <A> Alt<A> alt(AltImpl<A> impl) {
        return get().alt(impl);
    }

    private static final VarHandle FACTORY;

    static {
        try {
            FACTORY = MethodHandles.lookup().findStaticVarHandle(Bridge.class, "factory",
                    JobFactory.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
