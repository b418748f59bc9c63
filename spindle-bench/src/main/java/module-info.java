/**
 * Spindle's benchmarks: the comparison runner ({@code dev.spindle.bench.Main}: Spindle against JDK virtual
 * threads and {@code CompletableFuture}, one workload per class in {@code dev.spindle.bench.workloads})
 * and the JMH micro-benchmarks in {@code dev.spindle.bench.micro}. An application: it exports nothing.
 *
 * <p>This descriptor covers the thin jar. The shaded {@code spindle-bench.jar} runs on the class path
 * (JMH forks its benchmark VMs with {@code -cp}) and leaves descriptors out; see the module's pom.
 * {@code jmh.core} is JMH's file-name-derived automatic module name (its jar declares none; Maven warns
 * about that, which matters only for published artifacts, and this one is never published).
 */
module dev.spindle.bench {
    requires dev.spindle;
    requires jmh.core;
    requires io.netty.transport; // the echo workload's Netty server
    requires io.netty.buffer;
    requires io.netty.common;
    requires HdrHistogram; // the echo client's latencies (a file-name-derived automatic module name)

    // JMH instantiates the benchmark states and calls the @Benchmark methods reflectively
    opens dev.spindle.bench.micro to jmh.core;
}
