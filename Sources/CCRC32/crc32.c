// CRC-32 by folding 64 bytes at a time with PCLMULQDQ (Intel's "Fast CRC Computation for
// Generic Polynomials Using PCLMULQDQ Instruction", with the constants of the reflected IEEE
// polynomial as zlib's and Linux's x86 code use them). A table-driven CRC reads a 1 KiB
// table that a once-a-second sampler or renderer finds out of cache; this needs no table.
#include "CCRC32.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// Per thread, in the thread's own block: the sampler and the renderer are one thread each,
// and that block's page is one each of their samples touches anyway (the stack protector's
// canary), where a global would be a page of data of its own at one sample a second.
static __thread int usable = -1;

// A constant made in registers, not loaded from the constant pool: that pool's page is
// another a checksum would touch once a second for five 16-byte constants.
#define IN_REGISTERS(name, high, low) \
    uint64_t name##_low = (low), name##_high = (high); \
    __asm__("" : "+r"(name##_low), "+r"(name##_high)); \
    const __m128i name = _mm_set_epi64x((long long)name##_high, (long long)name##_low)

static int detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    return (c & bit_PCLMUL) != 0 && (c & bit_SSE4_1) != 0;
}

__attribute__((target("pclmul,sse4.1")))
static uint32_t fold(const unsigned char *p, size_t length, uint32_t crc) {
    // x^(4*128+64) mod P, x^(4*128) mod P (bit-reflected, shifted): fold four lanes by 64 bytes.
    IN_REGISTERS(k1k2, 0x01c6e41596, 0x0154442bd4);
    // x^(128+64) mod P, x^128 mod P: fold one lane by 16 bytes.
    IN_REGISTERS(k3k4, 0x00ccaa009e, 0x01751997d0);
    IN_REGISTERS(k5, 0, 0x0163cd6124);
    // P' and mu for the Barrett reduction.
    IN_REGISTERS(poly, 0x01f7011641, 0x01db710641);
    IN_REGISTERS(low32, 0xffffffff, 0xffffffff);

    __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 0x00));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 0x10));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 0x20));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(p + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    p += 64;
    length -= 64;
    while (length >= 64) {
        __m128i x5 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
        __m128i x6 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
        __m128i x7 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
        __m128i x8 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
        x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
        x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
        x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(p + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(p + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(p + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(p + 0x30)));
        p += 64;
        length -= 64;
    }
    // The four lanes into one.
    __m128i x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
    x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
    x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
    // The 16-byte blocks left.
    while (length >= 16) {
        x5 = _mm_clmulepi64_si128(x1, k3k4, 0x00);
        x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, _mm_loadu_si128((const __m128i *)p)), x5);
        p += 16;
        length -= 16;
    }
    // 128 bits to 64.
    x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, low32);
    x1 = _mm_clmulepi64_si128(x1, k5, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    // Barrett reduction to 32 bits.
    x2 = _mm_and_si128(x1, low32);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x10);
    x2 = _mm_and_si128(x2, low32);
    x2 = _mm_clmulepi64_si128(x2, poly, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}

int ccrc32_fold(const void *bytes, size_t length, uint32_t *crc) {
    if (length < 64 || (length & 15) != 0) return 0;
    if (usable < 0) usable = detect();
    if (!usable) return 0;
    *crc = fold((const unsigned char *)bytes, length, *crc);
    return 1;
}

#else

int ccrc32_fold(const void *bytes, size_t length, uint32_t *crc) {
    (void)bytes; (void)length; (void)crc;
    return 0;
}

#endif

uint32_t ccrc32_bits(const void *bytes, size_t length, uint32_t crc) {
    const unsigned char *p = (const unsigned char *)bytes;
    // Not vectorised: a vector loop's constants come from the constant pool, a page of its
    // own for the up to 15 bytes a checksum has left after the fold.
#pragma clang loop vectorize(disable) interleave(disable)
    for (size_t i = 0; i < length; i++) {
        crc ^= p[i];
#pragma clang loop unroll(disable)
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc;
}
