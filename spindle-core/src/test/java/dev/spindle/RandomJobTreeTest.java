package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.JobTreeGenerator.Node;
import dev.spindle.JobTreeGenerator.Run;
import dev.spindle.JobTreeGenerator.Tree;
import dev.spindle.JobTreeModel.Kind;
import dev.spindle.JobTreeModel.Model;
import dev.spindle.JobTreeModel.Reach;
import dev.spindle.JobTreeModel.TreeFailure;
import dev.spindle.test.fixture.SchedulerKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random job trees (nested race/all/any/timeout, sleeps, failures, {@code Job.cancelled()}, finalizers)
 * end as a small model interpreter of docs/semantics.md's rules predicts, run every finalizer they entered
 * exactly once and innermost first (within a fiber and across structured combinators), and leave nothing
 * behind: no child linked to a tree's fiber, no
 * timer, no live fiber. {@link JobTreeGenerator} documents the trees and the model, and why the
 * prediction never depends on timing. Every failure message starts with the seed and the tree.
 *
 * <p>Each case runs {@value #TREES} trees of one seed at once on one scheduler. More seeds:
 * {@code -Dspindle.test.treeSeeds=N} (default 3 per scheduler kind).
 */
@Timeout(120)
class RandomJobTreeTest {
    static final int TREES = 200;
    private static final int SEEDS = Integer.getInteger("spindle.test.treeSeeds", 3);

    static Stream<Arguments> cases() {
        List<SchedulerKind> kinds = List.of(SchedulerKind.SINGLE_THREADED, SchedulerKind.WORKERS_2,
                SchedulerKind.WORKERS_4);
        List<Arguments> cases = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            for (int seed = 1; seed <= SEEDS; seed++) {
                cases.add(Arguments.of(kinds.get(i), 1000L * (i + 1) + seed));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("cases")
    void randomTreesEndAsTheModelPredictsAndLeaveNothingBehind(SchedulerKind kind, long seed) {
        JobTreeGenerator generator = new JobTreeGenerator(seed);
        List<Tree> trees = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        AtomicReferenceArray<Fiber<Integer>> fibers = new AtomicReferenceArray<>(TREES);
        List<Job<Outcome<Integer>>> wrappers = new ArrayList<>();
        for (int i = 0; i < TREES; i++) {
            Tree t = generator.next();
            Run run = new Run(t.probes.size());
            trees.add(t);
            runs.add(run);
            int index = i;
            wrappers.add(t.root.build(run).start()
                    .flatMap(f -> Job.run(() -> fibers.set(index, f)).then(f.outcome())));
        }
        UncaughtRecorder uncaught = new UncaughtRecorder();
        AtomicReference<Scheduler> scheduler = new AtomicReference<>();
        AtomicReference<List<Outcome<Integer>>> outcomes = new AtomicReference<>();
        String where = "seed " + seed + " on " + kind;
        try {
            kind.use(uncaught, s -> {
                scheduler.set(s);
                outcomes.set(s.run(Job.all(wrappers)));
            });
        } catch (AssertionError e) {
            throw new AssertionError(where + ": " + e.getMessage(), e);
        }

        for (int i = 0; i < TREES; i++) {
            Tree t = trees.get(i);
            String what = where + ", tree " + i + ":\n" + t;
            Model actual = JobTreeModel.observed(outcomes.get().get(i));
            assertThat(actual).as("outcome of %s", what).isEqualTo(t.predicted());
            checkFinalizers(t, runs.get(i), what);
            Fiber<Integer> f = fibers.get(i);
            assertThat(((FiberImpl<?>) f).linkedChildren()).as("children still linked to the tree's fiber, %s", what).isZero();
            assertThat(((FiberImpl<?>) f).liveChildren()).as("children not retired, %s", what).isZero();
        }
        Scheduler s = scheduler.get();
        assertThat(s.engine.liveFibers()).as("live fibers after close, %s", where).isZero();
        assertThat(s.engine.timers().size()).as("pending timers after close, %s", where).isZero();
        for (Throwable e : uncaught.failures()) {
            assertThat(e).as("what reached the uncaught handler (only failing finalizers of cancelled jobs), %s",
                    where).isInstanceOfSatisfying(TreeFailure.class, tf -> assertThat(tf.id).startsWith("fin"));
        }
    }

    private static void checkFinalizers(Tree t, Run run, String what) {
        int n = t.probes.size();
        for (int p = 0; p < n; p++) {
            Node node = t.probes.get(p);
            JobTreeGenerator.Finalized fin = (JobTreeGenerator.Finalized) node;
            int entered = run.entered.get(p);
            int finalized = run.finalized.get(p);
            String probe = "probe " + p + " (entered " + entered + ", finalized " + finalized + ") of " + what;
            assertThat(entered).as("entries of %s", probe).isBetween(0, 1);
            Kind body = fin.children.get(0).model.kind();
            switch (node.reach) {
                case MUST -> {
                    assertThat(entered).as("a certain finalizer node entered, %s", probe).isEqualTo(1);
                    int expected = !fin.onlyOnCancel || body == Kind.CANCELLED ? 1 : 0;
                    assertThat(finalized).as("finalizer runs, %s", probe).isEqualTo(expected);
                }
                case UNREACHED -> assertThat(entered + finalized).as("an unreachable node ran, %s", probe).isZero();
                case MAY -> {
                    if (!fin.onlyOnCancel || body == Kind.CANCELLED || body == Kind.NEVER) {
                        assertThat(finalized).as("finalizer runs == entries, %s", probe).isEqualTo(entered);
                    } else {
                        assertThat(finalized).as("onCancel runs <= entries, %s", probe).isLessThanOrEqualTo(entered);
                    }
                }
            }
        }
        // innermost first: every finalizer that ran, ran before those of its ancestors
        for (int p = 0; p < n; p++) {
            if (run.finalized.get(p) == 0) {
                continue;
            }
            for (int q : descendantsOf(t.probes.get(p))) {
                if (run.finalized.get(q) == 1) {
                    assertThat(run.finalizedAt.get(q)).as("probe %d (inner) finalized before probe %d, %s", q, p,
                            what).isLessThan(run.finalizedAt.get(p));
                }
            }
        }
    }

    private static int[] descendantsOf(Node n) {
        List<Integer> out = new ArrayList<>();
        collect(n, out, true);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The finalizer nodes below {@code n} that must finish before it: not those below a start-then-join,
     * whose child fiber a cancelled joiner does not wait for (a fiber may outlive the one that started it),
     * so their finalizers may run after the joiner's. race/all/any/timeout wait for their children.
     */
    private static void collect(Node n, List<Integer> out, boolean self) {
        if (!self && n.probe >= 0) {
            out.add(n.probe);
        }
        if (!self && n instanceof JobTreeGenerator.StartJoin) {
            return;
        }
        for (Node c : n.children) {
            collect(c, out, false);
        }
    }

    /** The generator itself: deterministic per seed, and its trees exercise every kind of outcome. */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("generatorSeeds")
    void theGeneratorIsDeterministicAndCoversEveryOutcome(long seed) {
        JobTreeGenerator a = new JobTreeGenerator(seed);
        JobTreeGenerator b = new JobTreeGenerator(seed);
        int[] kinds = new int[Kind.values().length];
        int[] reaches = new int[Reach.values().length];
        for (int i = 0; i < TREES; i++) {
            Tree ta = a.next();
            Tree tb = b.next();
            assertThat(ta.toString()).isEqualTo(tb.toString());
            assertThat(ta.predicted().kind()).as("a tree's root finishes: %s", ta).isNotEqualTo(Kind.NEVER);
            kinds[ta.predicted().kind().ordinal()]++;
            for (Node p : ta.probes) {
                reaches[p.reach.ordinal()]++;
            }
        }
        assertThat(kinds[Kind.SUCCESS.ordinal()]).as("successes in %s", Arrays.toString(kinds)).isPositive();
        assertThat(kinds[Kind.FAILURE.ordinal()]).as("failures in %s", Arrays.toString(kinds)).isPositive();
        assertThat(kinds[Kind.CANCELLED.ordinal()]).as("cancellations in %s", Arrays.toString(kinds)).isPositive();
        assertThat(reaches).as("MUST, MAY, UNREACHED finalizer nodes").doesNotContain(0);
    }

    static Stream<Long> generatorSeeds() {
        return Stream.of(1L, 2L, 3L);
    }
}
