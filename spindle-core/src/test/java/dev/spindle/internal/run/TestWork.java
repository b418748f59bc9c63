package dev.spindle.internal.run;

/** A work item for tests of the worker loop: one that fails fails the test, naming the item. */
abstract class TestWork extends Work {
    @Override
    public void doHandle(Worker w, Throwable e) {
        throw new AssertionError(this + " failed", e);
    }
}
