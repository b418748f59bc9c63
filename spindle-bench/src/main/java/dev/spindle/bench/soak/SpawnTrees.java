package dev.spindle.bench.soak;

import dev.spindle.Fiber;
import dev.spindle.Job;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random spawn trees: each inner node forks and joins its children, runs them under {@code all}, races
 * two of them, puts one under a timeout, cancels one, runs them from a direct body, or leaves one
 * detached; the leaves come from {@link Mixes}. Every random choice is drawn while the tree is built.
 */
final class SpawnTrees {
    /** Depth of an episode's tree: at most 3 levels of inner nodes above the leaves. */
    static final int DEPTH = 3;

    private final SoakState state;
    private final Mixes mixes;

    SpawnTrees(SoakState state, Mixes mixes) {
        this.state = state;
        this.mixes = mixes;
    }

    /**
     * Episode {@code index}: a random tree whose outcome is checked (it may succeed or fail as planned) and
     * counted. The job itself never fails.
     */
    Job<Void> episode(Random r, long index) {
        String name = "episode " + index;
        return node(r, DEPTH, name).attempt().map(outcome -> {
            state.violations.checkOutcome(name, outcome);
            state.episodes.increment();
            return null;
        });
    }

    private Job<Void> node(Random r, int depth, String name) {
        if (depth == 0 || r.nextInt(4) == 0) {
            return mixes.leaf(r, name);
        }
        int below = depth - 1;
        return switch (r.nextInt(7)) {
            case 0 -> mixes.forkJoin(r, name, children(r, below, name, 1 + r.nextInt(3)));
            case 1 -> Job.all(children(r, below, name, 1 + r.nextInt(3))).map(values -> null);
            case 2 -> Job.race(node(r, below, name + ".l"), node(r, below, name + ".r")).map(winner -> null);
            case 3 -> node(r, below, name + ".t").timeout(Mixes.ms(1 + r.nextInt(15)));
            case 4 -> cancelOne(r, below, name);
            case 5 -> direct(r, below, name);
            default -> detachOne(r, below, name);
        };
    }

    private List<Job<Void>> children(Random r, int depth, String name, int n) {
        List<Job<Void>> jobs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            jobs.add(node(r, depth, name + "." + i));
        }
        return jobs;
    }

    /** Starts a child, cancels it after a random delay, and checks how it ended. */
    private Job<Void> cancelOne(Random r, int depth, String name) {
        Job<Void> child = node(r, depth, name + ".c");
        Duration delay = mixes.cancelDelay(r);
        return child.start().flatMap(f -> mixes.cancelAfter(f, delay).then(mixes.settle(name + ".c", f)));
    }

    /** Starts a child detached from the tree (it outlives the episode) and goes on with a sibling. */
    private Job<Void> detachOne(Random r, int depth, String name) {
        String detachedName = name + ".d";
        Job<Void> detached = node(r, depth, detachedName).attempt().map(outcome -> {
            state.violations.checkOutcome(detachedName, outcome);
            return null;
        });
        return detached.forget().then(node(r, depth, name + ".s"));
    }

    /**
     * A direct body that starts one child, pauses, maybe cancels it, checks its outcome, then runs a second
     * child inline with {@code await} (whose planned failure becomes the body's failure).
     */
    private Job<Void> direct(Random r, int depth, String name) {
        Job<Void> first = node(r, depth, name + ".a");
        Job<Void> second = node(r, depth, name + ".b");
        Duration pause = Mixes.ms(r.nextInt(3));
        boolean cancelFirst = r.nextInt(3) == 0;
        return Job.direct(() -> {
            Fiber<Void> f = first.start().await();
            if (!pause.isZero()) {
                Job.sleep(pause).await();
            }
            if (cancelFirst) {
                mixes.cancelAfter(f, Duration.ZERO).await();
            }
            state.violations.checkOutcome(name + ".a", f.outcome().await());
            second.await();
            return null;
        });
    }
}
