package dev.spindle.test;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites identity hashes in descriptions ({@code Channel[@1b6d3586, ...]}) into numbers given in order
 * of first appearance ({@code Channel[@#1, ...]}), so that a trace is byte-identical across runs of one
 * schedule even when objects have no names.
 */
final class StableText {
    private static final Pattern IDENTITY_HASH = Pattern.compile("@([0-9a-f]{1,8})\\b");

    /** Hash text to its stable number, per simulation. */
    private final Map<String, Integer> numbers = new HashMap<>();

    String of(String text) {
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        Matcher m = IDENTITY_HASH.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            Integer n = numbers.computeIfAbsent(m.group(1), h -> numbers.size() + 1);
            m.appendReplacement(out, "@#" + n);
        }
        m.appendTail(out);
        return out.toString();
    }
}
