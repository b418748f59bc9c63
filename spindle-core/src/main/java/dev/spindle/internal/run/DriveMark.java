package dev.spindle.internal.run;

/** What a drive of a worker found when it began: the worker's previous driver, the thread's previous driven worker. */
record DriveMark(Thread previousThread, Worker previousDriven) {
}
