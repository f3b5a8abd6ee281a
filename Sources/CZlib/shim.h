// zlib, for AsyncHTTPClientTransport, which inflates gzip and deflate response bodies itself (see
// AsyncHTTPClientInflater.swift). Only the trait AsyncHTTPClient builds it.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H

#include <zlib.h>

/// inflateInit2, a macro in zlib.h, as a function Swift can call.
static inline int CZlib_inflateInit2(z_streamp stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}

#endif
