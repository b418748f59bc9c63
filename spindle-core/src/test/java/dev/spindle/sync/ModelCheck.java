package dev.spindle.sync;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/** The one set of Lincheck model-checking options the primitives' sequential-specification tests share. */
final class ModelCheck {
    private ModelCheck() {
    }

    /**
     * Model-checks the operations of {@code test} against {@code spec}: 3 threads x 3 actors; iterations and
     * invocations from {@code spindle.lincheck.iterations} (30) and {@code spindle.lincheck.invocations}
     * (500), so the stress lane can be shrunk or grown.
     */
    static void against(Class<?> spec, Class<?> test) {
        new ModelCheckingOptions()
                .iterations(Integer.getInteger("spindle.lincheck.iterations", 30))
                .invocationsPerIteration(Integer.getInteger("spindle.lincheck.invocations", 500))
                .threads(3).actorsPerThread(3)
                .sequentialSpecification(spec)
                .check(test);
    }
}
