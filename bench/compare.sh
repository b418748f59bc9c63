#!/usr/bin/env bash
# Runs every (workload, implementation) pair of the benchmark runner, each in its own JVM, and prints a
# table of the medians with the ratio of each Spindle implementation (spindle, spindle-direct) to each
# other one (vt, cf); lower is better for every metric; ratios are only meaningful within one run of this
# script. Every JVM runs `java -jar`, whose manifest exports jdk.internal.vm, so spindle-direct runs on
# the continuation backend (its log's header line names the backend).
#
# Every run also writes, next to its raw logs, results.csv (one median a line:
# workload,size,metric,unit,impl,value) and chart.svg (each implementation's ratio to virtual threads per
# workload, log scale, drawn from results.csv by dev.spindle.bench.chart.RatioChart).
#
# Usage: bench/compare.sh [-d] [-m FILE] [-r DIR] [size-scale] [workload...]
#   size-scale  multiplies each workload's default size (default 1; e.g. 0.1 for a quick look)
#   -m FILE     also write the table, with machine and command, as markdown to FILE
#   -d          publish the run: the table into docs/benchmarks.md (between its compare.sh markers), the
#               results to docs/benchmarks/results.csv and the chart to docs/benchmarks/ratios.svg
#   -r DIR      run nothing: tabulate, chart (and with -d publish) the run kept in DIR (bench/results/...)
# Env:   IMPLS (default: every implementation the runner lists: spindle spindle-direct vt cf),
#        RUN_TIMEOUT seconds per JVM (default 1200),
#        JVM_FLAGS (default "-Xms1g -Xmx8g -XX:+UseG1GC"), EXTRA_FLAGS (appended, e.g. -Dspindle.bench.runs=3),
#        QUIET percent (default 25; QUIET=0 skips the wait): on a shared machine, before each JVM wait (up to
#        QUIET_WAIT seconds, default 300) until other processes keep the CPUs less than this busy over one
#        second. The busy figure seen before each pair is logged and the worst one is reported.
# Raw logs go to bench/results/<timestamp>/ (git-ignored). Exits 1 if any pair failed.
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk.sh

command_line="bench/compare.sh $*"
markdown=""
publish=0
rerun=""
while [ "$#" -gt 0 ]; do
    case "$1" in
        -m) markdown=${2:?"-m needs a file"}; shift 2 ;;
        -d) publish=1; shift ;;
        -r) rerun=${2:?"-r needs a results directory"}; shift 2 ;;
        *) break ;;
    esac
done
scale=1
if [ "$#" -gt 0 ] && [[ "$1" =~ ^[0-9]*\.?[0-9]+$ ]]; then
    scale=$1
    shift
fi
if [ "$publish" = 1 ] && [ -z "$rerun" ] && { [ "$scale" != 1 ] || [ "$#" -gt 0 ]; }; then
    echo "compare: -d publishes only a full run (every workload at size scale 1): drop the scale and workloads" >&2
    exit 64
fi
DOCS_PAGE=docs/benchmarks.md
DOCS_DIR=docs/benchmarks

. bench/common.sh
JAR=$BENCH_JAR
bench_build_jar compare
read -r -a jvm_flags <<<"${JVM_FLAGS:--Xms1g -Xmx8g -XX:+UseG1GC}"
read -r -a extra_flags <<<"${EXTRA_FLAGS:-}"
# The runner's usage text lists the workloads and implementations: one source of truth.
usage=$(java -jar "$JAR" 2>&1 || true)
read -r -a impls <<<"${IMPLS:-$(sed -n 's/^  impls: *//p' <<<"$usage")}"
if [ "$#" -gt 0 ]; then
    workloads=("$@")
else
    read -r -a workloads <<<"$(sed -n 's/^  workloads: //p' <<<"$usage")"
fi

# Percent of CPU time (all CPUs) spent busy over the next second, from /proc/stat.
cpu_busy() {
    local a b
    read -r -a a < <(grep '^cpu ' /proc/stat)
    sleep 1
    read -r -a b < <(grep '^cpu ' /proc/stat)
    local total=0 idle i
    for i in 1 2 3 4 5 6 7 8; do total=$((total + b[i] - a[i])); done
    idle=$((b[4] - a[4] + b[5] - a[5]))
    echo $(( total > 0 ? 100 * (total - idle) / total : 0 ))
}

