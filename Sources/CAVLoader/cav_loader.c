// dlopen-based loading of libav (see include/cav_loader.h and docs/media.md "Loading libav").
#include "cav_loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libavcodec/version.h>
#include <libavformat/version.h>
#include <libavutil/version.h>
#include <libswscale/version.h>

#define CAV_STRING2(x) #x
#define CAV_STRING(x) CAV_STRING2(x)

// In load order: each after the libraries it needs, so the dynamic loader finds those by
// SONAME among the objects already loaded (also when loaded from EXHIBIT_LIBAV_DIR).
enum { CAV_AVUTIL, CAV_SWSCALE, CAV_AVCODEC, CAV_AVFORMAT, CAV_LIBRARY_COUNT };
static const char *const cav_library_names[CAV_LIBRARY_COUNT] = {
    "libavutil.so." CAV_STRING(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." CAV_STRING(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." CAV_STRING(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." CAV_STRING(LIBAVFORMAT_VERSION_MAJOR),
};

// Every libav function Media calls, with the library that defines it.
#define CAV_FUNCTIONS(X) \
    X(CAV_AVUTIL, av_dict_free) \
    X(CAV_AVUTIL, av_dict_set) \
    X(CAV_AVUTIL, av_frame_alloc) \
    X(CAV_AVUTIL, av_frame_free) \
    X(CAV_AVUTIL, av_frame_get_buffer) \
    X(CAV_AVUTIL, av_freep) \
    X(CAV_AVUTIL, av_log_set_level) \
    X(CAV_AVUTIL, av_malloc) \
    X(CAV_AVUTIL, av_strerror) \
    X(CAV_AVCODEC, av_get_bits_per_sample) \
    X(CAV_AVCODEC, av_packet_alloc) \
    X(CAV_AVCODEC, av_packet_free) \
    X(CAV_AVCODEC, av_packet_unref) \
    X(CAV_AVCODEC, avcodec_alloc_context3) \
    X(CAV_AVCODEC, avcodec_find_decoder) \
    X(CAV_AVCODEC, avcodec_find_encoder) \
    X(CAV_AVCODEC, avcodec_free_context) \
    X(CAV_AVCODEC, avcodec_get_name) \
    X(CAV_AVCODEC, avcodec_open2) \
    X(CAV_AVCODEC, avcodec_parameters_to_context) \
    X(CAV_AVCODEC, avcodec_profile_name) \
    X(CAV_AVCODEC, avcodec_receive_frame) \
    X(CAV_AVCODEC, avcodec_receive_packet) \
    X(CAV_AVCODEC, avcodec_send_frame) \
    X(CAV_AVCODEC, avcodec_send_packet) \
    X(CAV_AVCODEC, avcodec_version) \
    X(CAV_AVFORMAT, av_read_frame) \
    X(CAV_AVFORMAT, avformat_alloc_context) \
    X(CAV_AVFORMAT, avformat_close_input) \
    X(CAV_AVFORMAT, avformat_find_stream_info) \
    X(CAV_AVFORMAT, avformat_index_get_entries_count) \
    X(CAV_AVFORMAT, avformat_index_get_entry) \
    X(CAV_AVFORMAT, avformat_open_input) \
    X(CAV_AVFORMAT, avio_alloc_context) \
    X(CAV_AVFORMAT, avio_context_free) \
    X(CAV_SWSCALE, sws_freeContext) \
    X(CAV_SWSCALE, sws_getContext) \
    X(CAV_SWSCALE, sws_scale_frame)

// Each trampoline's prototype is libav's own (the compiler compares them here; only the
// types are used, so the binary references no libav symbol).
#define CAV_SAME_PROTOTYPE(library, name) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(cav_##name), __typeof__(name)), \
                   "cav_" #name " must have the prototype of " #name);
CAV_FUNCTIONS(CAV_SAME_PROTOTYPE)

enum {
#define CAV_INDEX(library, name) CAV_FN_##name,
    CAV_FUNCTIONS(CAV_INDEX)
#undef CAV_INDEX
    CAV_FUNCTION_COUNT
};

static const struct { int library; const char *name; } cav_functions[CAV_FUNCTION_COUNT] = {
#define CAV_ENTRY(library, name) { library, #name },
    CAV_FUNCTIONS(CAV_ENTRY)
#undef CAV_ENTRY
};

// Written once under pthread_once, read-only afterwards.
static void *cav_symbols[CAV_FUNCTION_COUNT];
static const char *cav_failure;
static char cav_failure_text[1024];
static pthread_once_t cav_once = PTHREAD_ONCE_INIT;

static void cav_fail(const char *format, const char *a, const char *b) {
    snprintf(cav_failure_text, sizeof cav_failure_text, format, a ? a : "", b ? b : "");
    cav_failure = cav_failure_text;
}

static void cav_load_once(void) {
    void *handles[CAV_LIBRARY_COUNT] = { 0 };
    const char *dir = getenv("EXHIBIT_LIBAV_DIR");
    char path[4096];
    for (int i = 0; i < CAV_LIBRARY_COUNT; i++) {
        const char *file = cav_library_names[i];
        if (dir != NULL && dir[0] != '\0') {
            int n = snprintf(path, sizeof path, "%s/%s", dir, file);
            if (n < 0 || (size_t)n >= sizeof path) {
                cav_fail("EXHIBIT_LIBAV_DIR too long to load %s%s", file, NULL);
                goto failed;
            }
            file = path;
        }
        handles[i] = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (handles[i] == NULL) {
            cav_fail("%s%s", dlerror(), NULL);
            goto failed;
        }
    }
    for (int i = 0; i < CAV_FUNCTION_COUNT; i++) {
        (void)dlerror();
        void *symbol = dlsym(handles[cav_functions[i].library], cav_functions[i].name);
        if (symbol == NULL) {
            const char *why = dlerror();
            cav_fail("%s%s", why != NULL ? why : "symbol is NULL: ", why != NULL ? NULL : cav_functions[i].name);
            goto failed;
        }
        cav_symbols[i] = symbol;
    }
    return;
failed:
    memset(cav_symbols, 0, sizeof cav_symbols);
    for (int i = CAV_LIBRARY_COUNT - 1; i >= 0; i--) {
        if (handles[i] != NULL) dlclose(handles[i]);
    }
}

const char *cav_load(void) {
    pthread_once(&cav_once, cav_load_once);
    return cav_failure;
}

const char *cav_library_name(int index) {
    return index >= 0 && index < CAV_LIBRARY_COUNT ? cav_library_names[index] : NULL;
}

static void *cav_symbol(int index) {
    pthread_once(&cav_once, cav_load_once);
    return cav_symbols[index];
}

// `f` = the resolved libav function, typed by its own prototype.
#define CAV_RESOLVE(name) __typeof__(&name) f = (__typeof__(&name))cav_symbol(CAV_FN_##name)
#define CAV_NOT_LOADED AVERROR(ENOSYS)

void cav_av_dict_free(AVDictionary **m) { CAV_RESOLVE(av_dict_free); if (f) f(m); }
int cav_av_dict_set(AVDictionary **pm, const char *key, const char *value, int flags) {
    CAV_RESOLVE(av_dict_set); return f ? f(pm, key, value, flags) : CAV_NOT_LOADED;
}
AVFrame *cav_av_frame_alloc(void) { CAV_RESOLVE(av_frame_alloc); return f ? f() : NULL; }
void cav_av_frame_free(AVFrame **frame) { CAV_RESOLVE(av_frame_free); if (f) f(frame); }
int cav_av_frame_get_buffer(AVFrame *frame, int align) {
    CAV_RESOLVE(av_frame_get_buffer); return f ? f(frame, align) : CAV_NOT_LOADED;
}
void cav_av_freep(void *ptr) { CAV_RESOLVE(av_freep); if (f) f(ptr); }
void cav_av_log_set_level(int level) { CAV_RESOLVE(av_log_set_level); if (f) f(level); }
void *cav_av_malloc(size_t size) { CAV_RESOLVE(av_malloc); return f ? f(size) : NULL; }
int cav_av_strerror(int errnum, char *errbuf, size_t errbuf_size) {
    CAV_RESOLVE(av_strerror); return f ? f(errnum, errbuf, errbuf_size) : CAV_NOT_LOADED;
}

int cav_av_get_bits_per_sample(enum AVCodecID codec_id) {
    CAV_RESOLVE(av_get_bits_per_sample); return f ? f(codec_id) : 0;
}
AVPacket *cav_av_packet_alloc(void) { CAV_RESOLVE(av_packet_alloc); return f ? f() : NULL; }
void cav_av_packet_free(AVPacket **pkt) { CAV_RESOLVE(av_packet_free); if (f) f(pkt); }
void cav_av_packet_unref(AVPacket *pkt) { CAV_RESOLVE(av_packet_unref); if (f) f(pkt); }
AVCodecContext *cav_avcodec_alloc_context3(const AVCodec *codec) {
    CAV_RESOLVE(avcodec_alloc_context3); return f ? f(codec) : NULL;
}
const AVCodec *cav_avcodec_find_decoder(enum AVCodecID id) { CAV_RESOLVE(avcodec_find_decoder); return f ? f(id) : NULL; }
const AVCodec *cav_avcodec_find_encoder(enum AVCodecID id) { CAV_RESOLVE(avcodec_find_encoder); return f ? f(id) : NULL; }
void cav_avcodec_free_context(AVCodecContext **avctx) { CAV_RESOLVE(avcodec_free_context); if (f) f(avctx); }
const char *cav_avcodec_get_name(enum AVCodecID id) { CAV_RESOLVE(avcodec_get_name); return f ? f(id) : NULL; }
int cav_avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options) {
    CAV_RESOLVE(avcodec_open2); return f ? f(avctx, codec, options) : CAV_NOT_LOADED;
}
int cav_avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par) {
    CAV_RESOLVE(avcodec_parameters_to_context); return f ? f(codec, par) : CAV_NOT_LOADED;
}
const char *cav_avcodec_profile_name(enum AVCodecID codec_id, int profile) {
    CAV_RESOLVE(avcodec_profile_name); return f ? f(codec_id, profile) : NULL;
}
int cav_avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame) {
    CAV_RESOLVE(avcodec_receive_frame); return f ? f(avctx, frame) : CAV_NOT_LOADED;
}
int cav_avcodec_receive_packet(AVCodecContext *avctx, AVPacket *avpkt) {
    CAV_RESOLVE(avcodec_receive_packet); return f ? f(avctx, avpkt) : CAV_NOT_LOADED;
}
int cav_avcodec_send_frame(AVCodecContext *avctx, const AVFrame *frame) {
    CAV_RESOLVE(avcodec_send_frame); return f ? f(avctx, frame) : CAV_NOT_LOADED;
}
int cav_avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt) {
    CAV_RESOLVE(avcodec_send_packet); return f ? f(avctx, avpkt) : CAV_NOT_LOADED;
}
unsigned cav_avcodec_version(void) { CAV_RESOLVE(avcodec_version); return f ? f() : 0; }

