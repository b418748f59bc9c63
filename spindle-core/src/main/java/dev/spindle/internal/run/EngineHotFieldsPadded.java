package dev.spindle.internal.run;

/** 64 bytes laid out after {@link EngineHotFields}: {@link Engine}'s own fields start a cache line further on. */
abstract class EngineHotFieldsPadded extends EngineHotFields {
    long q0;
    long q1;
    long q2;
    long q3;
    long q4;
    long q5;
    long q6;
    long q7;
}
