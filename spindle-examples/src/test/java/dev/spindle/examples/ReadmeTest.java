package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java code block of the README appears, line for line, in a source file of the examples (main or
 * test): the README shows only code that compiles and is tested. Indentation and blank lines are ignored.
 */
final class ReadmeTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Path MODULE = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();

    /** Each README code block is a contiguous run of lines of some example source file. */
    @Test
    void readmeCodeIsExampleCode() throws IOException {
        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MODULE.resolve("src"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.add(normalized(Files.readString(file)));
            }
        }
        List<List<String>> blocks = javaBlocks(Files.readString(MODULE.resolve("../README.md")));
        assertThat(blocks).as("Java code blocks in README.md").hasSizeGreaterThanOrEqualTo(8);
        for (List<String> block : blocks) {
            assertThat(sources.stream().anyMatch(source -> Collections.indexOfSubList(source, block) >= 0))
                    .as("this README block must appear verbatim in spindle-examples/src:%n%s",
                            String.join("\n", block))
                    .isTrue();
        }
    }

    private static List<List<String>> javaBlocks(String markdown) {
        List<List<String>> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(markdown);
        while (m.find()) {
            blocks.add(normalized(m.group(1)));
        }
        return blocks;
    }

    private static List<String> normalized(String text) {
        return text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
    }
}
