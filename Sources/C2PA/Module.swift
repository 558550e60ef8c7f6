// The byte sources (`ByteSource`, `MemoryByteSource`, `FileByteSource`, `ByteSourceError`)
// were this module's; they live in `Ground` now (one protocol for every layer), re-exported so
// that the containers' clients and new container readers keep their names.
@_exported import Ground
