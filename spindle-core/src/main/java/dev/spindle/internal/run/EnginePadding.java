package dev.spindle.internal.run;

/** 64 bytes laid out before {@link EngineHotFields}: away from the object header and whatever precedes it. */
abstract class EnginePadding {
    long p0;
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long p7;
}
