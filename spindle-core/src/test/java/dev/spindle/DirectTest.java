package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.test.fixture.SchedulerFixture;
import dev.spindle.test.fixture.SchedulerKind;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Direct style on whichever backend the JVM allows (run once plainly for virtual threads and once with
 * {@code -Dspindle.test.jvmFlags=--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED} for continuations): values, failures, deep nesting, many waiting bodies,
 * cancellation with {@code finally} blocks, and a producer/consumer pair, on every scheduler kind.
 */
class DirectTest {

    static Stream<SchedulerKind> kinds() {
        return Stream.of(SchedulerKind.SINGLE_THREADED, SchedulerKind.WORKERS_1, SchedulerKind.WORKERS_2,
                SchedulerKind.WORKERS_4);
    }

    @Test
    void theBackendIsContinuationsExactlyWhenTheJvmExportsThem() {
        boolean exported = Object.class.getModule().isExported("jdk.internal.vm", DirectTest.class.getModule());
        boolean forcedOff = System.getProperty("spindle.direct.backend", "").startsWith("virtual");
        assertThat(Direct.backend()).isEqualTo(exported && !forcedOff
                ? Direct.Backend.CONTINUATION
                : Direct.Backend.VIRTUAL_THREAD);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitReturnsTheValue(SchedulerKind kind) {
        kind.use(s -> {
            Job<Integer> job = Direct.job(() -> {
                int a = Direct.await(Job.result(40));
                Direct.await(Job.sleep(Duration.ofMillis(1)));
                int b = Direct.await(Job.yieldNow().then(Job.result(2)));
                return a + b;
            });
            assertThat(s.run(job)).isEqualTo(42);
            assertThat(s.run(job)).as("a job runs its body anew each run").isEqualTo(42);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitRethrowsUncheckedAsIsAndWrapsChecked(SchedulerKind kind) {
        IllegalStateException boom = new IllegalStateException("boom");
        IOException io = new IOException("io");
        kind.use(s -> {
            Job<Object> unchecked = Direct.job(() -> {
                try {
                    Direct.await(Job.yieldNow().then(Job.failure(boom)));
                    return "not reached";
                } catch (IllegalStateException e) {
                    return e;
                }
            });
            assertThat(s.run(unchecked)).isSameAs(boom);
            Job<Object> checked = Direct.job(() -> {
                try {
                    Direct.await(Job.failure(io));
                    return "not reached";
                } catch (CompletionException e) {
                    return e.getCause();
                }
            });
            assertThat(s.run(checked)).isSameAs(io);
            Job<Object> escapes = Direct.job(() -> {
                throw io;
            });
            assertThatThrownBy(() -> s.run(escapes)).isInstanceOf(CompletionException.class).cause().isSameAs(io);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void nestedAwaitsAHundredDeep(SchedulerKind kind) {
        kind.use(s -> assertThat(s.run(nest(100))).isEqualTo(100));
    }

    private static Job<Integer> nest(int depth) {
        if (depth == 0) {
            return Direct.job(() -> 0);
        }
        return Direct.job(() -> Direct.await(nest(depth - 1)) + 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aThousandBodiesWaitOnOneSignal(SchedulerKind kind) {
        kind.use(s -> {
            IVar<Integer> signal = new IVar<>();
            AtomicInteger waiting = new AtomicInteger();
            List<Job<Integer>> readers = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                int n = i;
                readers.add(Direct.job(() -> {
                    waiting.incrementAndGet();
                    return Direct.await(signal.read()) + n;
                }));
            }
            Job<Long> all = Direct.job(() -> {
                Fiber<List<Integer>> f = Direct.await(Job.all(readers).start());
                while (waiting.get() < 1000) {
                    Direct.await(Job.sleep(Duration.ofMillis(1)));
                }
                Direct.await(signal.fill(1));
                return Direct.await(f.join()).stream().mapToLong(Integer::longValue).sum();
            });
            assertThat(s.run(all)).isEqualTo(1000L + 999L * 1000 / 2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void cancellingABodyBlockedInAwaitRunsItsFinallyBlocks(SchedulerKind kind) {
        kind.use(s -> {
            IVar<Void> entered = new IVar<>();
            IVar<Void> never = new IVar<>();
            ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
            Job<String> body = Direct.job(() -> {
                try {
                    Direct.await(entered.fill(null));
                    Direct.await(never.read());
                    return "not reached";
                } catch (CancellationException e) {
                    events.add("await threw");
                    assertThatThrownBy(() -> Direct.await(Job.unit()))
                            .as("every later await throws too").isInstanceOf(CancellationException.class);
                    throw e;
                } finally {
                    events.add("finally");
                }
            });
            Outcome<String> outcome = s.run(body.start().flatMap(f -> entered.read()
                    .then(f.cancel())
                    .then(Job.of(() -> List.copyOf(events)).flatMap(seen -> {
                        assertThat(seen).as("finally ran before cancel() returned")
                                .containsExactly("await threw", "finally");
                        return f.outcome();
                    }))));
            assertThat(outcome).isInstanceOf(Outcome.Cancelled.class);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aCancelledBodySeesCancellationAtItsNextAwait(SchedulerKind kind) {
        kind.use(s -> {
            IVar<Fiber<String>> handle = new IVar<>();
            ConcurrentLinkedQueue<String> events = new ConcurrentLinkedQueue<>();
            Job<String> body = Direct.job(() -> {
                try {
                    Fiber<String> me = Direct.await(handle.read());
                    String v = Direct.await(Job.of(() -> {
                        ((FiberImpl<?>) me).requestCancel(null); // cancelled while this awaited job runs
                        return "finished anyway";
                    }));
                    events.add(v);
                    Direct.await(Job.unit());
                    return "not reached";
                } catch (CancellationException e) {
                    events.add("next await threw");
                    throw e;
                } finally {
                    events.add("finally");
                }
            });
            Outcome<String> outcome = s.run(body.start().flatMap(f -> handle.fill(f).then(f.outcome())));
            assertThat(outcome).isInstanceOf(Outcome.Cancelled.class);
            assertThat(events).containsExactly("finished anyway", "next await threw", "finally");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aBodyThatSwallowsCancellationStillEndsCancelled(SchedulerKind kind) {
        kind.use(s -> {
            IVar<Void> entered = new IVar<>();
            Job<String> body = Direct.job(() -> {
                try {
                    Direct.await(entered.fill(null).then(new IVar<Void>().read()));
                } catch (CancellationException swallowed) {
                    return "swallowed";
                }
                return "not reached";
            });
            Outcome<String> outcome = s.run(body.start().flatMap(f -> entered.read().then(f.cancel())
                    .then(f.outcome())));
            assertThat(outcome).isInstanceOf(Outcome.Cancelled.class);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitInAClassInitializerWaitsCorrectly(SchedulerKind kind) {
        // a class initializer is a native frame: a continuation cannot yield across it (pinned), nor can a
        // virtual thread unmount; await must still wait correctly (the documented fallback blocks a thread)
        kind.use(s -> assertThat(s.run(Direct.job(() -> new PinnedInit().value()))).isEqualTo("initialized"));
    }

    /** Awaits inside its static initializer. Initialized once per JVM, by the first test kind. */
    private static final class PinnedInit {
        private static final String VALUE =
                Direct.await(Job.sleep(Duration.ofMillis(2)).then(Job.result("initialized")));

        String value() {
            return VALUE;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void producerAndConsumerOverAChannel(SchedulerKind kind) {
        kind.use(s -> {
            Channel<Integer> ch = new Channel<>();
            Job<Integer> consumer = Direct.job(() -> {
                int sum = 0;
                for (int i = 0; i < 200; i++) {
                    sum += Direct.await(ch.take());
                }
                return sum;
            });
            Job<Integer> producer = Direct.job(() -> {
                for (int i = 0; i < 200; i++) {
                    Direct.await(ch.send(i));
                }
                return 0;
            });
            assertThat(s.run(Job.all(List.of(consumer, producer)))).containsExactly(199 * 200 / 2, 0);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitInsideASynchronizedBlockStillWaitsCorrectly(SchedulerKind kind) {
        Object monitor = new Object();
        Job<String> job = Direct.job(() -> {
            synchronized (monitor) {
                return Direct.await(Job.sleep(Duration.ofMillis(2)).then(Job.result("held")));
            }
        });
        kind.use(s -> assertThat(s.run(job)).isEqualTo("held"));
    }

    /** Awaiting the join of a cancelled fiber throws in the body; the direct fiber itself goes on. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aCancelledAwaitedFiberIsACancellationExceptionNotACancelledBody(SchedulerKind kind) {
        Job<String> job = Direct.job(() -> {
            Fiber<Void> f = Alt.<Void>never().start().await();
            f.cancel().await();
            try {
                f.join().await();
                return "not reached";
            } catch (CancellationException e) {
                return "caught";
            }
        });
        kind.use(s -> assertThat(s.run(job)).isEqualTo("caught"));
    }

    /** The awaited job runs as part of the direct fiber: {@code Job.cancelled()} cancels the fiber itself. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitingJobCancelledCancelsTheDirectFiberAsInStacklessCode(SchedulerKind kind) {
        List<String> seen = new ArrayList<>();
        Job<String> job = Direct.job(() -> {
            try {
                Job.cancelled().await();
                return "not reached";
            } catch (CancellationException e) {
                seen.add(e.getMessage());
                return "swallowed";
            }
        });
        kind.use(s -> assertThat(s.runOutcome(job)).isInstanceOf(Outcome.Cancelled.class));
        assertThat(seen).containsExactly("the direct fiber was cancelled");
    }

    /**
     * A body resumes on the thread it started on, even when what it awaits finishes on another worker.
     * (Compiled code may cache {@code Thread.currentThread()} across the yield; a body moved to another
     * thread then misread its thread-locals after about 100,000 awaits, once C2 had compiled the loop.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aBodyAlwaysResumesOnTheThreadItStartedOn(SchedulerKind kind) {
        int bodies = 4;
        int awaits = 50_000;
        List<Job<Integer>> jobs = new ArrayList<>();
        for (int b = 0; b < bodies; b++) {
            jobs.add(Direct.job(() -> {
                Thread home = Thread.currentThread();
                int moved = 0;
                for (int i = 0; i < awaits; i++) {
                    Direct.await(i % 2 == 0 ? Job.yieldNow() : Job.unit().start().flatMap(Fiber::join));
                    if (Thread.currentThread() != home || !Direct.inDirectBody()) {
                        moved++;
                    }
                }
                return moved;
            }));
        }
        kind.use(s -> assertThat(s.run(Job.all(jobs))).containsOnly(0));
    }

    @Test
    void awaitOnAnOrdinaryThreadBlocksItUntilTheJobEnds() {
        assertThat(Direct.inDirectBody()).isFalse();
        assertThat(Job.sleep(Duration.ofMillis(1)).then(Job.result(7)).await()).isEqualTo(7);
        IllegalStateException boom = new IllegalStateException("boom");
        assertThatThrownBy(() -> Job.yieldNow().then(Job.failure(boom)).await()).isSameAs(boom);
        IOException io = new IOException("io");
        assertThatThrownBy(() -> Job.failure(io).await())
                .isInstanceOf(CompletionException.class).hasCause(io);
        assertThatThrownBy(() -> Alt.<Void>never().start().flatMap(f -> f.cancel().then(f.join())).await())
                .isInstanceOf(CancellationException.class);
    }

    /**
     * A test thread takes from a channel that fibers of a scheduler give to. On a single-threaded scheduler a
     * driver thread runs it meanwhile; should the driver fail, the test thread's take is ended by that
     * failure (filled into {@code driverFailed}) and the test fails with it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void anOrdinaryThreadAwaitsAChannelFedByFibersOfAnotherScheduler(SchedulerKind kind) {
        Channel<Integer> ch = new Channel<>();
        IVar<Throwable> driverFailed = new IVar<>("driver failed");
        Alt<Integer> takeUnlessDriverFailed = Alt.choose(ch.take(), driverFailed.read().wrap(e -> {
            throw new AssertionError("the driver thread failed: " + e, e);
        }));
        kind.use(s -> {
            java.util.concurrent.CompletableFuture<Void> giver = s.submit(Job.direct(() -> {
                for (int i = 1; i <= 100; i++) {
                    ch.give(i).await();
                }
                return null;
            }));
            // a single-threaded scheduler runs only while a thread drives it: another thread does, meanwhile
            HelperThread driver = kind.isSingleThreaded()
                    ? HelperThread.start("driver", () -> s.run(Job.fromFuture(() -> giver)),
                            e -> driverFailed.fill(e).await())
                    : null;
            int sum = 0;
            for (int i = 1; i <= 100; i++) {
                sum += takeUnlessDriverFailed.await();
            }
            assertThat(sum).isEqualTo(5050);
            giver.join();
            if (driver != null) {
                driver.join();
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitInsideAStacklessJobIsRefused(SchedulerKind kind) {
        kind.use(s -> assertThatThrownBy(() -> s.run(Job.of(() -> Job.result(1).await())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("inside a stackless job"));
    }

    /**
     * A stackless job that a direct body awaits runs inline on the body's stack (continuation backend); an
     * await in that job's code is the job's, not the body's, and is refused as in any stackless job. The
     * fixture's leak check fails the test if the fiber also completed twice (an uncaught failure).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void awaitInsideAStacklessJobThatADirectBodyAwaitsIsRefused(SchedulerKind kind) {
        kind.use(s -> assertThatThrownBy(
                () -> s.run(Job.direct(() -> Job.of(() -> Job.of(() -> 7).await()).await())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("inside a stackless job"));
    }

    /** marl's scheduler test: tasks that wait on a WaitGroup while the scheduler closes all complete. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aThousandExecutedTasksWaitOnAWaitGroupWhileTheSchedulerCloses(SchedulerKind kind) {
        dev.spindle.sync.WaitGroup release = new dev.spindle.sync.WaitGroup(1);
        AtomicInteger completed = new AtomicInteger();
        SchedulerFixture fixture = kind.open(e -> {
            throw new AssertionError("uncaught", e);
        });
        Scheduler s = fixture.scheduler();
        for (int i = 0; i < 1000; i++) {
            s.execute(() -> {
                release.await().await(); // suspends the task's fiber: on one worker, blocking would deadlock
                completed.incrementAndGet();
            });
        }
        s.execute(release::done);
        fixture.close();
        assertThat(completed).hasValue(1000);
    }

    /** The blocking forms of the coordination primitives suspend a direct fiber (a producer/consumer). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void conditionVariableProducerAndConsumerInDirectStyle(SchedulerKind kind) {
        dev.spindle.sync.Mutex mutex = new dev.spindle.sync.Mutex();
        dev.spindle.sync.ConditionVariable nonEmpty = new dev.spindle.sync.ConditionVariable();
        java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
        Job<Long> consumer = Job.direct(() -> {
            long sum = 0;
            for (int i = 0; i < 1000; i++) {
                mutex.lockBlocking();
                try {
                    nonEmpty.awaitBlocking(mutex, () -> !queue.isEmpty());
                    sum += queue.poll();
                } finally {
                    mutex.unlock();
                }
            }
            return sum;
        });
        Job<Void> producer = Job.direct(() -> {
            for (int i = 1; i <= 1000; i++) {
                mutex.lockBlocking();
                try {
                    queue.add(i);
                    nonEmpty.signal();
                } finally {
                    mutex.unlock();
                }
                if (i % 10 == 0) {
                    Job.yieldNow().await();
                }
            }
            return null;
        });
        kind.use(s -> assertThat(s.run(Job.all(List.of(consumer, producer.map(v -> 0L)))).get(0))
                .isEqualTo(1000L * 1001 / 2));
    }
}
