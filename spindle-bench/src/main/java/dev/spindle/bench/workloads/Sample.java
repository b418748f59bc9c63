package dev.spindle.bench.workloads;

/**
 * The outcome of one run of a workload: its checksum and one value per {@link Workload#metrics() metric},
 * in the same order.
 *
 * @param check the checksum the run computed; the runner compares it with
 *     {@link Workload#expectedCheck(long)}
 * @param values the metric values
 */
public record Sample(long check, double... values) {
    /** Copies the values, so a sample cannot change after the fact. */
    public Sample {
        values = values.clone();
    }

    /** The value of the metric at {@code index}. */
    public double value(int index) {
        return values[index];
    }
}
