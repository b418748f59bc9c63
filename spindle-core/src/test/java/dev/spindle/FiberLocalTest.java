package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.test.fixture.SchedulerKind;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link FiberLocal}: the initial value where nothing is bound, bindings for a job's extent restored however
 * it ends, inheritance by fibers at start and isolation from the starter's later bindings and siblings.
 */
class FiberLocalTest {
    private static final FiberLocal<String> LOCAL = new FiberLocal<>("request", "none");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theInitialValueWhereNothingIsBound(SchedulerKind kind) {
        kind.use(s -> {
            assertThat(s.run(LOCAL.get())).isEqualTo("none");
            assertThat(new FiberLocal<Integer>(null).initial()).isNull();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aBindingHoldsForTheExtentOfItsJobAndNests(SchedulerKind kind) {
        kind.use(s -> {
            Job<List<String>> job = LOCAL.with("outer", LOCAL.get().flatMap(a -> LOCAL.with("inner",
                    Job.yieldNow().then(LOCAL.get())).flatMap(b -> LOCAL.get().map(c -> List.of(a, b, c)))))
                    .flatMap(abc -> LOCAL.get().map(d -> List.of(abc.get(0), abc.get(1), abc.get(2), d)));
            assertThat(s.run(job)).containsExactly("outer", "inner", "outer", "none");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theBindingIsRestoredAfterAFailure(SchedulerKind kind) {
        kind.use(s -> {
            Job<String> job = LOCAL.with("bound", Job.<String>failure(new IllegalStateException("boom")))
                    .recoverWith(e -> LOCAL.get());
            assertThat(s.run(job)).isEqualTo("none");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void theBindingIsRestoredBeforeTheFinalizersOfACancelledFiberOutsideIt(SchedulerKind kind) {
        kind.use(s -> {
            AtomicBoolean started = new AtomicBoolean();
            AtomicReference<String> seenInside = new AtomicReference<>();
            AtomicReference<String> seenOutside = new AtomicReference<>();
            Job<Void> body = LOCAL.with("bound", TestJobs.signalThenForever(started)
                    .onCancel(LOCAL.get().map(v -> {
                        seenInside.set(v);
                        return null;
                    }))).onCancel(LOCAL.get().map(v -> {
                        seenOutside.set(v);
                        return null;
                    }));
            Outcome<Void> o = s.run(TestJobs.cancelOnceStarted(LOCAL.with("parent", body), started::get));
            assertThat(o).isEqualTo(Outcome.cancelled());
            assertThat(seenInside).hasValue("bound");
            assertThat(seenOutside).hasValue("parent");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void childrenInheritAtStartAndNeverSeeLaterBindings(SchedulerKind kind) {
        kind.use(s -> {
            Job<List<String>> job = LOCAL.with("parent", Job.sleep(java.time.Duration.ofMillis(1))
                    .then(LOCAL.get()).start().flatMap(child ->
                            LOCAL.with("changed later", child.join()).flatMap(seenByChild ->
                                    LOCAL.get().map(mine -> List.of(seenByChild, mine)))));
            assertThat(s.run(job)).containsExactly("parent", "parent");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void aChildsBindingsAreInvisibleToItsParentAndSiblings(SchedulerKind kind) {
        kind.use(s -> {
            Job<String> binder = LOCAL.with("child A", Job.yieldNow().then(LOCAL.get()));
            Job<String> reader = Job.yieldNow().then(Job.yieldNow()).then(LOCAL.get());
            Job<List<String>> job = LOCAL.with("parent", Job.all(List.of(binder, reader)).flatMap(both ->
                    LOCAL.get().map(mine -> List.of(both.get(0), both.get(1), mine))));
            assertThat(s.run(job)).containsExactly("child A", "parent", "parent");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void detachedAndForgottenFibersInheritRootsStartWithNone(SchedulerKind kind) {
        kind.use(s -> {
            AtomicReference<String> forgotten = new AtomicReference<>();
            String detached = s.run(LOCAL.with("bound", LOCAL.get().startDetached()).flatMap(Fiber::join));
            assertThat(detached).isEqualTo("bound");
            s.run(LOCAL.with("bound", LOCAL.get().map(v -> {
                forgotten.set(v);
                return null;
            }).forget()));
            kind.awaitDriving(s, () -> forgotten.get() != null, "the forgotten fiber");
            assertThat(forgotten).hasValue("bound");
            java.util.concurrent.CompletableFuture<String> root = s.run(LOCAL.with("bound",
                    Job.of(() -> s.submit(LOCAL.get()))));
            kind.awaitDriving(s, root::isDone, "the root fiber");
            assertThat(root.join()).as("a root fiber submitted from a bound fiber").isEqualTo("none");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.spindle.test.fixture.SchedulerKind#schedulers")
    void directBodiesReadAndBind(SchedulerKind kind) {
        kind.use(s -> {
            Job<String> body = Job.direct(() -> {
                String outer = LOCAL.get().await();
                String inner = LOCAL.with("inner", Job.direct(() -> LOCAL.get().await())).await();
                String child = LOCAL.get().start().await().join().await();
                return outer + "/" + inner + "/" + child + "/" + LOCAL.get().await();
            });
            assertThat(s.run(LOCAL.with("outer", body))).isEqualTo("outer/inner/outer/outer");
        });
    }

    @Test
    void deepNestingRunsInBoundedStack() {
        SchedulerKind.WORKERS_1.use(s -> {
            Job<String> job = LOCAL.get();
            for (int i = 0; i < 100_000; i++) {
                job = LOCAL.with("v" + i, job);
            }
            assertThat(s.run(job)).isEqualTo("v0");
        });
    }

    @Test
    void toStringNamesTheLocal() {
        assertThat(LOCAL).hasToString("FiberLocal[request]");
    }
}
