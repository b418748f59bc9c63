package dev.spindle.bench.echo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the {@code echo} workload: each server implementation in a JVM of its own, driven in turn by the same
 * client in another JVM. {@code EchoBench [connections=1000] [seconds=10] [workers=N] [servers=a,b,...]
 * [size=64] [warmup=3] [jvm=-Xmx1g ...]}; prints a Markdown table of messages per second and round-trip
 * latency. Extra server JVM options (such as {@code -Dspindle.net.poller=thread}) go after {@code jvm=}.
 */
public final class EchoBench {
    private static final List<String> SERVERS = List.of("spindle", "spindle-direct", "vt", "netty");

    private EchoBench() {
    }

    /** Runs every server in turn and prints the table; the arguments are those of the class comment. */
    public static void main(String[] args) throws Exception {
        int connections = 1000;
        double seconds = 10;
        double warmup = 3;
        int size = 64;
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
                case "servers" -> servers = List.of(kv[1].split(","));
                case "jvm" -> jvm.addAll(List.of(kv[1].split(" ")));
                default -> throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        System.out.printf("echo: %d connections, %d-byte messages, %d server workers, %.0f s (+%.0f s warm-up)%n",
                connections, size, workers, seconds, warmup);
        System.out.println("| server | messages/s | p50 µs | p99 µs |");
        System.out.println("|---|---:|---:|---:|");
        for (String server : servers) {
            String r = runOne(server, workers, connections, size, warmup, seconds, jvm);
            System.out.println("| " + server + " | " + r + " |");
        }
    }

    private static String runOne(String server, int workers, int connections, int size, double warmup,
                                 double seconds, List<String> jvm) throws IOException, InterruptedException {
        List<String> serverCmd = java(jvm);
        serverCmd.addAll(List.of(EchoServer.class.getName(), server, "0", Integer.toString(workers)));
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
            try (BufferedReader cr = new BufferedReader(new InputStreamReader(c.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = cr.readLine()) != null; ) {
                    if (l.startsWith("RESULT ")) {
                        result = l;
                    }
                }
            }
            if (c.waitFor() != 0 || result == null) {
                return "failed | | ";
            }
            return field(result, "msgs_per_s") + " | " + field(result, "p50_us") + " | " + field(result, "p99_us");
        } finally {
            s.destroy();
            s.waitFor();
        }
    }

    private static String field(String result, String name) {
        for (String part : result.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        return "?";
    }

    private static List<String> java(List<String> jvm) {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED"); // the direct-style continuation backend
        cmd.addAll(jvm);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        return cmd;
    }
}
