package dev.spindle;

/**
 * The scheduler that {@link Direct#await} uses on ordinary threads. Created when first needed (the holder
 * idiom: class initialisation is the lazy, thread-safe publication); its workers are daemon threads, so it
 * never keeps the JVM alive, and it is never closed.
 */
final class CommonScheduler {
    static final Scheduler INSTANCE = Scheduler.builder().name("spindle-common").build();

    private CommonScheduler() {
    }
}
