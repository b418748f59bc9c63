package demo;

import dev.spindle.Direct;
import dev.spindle.Job;
import dev.spindle.Scheduler;
import java.time.Duration;

/** A user's program: a job in direct style, run on a scheduler; prints its value and the backend. */
public final class Main {
    private Main() {
    }

    /** Prints {@code answer=42 backend=<backend>}. */
    public static void main(String[] args) {
        Job<Integer> answer = Job.direct(() -> {
            int x = Job.of(() -> 40).await();
            Job.sleep(Duration.ofMillis(5)).await();
            return x + 2;
        });
        try (Scheduler scheduler = Scheduler.create(2)) {
            System.out.println("answer=" + scheduler.run(answer) + " backend=" + Direct.backend());
        }
    }
}
