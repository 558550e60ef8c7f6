// zlib for Swift. Only Sources/Inflate imports this module.
#ifndef EXHIBIT_CZLIB_SHIM_H
#define EXHIBIT_CZLIB_SHIM_H
#include <zlib.h>
// inflateInit2 is a macro (it passes the library version and the stream size).
static inline int cz_inflate_init2(z_streamp strm, int window_bits) {
    return inflateInit2_(strm, window_bits, ZLIB_VERSION, (int)sizeof(z_stream));
}
#endif
