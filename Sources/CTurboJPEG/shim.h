#ifndef EXHIBIT_CTURBOJPEG_SHIM_H
#define EXHIBIT_CTURBOJPEG_SHIM_H
#include <stddef.h>
#include <turbojpeg.h>
#include <jconfig.h>

/* TJSCALED is a macro: the scaled side, rounded up, as the decoder computes it. */
static inline int exhibit_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

/* The library's version as a number (2001005 for 2.1.5), from the headers built against. */
static const int exhibit_tj_version_number = LIBJPEG_TURBO_VERSION_NUMBER;

/* Flags the wrapper passes: a progressive JPEG with more than 500 scans is refused (a scan
 * bomb costs minutes of CPU), and the first warning (premature end, corrupt data) stops the
 * decode: a damaged still is left to the caller. */
static const int exhibit_tj_flags = TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING;
#endif
