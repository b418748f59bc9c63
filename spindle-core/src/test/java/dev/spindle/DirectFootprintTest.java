package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

/**
 * Pins what a waiting body of the continuation backend costs besides its fiber, the {@code Continuation}
 * and its stack chunk: one {@link ContinuationBody}, which is also the continuation of each awaited job and the
 * work item of the body's next step (no object per await). Same layout assumptions as
 * {@link MemoryFootprintTest}; a pin that breaks says a field was added.
 */
class DirectFootprintTest {

    @Test
    void aDirectContIs40Bytes() {
        VirtualMachine vm;
        try {
            vm = VM.current();
            vm.sizeOf(new Object());
        } catch (Throwable e) {
            Assumptions.abort("JOL cannot inspect this JVM: " + e);
            return;
        }
        Assumptions.assumeTrue(vm.objectHeaderSize() == 12 && vm.addressSize() == 8 && vm.classPointerSize() == 4
                        && vm.sizeOfField("java.lang.Object") == 4 && vm.objectAlignment() == 8,
                () -> "the pin assumes compressed oops and 12-byte headers; this VM: " + vm.details());
        // Work.next, Cont.value and fiber, DirectBody.k, continuation, home: 6 references; state and
        // three flags: 4 bytes. 12 + 24 + 4 = 40.
        ClassLayout layout = ClassLayout.parseClass(ContinuationBody.class);
        assertThat(layout.instanceSize()).as(layout.toPrintable()).isEqualTo(40);
    }
}
