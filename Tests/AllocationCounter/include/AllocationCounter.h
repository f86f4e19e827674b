#ifndef SYSSTATS_ALLOCATION_COUNTER_H
#define SYSSTATS_ALLOCATION_COUNTER_H

/// Counts heap allocations made on the thread that started counting, while it is on.
///
/// The test executable defines malloc, calloc, realloc, aligned_alloc,
/// posix_memalign and memalign itself (an executable's definitions win over
/// libc's), counts, and forwards to glibc's __libc_* entry points.
void allocation_counter_start(void);
/// Stops counting and returns the number of allocation calls since start.
long allocation_counter_stop(void);

#endif
