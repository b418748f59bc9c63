/**
 * Runnable examples of Spindle's API, one class per feature; {@link dev.spindle.examples.Showcase} runs
 * them all. The README's code is taken from these classes, and their tests keep both from rotting.
 */
module dev.spindle.examples {
    requires dev.spindle;
    requires dev.spindle.test;
    requires java.net.http; // HttpHello asks its server with the JDK's HTTP client
}
