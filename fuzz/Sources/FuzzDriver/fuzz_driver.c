#include "fuzz_driver.h"

extern int LLVMFuzzerRunDriver(int *argc, char ***argv,
                               int (*callback)(const uint8_t *data, size_t size));

int fuzz_run(int argc, char **argv, fuzz_callback callback) {
    return LLVMFuzzerRunDriver(&argc, &argv, callback);
}
