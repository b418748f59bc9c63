package dev.spindle.bench.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * One median of {@code bench/compare.sh}: a metric of one workload on one implementation. The CSV form is
 * the header {@value #CSV_HEADER} and one line per measurement; no field holds a comma.
 *
 * @param workload the workload, e.g. {@code skynet}
 * @param size the workload's size
 * @param metric the metric, e.g. {@code wall}
 * @param unit the metric's unit, e.g. {@code ms}
 * @param impl the implementation, e.g. {@code spindle} or {@code vt}
 * @param value the median; lower is better for every metric
 */
public record Measurement(String workload, long size, String metric, String unit, String impl, double value) {
    /** The first line of a results file. */
    public static final String CSV_HEADER = "workload,size,metric,unit,impl,value";

    /**
     * Parses a results file's lines: the header, then one measurement a line (blank lines are skipped).
     *
     * @param lines the file's lines
     * @return the measurements in file order
     * @throws IllegalArgumentException when the header is missing or a line is malformed (the message names
     *         the line)
     */
    public static List<Measurement> parseCsv(List<String> lines) {
        if (lines.isEmpty() || !lines.get(0).strip().equals(CSV_HEADER)) {
            throw new IllegalArgumentException("results: the first line must be '" + CSV_HEADER + "'");
        }
        List<Measurement> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            try {
                if (f.length != 6) {
                    throw new IllegalArgumentException("6 fields expected, found " + f.length);
                }
                out.add(new Measurement(f[0], Long.parseLong(f[1]), f[2], f[3], f[4], Double.parseDouble(f[5])));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("results line " + (i + 1) + ": '" + line + "': "
                        + e.getMessage(), e);
            }
        }
        return out;
    }
}
