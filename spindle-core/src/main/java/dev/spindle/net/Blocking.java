package dev.spindle.net;

import dev.spindle.Direct;
import dev.spindle.Job;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletionException;

/** The blocking forms: {@link Direct#await}, with the operation's {@link IOException} rethrown as is. */
final class Blocking {
    private Blocking() {
    }

    static <A> A await(Job<A> job) throws IOException {
        try {
            return Direct.await(job);
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
