/**
 * Spindle's test support: the deterministic simulator ({@link dev.spindle.test.Simulation}) and its
 * JUnit 5 integration ({@link dev.spindle.test.SimulationTest}), and the fixture that runs a test on every kind
 * of scheduler ({@link dev.spindle.test.fixture.SchedulerKind}). JUnit is needed only for
 * {@code @SimulationTest}: it is a static (compile-time) dependency, present at run time whenever tests use the annotation.
 */
module dev.spindle.test {
    requires transitive dev.spindle;
    requires static transitive org.junit.jupiter.api;
    requires static org.junit.platform.commons;
    exports dev.spindle.test;
    exports dev.spindle.test.fixture;
    exports dev.spindle.test.net;
}
