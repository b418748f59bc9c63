package dev.spindle.internal.diag;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/** Calls back once the flight recorder is initialized (at once if it already is); loaded only with jdk.jfr. */
final class RecorderListener implements FlightRecorderListener {
    private final Runnable onInitialized;
    private boolean done;

    private RecorderListener(Runnable onInitialized) {
        this.onInitialized = onInitialized;
    }

    static void add(Runnable onInitialized) {
        FlightRecorder.addListener(new RecorderListener(onInitialized));
    }

    @Override
    public synchronized void recorderInitialized(FlightRecorder recorder) {
        if (!done) {
            done = true;
            onInitialized.run();
        }
    }
}
