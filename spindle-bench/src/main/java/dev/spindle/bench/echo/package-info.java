/**
 * The {@code echo} workload: one echo server implementation per JVM ({@link dev.spindle.bench.echo.EchoServer}:
 * Spindle stackless, Spindle direct style, virtual threads with blocking sockets, Netty's NIO transport),
 * all driven by the same client ({@link dev.spindle.bench.echo.EchoClient}) in a JVM of its own;
 * {@link dev.spindle.bench.echo.EchoBench} runs them in turn and prints the table.
 */
package dev.spindle.bench.echo;
