package dev.spindle.test;

/** Formats virtual nanoseconds as seconds for traces and reports: {@code 0s}, {@code 1.5s}, {@code 0.000002s}. */
final class VirtualTime {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private VirtualTime() {
    }

    static String format(long nanos) {
        long seconds = nanos / NANOS_PER_SECOND;
        long fraction = nanos % NANOS_PER_SECOND;
        if (fraction == 0) {
            return seconds + "s";
        }
        String digits = String.format("%09d", fraction);
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return seconds + "." + digits.substring(0, end) + "s";
    }
}
