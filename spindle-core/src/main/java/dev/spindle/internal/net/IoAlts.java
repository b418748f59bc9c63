package dev.spindle.internal.net;

import dev.spindle.Alt;
import dev.spindle.internal.run.Bridge;

/** Makes alternatives from {@link IoOp}s, through the waiting layer's extension point. */
public final class IoAlts {
    private IoAlts() {
    }

    /** An alternative that runs {@code op}. */
    public static <A> Alt<A> alt(IoOp<A> op) {
        return Bridge.alt(new IoAltImpl<>(op));
    }
}
