package dev.spindle;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;

/**
 * The outcome model of {@link JobTreeGenerator}'s trees: predicted outcomes, how an actual
 * {@link Outcome} reads in the model's terms, and how sure a finalizer node is to be reached. The rules
 * that combine models are documented on {@link JobTreeGenerator}.
 */
final class JobTreeModel {
    private JobTreeModel() {
    }

    /** The failure user code throws in a tree; no stack trace (thousands are thrown). */
    static final class TreeFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String id;

        TreeFailure(String id) {
            super(id, null, true, false);
            this.id = id;
        }
    }

    enum Kind { SUCCESS, FAILURE, CANCELLED, NEVER }

    enum Reach { MUST, MAY, UNREACHED }

    /** A predicted outcome. */
    record Model(Kind kind, int value, String failure, List<String> suppressed) {
        static Model success(int v) {
            return new Model(Kind.SUCCESS, v, null, List.of());
        }

        static Model failure(String key, List<String> suppressed) {
            return new Model(Kind.FAILURE, 0, key, List.copyOf(suppressed));
        }

        static final Model CANCELLED = new Model(Kind.CANCELLED, 0, null, List.of());
        static final Model NEVER = new Model(Kind.NEVER, 0, null, List.of());

        boolean finishes() {
            return kind != Kind.NEVER;
        }

        Model withSuppressed(String key) {
            List<String> s = new ArrayList<>(suppressed);
            s.add(key);
            return failure(failure, s);
        }

        @Override
        public String toString() {
            return switch (kind) {
                case SUCCESS -> "Success(" + value + ")";
                case FAILURE -> "Failure(" + failure + (suppressed.isEmpty() ? "" : ", suppressed " + suppressed) + ")";
                case CANCELLED -> "Cancelled";
                case NEVER -> "Never";
            };
        }
    }

    /** The key of a failure as the model names it. */
    static String key(Throwable e) {
        if (e instanceof TreeFailure t) {
            return t.id;
        } else if (e instanceof TimeoutException) {
            return "timeout";
        } else if (e instanceof CancellationException) {
            return "cancellation";
        }
        return "unexpected " + e;
    }

    /** The model's view of an actual outcome. */
    static Model observed(Outcome<Integer> o) {
        return switch (o) {
            case Outcome.Success<Integer> s -> Model.success(s.value());
            case Outcome.Failure<Integer> f -> {
                List<String> sup = new ArrayList<>();
                for (Throwable t : f.error().getSuppressed()) {
                    sup.add(key(t));
                }
                yield Model.failure(key(f.error()), sup);
            }
            case Outcome.Cancelled<Integer> c -> Model.CANCELLED;
        };
    }

    /** The weaker of two reaches (MUST < MAY < UNREACHED). */
    static Reach weaker(Reach a, Reach b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
