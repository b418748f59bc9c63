package dev.spindle;

/**
 * A scheduler's counters at one moment: {@link Scheduler#metrics()} takes them, and its MBean
 * ({@link SchedulerMXBean}) shows the same values as attributes. Counts since the scheduler started are
 * cumulative; the others are the state now. Each value is read without stopping the workers, so values
 * taken together may be a few items apart; {@code runnableItems} is an estimate.
 *
 * @param scheduler        the scheduler's name
 * @param workers          its worker count
 * @param liveFibers       fibers started and not yet finished
 * @param runnableItems    work items queued and ready to run (local stacks and the global queue)
 * @param pendingTimers    timers armed and not yet fired (sleeps, timeouts)
 * @param fibersStarted    fibers started since the scheduler was built
 * @param fibersFinished   fibers finished since the scheduler was built
 * @param parks            times a worker found nothing to do and parked its thread
 * @param wakeups          parks ended by a signal that work had come
 * @param sharedItems      times a busy worker handed part of its queued work to idle workers
 * @param uncaughtFailures failures that reached the uncaught handler
 */
public record SchedulerMetrics(String scheduler, int workers, long liveFibers, long runnableItems,
                               long pendingTimers, long fibersStarted, long fibersFinished, long parks,
                               long wakeups, long sharedItems, long uncaughtFailures) {
}
