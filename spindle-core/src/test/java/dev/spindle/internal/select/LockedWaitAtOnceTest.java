package dev.spindle.internal.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Alt;
import dev.spindle.Fiber;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import dev.spindle.internal.run.Bridge;
import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.StepTail;
import dev.spindle.internal.run.Trampoline;
import dev.spindle.internal.run.Worker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Run as the first job of a sequencing step, a {@link LockedWait} that can complete now answers at once: it
 * returns its value and asks the step for no continuation. One that has to wait queues the step's
 * continuation, and the grant resumes it.
 */
class LockedWaitAtOnceTest {
    /** Permits: a wait takes one, or waits for {@link #grant}; once opened, waits complete without the lock. */
    static final class Permits extends LockedWait<String> {
        int permits;
        volatile boolean open;

        Permits() {
            super(new LockedWaitQueue("permits"));
        }

        @Override
        protected boolean readyLocked(Object who) {
            return permits > 0;
        }

        @Override
        protected String takeLocked(Object who) {
            permits--;
            return "permit";
        }

        @Override
        protected boolean completeWithoutLock() {
            return open;
        }

        void grant() {
            Grants.handOverOrKeep(queue, () -> permits++, "handed");
        }
    }

    /** A step's tail that counts the continuations asked of it; each passes the value on to the step's. */
    static final class CountingTail implements StepTail<String, Object> {
        int made;

        @Override
        public Cont<String> contAfter(Cont<Object> k) {
            made++;
            return new Cont<>(k.fiber()) {
                @Override
                public void doCont(Worker w, String a) {
                    Trampoline.succeed(w, k, "after " + a);
                }

                @Override
                public void doWork(Worker w) {
                    doCont(w, resumeValue());
                }

                @Override
                public void doHandle(Worker w, Throwable e) {
                    Trampoline.fail(w, k, e);
                }
            };
        }
    }

    /** A job that runs {@code wait} as the first part of a step with {@code tail}, recording what it returned. */
    private static Job<Object> firstOfStep(Permits wait, CountingTail tail, List<Object> answers) {
        return Bridge.job(new JobImpl<>() {
            @Override
            public void doJob(Worker w, Cont<Object> k) {
                Object a = wait.doJobNow(w, tail, k);
                answers.add(a);
                if (a != StepTail.LATER) {
                    Trampoline.succeed(w, k, "at once " + a);
                }
            }
        });
    }

    @Test
    void aFreePermitAnswersAtOnceWithoutAContinuation() {
        Permits permits = new Permits();
        permits.permits = 1;
        CountingTail tail = new CountingTail();
        List<Object> answers = new ArrayList<>();
        try (Scheduler s = Scheduler.singleThreaded()) {
            assertThat(s.run(firstOfStep(permits, tail, answers))).isEqualTo("at once permit");
        }
        assertThat(answers).containsExactly("permit");
        assertThat(tail.made).isZero();
        assertThat(permits.permits).isZero();
    }

    @Test
    void completingWithoutTheLockAnswersNullAtOnce() {
        Permits permits = new Permits();
        permits.open = true;
        CountingTail tail = new CountingTail();
        List<Object> answers = new ArrayList<>();
        try (Scheduler s = Scheduler.singleThreaded()) {
            assertThat(s.run(firstOfStep(permits, tail, answers))).isEqualTo("at once null");
        }
        assertThat(answers).containsExactly((Object) null);
        assertThat(tail.made).isZero();
    }

    @Test
    void aWaitQueuesTheStepsContinuationAndTheGrantResumesIt() throws Exception {
        Permits permits = new Permits();
        CountingTail tail = new CountingTail();
        List<Object> answers = new ArrayList<>();
        try (Scheduler s = Scheduler.create(1)) {
            Fiber<Object> waiter = s.run(firstOfStep(permits, tail, answers).start());
            while (permits.queue.waiting() < 1) {
                Thread.onSpinWait();
            }
            permits.grant();
            assertThat(s.run(waiter.join())).isEqualTo("after handed");
        }
        assertThat(answers).containsExactly(StepTail.LATER);
        assertThat(tail.made).isEqualTo(1);
        assertThat(permits.permits).isZero();
    }

    @Test
    void aStepAsksABridgedJobOrAlternativeToAnswerAtOnce() {
        List<String> calls = new ArrayList<>();
        AltImpl<String> impl = new AltImpl<>() {
            @Override
            public void tryAlt(Worker w, int i, Cont<String> k, Else e) {
                calls.add("tryAlt");
                e.pick.fail(w, new AssertionError("not offered in a choose"));
            }

            @Override
            public void doJob(Worker w, Cont<String> k) {
                calls.add("doJob");
                Trampoline.succeed(w, k, "later");
            }

            @Override
            public <B> Object doJobNow(Worker w, StepTail<String, B> step, Cont<B> k) {
                calls.add(step == null ? "doJobNow alone" : "doJobNow in a step");
                return "now";
            }
        };
        try (Scheduler s = Scheduler.singleThreaded()) {
            Alt<String> alt = Bridge.alt(impl);
            Job<String> job = Bridge.job(impl);
            int length = s.run(alt.flatMap(v -> Job.result(v.length())));
            String value = s.run(job.flatMap(v -> Job.result(v + "!")));
            assertThat(length).isEqualTo(3);
            assertThat(value).isEqualTo("now!");
        }
        assertThat(calls).containsExactly("doJobNow in a step", "doJobNow in a step");
    }
}
