# Sourced by Spindle's scripts: exports JAVA_HOME pointing at a JDK of version 21 or later, and says once
# (on stderr) which JDK it picked and why.
# Order: $JAVA_HOME if it is 21+, then `javac` on the PATH, then the newest JDK under /usr/lib/jvm (also
# /opt/java, /opt/jdk* and SDKMAN's candidates). Fails with a clear message when there is none.
# SPINDLE_QUIET_JDK=1 keeps it silent; scripts started by a script that already said it stay silent.

spindle_java_major() { # prints the feature version of the JDK at $1, or nothing
    local release="$1/release"
    [ -x "$1/bin/javac" ] || return 0
    if [ -f "$release" ]; then
        sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
    else
        "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
    fi
}

# Sets SPINDLE_JDK (empty when none), SPINDLE_JDK_WHY (where it was found) and SPINDLE_JDK_PASSED (what
# was passed over on the way, and why).
spindle_find_jdk() {
    local candidate major best="" best_major=0 passed=""
    SPINDLE_JDK=""
    if [ -n "${JAVA_HOME:-}" ]; then
        major=$(spindle_java_major "$JAVA_HOME")
        if [ -n "$major" ] && [ "$major" -ge 21 ]; then
            SPINDLE_JDK=$JAVA_HOME; SPINDLE_JDK_WHY="as JAVA_HOME says"; SPINDLE_JDK_PASSED=""; return 0
        fi
        if [ -n "$major" ]; then
            passed="JAVA_HOME ($JAVA_HOME) is JDK $major, older than 21: overridden; "
        else
            passed="JAVA_HOME ($JAVA_HOME) holds no JDK: overridden; "
        fi
    fi
    if command -v javac >/dev/null 2>&1; then
        candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
        major=$(spindle_java_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 21 ]; then
            SPINDLE_JDK=$candidate; SPINDLE_JDK_WHY="the one javac on the PATH belongs to"; SPINDLE_JDK_PASSED=$passed; return 0
        fi
        [ -n "$major" ] && passed+="javac on the PATH is JDK $major, older than 21; "
    fi
    for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
        [ -d "$candidate" ] || continue
        major=$(spindle_java_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then
            best="$candidate"; best_major="$major"
        fi
    done
    if [ -n "$best" ]; then
        SPINDLE_JDK=$best; SPINDLE_JDK_WHY="the newest JDK 21+ installed"; SPINDLE_JDK_PASSED=$passed
    fi
}

spindle_find_jdk
if [ -z "$SPINDLE_JDK" ]; then
    echo "error: Spindle needs a JDK of version 21 or later, and none was found." >&2
    echo "       Looked at \$JAVA_HOME (${JAVA_HOME:-unset}), javac on the PATH and /usr/lib/jvm/*." >&2
    echo "       Install one (e.g. 'apt-get install openjdk-21-jdk') or set JAVA_HOME to it." >&2
    exit 1
fi
SPINDLE_JDK_MAJOR=$(spindle_java_major "$SPINDLE_JDK")  # its feature version, for checks such as "25 or later"
if [ -z "${SPINDLE_QUIET_JDK:-}" ]; then
    echo "jdk: using JDK $SPINDLE_JDK_MAJOR at $SPINDLE_JDK, $SPINDLE_JDK_WHY${SPINDLE_JDK_PASSED:+ (${SPINDLE_JDK_PASSED%; })}" >&2
fi
export SPINDLE_QUIET_JDK=1  # said once: scripts this one starts stay silent
export JAVA_HOME="$SPINDLE_JDK"
export PATH="$JAVA_HOME/bin:$PATH"
