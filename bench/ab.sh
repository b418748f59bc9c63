#!/usr/bin/env bash
# Compares two builds of the runner (two spindle-bench.jar files, say before and after a change) the way
# the benchmark notebook does: for each workload, PAIRS pairs of fresh JVMs, one per jar, in alternating
# order (A first in odd pairs, B first in even ones), so that a drift in the machine's speed falls on both
# alike. Prints each pair's figures, then a markdown table per workload: the medians, their ratio, and in
# how many pairs B was ahead (a lower figure is better for every metric). The figure is the first metric
# of the runner's RESULT line (for timers the wall time, not the lateness). A change is kept only when
# such pairs show it: a ratio within the spread of the pairs, or B ahead in about half of them, is level.
#
# Usage: bench/ab.sh <jar A> <jar B> <workload>...
# Env:   IMPL (default spindle), PAIRS (default 12), JVM_FLAGS (default "-Xms1g -Xmx8g -XX:+UseG1GC"),
#        EXTRA_FLAGS (appended, e.g. -Dspindle.bench.runs=3).
# Raw logs go to bench/results/ab-<timestamp>/ (git-ignored).
#
# Two jars from two commits, built in a worktree so the checkout stays as it is:
#   git worktree add /tmp/spindle-base <commit>
#   (cd /tmp/spindle-base && ./mvnw -B -q -pl spindle-bench -am package -DskipTests)
#   bench/ab.sh /tmp/spindle-base/spindle-bench/target/spindle-bench.jar \
#       spindle-bench/target/spindle-bench.jar pingpong threadring
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk.sh

if [ "$#" -lt 3 ]; then
    echo "usage: bench/ab.sh <jar A> <jar B> <workload>..." >&2
    exit 64
fi
jar_a=$1
jar_b=$2
shift 2
for jar in "$jar_a" "$jar_b"; do
    if [ ! -f "$jar" ]; then
        echo "ab: no such jar: $jar" >&2
        exit 64
    fi
done
impl=${IMPL:-spindle}
pairs=${PAIRS:-12}
if ! [[ "$pairs" =~ ^[1-9][0-9]*$ ]]; then
    echo "ab: PAIRS must be at least 1 (got $pairs)" >&2
    exit 64
fi
read -r -a jvm_flags <<< "${JVM_FLAGS:--Xms1g -Xmx8g -XX:+UseG1GC} ${EXTRA_FLAGS:-}"
. bench/common.sh
logs=$(bench_log_dir ab)

# run_one <jar> <workload> <log>: one JVM of the runner; prints its first figure, fails if it gave none.
run_one() {
    local figure
    java "${jvm_flags[@]}" -jar "$1" "$2" "$impl" > "$3" 2>&1 || { echo "ab: run failed, see $3" >&2; return 1; }
    figure=$(result_figure "$3")
    [ -n "$figure" ] || { echo "ab: no RESULT line in $3" >&2; return 1; }
    echo "$figure"
}

echo "bench/ab.sh: A = $jar_a, B = $jar_b, $impl, $pairs pairs per workload ($(nproc) CPUs, ${jvm_flags[*]})"
rows=()
for w in "$@"; do
    figures_a=() figures_b=() ahead=0
    for p in $(seq 1 "$pairs"); do
        if [ $((p % 2)) -eq 1 ]; then
            a=$(run_one "$jar_a" "$w" "$logs/$w-$p-a.log")
            b=$(run_one "$jar_b" "$w" "$logs/$w-$p-b.log")
        else
            b=$(run_one "$jar_b" "$w" "$logs/$w-$p-b.log")
            a=$(run_one "$jar_a" "$w" "$logs/$w-$p-a.log")
        fi
        figures_a+=("$a")
        figures_b+=("$b")
        if awk -v a="$a" -v b="$b" 'BEGIN { exit !(b < a) }'; then
            ahead=$((ahead + 1))
        fi
        echo "  $w pair $p: A $a, B $b" >&2
    done
    median_a=$(printf '%s\n' "${figures_a[@]}" | median)
    median_b=$(printf '%s\n' "${figures_b[@]}" | median)
    ratio=$(awk -v a="$median_a" -v b="$median_b" 'BEGIN { printf "%.3f", (a == 0) ? 0 : b / a }')
    rows+=("| $w | $impl | $(result_unit "$logs/$w-1-a.log") | $median_a | $median_b | $ratio | $ahead of $pairs |")
done
echo "| workload | impl | unit | A median | B median | B / A | B ahead |"
echo "|---|---|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
