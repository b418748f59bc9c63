package dev.spindle.test;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The JUnit 5 extension behind {@link SimulationTest}: resolves the {@link Simulation} parameter and runs
 * the test method once per schedule. Use the annotation; register this directly only to combine it with
 * another test annotation.
 *
 * <pre>{@code
 * @SimulationTest(schedules = 200, seed = 7)
 * void neverLosesAMessage(Simulation sim) { ... }
 *
 * // replay a reported failure:
 * //   mvn test -Dtest=MailboxSimTest#neverLosesAMessage -Dspindle.sim.replay=pct:-812:2:40
 * }</pre>
 *
 * <p>How it works: JUnit resolves the parameters and calls {@code interceptTestMethod}; the extension
 * skips JUnit's own single invocation and instead calls the method itself, through JUnit's reflection
 * support, with a fresh simulation per schedule, in an {@link Simulation#explore} loop.
 */
public final class SimulationExtension implements InvocationInterceptor, ParameterResolver {
    /** System property: a schedule token to replay instead of exploring. */
    public static final String REPLAY_PROPERTY = "spindle.sim.replay";
    /** System property: number of schedules, overriding the annotation. */
    public static final String SCHEDULES_PROPERTY = "spindle.sim.schedules";
    /** System property: base seed, overriding the annotation. */
    public static final String SEED_PROPERTY = "spindle.sim.seed";

    /** Created by JUnit. */
    public SimulationExtension() {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == Simulation.class;
    }

    /** A placeholder: each schedule's invocation gets its own simulation. */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Simulation placeholder = Simulation.create();
        placeholder.detach(); // never driven: it must not confine the test thread
        return placeholder;
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                                    ExtensionContext extensionContext) throws Throwable {
        invocation.skip();
        Method method = invocationContext.getExecutable();
        SimulationTest config = AnnotationSupport.findAnnotation(method, SimulationTest.class)
                .orElseThrow(() -> new ExtensionConfigurationException(
                        method + " uses SimulationExtension without @SimulationTest"));
        Scenario scenario = scenario(method, invocationContext.getTarget().orElse(null),
                invocationContext.getArguments());
        String replay = System.getProperty(REPLAY_PROPERTY, "").trim();
        ExplorationReport report = replay.isEmpty()
                ? Simulation.explore(intProperty(SCHEDULES_PROPERTY, config.schedules()),
                        longProperty(SEED_PROPERTY, config.seed()), scenario)
                : Explorer.run(Schedule.parse(replay), scenario);
        if (report.failed()) {
            String testId = extensionContext.getRequiredTestClass().getSimpleName() + "#" + method.getName();
            String message = report + "Replay this test alone: mvn test -Dtest=" + testId + " -D"
                    + REPLAY_PROPERTY + "=" + report.replayToken();
            System.err.println(testId + ": " + message);
            throw new AssertionError(message, report.failure());
        }
    }

    private static Scenario scenario(Method method, Object target, List<Object> arguments) {
        Parameter[] parameters = method.getParameters();
        int index = -1;
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].getType() == Simulation.class) {
                index = i;
            }
        }
        if (index < 0) {
            throw new ExtensionConfigurationException(
                    "@SimulationTest method " + method.getName() + " must take a Simulation parameter");
        }
        int simulationIndex = index;
        return sim -> {
            Object[] args = arguments.toArray();
            args[simulationIndex] = sim;
            ReflectionSupport.invokeMethod(method, target, args);
        };
    }

    private static int intProperty(String name, int fallback) {
        String v = System.getProperty(name, "").trim();
        try {
            return v.isEmpty() ? fallback : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new ExtensionConfigurationException("-D" + name + " must be an integer, was \"" + v + "\"", e);
        }
    }

    private static long longProperty(String name, long fallback) {
        String v = System.getProperty(name, "").trim();
        try {
            return v.isEmpty() ? fallback : Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ExtensionConfigurationException("-D" + name + " must be an integer, was \"" + v + "\"", e);
        }
    }
}
