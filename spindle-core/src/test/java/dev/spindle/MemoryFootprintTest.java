package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.internal.run.Timer;
import dev.spindle.test.fixture.SchedulerKind;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

/**
 * Pins the sizes that make "millions of fibers, each a few dozen bytes while blocked" true (Kotlin's
 * MemoryFootprintTest): the fiber object, a bind continuation, a timer, and the bytes per fiber blocked
 * on a join. Sizes assume the default layout of 64-bit HotSpot with compressed oops and class pointers
 * (12-byte headers); on another layout the pins are skipped, and when JOL cannot inspect this JVM the
 * whole class is. A pin that breaks is not necessarily a bug: it says a field was added; update it
 * knowingly (FiberImpl's class comment states its size too).
 */
@Timeout(60)
class MemoryFootprintTest {
    private static VirtualMachine vm;

    @BeforeAll
    static void inspectTheVm() {
        try {
            vm = VM.current();
            vm.sizeOf(new Object());
        } catch (Throwable e) {
            Assumptions.abort("JOL cannot inspect this JVM: " + e);
        }
    }

    private static void assumeDefaultLayout() {
        Assumptions.assumeTrue(vm.objectHeaderSize() == 12 && vm.addressSize() == 8 && vm.classPointerSize() == 4
                        && vm.sizeOfField("java.lang.Object") == 4 && vm.objectAlignment() == 8,
                () -> "pins assume compressed oops and 12-byte headers; this VM: " + vm.details());
    }

    private static long size(Class<?> c) {
        return ClassLayout.parseClass(c).instanceSize();
    }

    private static String layout(Class<?> c) {
        return ClassLayout.parseClass(c).toPrintable();
    }

    @Test
    void fiberCoreIs56Bytes() {
        assumeDefaultLayout();
        // 8 references and 3 ints (over Work/Cont/FiberBase): 56 bytes with the header. (72 until the joiner
        // lock moved into the state word; 64 until the blocker moved into the value slot and the flags and
        // sweep debt out of their own int.)
        assertThat(size(FiberImpl.class)).as(layout(FiberImpl.class)).isEqualTo(56);
    }

    @Test
    void aBindContinuationIs32Bytes() {
        assumeDefaultLayout();
        assertThat(size(Sequence.BindCont.class)).as(layout(Sequence.BindCont.class)).isEqualTo(32);
    }

    @Test
    void aTimerIs32Bytes() {
        assumeDefaultLayout();
        // next (fired timers are the work items), deadline, work and where its queue holds it; 40 while it
        // also named its queue and kept the slot apart from the index
        assertThat(size(Timer.class)).as(layout(Timer.class)).isEqualTo(32);
    }

    @Test
    void aFiberHandleIs16Bytes() {
        assumeDefaultLayout();
        assertThat(size(Fiber.class)).as(layout(Fiber.class)).isEqualTo(16);
    }

    /**
     * N fibers, each blocked joining one gate fiber, cost what is reachable from them and from nothing
     * shared (the gate, the engine, their finished parent, the one join job they all run): the blocked
     * fiber is its own continuation and is linked into the gate's joiner list through its own
     * {@code next}, so this is one FiberImpl each.
     */
    @Test
    void aFiberBlockedOnAJoinCostsLessThan200Bytes() {
        int n = 10_000;
        CompletableFuture<Void> open = new CompletableFuture<>();
        SchedulerKind.WORKERS_2.use(s -> {
            Fiber<Void> gate = s.run(Job.fromFuture(() -> open).start());
            Job<Void> join = gate.join();
            List<Fiber<Void>> waiters = s.run(startAll(join, n, new ArrayList<>(n)));
            SchedulerKind.WORKERS_2.awaitDriving(s, () -> FiberFixtures.joinerCount(gate) == n, "every join");
            List<Object> cores = new ArrayList<>(n);
            for (Fiber<Void> w : waiters) {
                cores.add(((FiberImpl<?>) w));
            }
            Set<Object> shared = Collections.newSetFromMap(new IdentityHashMap<>());
            Collections.addAll(shared, ((FiberImpl<?>) gate), s.engine, join, ((FiberImpl<?>) waiters.get(0)).engine);
            addParents(waiters, shared);
            long bytes = retainedBytes(cores, shared);
            long perFiber = bytes / n;
            System.out.printf("MemoryFootprintTest: %d fibers blocked on a join retain %d bytes: %d per fiber%n",
                    n, bytes, perFiber);
            assertThat(perFiber).as("bytes per fiber blocked on a join").isLessThan(200);
            open.complete(null);
            for (Fiber<Void> w : waiters) {
                s.run(w.join());
            }
        });
    }

    private static Job<List<Fiber<Void>>> startAll(Job<Void> job, int n, List<Fiber<Void>> acc) {
        if (acc.size() == n) {
            return Job.result(acc);
        }
        return job.start().flatMap(f -> {
            acc.add(f);
            return startAll(job, n, acc);
        });
    }

    /** The finished fiber that started the waiters (reachable from each, not part of any). */
    private static void addParents(List<Fiber<Void>> waiters, Set<Object> shared) {
        try {
            Field parent = FiberImpl.class.getDeclaredField("parentOrExtras");
            parent.setAccessible(true);
            for (Fiber<Void> w : waiters) {
                Object p = parent.get(((FiberImpl<?>) w));
                if (p != null) {
                    shared.add(p);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Bytes of everything reachable from {@code roots} without passing through {@code shared}: a walk
     * over the instance fields of Spindle's own classes (JDK objects met on the way count shallow).
     */
    private static long retainedBytes(List<Object> roots, Set<Object> shared) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<Object> todo = new ArrayDeque<>(roots);
        long total = 0;
        while (!todo.isEmpty()) {
            Object o = todo.pop();
            if (shared.contains(o) || !seen.add(o)) {
                continue;
            }
            total += vm.sizeOf(o);
            if (o instanceof Object[] array) {
                for (Object e : array) {
                    if (e != null) {
                        todo.push(e);
                    }
                }
                continue;
            }
            if (!o.getClass().getName().startsWith("dev.spindle.")) {
                continue;
            }
            for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        Object v = f.get(o);
                        if (v != null) {
                            todo.push(v);
                        }
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        throw new AssertionError("cannot read " + f, e);
                    }
                }
            }
        }
        return total;
    }
}
