package dev.spindle.bench.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.spindle.bench.chart.RatioChart.Bar;
import dev.spindle.bench.chart.RatioChart.Group;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chart's ratios, scale and bars, from the CSV that bench/compare.sh writes. */
class RatioChartTest {
    private static final List<String> CSV = List.of(
            "workload,size,metric,unit,impl,value",
            "skynet,1000000,wall,ms,spindle,20",
            "skynet,1000000,wall,ms,vt,800",
            "skynet,1000000,wall,ms,cf,40",
            "timers,1000000,wall,ms,spindle,1000",
            "timers,1000000,p99_late,ms,spindle,1",
            "timers,1000000,wall,ms,vt,4000",
            "timers,1000000,p99_late,ms,vt,2000",
            "timers,1000000,wall,ms,cf,8000",
            "",
            "fib,27,wall,ms,spindle,10");

    /** Ratios against vt, groups in first-seen order, a metric named only where a workload has several. */
    @Test
    void groupsHoldTheRatiosToVirtualThreads() {
        List<Group> groups = RatioChart.groups(Measurement.parseCsv(CSV));

        assertThat(groups).containsExactly(
                new Group("skynet", List.of(new Bar("spindle", 0.025), new Bar("cf", 0.05))),
                new Group("timers wall", List.of(new Bar("spindle", 0.25), new Bar("cf", 2.0))),
                new Group("timers p99_late", List.of(new Bar("spindle", 0.0005))));
    }

    /** The scale spans whole decades around every ratio and 1, and places ratios logarithmically. */
    @Test
    void scaleSpansWholeDecades() {
        List<Group> groups = RatioChart.groups(Measurement.parseCsv(CSV));

        assertThat(RatioChart.decades(groups)).containsExactly(-4, 1);
        assertThat(RatioChart.decades(List.of(new Group("g", List.of(new Bar("a", 1.0)))))).containsExactly(0, 1);
        assertThat(RatioChart.x(1e-4, -4, 1)).isCloseTo(RatioChart.PLOT_LEFT, within(1e-9));
        assertThat(RatioChart.x(10, -4, 1)).isCloseTo(RatioChart.PLOT_RIGHT, within(1e-9));
        assertThat(RatioChart.x(1, -4, 1)).isEqualTo(RatioChart.PLOT_LEFT + 0.8 * (RatioChart.PLOT_RIGHT
                - RatioChart.PLOT_LEFT));
    }

    /** Each bar runs from 1 to its ratio; labels are written out and escaped. */
    @Test
    void svgDrawsOneBarPerRatioFromOne() {
        List<Group> groups = List.of(new Group("a<b", List.of(new Bar("spindle", 0.1), new Bar("cf", 10))));

        String svg = RatioChart.svg(groups, "T & U");

        // scale 0.1 .. 10 (decades -1 .. 1): 1 sits halfway, at 170 + 280 = 450; 0.1 at 170, 10 at 730
        assertThat(svg).contains("<rect x=\"170.0\" y=\"77\" width=\"280.0\" height=\"11\" fill=\"#1f77b4\">"
                + "<title>spindle: 0.1 x vt</title></rect>");
        assertThat(svg).contains("<rect x=\"450.0\" y=\"91\" width=\"280.0\" height=\"11\" fill=\"#2ca02c\">"
                + "<title>cf: 10 x vt</title></rect>");
        assertThat(svg).contains(">a&lt;b</text>", ">T &amp; U</text>", ">Spindle (combinators)</text>",
                ">CompletableFuture</text>", ">0.1</text>", ">1</text>", ">10</text>");
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"").endsWith("</svg>\n");
    }

    /** Ratios and decades are written out to two significant digits, never in exponent form. */
    @Test
    void labelsAreWrittenOut() {
        assertThat(RatioChart.ratioLabel(0.02634)).isEqualTo("0.026");
        assertThat(RatioChart.ratioLabel(0.8421)).isEqualTo("0.84");
        assertThat(RatioChart.ratioLabel(123.4)).isEqualTo("120");
        assertThat(RatioChart.ratioLabel(1.0)).isEqualTo("1");
        assertThat(RatioChart.decadeLabel(-3)).isEqualTo("0.001");
        assertThat(RatioChart.decadeLabel(2)).isEqualTo("100");
    }

    /** A malformed results file is refused with the line it stumbled on. */
    @Test
    void malformedResultsNameTheLine() {
        assertThatThrownBy(() -> Measurement.parseCsv(List.of("w,s")))
                .hasMessage("results: the first line must be 'workload,size,metric,unit,impl,value'");
        assertThatThrownBy(() -> Measurement.parseCsv(List.of(Measurement.CSV_HEADER, "skynet,1,wall,ms,vt")))
                .hasMessage("results line 2: 'skynet,1,wall,ms,vt': 6 fields expected, found 5");
        assertThatThrownBy(() -> Measurement.parseCsv(List.of(Measurement.CSV_HEADER, "skynet,x,wall,ms,vt,1")))
                .hasMessageStartingWith("results line 2: 'skynet,x,wall,ms,vt,1': For input string");
    }

    /** main reads the CSV and writes the SVG file. */
    @Test
    void mainWritesTheChart(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("results.csv");
        Path svg = dir.resolve("chart.svg");
        Files.write(csv, CSV, StandardCharsets.UTF_8);

        RatioChart.main(new String[] {csv.toString(), svg.toString(), "Title"});

        assertThat(Files.readString(svg)).isEqualTo(RatioChart.svg(RatioChart.groups(Measurement.parseCsv(CSV)),
                "Title"));
    }
}
