// libavformat / libavcodec / libavutil / libswscale headers for Swift: types, enums and the
// macros re-exported below. Only Sources/Media imports it. No library is linked: the functions
// are called through CAVLoader's `cav_*` trampolines (dlopen on first use), so nothing here
// may call a libav function, not even in a `static inline` helper.
// AVERROR(e), AVERROR_EOF, AV_NOPTS_VALUE and AV_TIME_BASE_Q are macros: re-exported here.
#ifndef EXHIBIT_CAV_SHIM_H
#define EXHIBIT_CAV_SHIM_H
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

static const int exhibit_AVERROR_EOF = AVERROR_EOF;
static const int exhibit_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int64_t exhibit_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int exhibit_AVSEEK_SIZE = AVSEEK_SIZE;
static const int exhibit_AVFMT_FLAG_NOPARSE = AVFMT_FLAG_NOPARSE;
static const int exhibit_AVFMT_FLAG_NOFILLIN = AVFMT_FLAG_NOFILLIN;
static const int exhibit_AVFMT_FLAG_CUSTOM_IO = AVFMT_FLAG_CUSTOM_IO;
static const int exhibit_AV_PKT_FLAG_KEY = AV_PKT_FLAG_KEY;
static const int exhibit_AV_PKT_FLAG_CORRUPT = AV_PKT_FLAG_CORRUPT;
static const int exhibit_SWS_AREA = SWS_AREA;
static const int exhibit_SWS_BILINEAR = SWS_BILINEAR;
static const int exhibit_FF_QP2LAMBDA = FF_QP2LAMBDA;
static const int exhibit_AV_CODEC_FLAG_QSCALE = AV_CODEC_FLAG_QSCALE;
static inline int exhibit_AVERROR(int e) { return AVERROR(e); }
static inline AVRational exhibit_AV_TIME_BASE_Q(void) { AVRational q = {1, AV_TIME_BASE}; return q; }
#endif
