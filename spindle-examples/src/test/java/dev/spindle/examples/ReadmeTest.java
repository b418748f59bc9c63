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
 * Every Java code block of the README and of the Markdown pages under {@code docs/} appears, line for line,
 * in a source file of the examples (main or test): the documentation shows only code that compiles and is
 * tested. Indentation and blank lines are ignored.
 */
final class ReadmeTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Path MODULE = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();

    /** Each README code block is a contiguous run of lines of some example source file. */
    @Test
    void readmeCodeIsExampleCode() throws IOException {
        List<List<String>> blocks = javaBlocks(Files.readString(MODULE.resolve("../README.md")));
        assertThat(blocks).as("Java code blocks in README.md").hasSizeGreaterThanOrEqualTo(8);
        assertAllInExamples(blocks, "README.md");
    }

    /** Each code block of the guide and the other pages under docs/ is example code too. */
    @Test
    void docsCodeIsExampleCode() throws IOException {
        List<Path> pages;
        try (Stream<Path> files = Files.walk(MODULE.resolve("../docs"))) {
            pages = files.filter(f -> f.toString().endsWith(".md")).sorted().toList();
        }
        assertThat(pages).as("Markdown pages under docs/").isNotEmpty();
        int total = 0;
        for (Path page : pages) {
            List<List<String>> blocks = javaBlocks(Files.readString(page));
            total += blocks.size();
            assertAllInExamples(blocks, MODULE.resolve("..").normalize().relativize(page.normalize()).toString());
        }
        assertThat(total).as("Java code blocks under docs/").isGreaterThanOrEqualTo(30);
    }

    private static void assertAllInExamples(List<List<String>> blocks, String where) throws IOException {
        List<List<String>> sources = exampleSources();
        for (List<String> block : blocks) {
            assertThat(sources.stream().anyMatch(source -> Collections.indexOfSubList(source, block) >= 0))
                    .as("this block of %s must appear verbatim in spindle-examples/src:%n%s",
                            where, String.join("\n", block))
                    .isTrue();
        }
    }

    private static List<List<String>> exampleSources() throws IOException {
        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MODULE.resolve("src"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.add(normalized(Files.readString(file)));
            }
        }
        return sources;
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
