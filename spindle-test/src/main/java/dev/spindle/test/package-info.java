/** Test support for Spindle programs. The deterministic simulator lands here (issue 6). */
package dev.spindle.test;
