package dev.spindle.bench.echo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the {@code echo} workload: each server implementation in a JVM of its own, driven in turn by the same
 * client in another JVM. {@code EchoBench [connections=1000] [seconds=10] [workers=N] [servers=a,b,...]
 * [size=64] [warmup=3] [rounds=1] [jvm=-Xmx1g ...]}; prints a Markdown table of messages per second,
 * round-trip latency and the CPU time each side spent per message (both share the machine's cores, so the
 * client's cost bounds every server's rate). Extra server JVM options (such as {@code -Xmx1g}) go after
 * {@code jvm=}, for every server; a server written {@code name[-Dkey=value ...]} gets its own as well, so one
 * run can compare {@code spindle} with {@code spindle[-Dspindle.net.pollInterval=31]}. With {@code rounds=N}
 * the servers take turns N times (each round runs every server once, in the order given) and the table
 * gives each server's median over the rounds, after one line per round with the load average before it.
 */
public final class EchoBench {
    private static final List<String> SERVERS = List.of("spindle", "spindle-direct", "vt", "netty");
    /** Figures per run: messages/s, p50, p99, server and client CPU per message. */
    private static final int FIGURES = 5;

    private EchoBench() {
    }

    /** Runs every server in turn and prints the table; the arguments are those of the class comment. */
    public static void main(String[] args) throws Exception {
        int connections = 1000;
        double seconds = 10;
        double warmup = 3;
        int size = 64;
        int rounds = 1;
        int workers = Runtime.getRuntime().availableProcessors();
        List<String> servers = SERVERS;
        List<String> jvm = new ArrayList<>();
        for (String a : args) {
            String[] kv = a.split("=", 2);
            switch (kv[0]) {
                case "connections" -> connections = Integer.parseInt(kv[1]);
                case "seconds" -> seconds = Double.parseDouble(kv[1]);
                case "warmup" -> warmup = Double.parseDouble(kv[1]);
                case "size" -> size = Integer.parseInt(kv[1]);
                case "workers" -> workers = Integer.parseInt(kv[1]);
                case "rounds" -> rounds = Integer.parseInt(kv[1]);
                case "servers" -> servers = List.of(kv[1].split(","));
                case "jvm" -> jvm.addAll(List.of(kv[1].split(" ")));
                default -> throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        System.out.printf("echo: %d connections, %d-byte messages, %d server workers, %.0f s (+%.0f s warm-up)%n",
                connections, size, workers, seconds, warmup);
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++) {
            if (rounds > 1) {
                System.out.println("round " + r + ", load average " + loadAverage());
            }
            for (String server : servers) {
                double[] m = runOne(server, workers, connections, size, warmup, seconds, jvm);
                results.computeIfAbsent(server, k -> new ArrayList<>()).add(m);
                if (rounds > 1) {
                    System.out.println("  " + server + ": " + row(m));
                }
            }
        }
        System.out.println("| server | messages/s | p50 µs | p99 µs | server CPU µs/msg | client CPU µs/msg |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            System.out.println("| " + e.getKey() + " | " + row(median(e.getValue())) + " |");
        }
        if (rounds > 1) {
            System.out.println("(medians of " + rounds + " rounds; load average after: " + loadAverage() + ")");
        }
    }

    /**
     * Messages per second, p50 and p99 in µs, and the CPU time the server and the client spent per message in
     * the measured window (µs), as table cells; "failed" for a run that failed (NaN).
     */
    private static String row(double[] m) {
        return Double.isNaN(m[0]) ? "failed | | | | "
                : String.format("%,.0f | %,.0f | %,.0f | %.1f | %.1f", m[0], m[1], m[2], m[3], m[4]);
    }

    /** Each figure's median over the rounds (failed rounds count as NaN, which sorts last). */
    private static double[] median(List<double[]> runs) {
        double[] m = new double[FIGURES];
        for (int i = 0; i < FIGURES; i++) {
            int f = i;
            double[] xs = runs.stream().mapToDouble(r -> r[f]).sorted().toArray();
            m[i] = xs[(xs.length - 1) / 2];
        }
        return m;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** One server's run: the {@link #FIGURES} of {@link #row}, or NaNs when it failed. */
    private static double[] runOne(String server, int workers, int connections, int size, double warmup,
                                   double seconds, List<String> jvm) throws IOException, InterruptedException {
        List<String> serverJvm = new ArrayList<>(jvm);
        String impl = server;
        int bracket = server.indexOf('[');
        if (bracket >= 0 && server.endsWith("]")) {
            impl = server.substring(0, bracket);
            serverJvm.addAll(List.of(server.substring(bracket + 1, server.length() - 1).split(" ")));
        }
        List<String> serverCmd = java(serverJvm);
        serverCmd.addAll(List.of(EchoServer.class.getName(), impl, "0", Integer.toString(workers)));
        Process s = new ProcessBuilder(serverCmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("LISTENING ")) {
                throw new IllegalStateException(server + ": no LISTENING line, got " + line);
            }
            String port = line.substring("LISTENING ".length()).trim();
            List<String> clientCmd = java(List.of());
            clientCmd.addAll(List.of(EchoClient.class.getName(), port, Integer.toString(connections),
                    Integer.toString(size), Double.toString(warmup), Double.toString(seconds)));
            Process c = new ProcessBuilder(clientCmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String result = null;
            // CPU time of each process in the measured window: {server, client} at its start and its end
            long[] cpuStart = new long[2];
            long[] cpuEnd = new long[2];
            try (BufferedReader cr = new BufferedReader(new InputStreamReader(c.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = cr.readLine()) != null; ) {
                    if (l.equals("MEASURING")) {
                        readCpu(s, c, cpuStart);
                    } else if (l.equals("MEASURED")) {
                        readCpu(s, c, cpuEnd);
                    } else if (l.startsWith("RESULT ")) {
                        result = l;
                    }
                }
            }
            if (c.waitFor() != 0 || result == null) {
                return failed();
            }
            double rate = Double.parseDouble(field(result, "msgs_per_s"));
            double measured = rate * seconds;
            return new double[] {rate, Double.parseDouble(field(result, "p50_us")),
                Double.parseDouble(field(result, "p99_us")),
                (cpuEnd[0] - cpuStart[0]) / 1e3 / measured, (cpuEnd[1] - cpuStart[1]) / 1e3 / measured};
        } finally {
            s.destroy();
            s.waitFor();
        }
    }

    private static double[] failed() {
        double[] m = new double[FIGURES];
        Arrays.fill(m, Double.NaN);
        return m;
    }

    /** Stores the CPU time (user and system, ns) the server and the client have used so far into {@code into}. */
    private static void readCpu(Process server, Process client, long[] into) {
        into[0] = cpuNanos(server);
        into[1] = cpuNanos(client);
    }

    private static long cpuNanos(Process p) {
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static String field(String result, String name) {
        for (String part : result.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        return "NaN";
    }

    private static List<String> java(List<String> jvm) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString()); // this JVM's JDK, not the PATH's
        cmd.add("--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED"); // the direct-style continuation backend
        cmd.addAll(jvm);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }
}
