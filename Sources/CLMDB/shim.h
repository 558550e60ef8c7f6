// LMDB for Swift. Only Sources/LMDB imports this module.
#ifndef EXHIBIT_CLMDB_SHIM_H
#define EXHIBIT_CLMDB_SHIM_H
#include <lmdb.h>
#endif
