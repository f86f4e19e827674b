#include "AllocationCounter.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static atomic_int counting;
static atomic_long allocations;
/* Only the thread that started counting is counted: the code measured runs there, and a
   thread an earlier test left behind (a pipe reader, a finished Process's monitor) must
   not fail a test that allocated nothing. */
static _Atomic(pthread_t) counted_thread;

static inline void count_one(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)
        && pthread_equal(atomic_load_explicit(&counted_thread, memory_order_relaxed), pthread_self())) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void allocation_counter_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&counted_thread, pthread_self());
    atomic_store(&counting, 1);
}

long allocation_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocations);
}

void *malloc(size_t size) { count_one(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { count_one(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { count_one(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *out = pointer;
    return 0;
}
