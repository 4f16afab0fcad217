#ifndef REACTOR_TRACE_CZLIB_SHIM_H
#define REACTOR_TRACE_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 and inflateInit2 are macros that pass the library's version and the stream's
// size; Swift cannot call macros, so these wrappers do. windowBits 15 + 16 selects the gzip
// wrapper; 15 + 32 lets inflate accept gzip or zlib headers.
static inline int reactor_trace_deflate_init_gzip(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int reactor_trace_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 32);
}

#endif
