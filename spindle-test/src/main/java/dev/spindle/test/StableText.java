package dev.spindle.test;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites identity hashes in descriptions so that a trace is byte-identical across runs of one schedule:
 * {@code fiber@1b6d3586} becomes the fiber's label ({@code fiber-3 "writer"}) when the hash is a known
 * fiber's; any other {@code @1b6d3586} becomes a number given in order of first appearance ({@code @#1}).
 */
final class StableText {
    private static final Pattern IDENTITY_HASH = Pattern.compile("(fiber)?@([0-9a-f]{1,8})\\b");

    /** Hash text to its stable number, per simulation. */
    private final Map<String, Integer> numbers = new HashMap<>();
    /** Identity hash text of every fiber started, to its info. */
    private final Map<String, FiberInfo> fibers = new HashMap<>();

    /** Remembers the identity hash of a fiber's runtime object. */
    void fiber(Object strand, FiberInfo info) {
        fibers.put(Integer.toHexString(System.identityHashCode(strand)), info);
    }

    String of(String text) {
        if (text == null || text.indexOf('@') < 0) {
            return text;
        }
        Matcher m = IDENTITY_HASH.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        while (m.find()) {
            String hash = m.group(2);
            FiberInfo f = fibers.get(hash);
            String replacement = f != null
                    ? f.label()
                    : (m.group(1) != null ? m.group(1) : "") + "@#" + numbers.computeIfAbsent(hash, h -> numbers.size() + 1);
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return out.toString();
    }
}
