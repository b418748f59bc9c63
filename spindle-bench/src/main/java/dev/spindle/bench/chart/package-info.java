/**
 * The benchmark chart: {@link dev.spindle.bench.chart.RatioChart} turns the results that
 * {@code bench/compare.sh} writes ({@code results.csv}, one {@link dev.spindle.bench.chart.Measurement} a
 * line) into an SVG bar chart of each implementation's ratio to JDK virtual threads, per workload, on a
 * log scale. Plain Java, no dependencies.
 */
package dev.spindle.bench.chart;
