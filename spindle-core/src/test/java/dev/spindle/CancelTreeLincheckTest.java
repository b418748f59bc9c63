package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Engine;
import dev.spindle.internal.run.Worker;
import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The cancellation tree under concurrent {@code addChild} / {@code requestCancel} / retire, by Lincheck
 * model checking of FiberImpl itself (no scheduler: the operations call the tree's methods directly).
 *
 * <p>The tree is grandparent G (running throughout) &rarr; parent P &rarr; children c0..c3. Operations:
 * P adds a child (P's own code, so one thread: a non-parallel group), P finishes (same group: nothing is
 * added after), any thread finishes an added child (retire up the tree), any thread cancels G, and any
 * thread checks the invariants that must hold at every linearization point:
 * <ul>
 *   <li>every added, unfinished child is reachable from P's child list, and P from G's while P has a
 *       live child (a finished parent stays linked);
 *   <li>once a cancellation of G has returned, every added, unfinished child is cancel-requested (the
 *       Dekker pair "push, then read the flag" / "set the flag, then walk the list").
 * </ul>
 * {@link Spec} is the sequential specification (in it the invariants always hold), and {@link #noLeak}
 * checks after every scenario that, once everything has finished, neither G nor P keeps a child linked.
 */
@Param(name = "child", gen = IntGen.class, conf = "0:3")
public class CancelTreeLincheckTest {
    private static final int CHILDREN = 4;
    private static final Field WORKERS;
    private static final Field FIRST_CHILD;
    private static final Field NEXT_SIBLING;

    static {
        try {
            WORKERS = Engine.class.getDeclaredField("workers");
            WORKERS.setAccessible(true);
            FIRST_CHILD = FiberImpl.class.getDeclaredField("firstChild");
            FIRST_CHILD.setAccessible(true);
            NEXT_SIBLING = FiberImpl.class.getDeclaredField("nextSibling");
            NEXT_SIBLING.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Engine engine = new Engine("lincheck-tree", 1, false, e -> {
        throw new AssertionError("uncaught", e);
    });
    /** Only fiberFinished() touches it here (a counter), so sharing it between threads is harmless. */
    private final Worker worker = ((Worker[]) get(WORKERS, engine))[0];
    private final FiberImpl<Void> g = new FiberImpl<>(new Running<>(), engine, null, false);
    private final FiberImpl<Void> p = new FiberImpl<>(new Running<>(), engine, g, false);
    @SuppressWarnings({"unchecked", "rawtypes"})
    private final FiberImpl<Void>[] children = new FiberImpl[CHILDREN];
    private final AtomicBoolean[] added = new AtomicBoolean[CHILDREN];
    private final AtomicBoolean[] finishing = new AtomicBoolean[CHILDREN];
    private final AtomicBoolean parentFinished = new AtomicBoolean();
    private final AtomicBoolean cancelDone = new AtomicBoolean();

    public CancelTreeLincheckTest() {
        g.doWork(worker); // G and P run (only a started fiber's own code adds children)
        g.addChild(null, p);
        p.doWork(worker);
        for (int i = 0; i < CHILDREN; i++) {
            children[i] = new FiberImpl<>(Job.unit(), engine, p, false);
            added[i] = new AtomicBoolean();
            finishing[i] = new AtomicBoolean();
        }
    }

    /** The job of a fiber whose code is running (or suspended): it never completes by itself. */
    private static final class Running<A> extends Job<A> {
        @Override
        void doJob(Worker w, Cont<A> k) {
        }
    }

    private static Object get(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    @Operation(nonParallelGroup = "parent")
    public boolean addChild(@Param(name = "child") int i) {
        if (parentFinished.get() || added[i].get()) {
            return false;
        }
        p.addChild(null, children[i]);
        added[i].set(true);
        return true;
    }

    @Operation(nonParallelGroup = "parent")
    public boolean finishParent() {
        if (!parentFinished.compareAndSet(false, true)) { // marked first, like finishing[i]
            return false;
        }
        p.doCont(worker, null);
        return true;
    }

    @Operation
    public boolean finishChild(@Param(name = "child") int i) {
        if (!added[i].get() || !finishing[i].compareAndSet(false, true)) {
            return false;
        }
        children[i].doCont(worker, null);
        return true;
    }

    /**
     * Once per scenario: a second, concurrent request returns at once (the flag is already set) while the
     * first may still be walking the tree, so only the first one's return promises the walk is done.
     */
    @Operation(runOnce = true)
    public void cancelGrandparent() {
        g.requestCancel(null);
        cancelDone.set(true);
    }

    /**
     * True when the invariants hold (see the class comment); the sequential specification always says
     * true. A child (or P) that a concurrent operation finishes meanwhile may legitimately be unlinked, so
     * a violation counts only if it was still unfinished after the list was walked: finishing is marked
     * before a fiber retires, so "not finishing after the walk" means it was live during the walk.
     */
    @Operation
    public boolean invariantsHold() {
        boolean cancelled = cancelDone.get();
        for (int i = 0; i < CHILDREN; i++) {
            if (!added[i].get() || finishing[i].get()) {
                continue;
            }
            boolean ok = linked(p, children[i]) && (!cancelled || children[i].isCancelRequested());
            if (!ok && !finishing[i].get()) {
                return false;
            }
        }
        if (!linked(g, p)) {
            if (!parentFinished.get()) {
                return false;
            }
            for (int i = 0; i < CHILDREN; i++) {
                if (added[i].get() && !finishing[i].get()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean linked(FiberImpl<?> parent, FiberImpl<?> child) {
        for (Object c = get(FIRST_CHILD, parent); c != null; c = get(NEXT_SIBLING, c)) {
            if (c == child) {
                return true;
            }
        }
        return false;
    }

    /** After the scenario: finish what is left; then nothing may stay linked. */
    @Validate
    public void noLeak() {
        for (int i = 0; i < CHILDREN; i++) {
            if (added[i].get() && finishing[i].compareAndSet(false, true)) {
                children[i].doCont(worker, null);
            }
        }
        if (parentFinished.compareAndSet(false, true)) {
            p.doCont(worker, null);
        }
        if (p.liveChildren() != 0 || p.linkedChildren() != 0 || g.liveChildren() != 0 || g.linkedChildren() != 0) {
            throw new AssertionError("leak: P live " + p.liveChildren() + ", linked " + p.linkedChildren()
                    + "; G live " + g.liveChildren() + ", linked " + g.linkedChildren());
        }
    }

    /** The sequential specification: which operations take effect; the invariants always hold. */
    public static final class Spec {
        private final boolean[] added = new boolean[CHILDREN];
        private final boolean[] finished = new boolean[CHILDREN];
        private boolean parentFinished;

        public boolean addChild(int i) {
            if (parentFinished || added[i]) {
                return false;
            }
            added[i] = true;
            return true;
        }

        public boolean finishParent() {
            if (parentFinished) {
                return false;
            }
            parentFinished = true;
            return true;
        }

        public boolean finishChild(int i) {
            if (!added[i] || finished[i]) {
                return false;
            }
            finished[i] = true;
            return true;
        }

        public void cancelGrandparent() {
        }

        public boolean invariantsHold() {
            return true;
        }
    }

    @Test
    void modelCheckBriefly() {
        // a smoke run for the default lane: the project's options, shrunk
        LincheckOptions.modelChecking(Spec.class).iterations(5).invocationsPerIteration(100)
                .check(CancelTreeLincheckTest.class);
    }

    @Test
    @Tag("stress") // on the method: a JUnit annotation on this public class would trip -Xlint:exports
    void modelCheck() {
        LincheckOptions.check(CancelTreeLincheckTest.class, Spec.class);
    }
}
