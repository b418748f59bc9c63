package dev.spindle.bench.soak;

import dev.spindle.Direct;
import dev.spindle.Scheduler;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The soak test ({@code bin/soak [minutes]}): a mixed workload of random spawn trees on a scheduler with
 * four workers (and an echo service for its network leaves on a scheduler of its own), stopped every ten
 * seconds for a {@link RestCheck}; prints one line per check and exits non-zero, with the seed, at the
 * first check that finds a violation.
 *
 * <p>Each interval the main thread builds episodes ({@link SpawnTrees#episode}) from one seeded
 * {@link Random}, so episode {@code i} is the same tree for the same seed; it submits them keeping at most
 * {@code --in-flight} running. The interleavings depend on the threads and are not reproducible.
 *
 * <p>Exit status: 0 no violation; 1 a violation; 64 bad arguments.
 */
public final class SoakMain {
    /** Exit status when a check failed. */
    static final int FAILED = 1;
    /** Exit status for bad arguments (sysexits' EX_USAGE). */
    static final int USAGE = 64;

    private SoakMain() {
    }

    /** Runs the soak that {@code args} describe and exits with its status. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(SoakOptions.usage());
            return;
        }
        SoakOptions options;
        try {
            options = SoakOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("soak: " + e.getMessage());
            System.err.println(SoakOptions.usage());
            System.exit(USAGE);
            return;
        }
        System.exit(run(options, System.out));
    }

    static int run(SoakOptions o, PrintStream out) throws InterruptedException {
        SoakState state = new SoakState();
        TcpEchoes echoes;
        try {
            echoes = new TcpEchoes(state);
        } catch (IOException e) {
            throw new UncheckedIOException("soak: cannot start the echo service on loopback", e);
        }
        Scheduler scheduler = Scheduler.builder().name("soak").workers(o.workers())
                .uncaughtHandler(e -> state.violations.checkFailure("a fiber nobody joins", e))
                .build();
        EngineProbe probe = EngineProbe.of(scheduler);
        RestCheck rest = new RestCheck(scheduler, state, probe, o.quiesceLimit());
        SpawnTrees trees = new SpawnTrees(state, new Mixes(state, o.earlyCancelPercent(), echoes));
        Random random = new Random(o.seed());
        Semaphore running = new Semaphore(o.inFlight());
        out.printf("soak: seed %d, %d checks every %d s (%.1f min), %d workers, direct backend %s,"
                + " %d%% of wait groups with early cancels%n", o.seed(), o.checks(), o.checkInterval().toSeconds(),
                o.minutes(), o.workers(), Direct.backend(), o.earlyCancelPercent());
        long start = System.nanoTime();
        long built = 0;
        long episodesBefore = 0;
        for (int check = 1; check <= o.checks(); check++) {
            long until = System.nanoTime() + o.checkInterval().toNanos();
            while (System.nanoTime() - until < 0) {
                if (!running.tryAcquire(10, TimeUnit.MILLISECONDS)) {
                    continue;
                }
                long index = built++;
                scheduler.submit(trees.episode(random, index)).whenComplete((v, e) -> {
                    if (e != null) {
                        state.violations.add("episode " + index + " ended abnormally: " + e);
                    }
                    running.release();
                });
            }
            String details = rest.check(running, o.inFlight()) + ", " + echoes.check(o.quiesceLimit());
            long episodes = state.episodes.sum();
            out.printf("soak: check %d/%d at %d s: %d episodes (+%d), %d cancels, %d sections, %d wait groups,"
                    + " %s: %s%n", check, o.checks(), TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start),
                    episodes, episodes - episodesBefore, state.cancels.sum(), state.sections(),
                    state.waitGroups.sum(), details, state.violations.count() == 0 ? "ok" : "FAILED");
            episodesBefore = episodes;
            if (state.violations.count() > 0) {
                report(state.violations, o.seed(), check, out);
                return FAILED; // no close(): a fiber left behind would make it wait forever
            }
        }
        scheduler.close();
        echoes.close();
        out.printf("soak: passed %d checks, %d episodes, %d messages in %d s (seed %d)%n", o.checks(),
                state.episodes.sum(), state.messages.sum(),
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), o.seed());
        return 0;
    }

    private static void report(Violations violations, long seed, int check, PrintStream out) {
        List<String> first = violations.first();
        out.printf("soak: FAILED at check %d with %d violations (seed %d; rerun with --seed %d); the first %d:%n",
                check, violations.count(), seed, seed, first.size());
        for (String v : first) {
            out.println("  - " + v.replace("\n", "\n    "));
        }
    }
}
