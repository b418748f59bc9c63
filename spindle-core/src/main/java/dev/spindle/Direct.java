package dev.spindle;

import dev.spindle.internal.run.Drivers;
import dev.spindle.internal.run.Engine;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * Direct style: jobs written as ordinary blocking Java code. Inside a body given to {@link #job},
 * {@link #await} runs any {@link Job} (or {@link Alt}) and returns its value, or rethrows its failure;
 * only the direct fiber waits, never a worker thread.
 *
 * <pre>{@code
 * Channel<Integer> ch = new Channel<>();
 * Job<Integer> consumer = Direct.job(() -> {
 *     int sum = 0;
 *     for (int i = 0; i < 10; i++) {
 *         sum += Direct.await(ch.take());     // suspends this fiber only
 *     }
 *     return sum;
 * });
 * Job<Void> producer = Direct.job(() -> {
 *     for (int i = 0; i < 10; i++) {
 *         Direct.await(ch.send(i));
 *     }
 *     return null;
 * });
 * try (Scheduler s = Scheduler.create()) {
 *     int sum = s.run(Job.all(List.of(consumer, producer.map(v -> 0)))).get(0); // 45
 * }
 * }</pre>
 *
 * <p><b>Failures.</b> {@code await} returns the awaited job's value; its failure is rethrown unchecked as is
 * and checked wrapped in {@link java.util.concurrent.CompletionException}, as {@link Scheduler#run} does.
 * What the body throws becomes the direct job's failure, unchanged.
 *
 * <p><b>Cancellation.</b> A cancelled direct fiber sees a {@link java.util.concurrent.CancellationException}
 * at its next {@code await}, or at once when it is waiting in one (the awaited job runs as part of the
 * direct fiber, so it is cancelled exactly as stackless code of the fiber would be, and its finalizers run
 * first). The body's {@code finally} blocks run, and the direct fiber
 * ends {@link Outcome.Cancelled} only after the body has returned or thrown. Code between awaits is not
 * interrupted; an {@code await} inside a {@code finally} block of a cancelled body throws again at once.
 *
 * <p><b>Backends.</b> {@link #backend()} says how bodies run; it is chosen once per JVM (the system
 * property {@code spindle.direct.backend=virtual-thread} forces the fallback). In both, the awaited job
 * runs as part of the direct fiber (no new fiber) on the scheduler's workers.
 * <ul>
 *   <li>{@link Backend#CONTINUATION}, when the JVM exports {@code jdk.internal.vm} to Spindle: the body is a
 *       continuation that runs on a worker: {@code await} runs the job at once, on that worker, and yields
 *       only if the job has to wait (an await of a job that is ready costs about as much as a {@code flatMap}
 *       step). The body always resumes on the worker thread it started on, so {@code Thread.currentThread()}
 *       and thread-locals stay the same across awaits (a body does not move to an idle worker: start more
 *       bodies to use more workers; a child body starts on its starter's worker, a detached one ({@link
 *       Job#startDetached}, {@link Job#forget}) on the workers in turn). Where the continuation cannot yield
 *       (pinned by a native frame, such as a class initializer, or by a held monitor on JDKs before 24),
 *       {@code await} blocks the worker thread, which runs other work meanwhile (as {@link Scheduler#run}
 *       does inside a job) until the awaited job ends: correct, but that worker's stack holds the body
 *       meanwhile. A body whose await has to wait may first run, on its own stack and thread, the next step
 *       of another body of its worker (on JDK 24 and later, where monitors do not pin; {@code
 *       -Dspindle.direct.help=false} turns it off): a ping-pong then costs one continuation switch per round
 *       trip instead of two. A body so helped that awaits inside a class initializer waits on top of the body
 *       that helps it, which cannot go on meanwhile. Plain blocking calls in the body ({@code Thread.sleep},
 *       I/O, locks) block the worker itself on this backend: await {@link Job#sleep} or {@link Job#blocking}
 *       instead. Runs in the deterministic simulator.
 *   <li>{@link Backend#VIRTUAL_THREAD}, otherwise: each body runs on its own virtual thread and {@code await}
 *       parks it. A virtual thread that cannot unmount (pinned by a native frame) still waits correctly:
 *       it blocks its carrier thread, a JDK-managed thread, never a Spindle worker. The deterministic
 *       simulator refuses direct bodies on this backend, naming the JVM flag.
 * </ul>
 *
 * <p><b>Schedulers.</b> Works with threaded schedulers and with {@link Scheduler#singleThreaded()} while a
 * thread drives it (a {@link Scheduler#run} call is waiting): the body's awaited jobs are queued for the
 * driving thread.
 */
public final class Direct {
    private Direct() {
    }

    /** How direct bodies are run. */
    public enum Backend {
        /**
         * Each body is a {@code jdk.internal.vm.Continuation} run and resumed on the scheduler's workers
         * through the ordinary work queues: needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}
         * (on the module path: {@code =dev.spindle}). Chosen automatically when that export is present.
         */
        CONTINUATION,
        /** Each body runs on a virtual thread that parks in {@code await}: needs no JVM flag. */
        VIRTUAL_THREAD
    }

    /**
     * A job that runs {@code body}, ordinary (blocking) Java code that may call {@link #await}, each time it
     * runs. Its value is what the body returns; its failure what the body throws.
     *
     * @param <A> the type of the body's value
     * @param body the code to run, called once per run of the job
     * @return the job
     */
    public static <A> Job<A> job(Callable<? extends A> body) {
        return new DirectJob<>(Objects.requireNonNull(body, "body"));
    }

    /**
     * Runs {@code job} and returns its value once it has finished; rethrows its failure (unchecked as is,
     * checked wrapped in {@link java.util.concurrent.CompletionException}) and throws
     * {@link java.util.concurrent.CancellationException} if it was cancelled.
     * <ul>
     *   <li>Inside a direct body, {@code job} runs as part of the direct fiber, as the next steps of stackless
     *       code would, and only the direct fiber waits: cancelling the direct fiber cancels {@code job} and
     *       makes this throw {@link java.util.concurrent.CancellationException}.
     *   <li>On an ordinary thread, {@code job} runs as a root fiber on Spindle's common scheduler (daemon
     *       worker threads, one per processor, started on first use and never closed) and the thread
     *       blocks until it ends, as with {@link Scheduler#run}.
     * </ul>
     *
     * @param <A> the type of the job's value
     * @param job the job to run
     * @return the job's value
     * @throws IllegalStateException when called on a thread that runs Spindle fibers outside a direct body
     *     (inside a stackless job, where blocking could stop the very worker that would wake it: compose
     *     with {@link Job#flatMap} there, or make the caller a {@link #job direct job}), or on the thread
     *     that drives an open simulation (the job would escape it to the common scheduler's real threads)
     */
    public static <A> A await(Job<A> job) {
        Objects.requireNonNull(job, "job");
        DirectBody<?> run = DirectBody.current();
        if (run != null) {
            return run.await(job);
        }
        if (Drivers.currentThreadRunsFibers()) {
            throw awaitInsideStacklessJob();
        }
        return CommonScheduler.forCallingThread().run(job);
    }

    /** The failure of an {@link #await} called by stackless code, where waiting could stop the worker. */
    static IllegalStateException awaitInsideStacklessJob() {
        return new IllegalStateException("Direct.await (job.await()) called inside a stackless job on "
                + Thread.currentThread() + ": blocking there could stop the worker that would wake it;"
                + " compose with flatMap, or run the caller as Job.direct(...)");
    }

    /** {@return whether the calling code runs inside a direct body, where {@link #await} may be called} */
    public static boolean inDirectBody() {
        return DirectBody.current() != null;
    }

    /**
     * Whether direct bodies can run on {@code engine}: a driver that allows no other thread (the simulator)
     * needs the continuation backend, whose bodies run on the driver's thread.
     */
    static boolean canRunOn(Engine engine) {
        return engine.driver().allowsOtherThreads() || DirectBackend.SELECTED == Backend.CONTINUATION;
    }

    /** {@return the backend that runs direct bodies in this JVM} It is chosen once, when Spindle first needs it. */
    public static Backend backend() {
        return DirectBackend.SELECTED;
    }
}
