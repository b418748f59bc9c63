# Sourced by the bench/ scripts after they cd to the project root and source bin/jdk.sh: the runner's jar,
# built when missing, and a fresh directory for a run's raw logs (bench/results/ is git-ignored).

BENCH_JAR=spindle-bench/target/spindle-bench.jar

# bench_build_jar <who>: builds $BENCH_JAR unless it exists, saying so as <who>.
bench_build_jar() {
    if [ ! -f "$BENCH_JAR" ]; then
        echo "$1: building $BENCH_JAR" >&2
        ./mvnw -B -ntp -q -pl spindle-bench -am package -DskipTests
    fi
}

# bench_log_dir [prefix]: creates bench/results/[prefix-]<UTC timestamp>/ and prints its path.
bench_log_dir() {
    local dir="bench/results/${1:+$1-}$(date -u +%Y%m%dT%H%M%SZ)"
    mkdir -p "$dir"
    echo "$dir"
}

# median: the median of the numbers on standard input, to 4 significant digits or whole (fails on none).
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; m = int((NR + 1) / 2);
        x = (NR % 2) ? v[m] : (v[m] + v[m + 1]) / 2; printf (x >= 1e4 || x <= -1e4) ? "%.0f" : "%.4g", x }'
}

# result_figure <log>: the first metric's value on the runner's RESULT line in <log> (empty if none).
result_figure() {
    sed -n 's/^RESULT [^ ]* [^ ]* [a-z_0-9]*=\(-\{0,1\}[0-9.]*\) .*/\1/p' "$1"
}

# result_unit <log>: the unit of that first metric (ns, ms, bytes).
result_unit() {
    sed -n 's/^RESULT [^ ]* [^ ]* [a-z_0-9]*=-\{0,1\}[0-9.]* \([a-zA-Z]*\) .*/\1/p' "$1"
}
