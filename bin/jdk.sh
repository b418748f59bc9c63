# Sourced by Spindle's scripts: exports JAVA_HOME pointing at a JDK of version 21 or later.
# Order: $JAVA_HOME if it is 21+, then `java` on the PATH, then the newest JDK under /usr/lib/jvm.
# Fails with a clear message when there is none.

spindle_java_major() { # prints the feature version of the JDK at $1, or nothing
    local release="$1/release"
    [ -x "$1/bin/javac" ] || return 0
    if [ -f "$release" ]; then
        sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release"
    else
        "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'
    fi
}

spindle_find_jdk() {
    local candidate major best="" best_major=0
    if [ -n "${JAVA_HOME:-}" ]; then
        major=$(spindle_java_major "$JAVA_HOME")
        if [ -n "$major" ] && [ "$major" -ge 21 ]; then echo "$JAVA_HOME"; return 0; fi
    fi
    if command -v javac >/dev/null 2>&1; then
        candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
        major=$(spindle_java_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 21 ]; then echo "$candidate"; return 0; fi
    fi
    for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/*; do
        [ -d "$candidate" ] || continue
        major=$(spindle_java_major "$candidate")
        if [ -n "$major" ] && [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then
            best="$candidate"; best_major="$major"
        fi
    done
    [ -n "$best" ] && echo "$best"
}

SPINDLE_JDK=$(spindle_find_jdk)
if [ -z "$SPINDLE_JDK" ]; then
    echo "error: Spindle needs a JDK of version 21 or later, and none was found." >&2
    echo "       Looked at \$JAVA_HOME (${JAVA_HOME:-unset}), javac on the PATH and /usr/lib/jvm/*." >&2
    echo "       Install one (e.g. 'apt-get install openjdk-21-jdk') or set JAVA_HOME to it." >&2
    exit 1
fi
export JAVA_HOME="$SPINDLE_JDK"
export PATH="$JAVA_HOME/bin:$PATH"
