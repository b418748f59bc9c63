package dev.spindle;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * The one set of Lincheck options every Lincheck check of the project uses: model checking with 3 threads
 * of 3 actors, {@value #FULL_ITERATIONS} iterations of {@value #FULL_INVOCATIONS} invocations at full size,
 * and the same invocation count for {@code Lincheck.runConcurrentTest} scenarios; every count is scaled by
 * {@link StressScale} (the stress lane's one size knob).
 */
public final class LincheckOptions {
    /** Model-checking iterations (scenarios) at full size. */
    public static final int FULL_ITERATIONS = 20;
    /** Invocations (interleavings) per scenario at full size. */
    public static final int FULL_INVOCATIONS = 300;
    /** Invocations per scenario, scaled: for {@code Lincheck.runConcurrentTest} as for model checking. */
    public static final int INVOCATIONS = StressScale.of(FULL_INVOCATIONS);

    private LincheckOptions() {
    }

    /** The model-checking options, checking against the sequential specification {@code spec}. */
    static ModelCheckingOptions modelChecking(Class<?> spec) {
        return new ModelCheckingOptions()
                .iterations(StressScale.of(FULL_ITERATIONS))
                .invocationsPerIteration(INVOCATIONS)
                .threads(3).actorsPerThread(3)
                .sequentialSpecification(spec);
    }

    /** Model-checks the operations of {@code test} against {@code spec} with {@link #modelChecking}. */
    public static void check(Class<?> test, Class<?> spec) {
        modelChecking(spec).check(test);
    }
}
