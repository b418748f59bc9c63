#!/usr/bin/env bash
# Builds a user's separate Maven project against the installed Spindle artifacts, from the README's
# "Add Spindle to your build" snippet (its first xml block), runs its test (the simulator), then runs its
# program on the class path and on the module path with the README's JVM flag, and once without it.
# Needs the artifacts installed (bin/showcase or ./mvnw install -DskipTests); MAVEN_ARGS reaches Maven.
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r .ci/user-project/. "$work"
snippet=$(awk '/^## Add Spindle to your build/ { on = 1 } on && /^```xml$/ { inblock = 1; next }
    inblock && /^```$/ { exit } inblock { print }' README.md)
if [ -z "$snippet" ]; then
    echo "user-project: no xml block under \"## Add Spindle to your build\" in README.md" >&2
    exit 1
fi
junit='  <dependency>
    <groupId>org.junit.jupiter</groupId>
    <artifactId>junit-jupiter</artifactId>
    <version>5.14.4</version>
    <scope>test</scope>
  </dependency>
</dependencies>'
# the README's dependencies plus JUnit, in place of the marker line
awk -v snippet="$snippet" -v junit="$junit" '
    /<!-- README SNIPPET -->/ { n = split(snippet, l, "\n"); for (i = 1; i <= n; i++) {
        if (l[i] == "</dependencies>") print junit; else print l[i] }; next }
    { print }' "$work/pom.xml.in" >"$work/pom.xml"

echo "user-project: building $work with the README's snippet"
./mvnw -B -ntp -q -f "$work/pom.xml" package
core=$work/target/dependency/spindle-core-0.1.0-SNAPSHOT.jar

expect() { # $1 = what is run, $2 = expected output, then the command
    local what=$1 want=$2 got
    shift 2
    got=$("$@")
    if [ "$got" != "$want" ]; then
        echo "user-project: $what: expected '$want', got '$got' from: $*" >&2
        exit 1
    fi
    echo "user-project: $what: $want"
}
expect "class path, with the flag" "answer=42 backend=CONTINUATION" java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED \
    -cp "$work/target/classes:$core" demo.Main
expect "module path, with the flag" "answer=42 backend=CONTINUATION" java --add-exports java.base/jdk.internal.vm=dev.spindle \
    -p "$core" --add-modules dev.spindle -cp "$work/target/classes" demo.Main
expect "class path, without the flag" "answer=42 backend=VIRTUAL_THREAD" java -cp "$work/target/classes:$core" demo.Main
echo "user-project: passed"
