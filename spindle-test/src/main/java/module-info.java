/** Spindle's test support: the deterministic simulator (work in progress, see issue 6). */
module dev.spindle.test {
    requires transitive dev.spindle;
    exports dev.spindle.test;
}
