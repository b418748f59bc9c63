#!/usr/bin/env bash
# Runs every (workload, implementation) pair of the benchmark runner, each in its own JVM, and prints a
# table of the medians with the ratio of each Spindle implementation (spindle, spindle-direct) to each
# other one (vt, cf); lower is better for every metric; ratios are only meaningful within one run of this
# script. Every JVM runs `java -jar`, whose manifest exports jdk.internal.vm, so spindle-direct runs on
# the continuation backend (its log's header line names the backend).
#
# Usage: bench/compare.sh [-m FILE] [size-scale] [workload...]
#   size-scale  multiplies each workload's default size (default 1; e.g. 0.1 for a quick look)
#   -m FILE     also write the table, with machine and command, as markdown to FILE
# Env:   IMPLS (default: every implementation the runner lists: spindle spindle-direct vt cf),
#        RUN_TIMEOUT seconds per JVM (default 1200),
#        JVM_FLAGS (default "-Xms1g -Xmx8g -XX:+UseG1GC"), EXTRA_FLAGS (appended, e.g. -Dspindle.bench.runs=3),
#        QUIET percent (default 25; 0 disables): on a shared machine, before each JVM wait (up to QUIET_WAIT
#        seconds, default 300) until other processes keep the CPUs less than this busy over one second.
#        The busy figure seen before each pair is logged and the worst one is reported.
# Raw logs go to bench/results/<timestamp>/ (git-ignored). Exits 1 if any pair failed.
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk.sh

command_line="bench/compare.sh $*"
markdown=""
if [ "${1:-}" = "-m" ]; then
    markdown=${2:?"-m needs a file"}
    shift 2
fi
scale=1
if [ "$#" -gt 0 ] && [[ "$1" =~ ^[0-9]*\.?[0-9]+$ ]]; then
    scale=$1
    shift
fi

JAR=spindle-bench/target/spindle-bench.jar
if [ ! -f "$JAR" ]; then
    echo "compare: building $JAR"
    ./mvnw -B -ntp -q -pl spindle-bench -am package -DskipTests
fi
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

# Waits until the machine is quiet (see QUIET); prints the busy percentage it settled for.
wait_quiet() {
    local limit=${QUIET:-25} deadline=$((SECONDS + ${QUIET_WAIT:-300})) busy
    busy=$(cpu_busy)
    while [ "$limit" -gt 0 ] && [ "$busy" -ge "$limit" ] && [ "$SECONDS" -lt "$deadline" ]; do
        echo "compare: CPUs ${busy}% busy with other work; waiting" >&2
        sleep 4
        busy=$(cpu_busy)
    done
    echo "$busy"
}

outdir=bench/results/$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$outdir"
results=$outdir/results.txt
: >"$results"
failures=0
worst_busy=0
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for w in "${workloads[@]}"; do
    for impl in "${impls[@]}"; do
        log=$outdir/$w-$impl.log
        busy=$(wait_quiet)
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

echo
table text | tee "$outdir/table.txt"
if [ -n "$markdown" ]; then
    {
        echo "Run $(date -u +'%Y-%m-%d %H:%M UTC'): \`$command_line\`, size scale $scale" \
            "(each pair in its own JVM: ${jvm_flags[*]}${extra_flags[*]:+ ${extra_flags[*]}})"
        echo
        cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
        mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
        echo "- machine: $(nproc) CPUs (${cpu:-unknown model}), $mem RAM, $(uname -sr)"
        echo "- JDK: $(java -version 2>&1 | head -n 1)"
        echo "- other load: CPUs at most ${worst_busy}% busy in the second before a pair started;" \
            "load average $load_before before the run, $load_after after"
        echo
        table markdown
    } >"$markdown"
    echo "compare: wrote $markdown"
fi
echo "compare: CPUs at most ${worst_busy}% busy before a pair; load average $load_before before, $load_after after"
echo "compare: logs in $outdir"
[ "$failures" -eq 0 ]
