package dev.spindle;

import dev.spindle.internal.run.Cont;
import dev.spindle.internal.run.Worker;
import dev.spindle.internal.select.Else;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code Alt.at(instant)}: an {@link Alt#after} of what is left until the instant, on the clock of the
 * scheduler that instantiates it (virtual in the simulator), reckoned at each instantiation; an instant
 * already past is ready at once.
 */
final class AtInstant extends Alt<Void> {
    private final Instant deadline;

    AtInstant(Instant deadline) {
        this.deadline = deadline;
    }

    @Override
    void doJob(Worker w, Cont<Void> k) {
        new TimeJobs.SleepUntil(deadline).doJob(w, k);
    }

    @Override
    void tryAlt(Worker w, int i, Cont<Void> k, Else e) {
        Alt.after(Duration.ofNanos(Clock.nanosUntil(w.engine(), deadline))).tryAlt(w, i, k, e);
    }

    @Override
    public String toString() {
        return "at " + deadline;
    }
}
