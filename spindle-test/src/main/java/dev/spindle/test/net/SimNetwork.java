package dev.spindle.test.net;

import dev.spindle.IVar;
import dev.spindle.Job;
import dev.spindle.Mailbox;
import dev.spindle.Scheduler;
import dev.spindle.test.Simulation;
import java.net.ConnectException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A simulated network inside one {@link Simulation}: named hosts ({@link #host}), addresses that resolve
 * within the simulation only, virtual-time latency, one chunk (one write) in flight per direction and a
 * bounded receive buffer at each end (a writer waits while both are full: back-pressure), reads that take
 * every chunk already received as TCP reads do, and the seeded {@link Faults}. {@link #partition} holds all
 * traffic between two hosts until {@link #heal}: a reader simply waits, and its own timeout decides. Each
 * fault, partition and heal is noted in the simulation's trace ("net: ..."), so an exploration report shows
 * what the network did to the failing schedule.
 *
 * <p>Every random choice comes from a generator seeded with the simulation's seed, and the simulation runs
 * on one thread, so a run is replayed exactly by replaying its schedule ({@link Simulation#replay}); the
 * exploration report's replay line covers the network too. Like the simulation, not thread-safe.
 *
 * <pre>{@code
 * SimNetwork net = SimNetwork.create(sim, Faults.NONE.withResetChunk(0.01));
 * Network server = net.host("server"), client = net.host("client");
 * sim.run(server.listen(80).flatMap(l -> ...));          // the same code as on Network.system()
 * }</pre>
 */
public final class SimNetwork {
    private final Simulation sim;
    private final Scheduler scheduler;
    private final Faults faults;
    private final SplittableRandom random;
    /** Listeners by "host:port". */
    private final Map<String, SimListener> listeners = new HashMap<>();
    /** Partitions in force, by the sorted host pair, each with the IVar that heal() fills. */
    private final Map<String, IVar<Void>> partitions = new HashMap<>();
    /** Chunks delivered, by the host that sent them. */
    private final Map<String, Integer> delivered = new HashMap<>();
    private int nextPort = 40_000;
    private int nextConnection;

    private SimNetwork(Simulation sim, Faults faults) {
        this.sim = sim;
        this.scheduler = sim.scheduler();
        this.faults = Objects.requireNonNull(faults, "faults");
        this.random = new SplittableRandom(sim.seed() * 0x9E3779B97F4A7C15L + 0x5EED);
    }

    /**
     * {@return a network in {@code sim} without faults (1 ms per hop)}
     *
     * @param sim the simulation the network runs in
     */
    public static SimNetwork create(Simulation sim) {
        return create(sim, Faults.NONE);
    }

    /**
     * {@return a network in {@code sim} with {@code faults}, drawn from the simulation's seed}
     *
     * @param sim the simulation the network runs in
     * @param faults the faults to inject
     */
    public static SimNetwork create(Simulation sim, Faults faults) {
        return new SimNetwork(Objects.requireNonNull(sim, "sim"), faults);
    }

    /**
     * {@return the network as host {@code name} sees it}
     *
     * @param name the host's name
     */
    public Network host(String name) {
        Objects.requireNonNull(name, "name");
        return new Network() {
            @Override
            public Job<Listener> listen(int port) {
                return Job.of(() -> bind(name, port));
            }

            @Override
            public Job<Connection> connect(String host, int port) {
                return SimNetwork.this.connect(name, host, port);
            }

            @Override
            public String toString() {
                return "host " + name;
            }
        };
    }

    /**
     * Holds traffic between {@code a} and {@code b}, both ways, until {@link #heal}. Idempotent.
     *
     * @param a one host
     * @param b the other host
     */
    public void partition(String a, String b) {
        partitions.computeIfAbsent(pair(a, b), k -> {
            note("partition " + k);
            return new IVar<>("partition " + k);
        });
    }

    /**
     * {@return a job that ends the partition between {@code a} and {@code b}: held traffic moves on}
     *
     * @param a one host
     * @param b the other host
     */
    public Job<Void> heal(String a, String b) {
        return Job.defer(() -> {
            IVar<Void> healed = partitions.remove(pair(a, b));
            if (healed != null) {
                note("heal " + pair(a, b));
            }
            return healed == null ? Job.unit() : healed.fill(null);
        });
    }

    // ---------------------------------------------------------------- used by the endpoints

    /** A job that waits one hop's latency and then, while {@code a} and {@code b} are partitioned, for the heal. */
    Job<Void> hop(String a, String b) {
        long extra = faults.jitter().isZero() ? 0 : random.nextLong(faults.jitter().toNanos() + 1);
        return Job.sleep(faults.latency().plusNanos(extra)).then(untilHealed(a, b));
    }

    private Job<Void> untilHealed(String a, String b) {
        return Job.defer(() -> {
            IVar<Void> healed = partitions.get(pair(a, b));
            return healed == null ? Job.unit() : healed.read().then(untilHealed(a, b));
        });
    }

    /** Runs {@code job} in a fiber of its own in the simulation, from a place that cannot wait for it. */
    void detach(Job<Void> job) {
        scheduler.submit(job);
    }

    /** Whether the next chunk resets its connection (one draw per chunk). */
    boolean resetsNow() {
        return faults.resetChunk() > 0 && random.nextDouble() < faults.resetChunk();
    }

    /**
     * How many of {@code n} bytes a read or write ({@code op} on {@code where}, for the trace) moves: all
     * of them, or with the {@link Faults#split} probability a count drawn from [1, n) (one draw per
     * transfer of two bytes or more).
     */
    int transferSize(int n, String op, SimConnection where) {
        if (n > 1 && faults.split() > 0 && random.nextDouble() < faults.split()) {
            int cut = 1 + random.nextInt(n - 1);
            note("split " + op + " on " + where.name() + ": " + cut + " of " + n + " bytes");
            return cut;
        }
        return n;
    }

    /** Adds a line "net: {@code what}" to the simulation's trace. */
    void note(String what) {
        sim.note("net: " + what);
    }

    /**
     * {@return how many chunks sent by {@code host} have been delivered to a reader's connection so far}
     *
     * @param host the sending host
     */
    public int chunksDelivered(String host) {
        return delivered.getOrDefault(host, 0);
    }

    void countDelivered(String fromHost) {
        delivered.merge(fromHost, 1, Integer::sum);
    }

    void unbind(String host, int port) {
        listeners.remove(host + ":" + port);
    }

    // ---------------------------------------------------------------- listen and connect

    private Listener bind(String host, int port) throws java.net.BindException {
        int p = port == 0 ? nextPort++ : port;
        String key = host + ":" + p;
        if (listeners.containsKey(key)) {
            throw new java.net.BindException("simulated address in use: " + key);
        }
        SimListener l = new SimListener(this, host, p, new Mailbox<>("accept " + key));
        listeners.put(key, l);
        return l;
    }

    private Job<Connection> connect(String from, String host, int port) {
        return hop(from, host).then(Job.defer(() -> {
            SimListener l = listeners.get(host + ":" + port);
            if (l == null) {
                return Job.failure(new ConnectException("simulated: connection refused by " + host + ":" + port));
            }
            if (faults.dropConnect() > 0 && random.nextDouble() < faults.dropConnect()) {
                note("drop the connection attempt " + from + " -> " + host + ":" + port);
                return Job.failure(new ConnectException("simulated: connection attempt to " + host + ":" + port
                        + " dropped"));
            }
            String name = from + "#" + (nextConnection++) + "->" + host + ":" + port;
            SimConnection.Pair pair = SimConnection.pair(this, name, from, host);
            return pair.startLinks().then(l.offer(pair.server())).then(Job.result((Connection) pair.client()));
        }));
    }

    private static String pair(String a, String b) {
        return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
    }

    @Override
    public String toString() {
        return "SimNetwork(" + faults + ")";
    }
}