# Waits until the machine is quiet (see QUIET); prints the busy percentage it settled for. While it waits
# it says, every 20 s, how busy the CPUs are, how long it has waited and how to skip the wait.
wait_quiet() {
    local limit=${QUIET:-25} max=${QUIET_WAIT:-300} start=$SECONDS busy told=-20
    busy=$(cpu_busy)
    while [ "$limit" -gt 0 ] && [ "$busy" -ge "$limit" ] && [ "$((SECONDS - start))" -lt "$max" ]; do
        if [ "$((SECONDS - start - told))" -ge 20 ]; then
            told=$((SECONDS - start))
            echo "compare: waiting for a quiet machine before $1: CPUs ${busy}% busy (limit ${limit}%)," \
                "waited ${told} s of at most ${max} s; QUIET=0 skips the wait" >&2
        fi
        sleep 4
        busy=$(cpu_busy)
    done
    if [ "$told" -ge 0 ]; then
        echo "compare: starting $1 after $((SECONDS - start)) s with the CPUs ${busy}% busy" >&2
    fi
    echo "$busy"
}

# Runs every pair into a new directory under bench/results/ and describes the run in its run.md.
run_all() {
    outdir=$(bench_log_dir)
    results=$outdir/results.txt
    : >"$results"
    failures=0
    worst_busy=0
    load_before=$(cut -d' ' -f1-3 /proc/loadavg)
    for w in "${workloads[@]}"; do
        for impl in "${impls[@]}"; do
            log=$outdir/$w-$impl.log
            busy=$(wait_quiet "$w $impl")
            [ "$busy" -gt "$worst_busy" ] && worst_busy=$busy
            echo "BUSY $w $impl $busy" >>"$results"
            set +e
            line=$(timeout "${RUN_TIMEOUT:-1200}" java "${jvm_flags[@]}" "${extra_flags[@]}" \
                -Dspindle.bench.scale="$scale" -jar "$JAR" "$w" "$impl" 2>"$log")
            rc=$?
            set -e
            size=$(sed -n 's/^# [^ ]* [^ ]*: size \([0-9]*\),.*/\1/p' "$log" | head -n 1)
            case $rc in
                0) echo "$line" | tee -a "$results" ;;
                *) echo "FAILED $w $impl rc=$rc (see $log)" | tee -a "$results"; failures=$((failures + 1)) ;;
            esac
            [ -n "$size" ] && echo "SIZE $w $size" >>"$results"
        done
    done

    load_after=$(cut -d' ' -f1-3 /proc/loadavg)
    local cpu mem
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
    {
        echo "Run $(date -u +'%Y-%m-%d %H:%M UTC'): \`$command_line\`, size scale $scale" \
            "(each pair in its own JVM: ${jvm_flags[*]}${extra_flags[*]:+ ${extra_flags[*]}})"
        echo
        echo "- machine: $(nproc) CPUs (${cpu:-unknown model}), $mem RAM, $(uname -sr)"
        echo "- JDK: $(java -version 2>&1 | head -n 1)"
        echo "- other load: CPUs at most ${worst_busy}% busy in the second before a pair started;" \
            "load average $load_before before the run, $load_after after"
    } >"$outdir/run.md"
}

if [ -n "$rerun" ]; then
    outdir=${rerun%/}
    results=$outdir/results.txt
    if [ ! -f "$results" ] || [ ! -f "$outdir/run.md" ]; then
        echo "compare: $outdir holds no results.txt and run.md of a run" >&2
        exit 64
    fi
    # the implementations in the order the run measured them
    read -r -a impls <<<"$(awk '($1 == "RESULT" || $1 == "FAILED") && !($3 in seen) { seen[$3]; printf "%s ", $3 }' "$results")"
    failures=$(grep -c '^FAILED' "$results" || true)
else
    run_all
fi

