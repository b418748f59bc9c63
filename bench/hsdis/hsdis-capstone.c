/*
 * A minimal disassembler plugin for HotSpot's -XX:+PrintAssembly, on the Capstone library, so that
 * compiled code can be read next to `perf` samples (docs/benchmark-notebook.md, "Not kept yet: a child's
 * link checked at its first cancellation check"). x86-64 only. HotSpot looks for hsdis-amd64.so on
 * LD_LIBRARY_PATH:
 *
 *   apt-get install libcapstone-dev
 *   gcc -O2 -shared -fPIC -o /tmp/hsdis/hsdis-amd64.so bench/hsdis/hsdis-capstone.c -lcapstone
 *   LD_LIBRARY_PATH=/tmp/hsdis java -XX:+UnlockDiagnosticVMOptions \
 *       '-XX:CompileCommand=print,dev.spindle.FiberJobs$Start::doJob' -jar spindle-bench.jar spawnjoin spindle
 *
 * The entry point is the one HotSpot calls (decode_instructions_virtual): it disassembles the code between
 * start_va and end_va, reporting each instruction's bounds through event_callback ("insn", "/insn") so
 * that HotSpot can interleave its own annotations, and printing the text through printf_callback.
 */
#include <capstone/capstone.h>
#include <stdint.h>

typedef void *(*event_callback_t)(void *stream, const char *event, void *arg);
typedef int (*printf_callback_t)(void *stream, const char *format, ...);

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer,
                                  uintptr_t length, event_callback_t event_callback, void *event_stream,
                                  printf_callback_t printf_callback, void *printf_stream,
                                  const char *options, int newline) {
    (void) end_va;
    (void) options;
    csh handle;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK) {
        return NULL;
    }
    cs_insn *insn;
    size_t count = cs_disasm(handle, buffer, length, start_va, 0, &insn);
    for (size_t i = 0; i < count; i++) {
        event_callback(event_stream, "insn", (void *) (uintptr_t) insn[i].address);
        printf_callback(printf_stream, "%s\t%s", insn[i].mnemonic, insn[i].op_str);
        event_callback(event_stream, "/insn", (void *) (uintptr_t) (insn[i].address + insn[i].size));
        if (newline) {
            printf_callback(printf_stream, "\n");
        }
    }
    if (count > 0) {
        cs_free(insn, count);
    }
    cs_close(&handle);
    return (void *) (start_va + length);
}
