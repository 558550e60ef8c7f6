// libavformat / libavcodec / libavutil / libswscale loaded on first use (dlopen), so a process
// that never touches media never maps them. Only Sources/Media imports this module.
//
// Each `cav_<name>` has exactly the prototype of libav's `<name>` (cav_loader.c asserts it
// against the headers) and calls it through the handle of the library that defines it. The
// first call of any of them, or of `cav_load`, loads the four libraries once per process.
// If they cannot be loaded, `cav_load` returns the reason and every `cav_<name>` fails the
// way libav reports failure (NULL, AVERROR(ENOSYS), 0; a `void` one does nothing): callers
// check `cav_load` first and never reach that, but nothing crashes if one does.
//
// `EXHIBIT_LIBAV_DIR`, when set and non-empty, is the directory the libraries are loaded from
// (`$EXHIBIT_LIBAV_DIR/libavutil.so.57`, …); otherwise the dynamic loader's search path.
#ifndef EXHIBIT_CAV_LOADER_H
#define EXHIBIT_CAV_LOADER_H
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libswscale/swscale.h>

/// Loads the four libraries and resolves every function below (once per process, thread-safe).
/// NULL when they are usable; else why not (the dynamic loader's message), valid for the
/// life of the process.
const char *cav_load(void);

/// The file names loaded (SONAMEs from the headers' LIB*_VERSION_MAJOR), e.g.
/// `libavformat.so.59`; index 0 avutil, 1 swscale, 2 avcodec, 3 avformat; NULL past 3.
const char *cav_library_name(int index);

// libavutil
void cav_av_dict_free(AVDictionary **m);
int cav_av_dict_set(AVDictionary **pm, const char *key, const char *value, int flags);
AVFrame *cav_av_frame_alloc(void);
void cav_av_frame_free(AVFrame **frame);
int cav_av_frame_get_buffer(AVFrame *frame, int align);
void cav_av_freep(void *ptr);
void cav_av_log_set_level(int level);
void *cav_av_malloc(size_t size);
int cav_av_strerror(int errnum, char *errbuf, size_t errbuf_size);

// libavcodec
int cav_av_get_bits_per_sample(enum AVCodecID codec_id);
AVPacket *cav_av_packet_alloc(void);
void cav_av_packet_free(AVPacket **pkt);
void cav_av_packet_unref(AVPacket *pkt);
AVCodecContext *cav_avcodec_alloc_context3(const AVCodec *codec);
const AVCodec *cav_avcodec_find_decoder(enum AVCodecID id);
const AVCodec *cav_avcodec_find_encoder(enum AVCodecID id);
void cav_avcodec_free_context(AVCodecContext **avctx);
const char *cav_avcodec_get_name(enum AVCodecID id);
int cav_avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options);
int cav_avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par);
const char *cav_avcodec_profile_name(enum AVCodecID codec_id, int profile);
int cav_avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame);
int cav_avcodec_receive_packet(AVCodecContext *avctx, AVPacket *avpkt);
int cav_avcodec_send_frame(AVCodecContext *avctx, const AVFrame *frame);
int cav_avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt);
unsigned cav_avcodec_version(void);

// libavformat
int cav_av_read_frame(AVFormatContext *s, AVPacket *pkt);
AVFormatContext *cav_avformat_alloc_context(void);
void cav_avformat_close_input(AVFormatContext **s);
int cav_avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options);
int cav_avformat_index_get_entries_count(const AVStream *st);
const AVIndexEntry *cav_avformat_index_get_entry(AVStream *st, int idx);
int cav_avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options);
AVIOContext *cav_avio_alloc_context(unsigned char *buffer, int buffer_size, int write_flag, void *opaque,
                                    int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),
                                    int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),
                                    int64_t (*seek)(void *opaque, int64_t offset, int whence));
void cav_avio_context_free(AVIOContext **s);

// libswscale
void cav_sws_freeContext(struct SwsContext *swsContext);
struct SwsContext *cav_sws_getContext(int srcW, int srcH, enum AVPixelFormat srcFormat,
                                      int dstW, int dstH, enum AVPixelFormat dstFormat,
                                      int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param);
int cav_sws_scale_frame(struct SwsContext *c, AVFrame *dst, const AVFrame *src);

#endif
