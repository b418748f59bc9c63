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
