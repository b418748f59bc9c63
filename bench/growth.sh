#!/usr/bin/env bash
# Measures how per-unit costs grow with the size of the work: skynet, spawnjoin, idle-memory and timers at
# 0.1x, 1x and 10x their default sizes, on the stackless (spindle) and direct (spindle-direct) styles, each
# run in its own JVM, and prints a markdown table of the per-unit cost at each scale with the 10x/1x ratio
# (the aim: at most 1.25, in an 8 GiB heap).
#
# Usage: bench/growth.sh [scale...]          (default scales: 0.1 1 10)
# Env:   IMPLS (default "spindle spindle-direct"), WORKLOADS (default "skynet spawnjoin idle-memory timers"),
#        JVM_FLAGS (default "-Xms1g -Xmx8g -XX:+UseG1GC"), EXTRA_FLAGS (appended, e.g. -Dspindle.bench.runs=3).
# Raw logs go to bench/results/growth-<timestamp>/ (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk.sh

scales=("$@")
[ "${#scales[@]}" -gt 0 ] || scales=(0.1 1 10)
read -r -a impls <<< "${IMPLS:-spindle spindle-direct}"
read -r -a workloads <<< "${WORKLOADS:-skynet spawnjoin idle-memory timers}"
read -r -a jvm_flags <<< "${JVM_FLAGS:--Xms1g -Xmx8g -XX:+UseG1GC} ${EXTRA_FLAGS:-}"
. bench/common.sh
jar=$BENCH_JAR
bench_build_jar growth
logs=$(bench_log_dir growth)

# per_unit <workload> <log>: the per-unit cost a run's RESULT line gives, in the unit printed by unit_of
per_unit() {
    local line size
    line=$(grep '^RESULT ' "$2" | tail -1)
    size=$(grep -o 'size [0-9]*' "$2" | head -1 | cut -d' ' -f2)
    case "$1" in
        skynet|timers) awk -v s="$size" '{ split($4, kv, "="); printf "%.1f", kv[2] * 1e6 / s }' <<< "$line" ;;
        *) awk '{ split($4, kv, "="); printf "%.1f", kv[2] }' <<< "$line" ;;
    esac
}
unit_of() {
    case "$1" in
        skynet) echo "ns per leaf" ;;
        timers) echo "ns per timer" ;;
        spawnjoin) echo "ns per spawn" ;;
        idle-memory) echo "bytes per fiber" ;;
    esac
}

header="| workload | impl | unit |"
rule="|---|---|---|"
for s in "${scales[@]}"; do header+=" ${s}x |"; rule+="---:|"; done
header+=" 10x / 1x |"; rule+="---:|"
echo "bench/growth.sh ${scales[*]} ($(nproc) CPUs, ${jvm_flags[*]})"
echo "$header"
echo "$rule"
for w in "${workloads[@]}"; do
    for impl in "${impls[@]}"; do
        row="| $w | $impl | $(unit_of "$w") |"
        one="" ten=""
        for s in "${scales[@]}"; do
            log="$logs/$w-$impl-$s.log"
            if java "${jvm_flags[@]}" -Dspindle.bench.scale="$s" -jar "$jar" "$w" "$impl" > "$log" 2>&1; then
                v=$(per_unit "$w" "$log")
            else
                v="failed"
            fi
            row+=" $v |"
            [ "$s" = 1 ] && one=$v
            [ "$s" = 10 ] && ten=$v
        done
        if [[ "$one" =~ ^[0-9.]+$ && "$ten" =~ ^[0-9.]+$ ]]; then
            row+=" $(awk -v a="$ten" -v b="$one" 'BEGIN { printf "%.2f", a / b }') |"
        else
            row+=" |"
        fi
        echo "$row"
    done
done
echo "(raw logs in $logs)"
