#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// One input: libFuzzer's `LLVMFuzzerTestOneInput` shape.
typedef int (*fuzz_callback)(const uint8_t *data, size_t size);

/// Runs libFuzzer's driver (`LLVMFuzzerRunDriver`, the libclang_rt.fuzzer entry for programs
/// with their own `main`) with the process's arguments.
int fuzz_run(int argc, char **argv, fuzz_callback callback);

#endif
