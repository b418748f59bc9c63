package dev.spindle;

import dev.spindle.JobTreeModel.Kind;
import dev.spindle.JobTreeModel.Model;
import dev.spindle.JobTreeModel.Reach;
import dev.spindle.JobTreeModel.TreeFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Seeded random job trees with a model interpreter of the rules in docs/semantics.md, for {@code RandomJobTreeTest}.
 *
 * <h2>The trees</h2>
 * Leaves: a value, a failure ({@link TreeFailure} thrown by user code), {@code Job.cancelled()}, a sleep
 * of 0/20/40 ms before a value, and "never" (a one-hour sleep: only cancellation ends it). Inner nodes:
 * {@code flatMap} (sum of both values), {@code recover}, {@code ensure} and {@code onCancel} (counting
 * entries and runs, some finalizers failing), {@code bracket} (entered when its acquire gives a value,
 * released as an ensure's finalizer runs), {@code uncancelable}, a short sleep or a yield before a
 * node, {@code race} (Left v gives 2v, Right v gives 2v + 1), {@code all} (sum), {@code any},
 * {@code timeout} and start-then-join. Depth at most {@link #MAX_DEPTH}.
 *
 * <h2>The model</h2>
 * Each node has a predicted outcome: success with a value, failure with a key (the failure's id, or
 * "timeout", or "cancellation") and the keys suppressed into it in order, cancelled, or {@code NEVER}
 * (waits until something cancels it). The rules, applied bottom up:
 * <ul>
 *   <li>flatMap: the first's non-success, else the second's outcome (value: the sum); recover turns a
 *       failure into its value; cancellation passes through both.
 *   <li>ensure: a failing finalizer becomes the failure after a success and is suppressed into a
 *       failure; after a cancellation it goes to the uncaught handler. onCancel changes no outcome.
 *   <li>race: the side that finishes decides (its outcome, its value mapped to Left/Right). all: one
 *       deciding failure or cancellation, else the sum when all succeed. any: the one success, else on
 *       cancellation cancelled, else (all failed) the first in argument order with the others suppressed
 *       in argument order. timeout: a finishing child's outcome; a never-finishing child gives "timeout".
 *       start-then-join: a cancelled child is a CancellationException failure of the joiner.
 *   <li>A node that waits for a {@code NEVER} part is {@code NEVER}.
 * </ul>
 * <b>No timing races in the prediction:</b> a combinator is only generated when its outcome does not
 * depend on which child finishes first. Only "finishes at all" versus "never finishes" decides: race
 * needs exactly one finishing side (or two cancelled ones), all at most one deciding child (or only
 * cancelled ones), any at most one success and no cancelled child beside it; timeout gets a one-hour
 * limit for a finishing child and 20-60 ms for a never-finishing one. Otherwise the generator draws
 * again. Sleep lengths never decide anything.
 *
 * <h2>Finalizer checks</h2>
 * Every ensure/onCancel node is MUST (certainly entered: on the deciding path), MAY (it may be cut short
 * or never start: a loser, or anything inside a never-finishing node) or UNREACHED (after a non-success
 * in a flatMap). Checked after each run: entered at most once; an ensure's finalizer ran exactly as often
 * as it was entered; an onCancel's at most as often, exactly when its body's outcome is cancelled or
 * never; MUST nodes entered, UNREACHED ones not; and every finalizer ran before its ancestors' (except
 * across a start-then-join: a joiner cancelled meanwhile does not wait for the child fiber it joined).
 */
final class JobTreeGenerator {
    static final int MAX_DEPTH = 5;
    private static final Duration FOREVER = Duration.ofHours(1);

    // ---------------------------------------------------------------- nodes

    /** A node of a tree. */
    abstract static class Node {
        final List<Node> children;
        Model model;
        /** Index among the tree's finalizer nodes, or -1. */
        int probe = -1;
        Reach reach;

        Node(List<Node> children) {
            this.children = children;
        }

        /** The predicted outcome, or null when it would depend on timing. */
        abstract Model evaluate();

        /** The job this node stands for, counting into {@code run}. */
        abstract Job<Integer> build(Run run);

        /** Whether a {@code Job.cancelled()} runs in the same fiber as this node (not in a child fiber). */
        boolean cancelsOwnFiber() {
            for (Node c : children) {
                if (c.cancelsOwnFiber()) {
                    return true;
                }
            }
            return false;
        }

        /** Assigns reach top-down; the default passes it to every child. */
        void assignReach(Reach r, List<Node> probes) {
            reach = r;
            Reach inner = model.finishes() ? r : JobTreeModel.weaker(r, Reach.MAY);
            assignChildren(inner, probes);
        }

        void assignChildren(Reach r, List<Node> probes) {
            for (Node c : children) {
                c.assignReach(r, probes);
            }
        }

        abstract String label();

        final void describe(StringBuilder sb, int indent) {
            sb.append("  ".repeat(indent)).append(label()).append("  => ").append(model);
            if (probe >= 0) {
                sb.append("  [probe ").append(probe).append(", ").append(reach).append(']');
            }
            sb.append('\n');
            for (Node c : children) {
                c.describe(sb, indent + 1);
            }
        }
    }

    /** Per-run counters of a tree's ensure/onCancel nodes. */
    static final class Run {
        final AtomicIntegerArray entered;
        final AtomicIntegerArray finalized;
        final AtomicIntegerArray finalizedAt;
        final AtomicInteger clock = new AtomicInteger();

        Run(int probes) {
            entered = new AtomicIntegerArray(probes);
            finalized = new AtomicIntegerArray(probes);
            finalizedAt = new AtomicIntegerArray(probes);
        }
    }

    static final class Value extends Node {
        final int v;

        Value(int v) {
            super(List.of());
            this.v = v;
        }

        @Override
        Model evaluate() {
            return Model.success(v);
        }

        @Override
        Job<Integer> build(Run run) {
            return Job.of(() -> v);
        }

        @Override
        String label() {
            return "value " + v;
        }
    }

    static final class Fail extends Node {
        final String id;

        Fail(String id) {
            super(List.of());
            this.id = id;
        }

        @Override
        Model evaluate() {
            return Model.failure(id, List.of());
        }

        @Override
        Job<Integer> build(Run run) {
            return Job.of(() -> {
                throw new TreeFailure(id);
            });
        }

        @Override
        String label() {
            return "fail " + id;
        }
    }

    static final class Cancel extends Node {
        Cancel() {
            super(List.of());
        }

        @Override
        Model evaluate() {
            return Model.CANCELLED;
        }

        @Override
        boolean cancelsOwnFiber() {
            return true;
        }

        @Override
        Job<Integer> build(Run run) {
            return Job.cancelled();
        }

        @Override
        String label() {
            return "cancelled";
        }
    }

    static final class Never extends Node {
        Never() {
            super(List.of());
        }

        @Override
        Model evaluate() {
            return Model.NEVER;
        }

        @Override
        Job<Integer> build(Run run) {
            return Job.sleep(FOREVER).map(v -> 0);
        }

        @Override
        String label() {
            return "never (sleep 1 h)";
        }
    }

    /** Sleeps {@code ms} (or yields, when negative) before its child. */
    static final class Pause extends Node {
        final int ms;

        Pause(int ms, Node child) {
            super(List.of(child));
            this.ms = ms;
        }

        @Override
        Model evaluate() {
            return children.get(0).model;
        }

        @Override
        Job<Integer> build(Run run) {
            Job<Void> pause = ms < 0 ? Job.yieldNow() : Job.sleep(Duration.ofMillis(ms));
            return pause.then(children.get(0).build(run));
        }

        @Override
        String label() {
            return ms < 0 ? "yield then" : "sleep " + ms + " ms then";
        }
    }

    static final class Seq extends Node {
        Seq(Node a, Node b) {
            super(List.of(a, b));
        }

        @Override
        Model evaluate() {
            return sum(children.get(0).model, children.get(1).model);
        }

        /** {@code a} then {@code b}: the first non-success, else the sum of their values. */
        static Model sum(Model a, Model b) {
            if (a.kind() != Kind.SUCCESS) {
                return a;
            }
            return b.kind() == Kind.SUCCESS ? Model.success(a.value() + b.value()) : b;
        }

        @Override
        void assignChildren(Reach r, List<Node> probes) {
            children.get(0).assignReach(r, probes);
            children.get(1).assignReach(children.get(0).model.kind() == Kind.SUCCESS ? r : Reach.UNREACHED, probes);
        }

        @Override
        Job<Integer> build(Run run) {
            Job<Integer> second = children.get(1).build(run);
            return children.get(0).build(run).flatMap(x -> second.map(y -> x + y));
        }

        @Override
        String label() {
            return "flatMap (sum)";
        }
    }

    static final class Recover extends Node {
        final int v;

        Recover(int v, Node child) {
            super(List.of(child));
            this.v = v;
        }

        @Override
        Model evaluate() {
            Model c = children.get(0).model;
            return c.kind() == Kind.FAILURE ? Model.success(v) : c;
        }

        @Override
        Job<Integer> build(Run run) {
            return children.get(0).build(run).recover(e -> v);
        }

        @Override
        String label() {
            return "recover with " + v;
        }
    }

    /** {@code ensure} or (onlyOnCancel) {@code onCancel}; the finalizer fails with {@code failId} if set. */
    static class Finalized extends Node {
        final boolean onlyOnCancel;
        final String failId;

        Finalized(boolean onlyOnCancel, String failId, Node child) {
            this(onlyOnCancel, failId, List.of(child));
        }

        Finalized(boolean onlyOnCancel, String failId, List<Node> children) {
            super(children);
            this.onlyOnCancel = onlyOnCancel;
            this.failId = failId;
        }

        @Override
        Model evaluate() {
            return onlyOnCancel ? children.get(0).model : finalized(children.get(0).model);
        }

        /** The outcome {@code body} ends with once this node's (always run) finalizer has run. */
        final Model finalized(Model body) {
            if (failId == null) {
                return body;
            }
            return switch (body.kind()) {
                case SUCCESS -> Model.failure(failId, List.of());
                case FAILURE -> body.withSuppressed(failId);
                case CANCELLED, NEVER -> body;
            };
        }

        @Override
        void assignReach(Reach r, List<Node> probes) {
            probe = probes.size();
            probes.add(this);
            super.assignReach(r, probes);
        }

        @Override
        Job<Integer> build(Run run) {
            int p = probe;
            Job<Integer> body = children.get(0).build(run);
            Job<Integer> entering = Job.defer(() -> {
                run.entered.incrementAndGet(p);
                return body;
            });
            return onlyOnCancel ? entering.onCancel(finalizer(run)) : entering.ensure(finalizer(run));
        }

        /** The finalizer: counts its run and its place in the order of runs, then fails if it should. */
        final Job<Void> finalizer(Run run) {
            int p = probe;
            return Job.run(() -> {
                run.finalizedAt.set(p, run.clock.incrementAndGet());
                run.finalized.incrementAndGet(p);
                if (failId != null) {
                    throw new TreeFailure(failId);
                }
            });
        }

        @Override
        String label() {
            return (onlyOnCancel ? "onCancel" : "ensure") + (failId == null ? "" : " (finalizer fails " + failId + ")");
        }
    }

    /**
     * {@code Job.bracket(acquire, v -> use.map(u -> v + u), v -> release)}: entered when acquire gives its
     * value (a map, no cancellation point before the bracket takes it), released exactly once per entry.
     */
    static final class Bracket extends Finalized {
        Bracket(String failId, Node acquire, Node use) {
            super(false, failId, List.of(acquire, use));
        }

        @Override
        Model evaluate() {
            Model acquired = children.get(0).model;
            // released only once acquired: a failed acquire's outcome is the bracket's as it is
            return acquired.kind() == Kind.SUCCESS ? finalized(Seq.sum(acquired, children.get(1).model)) : acquired;
        }

        @Override
        void assignReach(Reach r, List<Node> probes) {
            probe = probes.size();
            probes.add(this);
            boolean acquires = children.get(0).model.kind() == Kind.SUCCESS;
            reach = acquires ? r : Reach.UNREACHED;
            Reach inner = model.finishes() ? r : JobTreeModel.weaker(r, Reach.MAY);
            children.get(0).assignReach(inner, probes);
            children.get(1).assignReach(acquires ? inner : Reach.UNREACHED, probes);
        }

        @Override
        Job<Integer> build(Run run) {
            int p = probe;
            Job<Integer> acquire = children.get(0).build(run).map(v -> {
                run.entered.incrementAndGet(p);
                return v;
            });
            Job<Integer> use = children.get(1).build(run);
            Job<Void> release = finalizer(run);
            return Job.bracket(acquire, v -> use.map(u -> v + u), v -> release);
        }

        @Override
        String label() {
            return "bracket (acquire, use: sum)" + (failId == null ? "" : " (release fails " + failId + ")");
        }
    }

    static final class Uncancelable extends Node {
        Uncancelable(Node child) {
            super(List.of(child));
        }

        @Override
        Model evaluate() {
            Node c = children.get(0);
            // a Job.cancelled() inside the region is deferred (its value is null): not modelled; and a
            // region that never ends could never be cancelled
            return c.cancelsOwnFiber() || !c.model.finishes() ? null : c.model;
        }

        @Override
        Job<Integer> build(Run run) {
            return Job.uncancelable(children.get(0).build(run));
        }

        @Override
        String label() {
            return "uncancelable";
        }
    }

    /** Children run as fibers of their own: a {@code Job.cancelled()} in them cancels only them. */
    abstract static class Forking extends Node {
        Forking(List<Node> children) {
            super(children);
        }

        @Override
        final boolean cancelsOwnFiber() {
            return false;
        }
    }

    static final class Race extends Forking {
        Race(Node a, Node b) {
            super(List.of(a, b));
        }

        @Override
        Model evaluate() {
            Model a = children.get(0).model;
            Model b = children.get(1).model;
            if (a.finishes() && b.finishes()) {
                return a.kind() == Kind.CANCELLED && b.kind() == Kind.CANCELLED ? Model.CANCELLED : null;
            }
            if (!a.finishes() && !b.finishes()) {
                return Model.NEVER;
            }
            boolean leftWins = a.finishes();
            Model w = leftWins ? a : b;
            return w.kind() == Kind.SUCCESS ? Model.success(2 * w.value() + (leftWins ? 0 : 1)) : w;
        }

        @Override
        void assignChildren(Reach r, List<Node> probes) {
            Model a = children.get(0).model;
            Model b = children.get(1).model;
            boolean oneSide = a.finishes() != b.finishes();
            children.get(0).assignReach(oneSide && a.finishes() ? r : JobTreeModel.weaker(r, Reach.MAY), probes);
            children.get(1).assignReach(oneSide && b.finishes() ? r : JobTreeModel.weaker(r, Reach.MAY), probes);
        }

        @Override
        Job<Integer> build(Run run) {
            return Job.race(children.get(0).build(run), children.get(1).build(run)).map(e -> switch (e) {
                case Either.Left<Integer, Integer> l -> 2 * l.value();
                case Either.Right<Integer, Integer> r -> 2 * r.value() + 1;
            });
        }

        @Override
        String label() {
            return "race (Left v: 2v, Right v: 2v+1)";
        }
    }

    static final class All extends Forking {
        All(List<Node> children) {
            super(children);
        }

        /** The children whose finishing non-success decides, or null when none does. */
        private List<Node> deciders() {
            List<Node> d = new ArrayList<>();
            for (Node c : children) {
                if (c.model.finishes() && c.model.kind() != Kind.SUCCESS) {
                    d.add(c);
                }
            }
            return d;
        }

        @Override
        Model evaluate() {
            List<Node> d = deciders();
            if (d.size() == 1) {
                return d.get(0).model;
            }
            if (d.size() > 1) {
                return d.stream().allMatch(c -> c.model.kind() == Kind.CANCELLED) ? Model.CANCELLED : null;
            }
            int sum = 0;
            for (Node c : children) {
                if (!c.model.finishes()) {
                    return Model.NEVER;
                }
                sum += c.model.value();
            }
            return Model.success(sum);
        }

        @Override
        void assignChildren(Reach r, List<Node> probes) {
            List<Node> d = deciders();
            for (Node c : children) {
                boolean certain = d.isEmpty() ? c.model.finishes() : d.size() == 1 && d.get(0) == c;
                c.assignReach(certain ? r : JobTreeModel.weaker(r, Reach.MAY), probes);
            }
        }

        @Override
        Job<Integer> build(Run run) {
            List<Job<Integer>> jobs = new ArrayList<>();
            for (Node c : children) {
                jobs.add(c.build(run));
            }
            return Job.all(jobs).map(l -> l.stream().mapToInt(Integer::intValue).sum());
        }

        @Override
        String label() {
            return "all (sum)";
        }
    }

    static final class Any extends Forking {
        Any(List<Node> children) {
            super(children);
        }

        private long count(Kind k) {
            return children.stream().filter(c -> c.model.kind() == k).count();
        }

        @Override
        Model evaluate() {
            long successes = count(Kind.SUCCESS);
            long cancelled = count(Kind.CANCELLED);
            if (successes > 1 || (successes == 1 && cancelled > 0)) {
                return null;
            }
            if (successes == 1) {
                return children.stream().filter(c -> c.model.kind() == Kind.SUCCESS).findFirst().get().model;
            }
            if (cancelled > 0) {
                return Model.CANCELLED;
            }
            if (count(Kind.NEVER) > 0) {
                return Model.NEVER;
            }
            Model first = children.get(0).model;
            List<String> sup = new ArrayList<>(first.suppressed());
            for (int i = 1; i < children.size(); i++) {
                sup.add(children.get(i).model.failure());
            }
            return Model.failure(first.failure(), sup);
        }

        @Override
        void assignChildren(Reach r, List<Node> probes) {
            long successes = count(Kind.SUCCESS);
            long cancelled = count(Kind.CANCELLED);
            boolean allFail = successes == 0 && cancelled == 0 && count(Kind.NEVER) == 0;
            for (Node c : children) {
                boolean certain = allFail || (successes == 1 && c.model.kind() == Kind.SUCCESS)
                        || (successes == 0 && cancelled == 1 && c.model.kind() == Kind.CANCELLED);
                c.assignReach(certain ? r : JobTreeModel.weaker(r, Reach.MAY), probes);
            }
        }

        @Override
        Job<Integer> build(Run run) {
            List<Job<Integer>> jobs = new ArrayList<>();
            for (Node c : children) {
                jobs.add(c.build(run));
            }
            return Job.any(jobs);
        }

        @Override
        String label() {
            return "any";
        }
    }

    static final class Timeout extends Forking {
        final int limitMs;

        Timeout(int shortLimitMs, Node child) {
            super(List.of(child));
            this.limitMs = child.model.finishes() ? -1 : shortLimitMs;
        }

        @Override
        Model evaluate() {
            Model c = children.get(0).model;
            return c.finishes() ? c : Model.failure("timeout", List.of());
        }

        @Override
        void assignChildren(Reach r, List<Node> probes) {
            children.get(0).assignReach(limitMs < 0 ? r : JobTreeModel.weaker(r, Reach.MAY), probes);
        }

        @Override
        Job<Integer> build(Run run) {
            return children.get(0).build(run).timeout(limitMs < 0 ? FOREVER : Duration.ofMillis(limitMs));
        }

        @Override
        String label() {
            return "timeout " + (limitMs < 0 ? "1 h" : limitMs + " ms");
        }
    }

    static final class StartJoin extends Forking {
        StartJoin(Node child) {
            super(List.of(child));
        }

        @Override
        Model evaluate() {
            Model c = children.get(0).model;
            return c.kind() == Kind.CANCELLED ? Model.failure("cancellation", List.of()) : c;
        }

        @Override
        Job<Integer> build(Run run) {
            return children.get(0).build(run).start().flatMap(Fiber::join);
        }

        @Override
        String label() {
            return "start, join";
        }
    }

    // ---------------------------------------------------------------- generation

    /** A generated tree: its root, its finalizer nodes in probe order, and its description. */
    static final class Tree {
        final Node root;
        final List<Node> probes = new ArrayList<>();

        Tree(Node root) {
            this.root = root;
            root.assignReach(Reach.MUST, probes);
        }

        Model predicted() {
            return root.model;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            root.describe(sb, 0);
            return sb.toString();
        }
    }

    private final Random rng;
    private int ids;

    JobTreeGenerator(long seed) {
        this.rng = new Random(seed);
    }

    /** A new tree whose root finishes (a never-finishing root is put under a timeout). */
    Tree next() {
        ids = 0;
        Node root = node(0);
        if (!root.model.finishes()) {
            root = evaluated(new Timeout(shortLimit(), root));
        }
        return new Tree(root);
    }

    private int shortLimit() {
        return 20 * (1 + rng.nextInt(3));
    }

    private String id(String prefix) {
        return prefix + (++ids);
    }

    private static Node evaluated(Node n) {
        n.model = n.evaluate();
        return n;
    }

    private Node node(int depth) {
        if (depth >= MAX_DEPTH || rng.nextDouble() < 0.03 + 0.12 * depth) {
            return leaf();
        }
        for (int attempt = 0; attempt < 8; attempt++) {
            Node n = inner(depth);
            n.model = n.evaluate();
            if (n.model != null) {
                return n;
            }
        }
        return leaf();
    }

    private Node leaf() {
        int r = rng.nextInt(100);
        Node n;
        if (r < 35) {
            n = new Value(rng.nextInt(10));
        } else if (r < 55) {
            n = new Fail(id("f"));
        } else if (r < 65) {
            n = new Cancel();
        } else if (r < 80) {
            n = new Never();
        } else {
            n = new Pause(20 * rng.nextInt(3), evaluated(new Value(rng.nextInt(10))));
        }
        return evaluated(n);
    }

    private Node inner(int depth) {
        int d = depth + 1;
        return switch (rng.nextInt(14)) {
            case 0, 1 -> new Seq(node(d), node(d));
            case 2 -> new Recover(rng.nextInt(10), node(d));
            case 3 -> new Finalized(false, rng.nextInt(4) == 0 ? id("fin") : null, node(d));
            case 4 -> new Finalized(true, rng.nextInt(4) == 0 ? id("fin") : null, node(d));
            case 5 -> new Uncancelable(node(d));
            case 6 -> new Pause(rng.nextBoolean() ? -1 : 20 * rng.nextInt(3), node(d));
            case 7, 8 -> new Race(node(d), node(d));
            case 9 -> new All(children(d));
            case 10 -> new Any(children(d));
            case 11 -> new Timeout(shortLimit(), node(d));
            case 12 -> new Bracket(rng.nextInt(4) == 0 ? id("fin") : null, node(d), node(d));
            default -> new StartJoin(node(d));
        };
    }

    private List<Node> children(int depth) {
        int n = 1 + rng.nextInt(3);
        List<Node> c = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            c.add(node(depth));
        }
        return c;
    }
}
