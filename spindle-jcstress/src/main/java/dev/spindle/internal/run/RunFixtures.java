package dev.spindle.internal.run;

/** Pieces the jcstress tests of this package share. */
final class RunFixtures {
    /** A stop condition that never holds: the worker may park whenever it finds nothing to do. */
    static final StopCondition NEVER = () -> false;

    private RunFixtures() {
    }

    /** An engine without threads, whose one worker the actors pass as the worker they run on. */
    static Engine engine(String name) {
        return new Engine(name, 1, false, e -> { });
    }

    /**
     * What an actor saw of an item it took: 0 none, -1 the item without its payload, else the payload.
     */
    static int seen(Work wk) {
        if (wk == null) {
            return 0;
        }
        int x = ((Item) wk).x;
        return x == 0 ? -1 : x;
    }

    /** A work item with a payload in a plain field, so that seeing it relies on the ordering under test. */
    static final class Item extends Work {
        int x; // not final: a final field would be seen through a race whatever the ordering

        Item(int x) {
            this.x = x;
        }

        @Override
        public void doWork(Worker w) {
        }

        @Override
        public void doHandle(Worker w, Throwable e) {
        }
    }
}
