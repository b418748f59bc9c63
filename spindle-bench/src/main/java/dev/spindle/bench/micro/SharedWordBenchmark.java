package dev.spindle.bench.micro;

import dev.spindle.sync.Semaphore;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one operation on a word that every worker writes costs, alone and shared: run it with {@code -t 1},
 * {@code -t 2} and {@code -t 64} (JMH threads standing in for workers; 64 on a 2-core machine simulates the
 * contention of many workers by preemption, which shows lock hold times stretched by a descheduled holder,
 * not the speed of a 64-core machine). The shapes are those of the runtime's shared points
 * (docs/many-cores.md): an atomic add on one counter (the engine's idle count, a parent's pending count of
 * children, the count of fibers started from foreign threads), the owner-only counter that replaced it on
 * the spawn path (a release store to a field of the thread's own), a striped counter (what a shared count
 * would become), and a primitive's spin lock, taken and released twice per operation by
 * {@link Semaphore#tryAcquire()} and {@link Semaphore#release()} (the same lock word and critical sections
 * as every lock-guarded primitive: channels, mailboxes, MVars and the sync package use the one
 * {@code SpinLock} pattern). With {@code -bm sample} the percentiles of the lock pair show how long a
 * waiter waits for the holder.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SharedWordBenchmark {
    /** The words every benchmark thread shares. */
    @State(Scope.Benchmark)
    public static class Shared {
        /** One counter, added to by every thread. */
        final AtomicLong counter = new AtomicLong();
        /** A striped counter: each thread adds to a cell of its own once threads collide. */
        final LongAdder striped = new LongAdder();
        /** Permits enough never to run out: tryAcquire and release each take the lock once. */
        final Semaphore semaphore = new Semaphore(Integer.MAX_VALUE / 2, "shared");
    }

    /** A counter of one thread's own, written as a worker counts the fibers it starts. */
    @State(Scope.Thread)
    public static class Own {
        long count;
    }

    private static final VarHandle OWN_COUNT;

    static {
        try {
            OWN_COUNT = MethodHandles.lookup().findVarHandle(Own.class, "count", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An atomic add on the one shared counter (getAndAdd: a locked instruction on x86). */
    @Benchmark
    public long atomicAdd(Shared s) {
        return s.counter.incrementAndGet();
    }

    /** An add on a striped counter. */
    @Benchmark
    public void stripedAdd(Shared s) {
        s.striped.increment();
    }

    /** A release store of the thread's own count plus one (Worker.fiberStarted's shape). */
    @Benchmark
    public void ownerCounter(Own o) {
        OWN_COUNT.setRelease(o, o.count + 1);
    }

    /**
     * One permit taken and given back: two acquisitions of the semaphore's spin lock, each held for a few
     * field updates.
     *
     * @throws IllegalStateException if no permit was available (the benchmark did not do its work)
     */
    @Benchmark
    public void spinLockPair(Shared s) {
        if (!s.semaphore.tryAcquire()) {
            throw new IllegalStateException("no permit left: the semaphore was sized for every thread");
        }
        s.semaphore.release();
    }
}
