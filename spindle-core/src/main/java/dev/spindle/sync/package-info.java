/**
 * Coordination primitives for fibers and ordinary threads, after marl's: {@link dev.spindle.sync.WaitGroup},
 * {@link dev.spindle.sync.Event}, {@link dev.spindle.sync.Mutex} with {@link dev.spindle.sync.ConditionVariable},
 * {@link dev.spindle.sync.Semaphore}, {@link dev.spindle.sync.Ticket} and {@link dev.spindle.sync.Pool}.
 *
 * <h2>One naming convention</h2>
 * <table>
 * <caption>Forms of every waiting operation</caption>
 * <tr><th>form</th><th>example</th><th>meaning</th></tr>
 * <tr><td>{@code x()}</td><td>{@code await()}, {@code lock()}, {@code acquire()}, {@code borrow()}</td>
 *     <td>an {@link dev.spindle.Alt} (and so a {@link dev.spindle.Job}) for fibers: a fiber that has to wait
 *     frees its worker for other fibers</td></tr>
 * <tr><td>{@code xBlocking()}</td><td>{@code awaitBlocking()}, {@code lockBlocking()},
 *     {@code acquireBlocking()}, {@code borrowBlocking()}</td>
 *     <td>the same operation for an ordinary thread, which parks while it waits</td></tr>
 * <tr><td>{@code tryX()}</td><td>{@code tryLock()}, {@code tryAcquire()}, {@code tryBorrow()}</td>
 *     <td>succeeds at once or returns {@code false}/{@code null}; never waits</td></tr>
 * <tr><td>{@code withX(job)}</td><td>{@code withLock(job)}, {@code withPermit(job)}, {@code withItem(f)}</td>
 *     <td>takes the resource, runs the job, gives the resource back however the job ends</td></tr>
 * </table>
 * Operations that never wait ({@code signal()}, {@code done()}, {@code unlock()}, {@code release()}, ...) are
 * plain methods, callable from any thread and from inside jobs. Timed waits take a
 * {@link java.time.Duration} and report whether the awaited thing happened; for fibers they are
 * {@code Alt.choose(x(), Alt.after(timeout))}.
 *
 * <h2>Every wait is an alternative</h2>
 * {@code lock()}, {@code acquire()}, {@code await()} and {@code borrow()} can be offered in
 * {@link dev.spindle.Alt#choose} with channel operations, timeouts and each other, under the rules of every
 * alternative: instantiated in argument order, {@link dev.spindle.Alt#withNack} nacks, cancellation. A wait
 * that is not the alternative committed to takes nothing: no lock, no permit, no loan, and an
 * {@link dev.spindle.sync.Event.Mode#AUTO} event's signal stays for the next waiter.
 * <pre>{@code
 * Job<String> step = Alt.choose(
 *         mutex.lock().wrap(v -> "locked"),          // holding the mutex only if this one won
 *         shutdown.await().wrap(v -> "stopping"),
 *         Alt.after(Duration.ofMillis(50)).wrap(v -> "busy"));
 * }</pre>
 * {@link dev.spindle.sync.ConditionVariable}'s waits are jobs, not alternatives: they release the mutex as
 * they begin and take it again as they end, so they could not lose a choose without an effect.
 *
 * <h2>Same semantics for fibers and threads</h2>
 * Fibers and threads wait in the same first-come, first-served queue of a primitive and may be mixed freely;
 * a primitive may also be shared by several schedulers (each fiber resumes on its own). A fiber cancelled
 * while it waits, and a thread interrupted while it waits, are removed from the queue and hold nothing: no
 * signal, lock, permit or item is consumed on their behalf, and none is lost. (The thread then throws
 * {@link java.lang.InterruptedException}; if a grant raced the interrupt, the grant wins and the interrupt
 * status is kept.) A waiter that wins a race with its own timeout is resumed exactly once, either as
 * signalled or as timed out. Waits with timeouts leave no timer behind however they end.
 *
 * <p>The bare acquiring jobs ({@code lock()}, {@code acquire()}, {@code borrow()}) give the caller the
 * resource; a fiber cancelled after that still holds it, exactly like a thread that forgot its
 * {@code finally}. The {@code withX} forms release in every outcome and are the ones to use in jobs.
 *
 * <h2>Blocking forms on threads that run fibers</h2>
 * A blocking form called from inside a job (on a worker thread, or on the thread that drives a
 * single-threaded scheduler) throws {@link java.lang.IllegalStateException} when it would have to wait:
 * parking that thread would stop it from running the fibers, possibly including the one that would wake it.
 * Inside jobs, use the job form. Code run by {@link dev.spindle.Job#blocking} runs on its own thread and may
 * use the blocking forms.
 *
 * <h2>Blocking forms on a bound thread</h2>
 * A thread bound to a single-threaded scheduler ({@link dev.spindle.Scheduler#bind()}, marl's {@code bind})
 * runs that scheduler's queued work while it waits in any blocking form, instead of parking: the thread that
 * created the scheduler can {@code execute} tasks and then wait for them with {@code awaitBlocking()}. Inside a
 * job of that scheduler the bound thread's blocking forms do not fail either: they keep running the
 * scheduler's other work until the wait ends. Timeouts and interrupts behave as for a parked thread.
 *
 * <h2>Blocking forms inside direct bodies</h2>
 * Inside a direct body ({@link dev.spindle.Job#direct}, {@link dev.spindle.Scheduler#execute}) the blocking
 * forms suspend the direct fiber instead of its thread, exactly as {@code x().await()} does (marl's
 * behaviour): the worker runs other fibers meanwhile, and a cancelled direct fiber gets a
 * {@link java.util.concurrent.CancellationException} from the wait, holding nothing.
 * <pre>{@code
 * WaitGroup wg = new WaitGroup(2);
 * for (int i = 0; i < 2; i++) {
 *     scheduler.execute(() -> { work(); wg.done(); });
 * }
 * Job<Void> reporter = Job.direct(() -> {
 *     wg.awaitBlocking();        // suspends this direct fiber, not the worker
 *     report();
 *     return null;
 * });
 * }</pre>
 * (A {@code Runnable} given to {@code execute} cannot throw {@code InterruptedException}; there
 * {@code wg.await().await()} does the same.)
 *
 * <h2>Names and bad input</h2>
 * Every primitive takes an optional name, shown by its {@code toString} together with its state (count,
 * holder, waiters): these strings are what deadlock reports and fiber dumps print for a fiber blocked on it.
 * Null arguments, negative counts, permits or durations, and misuse such as {@code done()} below zero or
 * {@code unlock()} of an unlocked mutex fail at once with an exception that names the problem, and change
 * nothing.
 */
package dev.spindle.sync;
