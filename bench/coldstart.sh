#!/usr/bin/env bash
# Measures warm-up: each workload in fresh JVMs with no untimed runs, timing the first runs one by one,
# and prints a markdown table per implementation of the medians over the JVMs: run 1, run 2, run 3, the
# later runs (RUNS-2 to RUNS), and run 1 over the later runs. A short-lived process sees run 1; the
# other tables of docs/benchmarks.md report the later runs only.
#
# With AOT=1 (JDK 25 or later), one training JVM per workload and implementation first runs the same RUNS
# runs and writes an ahead-of-time cache (-XX:AOTCacheOutput: classes loaded and linked, and the methods'
# profiles), and every timed JVM of that row starts from it (-XX:AOTCache, -XX:AOTMode=on: a cache that
# cannot be used fails the row instead of being ignored).
#
# Usage: bench/coldstart.sh [workload...]   (default: skynet fib pingpong)
# Env:   IMPLS (default "spindle spindle-direct vt cf"), JVMS fresh JVMs per cell (default 5), RUNS timed
#        runs per JVM (default 8, at least 5), JVM_FLAGS (default "-Xms1g -Xmx8g -XX:+UseG1GC"), AOT (0 or 1).
# Raw logs go to bench/results/coldstart-<timestamp>/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk.sh

workloads=("$@")
[ "${#workloads[@]}" -gt 0 ] || workloads=(skynet fib pingpong)
read -r -a impls <<< "${IMPLS:-spindle spindle-direct vt cf}"
read -r -a jvm_flags <<< "${JVM_FLAGS:--Xms1g -Xmx8g -XX:+UseG1GC}"
jvms=${JVMS:-5}
runs=${RUNS:-8}
if ! [[ "$jvms" =~ ^[1-9][0-9]*$ && "$runs" =~ ^[0-9]+$ ]] || [ "$runs" -lt 5 ]; then
    echo "coldstart: JVMS must be at least 1 and RUNS at least 5 (got JVMS=$jvms RUNS=$runs)" >&2
    exit 64
fi
aot=${AOT:-0}
if [ "$aot" = 1 ]; then
    if [ "${SPINDLE_JDK_MAJOR:-0}" -lt 25 ]; then
        echo "coldstart: AOT=1 needs JDK 25 or later (-XX:AOTCacheOutput); $JAVA_HOME is JDK ${SPINDLE_JDK_MAJOR:-unknown}" >&2
        exit 64
    fi
elif [ "$aot" != 0 ]; then
    echo "coldstart: AOT must be 0 or 1 (got AOT=$aot)" >&2
    exit 64
fi
. bench/common.sh
jar=$BENCH_JAR
bench_build_jar coldstart
logs=$(bench_log_dir coldstart)

# The first metric of each "run N:" line of a log, one per line, in run order.
run_figures() {
    sed -n 's/^#   run [0-9]*: [a-z_0-9]*=\([0-9.]*\) .*/\1/p' "$1"
}

with_cache=""
[ "$aot" = 0 ] || with_cache=", each from an AOT cache its row's training JVM wrote"
echo "bench/coldstart.sh ${workloads[*]} ($(nproc) CPUs, $jvms JVMs per row, $runs runs each$with_cache, ${jvm_flags[*]})"
echo "| workload | impl | unit | run 1 | run 2 | run 3 | runs $((runs - 2))-$runs | run 1 / later |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
for w in "${workloads[@]}"; do
    for impl in "${impls[@]}"; do
        columns=("" "" "" "")
        unit=""
        ok=1
        cold=(-Dspindle.bench.warmups=0 -Dspindle.bench.warmupSeconds=0 -Dspindle.bench.runs="$runs")
        cache=()
        if [ "$aot" = 1 ]; then
            log="$logs/$w-$impl-train.log"
            if ! java "${jvm_flags[@]}" -XX:AOTCacheOutput="$logs/$w-$impl.aot" "${cold[@]}" \
                    -jar "$jar" "$w" "$impl" > "$log" 2>&1; then
                echo "| $w | $impl | | failed: see $log | | | | |"
                continue
            fi
            cache=(-XX:AOTMode=on -XX:AOTCache="$logs/$w-$impl.aot")
        fi
        for j in $(seq 1 "$jvms"); do
            log="$logs/$w-$impl-$j.log"
            if ! java "${jvm_flags[@]}" "${cache[@]}" "${cold[@]}" -jar "$jar" "$w" "$impl" > "$log" 2>&1; then
                ok=0
                break
            fi
            [ -n "$unit" ] || unit=$(result_unit "$log")
            mapfile -t figures < <(run_figures "$log")
            if [ "${#figures[@]}" -ne "$runs" ]; then
                ok=0
                break
            fi
            later=$(printf '%s\n' "${figures[@]:runs-3:3}" | median)
            columns[0]+="${figures[0]} "
            columns[1]+="${figures[1]} "
            columns[2]+="${figures[2]} "
            columns[3]+="$later "
        done
        if [ "$ok" -eq 0 ]; then
            echo "| $w | $impl | | failed: see $log | | | | |"
            continue
        fi
        row="| $w | $impl | $unit |"
        medians=()
        for c in "${columns[@]}"; do
            medians+=("$(tr ' ' '\n' <<< "$c" | grep . | median)")
            row+=" ${medians[-1]} |"
        done
        row+=" $(awk -v a="${medians[0]}" -v b="${medians[3]}" 'BEGIN { printf "%.1f", a / b }') |"
        echo "$row"
    done
done
echo "logs: $logs"