int cav_av_read_frame(AVFormatContext *s, AVPacket *pkt) {
    CAV_RESOLVE(av_read_frame); return f ? f(s, pkt) : CAV_NOT_LOADED;
}
AVFormatContext *cav_avformat_alloc_context(void) { CAV_RESOLVE(avformat_alloc_context); return f ? f() : NULL; }
void cav_avformat_close_input(AVFormatContext **s) { CAV_RESOLVE(avformat_close_input); if (f) f(s); }
int cav_avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options) {
    CAV_RESOLVE(avformat_find_stream_info); return f ? f(ic, options) : CAV_NOT_LOADED;
}
int cav_avformat_index_get_entries_count(const AVStream *st) {
    CAV_RESOLVE(avformat_index_get_entries_count); return f ? f(st) : 0;
}
const AVIndexEntry *cav_avformat_index_get_entry(AVStream *st, int idx) {
    CAV_RESOLVE(avformat_index_get_entry); return f ? f(st, idx) : NULL;
}
int cav_avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options) {
    CAV_RESOLVE(avformat_open_input); return f ? f(ps, url, fmt, options) : CAV_NOT_LOADED;
}
AVIOContext *cav_avio_alloc_context(unsigned char *buffer, int buffer_size, int write_flag, void *opaque,
                                    int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),
                                    int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),
                                    int64_t (*seek)(void *opaque, int64_t offset, int whence)) {
    CAV_RESOLVE(avio_alloc_context);
    return f ? f(buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek) : NULL;
}
void cav_avio_context_free(AVIOContext **s) { CAV_RESOLVE(avio_context_free); if (f) f(s); }

void cav_sws_freeContext(struct SwsContext *swsContext) { CAV_RESOLVE(sws_freeContext); if (f) f(swsContext); }
struct SwsContext *cav_sws_getContext(int srcW, int srcH, enum AVPixelFormat srcFormat,
                                      int dstW, int dstH, enum AVPixelFormat dstFormat,
                                      int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param) {
    CAV_RESOLVE(sws_getContext);
    return f ? f(srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param) : NULL;
}
int cav_sws_scale_frame(struct SwsContext *c, AVFrame *dst, const AVFrame *src) {
    CAV_RESOLVE(sws_scale_frame); return f ? f(c, dst, src) : CAV_NOT_LOADED;
}
