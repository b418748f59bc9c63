package dev.spindle.bench.soak;

import dev.spindle.Alt;
import dev.spindle.Channel;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Mailbox;
import dev.spindle.sync.WaitGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The leaves of the soak's spawn trees: sleeps, computation, planned failures, channel and mailbox flows,
 * critical sections on the shared mutexes, wait-group fan-outs and exchanges over loopback sockets
 * ({@link TcpEchoes}); the parts of flows, sections and wait-group awaits each in combinator or in direct
 * style. Every random choice is drawn while the job is
 * built, on the thread that builds the episode, so an episode depends on the seed and its index alone;
 * the jobs themselves only run what was drawn.
 *
 * <p>Every leaf ends on its own: waits are bounded by an {@link Alt#after} alternative, so a producer
 * whose consumer was cancelled gives up instead of blocking forever, and only a runtime defect can leave a
 * fiber behind at rest.
 */
final class Mixes {
    /** Most messages in one flow. */
    private static final int MAX_MESSAGES = 16;
    /** Share of the workload's cancellations requested with no step between the decision and the cancel. */
    private static final int IMMEDIATE_CANCEL_PERCENT = 10;

    private final SoakState state;
    private final int earlyCancelPercent;
    private final TcpEchoes echoes;

    /**
     * Leaves reporting to {@code state}; {@code earlyCancelPercent} of the wait-group fan-outs run their tasks
     * under {@link Job#all} with one that fails at once, so that the others are cancelled before their
     * first step; network leaves exchange messages with {@code echoes}.
     */
    Mixes(SoakState state, int earlyCancelPercent, TcpEchoes echoes) {
        this.state = state;
        this.earlyCancelPercent = earlyCancelPercent;
        this.echoes = echoes;
    }

    /** A random leaf named {@code name}. */
    Job<Void> leaf(Random r, String name) {
        return switch (r.nextInt(10)) {
            case 0 -> Job.sleep(ms(r.nextInt(5)));
            case 1 -> compute(r);
            case 2 -> Job.sleep(ms(r.nextInt(3))).then(Job.failure(new PlannedFailure()));
            case 3, 4 -> channelFlow(r, name);
            case 5 -> mailboxFlow(r, name);
            case 6, 7 -> sections(r, name);
            case 8 -> echoes.exchange(r, name);
            default -> waitGroupFanOut(r, name);
        };
    }

    // ---------------------------------------------------------------- fibers of a leaf

    /**
     * Starts {@code children} as child fibers, maybe cancels one of them (half the time, after a random
     * delay), then waits for every child and checks how each ended.
     */
    Job<Void> forkJoin(Random r, String name, List<Job<Void>> children) {
        int victim = r.nextInt(2 * children.size()); // >= size: cancel none
        Duration delay = cancelDelay(r);
        return Job.defer(() -> startAll(children, 0, new ArrayList<>())).flatMap(fibers -> {
            Job<Void> cancel = victim < fibers.size() ? cancelAfter(fibers.get(victim), delay) : Job.unit();
            return cancel.then(settleAll(name, fibers, 0));
        });
    }

    /** Cancels {@code fiber} after {@code delay} (at once, with no step between, when it is zero). */
    Job<Void> cancelAfter(Fiber<?> fiber, Duration delay) {
        Job<Void> cancel = Job.run(state.cancels::increment).then(fiber.cancel());
        return delay.isZero() ? cancel : Job.sleep(delay).then(cancel);
    }

    /** A delay before a cancellation: zero for {@value #IMMEDIATE_CANCEL_PERCENT}% of them, else 1-5 ms. */
    Duration cancelDelay(Random r) {
        return r.nextInt(100) < IMMEDIATE_CANCEL_PERCENT ? Duration.ZERO : ms(1 + r.nextInt(5));
    }

    /** Waits for {@code fiber} and records an unplanned failure of it as a violation. */
    Job<Void> settle(String name, Fiber<?> fiber) {
        return fiber.outcome().map(outcome -> {
            state.violations.checkOutcome(name, outcome);
            return null;
        });
    }

    private static Job<List<Fiber<Void>>> startAll(List<Job<Void>> jobs, int i, List<Fiber<Void>> started) {
        if (i == jobs.size()) {
            return Job.result(started);
        }
        return jobs.get(i).start().flatMap(f -> {
            started.add(f);
            return startAll(jobs, i + 1, started);
        });
    }

    private Job<Void> settleAll(String name, List<Fiber<Void>> fibers, int i) {
        return i == fibers.size() ? Job.unit()
                : settle(name + "/" + i, fibers.get(i)).then(settleAll(name, fibers, i + 1));
    }

    // ---------------------------------------------------------------- leaves

    /** A few hundred steps of a linear congruential generator, whose result the job gives and drops. */
    private static Job<Void> compute(Random r) {
        int rounds = 1 + r.nextInt(200);
        return Job.of(() -> {
            long x = rounds;
            for (int i = 0; i < rounds; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return x;
        }).map(x -> null);
    }

    /**
     * Producers give over a synchronous channel (some send asynchronously instead) and consumers take until
     * idle; half the parts are direct bodies. Messages sent asynchronously and never taken stay in the
     * channel until the rest check drains them.
     */
    private Job<Void> channelFlow(Random r, String name) {
        Channel<Integer> channel = new Channel<>(name);
        int messages = 1 + r.nextInt(MAX_MESSAGES);
        Flow flow = state.register(new Flow(name + " (channel)", messages, channel.take()));
        int producers = 1 + r.nextInt(2);
        List<Job<Void>> parts = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            boolean async = r.nextInt(4) == 0;
            Duration patience = ms(1 + r.nextInt(10));
            List<Job<Boolean>> steps = new ArrayList<>();
            for (int id = p; id < messages; id += producers) {
                int message = id;
                steps.add(async
                        ? flow.sendMarked(message, channel.send(message)).map(sent -> Boolean.TRUE)
                        : Alt.choose(
                                channel.give(message).wrap(v -> {
                                    flow.sent(message);
                                    return Boolean.TRUE;
                                }),
                                Alt.after(patience).wrap(v -> Boolean.FALSE)));
            }
            parts.add(steps(r.nextBoolean(), steps));
        }
        addConsumers(r, parts, flow, channel.take());
        return forkJoin(r, name, parts);
    }

    /** Producers send to a mailbox, pausing now and then; consumers take until idle. */
    private Job<Void> mailboxFlow(Random r, String name) {
        Mailbox<Integer> mailbox = new Mailbox<>(name);
        int messages = 1 + r.nextInt(MAX_MESSAGES);
        Flow flow = state.register(new Flow(name + " (mailbox)", messages, mailbox.take()));
        int producers = 1 + r.nextInt(2);
        List<Job<Void>> parts = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            List<Job<Boolean>> steps = new ArrayList<>();
            for (int id = p; id < messages; id += producers) {
                int message = id;
                Job<Void> pause = switch (r.nextInt(4)) {
                    case 0 -> Job.yieldNow();
                    case 1 -> Job.sleep(ms(1));
                    default -> Job.unit();
                };
                steps.add(flow.sendMarked(message, mailbox.send(message)).then(pause).map(sent -> Boolean.TRUE));
            }
            parts.add(steps(r.nextBoolean(), steps));
        }
        addConsumers(r, parts, flow, mailbox.take());
        return forkJoin(r, name, parts);
    }

    /** Adds one or two consumers of {@code take} that stop after an idle wait. */
    private void addConsumers(Random r, List<Job<Void>> parts, Flow flow, Alt<Integer> take) {
        int consumers = 1 + r.nextInt(2);
        for (int c = 0; c < consumers; c++) {
            Alt<Boolean> step = Alt.choose(
                    take.wrap(id -> {
                        flow.received(id);
                        return Boolean.TRUE;
                    }),
                    Alt.after(ms(2 + r.nextInt(20))).wrap(v -> Boolean.FALSE));
            parts.add(r.nextBoolean() ? Job.direct(() -> {
                while (step.await()) {
                    // one message per round, until idle
                }
                return null;
            }) : repeat(step));
        }
    }

    /** Runs {@code steps} in order while each gives true: as a flatMap chain, or as a direct loop. */
    private static Job<Void> steps(boolean direct, List<Job<Boolean>> steps) {
        if (direct) {
            return Job.direct(() -> {
                for (Job<Boolean> step : steps) {
                    if (!step.await()) {
                        break;
                    }
                }
                return null;
            });
        }
        Job<Void> chain = Job.unit();
        for (int i = steps.size() - 1; i >= 0; i--) {
            Job<Void> rest = chain;
            chain = steps.get(i).flatMap(more -> more ? rest : Job.unit());
        }
        return chain;
    }

    /** Runs {@code step} until it gives false. */
    private static Job<Void> repeat(Alt<Boolean> step) {
        return step.flatMap(more -> more ? repeat(step) : Job.unit());
    }

    /** One to four critical sections on random shared mutexes, in combinator or direct style. */
    private Job<Void> sections(Random r, String name) {
        int n = 1 + r.nextInt(4);
        List<Job<Void>> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GuardedMutex m = state.mutexes.get(r.nextInt(state.mutexes.size()));
            Duration hold = ms(r.nextInt(3));
            parts.add(r.nextBoolean() ? m.directSection(hold) : m.section(hold));
        }
        return forkJoin(r, name, parts);
    }

    /**
     * Tasks that count a {@link WaitGroup} down in {@code ensure}: started one by one, maybe one of them
     * cancelled, or (for {@code earlyCancelPercent} of the fan-outs) run under {@link Job#all} with a last
     * task that fails at once, which cancels the others, queued and not yet run. Once every task has ended
     * the count must be zero, and then the group is awaited (as a job or, in a direct body, blocking).
     */
    private Job<Void> waitGroupFanOut(Random r, String name) {
        boolean early = r.nextInt(100) < earlyCancelPercent;
        int n = 1 + r.nextInt(4) + (early ? 1 : 0);
        WaitGroup group = new WaitGroup(n, name);
        List<Job<Void>> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Job<Void> task = early && i == n - 1 ? Job.failure(new PlannedFailure()) : switch (r.nextInt(3)) {
                case 0 -> Job.sleep(ms(r.nextInt(3)));
                case 1 -> compute(r);
                default -> sections(r, name + "/" + i);
            };
            tasks.add(task.ensure(Job.run(group::done)));
        }
        Job<Void> run = early ? Job.all(tasks).attempt().map(outcome -> {
            state.violations.checkOutcome(name, outcome);
            return null;
        }) : forkJoin(r, name, tasks);
        boolean direct = r.nextBoolean();
        Job<Void> awaitGroup = Job.defer(() -> {
            int left = group.count();
            if (left != 0) {
                state.violations.add(name + ": WaitGroup count is " + left + " after all " + n
                        + " of its tasks ended (a task's ensure(done) did not run)");
                return Job.unit();
            }
            return direct ? Job.direct(() -> {
                group.awaitBlocking();
                return null;
            }) : group.await();
        });
        return run.then(awaitGroup).then(Job.run(state.waitGroups::increment));
    }

    static Duration ms(int millis) {
        return Duration.ofMillis(millis);
    }
}
