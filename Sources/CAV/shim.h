// libavformat / libavcodec / libavutil / libswscale for Swift. Only Sources/Media imports it.
// AVERROR(e), AVERROR_EOF, AV_NOPTS_VALUE and AV_TIME_BASE_Q are macros: re-exported here.
#ifndef EXHIBIT_CAV_SHIM_H
#define EXHIBIT_CAV_SHIM_H
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mem.h>
#include <libswscale/swscale.h>

static const int exhibit_AVERROR_EOF = AVERROR_EOF;
static const int64_t exhibit_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static inline int exhibit_AVERROR(int e) { return AVERROR(e); }
static inline AVRational exhibit_AV_TIME_BASE_Q(void) { AVRational q = {1, AV_TIME_BASE}; return q; }
#endif
