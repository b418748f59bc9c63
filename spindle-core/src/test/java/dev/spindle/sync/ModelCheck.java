package dev.spindle.sync;

import dev.spindle.StressScale;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/** The one set of Lincheck model-checking options the primitives' sequential-specification tests share. */
final class ModelCheck {
    private ModelCheck() {
    }

    /**
     * Model-checks the operations of {@code test} against {@code spec}: 3 threads x 3 actors, 30 iterations of
     * 500 invocations each at full size, both scaled by {@link StressScale}.
     */
    static void against(Class<?> spec, Class<?> test) {
        new ModelCheckingOptions()
                .iterations(StressScale.of(30))
                .invocationsPerIteration(StressScale.of(500))
                .threads(3).actorsPerThread(3)
                .sequentialSpecification(spec)
                .check(test);
    }
}
