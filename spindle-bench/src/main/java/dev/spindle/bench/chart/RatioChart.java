package dev.spindle.bench.chart;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Draws the benchmark chart: for every workload (and metric, when a workload has several), one horizontal
 * bar per implementation with its ratio to the baseline, JDK virtual threads ({@value #BASELINE}), on a
 * log scale. A bar starts at 1 (as fast as virtual threads) and ends at the ratio, so a bar to the left
 * is better (less time or memory) and one to the right worse. The scale spans whole decades around every
 * ratio and 1.
 *
 * <p>Usage: {@code java -cp spindle-bench.jar dev.spindle.bench.chart.RatioChart <results.csv> <chart.svg>
 * [title]}; {@code bench/compare.sh} calls it after a run.
 */
public final class RatioChart {
    /** The implementation every ratio is taken against. */
    public static final String BASELINE = "vt";

    static final int WIDTH = 800;
    static final int PLOT_LEFT = 170;
    static final int PLOT_RIGHT = WIDTH - 70;
    static final int TOP = 76;
    static final int BAR_PITCH = 14;
    static final int BAR_HEIGHT = 11;
    static final int GROUP_GAP = 10;

    private static final Map<String, String> NAMES = Map.of(
            "spindle", "Spindle (combinators)",
            "spindle-direct", "Spindle (direct style)",
            "cf", "CompletableFuture");
    private static final List<String> COLOURS = List.of("#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b");

    private RatioChart() {
    }

    /**
     * One implementation's ratio to the baseline.
     *
     * @param impl the implementation
     * @param ratio its value divided by the baseline's, above zero
     */
    record Bar(String impl, double ratio) {
    }

    /**
     * The bars of one workload's metric.
     *
     * @param label the workload, followed by the metric when the workload has several
     * @param bars one bar per implementation that has a value, in the order implementations first appear
     */
    record Group(String label, List<Bar> bars) {
    }

    /**
     * Writes the chart of a results file.
     *
     * @param args the results CSV, the SVG to write, and optionally a title
     * @throws IOException when the results cannot be read or the chart cannot be written
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: RatioChart <results.csv> <chart.svg> [title]");
            System.exit(64);
        }
        List<Measurement> results = Measurement.parseCsv(Files.readAllLines(Path.of(args[0]),
                StandardCharsets.UTF_8));
        String title = args.length == 3 ? args[2] : "Spindle against JDK virtual threads";
        Files.writeString(Path.of(args[1]), svg(groups(results), title), StandardCharsets.UTF_8);
    }

    /** The groups of {@code results}, in the order workloads and metrics first appear; none without a baseline. */
    static List<Group> groups(List<Measurement> results) {
        Map<String, Set<String>> metricsOf = new LinkedHashMap<>();
        Set<String> impls = new LinkedHashSet<>();
        Map<String, Map<String, Double>> values = new LinkedHashMap<>(); // workload + metric -> impl -> value
        for (Measurement m : results) {
            metricsOf.computeIfAbsent(m.workload(), w -> new LinkedHashSet<>()).add(m.metric());
            impls.add(m.impl());
            values.computeIfAbsent(m.workload() + " " + m.metric(), k -> new LinkedHashMap<>()).put(m.impl(), m.value());
        }
        impls.remove(BASELINE);
        List<Group> groups = new ArrayList<>();
        metricsOf.forEach((workload, metrics) -> {
            for (String metric : metrics) {
                Map<String, Double> byImpl = values.get(workload + " " + metric);
                Double base = byImpl.get(BASELINE);
                if (base == null || base <= 0) {
                    continue;
                }
                List<Bar> bars = new ArrayList<>();
                for (String impl : impls) {
                    Double v = byImpl.get(impl);
                    if (v != null && v > 0) {
                        bars.add(new Bar(impl, v / base));
                    }
                }
                groups.add(new Group(metrics.size() > 1 ? workload + " " + metric : workload, bars));
            }
        });
        return groups;
    }

    /** The lowest and highest decade exponents of the scale: every ratio and 1 lie between them. */
    static int[] decades(List<Group> groups) {
        double min = 1;
        double max = 1;
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                min = Math.min(min, b.ratio());
                max = Math.max(max, b.ratio());
            }
        }
        int lo = (int) Math.floor(Math.log10(min));
        int hi = (int) Math.ceil(Math.log10(max));
        return new int[] {lo, hi > lo ? hi : lo + 1};
    }

    /** The x coordinate of {@code ratio} on a scale from 10^lo to 10^hi. */
    static double x(double ratio, int lo, int hi) {
        return PLOT_LEFT + (Math.log10(ratio) - lo) / (hi - lo) * (PLOT_RIGHT - PLOT_LEFT);
    }

    /** The chart as an SVG document. */
    static String svg(List<Group> groups, String title) {
        int[] d = decades(groups);
        int lo = d[0];
        int hi = d[1];
        List<String> impls = new ArrayList<>();
        for (Group g : groups) {
            for (Bar b : g.bars()) {
                if (!impls.contains(b.impl())) {
                    impls.add(b.impl());
                }
            }
        }
        int plotBottom = TOP;
        for (Group g : groups) {
            plotBottom += Math.max(1, g.bars().size()) * BAR_PITCH + GROUP_GAP;
        }
        int height = plotBottom + 48;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, height, WIDTH, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
                12, escape(title)));
        double legendX = PLOT_LEFT;
        for (String impl : impls) {
            s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"40\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"50\">%s</text>%n", legendX, colour(impls, impl), legendX + 16,
                    escape(NAMES.getOrDefault(impl, impl))));
            legendX += 28 + 7 * NAMES.getOrDefault(impl, impl).length();
        }
        for (int e = lo; e <= hi; e++) {
            double gx = x(Math.pow(10, e), lo, hi);
            String stroke = e == 0 ? "#333" : "#ccc";
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", gx, TOP - 6, gx, plotBottom,
                    stroke, gx, plotBottom + 16, decadeLabel(e)));
        }
        double one = x(1, lo, hi);
        int y = TOP;
        for (Group g : groups) {
            int groupHeight = Math.max(1, g.bars().size()) * BAR_PITCH;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    PLOT_LEFT - 8, y + groupHeight / 2 + 4, escape(g.label())));
            for (Bar b : g.bars()) {
                double bx = x(b.ratio(), lo, hi);
                double left = Math.min(one, bx);
                double width = Math.max(1, Math.abs(bx - one));
                double labelX = b.ratio() < 1 ? one + 4 : left + width + 4;
                s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                        + " fill=\"%s\"><title>%s: %s x vt</title></rect>"
                        + "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%s</text>%n", left, y + 1, width, BAR_HEIGHT,
                        colour(impls, b.impl()), escape(b.impl()), ratioLabel(b.ratio()), labelX, y + 10,
                        ratioLabel(b.ratio())));
                y += BAR_PITCH;
            }
            if (g.bars().isEmpty()) {
                y += BAR_PITCH;
            }
            y += GROUP_GAP;
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%s</text>%n",
                (PLOT_LEFT + PLOT_RIGHT) / 2, plotBottom + 36, "ratio to JDK virtual threads, log scale:"
                        + " left of 1 is better (less time or memory), right of 1 is worse"));
        s.append("</svg>\n");
        return s.toString();
    }

    /** {@code 10^e} written out: 0.01, 0.1, 1, 10, 100. */
    static String decadeLabel(int e) {
        return BigDecimal.ONE.scaleByPowerOfTen(e).toPlainString();
    }

    /** A ratio to two significant digits, written out: 0.026, 0.84, 3.3, 12. */
    static String ratioLabel(double ratio) {
        return new BigDecimal(ratio).round(new MathContext(2)).stripTrailingZeros().toPlainString();
    }

    private static String colour(List<String> impls, String impl) {
        return COLOURS.get(impls.indexOf(impl) % COLOURS.size());
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
