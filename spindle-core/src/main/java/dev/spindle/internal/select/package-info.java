/**
 * The one layer for waiting and selection, shared by every primitive of Spindle (channels, variables,
 * mailboxes, the coordination primitives of {@code dev.spindle.sync}, the network): commit records of a
 * {@code choose} ({@link dev.spindle.internal.select.Pick}, {@link dev.spindle.internal.select.Else},
 * {@link dev.spindle.internal.select.PickListener}), queue entries
 * ({@link dev.spindle.internal.select.Waiter}, {@link dev.spindle.internal.select.ThreadWaiter}, or a plain
 * continuation), wait queues ({@link dev.spindle.internal.select.WaitQueue},
 * {@link dev.spindle.internal.select.LockedWaitQueue}), and the way for packages outside {@code dev.spindle}
 * to define jobs and alternatives ({@link dev.spindle.internal.select.JobImpl},
 * {@link dev.spindle.internal.select.AltImpl}, wrapped by {@link dev.spindle.internal.run.Bridge}). Not
 * exported.
 *
 * <h2>Defining an alternative outside {@code dev.spindle}</h2>
 * Subclass {@link dev.spindle.internal.select.AltImpl} and wrap it once with
 * {@code Bridge.alt(impl)}; the result is an ordinary {@code Alt} (and so a {@code Job}) that users offer in
 * {@code Alt.choose}, nest in {@code withNack} and {@code guard}, or just run. The rules, the same as a
 * channel's:
 * <ul>
 *   <li><b>Commit atomically with the effect.</b> When the operation can complete at once, call
 *       {@code e.pick.commitSelf(i)} under the primitive's lock, together with taking the resource; when it
 *       returns false another alternative won: take nothing, release the lock and call
 *       {@code e.pick.instantiated(w)}. After a successful commit, outside the lock:
 *       {@code e.pick.fireListeners(w)}, then continue {@code k} ({@code Trampoline.succeed}).
 *   <li><b>Otherwise register and go on.</b> Link {@code new Waiter<>(k, e.pick, i, null)} in the
 *       primitive's {@link dev.spindle.internal.select.WaitQueue} and call {@code e.tryElse(w, i + 1)}. Do
 *       not block the thread; do not record a blocker (the pick is the fiber's blocker and withdraws it on
 *       cancellation: its waiter simply goes stale).
 *   <li><b>The partner commits before it hands over.</b> Whoever completes a waiting operation (a release,
 *       a signal, a readable socket) takes entries with {@code pollCommitted()} (or commits each with
 *       {@link dev.spindle.internal.select.Waiter#commit}) under the lock: a stale entry (its choose went
 *       another way) is skipped and the resource goes to the next one. It gives the resource to the
 *       committed entry under the same lock, and resumes it with
 *       {@link dev.spindle.internal.select.Waiter#release} after unlocking ({@code w} may be null when the
 *       partner is an ordinary thread: the entry is resumed through its fiber's engine).
 *   <li><b>A plain run allocates nothing.</b> Override {@code doJob} to queue {@code k} itself as a plain
 *       entry: check {@code k.fiber.cancelPending()}, then under the lock either complete or
 *       {@link dev.spindle.internal.select.LockedWaitQueue#blockAndUnlock} (it records the queue as the
 *       fiber's blocker, so cancellation withdraws exactly that entry).
 *   <li><b>Threads</b> wait as a {@link dev.spindle.internal.select.ThreadWaiter} linked under the lock, then
 *       {@code await(queue, nanos, interruptible)} after unlocking; the partner resumes it like any entry.
 * </ul>
 *
 * <pre>{@code
 * final class Acquire extends AltImpl<Void> {            // a permit, as Semaphore.acquire() does it
 *     public void tryAlt(Worker w, int i, Cont<Void> k, Else e) {
 *         queue.lock();
 *         if (permits > 0) {
 *             boolean won = e.pick.commitSelf(i);
 *             if (won) permits--;
 *             queue.unlock();
 *             if (won) { e.pick.fireListeners(w); Trampoline.succeed(w, k, null); }
 *             else e.pick.instantiated(w);
 *             return;
 *         }
 *         queue.add(new Waiter<>(k, e.pick, i, null));
 *         queue.unlock();
 *         e.tryElse(w, i + 1);
 *     }
 * }
 * Alt<Void> acquire = Bridge.alt(new Acquire());
 * }</pre>
 *
 * <p>Timed forms need nothing of their own: {@code Alt.choose(op, Alt.after(d))}.
 */
package dev.spindle.internal.select;
