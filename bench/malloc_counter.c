// Counts the calls of malloc, calloc, realloc and free (of a non-null pointer) thread by thread,
// for scripts/per-move-counts: preloaded (LD_PRELOAD) into cor-server or cor-calibrate, it writes
// "thread-id thread-name calls" lines to $MALLOC_COUNTER_DIR/<pid> every 200 ms. Other processes
// that inherit the preload (the load generator) are left alone. A measuring aid, not part of
// the build: cc -O2 -shared -fPIC -o malloc_counter.so bench/malloc_counter.c -lpthread
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// glibc's own entry points: calling them cannot recurse into the counters below.
extern void* __libc_malloc(size_t size);
extern void __libc_free(void* pointer);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* pointer, size_t size);

enum { kThreads = 256 };
static _Atomic long calls[kThreads];
static _Atomic int thread_ids[kThreads];
static _Atomic int threads_seen;
static __thread int slot = -1;

static inline void count_call(void) {
    if (slot < 0) {
        slot = atomic_fetch_add(&threads_seen, 1) % kThreads;
        thread_ids[slot] = (int)syscall(SYS_gettid);
    }
    atomic_fetch_add_explicit(&calls[slot], 1, memory_order_relaxed);
}

void* malloc(size_t size) {
    count_call();
    return __libc_malloc(size);
}
void free(void* pointer) {
    if (pointer) count_call();
    __libc_free(pointer);
}
void* calloc(size_t count, size_t size) {
    count_call();
    return __libc_calloc(count, size);
}
void* realloc(void* pointer, size_t size) {
    count_call();
    return __libc_realloc(pointer, size);
}

static void read_name(const char* path, char* name, size_t size) {
    snprintf(name, size, "?");
    FILE* file = fopen(path, "r");
    if (!file) return;
    if (fgets(name, (int)size, file)) name[strcspn(name, "\n")] = 0;
    fclose(file);
}

// Rewrites the counts file (through a temporary name: a reader never sees half of it).
static void* write_counts(void* folder) {
    char path[256], temporary[272];
    snprintf(path, sizeof path, "%s/%d", (const char*)folder, getpid());
    snprintf(temporary, sizeof temporary, "%s.tmp", path);
    for (;;) {
        usleep(200000);
        FILE* out = fopen(temporary, "w");
        if (!out) continue;
        const int seen = threads_seen < kThreads ? threads_seen : kThreads;
        for (int i = 0; i < seen; ++i) {
            char task[64], name[32];
            snprintf(task, sizeof task, "/proc/self/task/%d/comm", thread_ids[i]);
            read_name(task, name, sizeof name);
            fprintf(out, "%d %s %ld\n", thread_ids[i], name, (long)calls[i]);
        }
        fclose(out);
        rename(temporary, path);
    }
    return NULL;
}

__attribute__((constructor)) static void start_writing(void) {
    char name[32];
    read_name("/proc/self/comm", name, sizeof name);
    const char* folder = getenv("MALLOC_COUNTER_DIR");
    if (!folder || (strcmp(name, "cor-server") != 0 && strcmp(name, "cor-calibrate") != 0)) return;
    pthread_t writer;
    if (pthread_create(&writer, NULL, write_counts, (void*)folder) == 0) pthread_detach(writer);
}
