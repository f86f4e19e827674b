#ifndef CCRC32_H
#define CCRC32_H

#include <stddef.h>
#include <stdint.h>

/// Folds `length` bytes at `bytes` into the CRC-32 (IEEE, reflected) register `*crc` (the
/// register itself: zlib's value inverted) with carry-less multiplication, when the CPU has
/// it (x86-64 with PCLMULQDQ and SSE4.1) and `length` is a multiple of 16 of at least 64.
/// Returns 1 when it did, 0 when it did nothing (the caller then uses its table).
int ccrc32_fold(const void *bytes, size_t length, uint32_t *crc);

/// Continues the CRC-32 register `crc` (as ``ccrc32_fold``'s) over `length` bytes bit by bit:
/// about 30 instructions a byte, no table and no constants in memory, for the up to 15
/// bytes the fold leaves.
uint32_t ccrc32_bits(const void *bytes, size_t length, uint32_t crc);

#endif