# results.txt -> table. One row per (workload, metric), columns per implementation.
table() { # $1 = text | markdown
    awk -v style="$1" -v impls="${impls[*]}" '
    function ratio(a, b) {
        if (a == "" || b == "" || b + 0 == 0) return "-"
        r = a / b
        return sprintf(r >= 0.1 ? "%.2f" : "%.3f", r)
    }
    function cell(w, i, m) {
        k = w SUBSEP i
        if (k in status) return status[k]
        return ((w, i, m) in val) ? val[w, i, m] : "-"
    }
    BEGIN {
        ni = split(impls, impl, " ")
        # ratio columns: each Spindle implementation over each other one; without both kinds, the first
        # implementation over each of the others
        for (a = 1; a <= ni; a++) if (impl[a] ~ /^spindle/)
            for (b = 1; b <= ni; b++) if (impl[b] !~ /^spindle/) { num[++np] = impl[a]; den[np] = impl[b] }
        if (np == 0) for (b = 2; b <= ni; b++) { num[++np] = impl[1]; den[np] = impl[b] }
    }
    $1 == "SIZE" { size[$2] = $3; next }
    $1 == "FAILED" { status[$2, $3] = "FAILED"; addw($2); next }
    $1 == "RESULT" {
        addw($2)
        for (f = 4; f < NF; f += 2) {
            split($f, kv, "=")
            if (!(($2, kv[1]) in seenm)) { seenm[$2, kv[1]] = 1; nm[$2]++; metric[$2, nm[$2]] = kv[1] }
            unit[$2, kv[1]] = $(f + 1)
            val[$2, $3, kv[1]] = kv[2]
        }
    }
    function addw(w) { if (!(w in seenw)) { seenw[w] = 1; order[++nw] = w } }
    END {
        head = "workload|size|metric"
        for (i = 1; i <= ni; i++) head = head "|" impl[i]
        for (p = 1; p <= np; p++) head = head "|" num[p] "/" den[p]
        rows[++nr] = head
        for (o = 1; o <= nw; o++) {
            w = order[o]
            if (nm[w] == 0) { nm[w] = 1; metric[w, 1] = "?" }
            for (j = 1; j <= nm[w]; j++) {
                m = metric[w, j]
                row = w "|" size[w] "|" m ((w, m) in unit ? " (" unit[w, m] ")" : "")
                for (i = 1; i <= ni; i++) row = row "|" cell(w, impl[i], m)
                for (p = 1; p <= np; p++) row = row "|" ratio(val[w, num[p], m], val[w, den[p], m])
                rows[++nr] = row
            }
        }
        for (r = 1; r <= nr; r++) {
            n = split(rows[r], c, "|")
            for (k = 1; k <= n; k++) if (length(c[k]) > wd[k]) wd[k] = length(c[k])
        }
        for (r = 1; r <= nr; r++) {
            n = split(rows[r], c, "|")
            line = ""
            for (k = 1; k <= n; k++) {
                if (style == "markdown") line = line "| " c[k] " "
                else line = line sprintf(k <= 3 ? "%-" wd[k] "s  " : "%" wd[k] "s  ", c[k])
            }
            print (style == "markdown" ? line "|" : line)
            if (r == 1 && style == "markdown") {
                sep = ""
                for (k = 1; k <= n; k++) sep = sep (k <= 3 ? "|---" : "|---:")
                print sep "|"
            }
        }
    }' "$results"
}

# results.txt -> results.csv, one median a line (the format of dev.spindle.bench.chart.Measurement).
csv() {
    awk '
    $1 == "SIZE" { size[$2] = $3; next }
    $1 == "RESULT" {
        for (f = 4; f < NF; f += 2) {
            split($f, kv, "=")
            row[++n] = $2 SUBSEP kv[1] SUBSEP $(f + 1) SUBSEP $3 SUBSEP kv[2]
        }
    }
    END {
        print "workload,size,metric,unit,impl,value"
        for (i = 1; i <= n; i++) {
            split(row[i], c, SUBSEP)
            print c[1] "," size[c[1]] "," c[2] "," c[3] "," c[4] "," c[5]
        }
    }' "$results"
}

echo
table text | tee "$outdir/table.txt"
csv >"$outdir/results.csv"
run_time=$(basename "$outdir" | sed -n 's/^\([0-9]\{4\}\)\([0-9]\{2\}\)\([0-9]\{2\}\)T\([0-9]\{2\}\)\([0-9]\{2\}\).*/\1-\2-\3 \4:\5 UTC/p')
java -cp "$JAR" dev.spindle.bench.chart.RatioChart "$outdir/results.csv" "$outdir/chart.svg" \
    "Relative to JDK virtual threads, per workload${run_time:+ (run of $run_time)}"
{
    cat "$outdir/run.md"
    echo
    table markdown
} >"$outdir/table.md"
if [ -n "$markdown" ]; then
    cp "$outdir/table.md" "$markdown"
    echo "compare: wrote $markdown"
fi
if [ "$publish" = 1 ]; then
    if ! grep -q '^<!-- compare.sh:begin' "$DOCS_PAGE" || ! grep -q '^<!-- compare.sh:end' "$DOCS_PAGE"; then
        echo "compare: $DOCS_PAGE lacks its <!-- compare.sh:begin --> and <!-- compare.sh:end --> lines" >&2
        exit 1
    fi
    mkdir -p "$DOCS_DIR"
    cp "$outdir/results.csv" "$DOCS_DIR/results.csv"
    cp "$outdir/chart.svg" "$DOCS_DIR/ratios.svg"
    awk -v table="$outdir/table.md" '
        /^<!-- compare.sh:begin/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
        /^<!-- compare.sh:end/ { skip = 0 }
        !skip' "$DOCS_PAGE" >"$DOCS_PAGE.tmp"
    mv "$DOCS_PAGE.tmp" "$DOCS_PAGE"
    echo "compare: published the table to $DOCS_PAGE, the results to $DOCS_DIR/results.csv and the chart to" \
        "$DOCS_DIR/ratios.svg"
fi
if [ -z "$rerun" ]; then
    echo "compare: CPUs at most ${worst_busy}% busy before a pair; load average $load_before before, $load_after after"
fi
echo "compare: results, table and chart in $outdir"
[ "$failures" -eq 0 ]
