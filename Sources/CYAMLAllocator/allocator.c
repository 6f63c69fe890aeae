// libyaml's allocation functions, replaced to keep small freed blocks for the next allocation on the same thread.
//
// libyaml scans every scalar into a 16-byte string and three 16-byte scratch strings, and frees them a moment
// later: about 80 malloc/free pairs for a request file, two thirds of the allocations a file's check makes. libyaml
// calls `yaml_malloc`, `yaml_realloc`, `yaml_free` and `yaml_strdup` through its procedure linkage table, so these
// definitions in the executable take their place; a block freed small is kept here (a few dozen per thread) and
// handed back for the next small request instead of going through glibc's free lists.
//
// Every block is an ordinary malloc(3) block, whichever function allocated or frees it: a libyaml that calls its own
// functions directly, or memory allocated with malloc and freed here (the shim's `cyaml_parser_initialize_small`),
// mixes safely. Only on glibc, whose `malloc_usable_size` tells a small block from a larger one.
#include "yaml_allocator.h"
#include <stdlib.h>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <pthread.h>
#include <string.h>

/// The largest request a kept block serves: libyaml's initial string size.
#define SMALL_REQUEST 16
/// The usable size of glibc's smallest chunk: a block kept here has at least `SMALL_REQUEST` bytes and at most this.
#define SMALL_BLOCK 24
/// Blocks kept per thread: more than a request file's scalars need at once.
#define KEPT_BLOCKS 64

static __thread void *kept[KEPT_BLOCKS];
static __thread int keptCount;
static __thread int releasesAtExit;
static pthread_key_t exitKey;
static pthread_once_t exitKeyOnce = PTHREAD_ONCE_INIT;

/// Frees the blocks a thread kept, when it ends.
static void releaseKept(void *unused) {
    (void)unused;
    while (keptCount > 0) free(kept[--keptCount]);
}

static void makeExitKey(void) {
    pthread_key_create(&exitKey, releaseKept);
}

int cyaml_cached_block_count(void) {
    return keptCount;
}

void *yaml_malloc(size_t size) {
    if (size <= SMALL_REQUEST && keptCount > 0) return kept[--keptCount];
    return malloc(size ? size : 1);
}

void *yaml_realloc(void *ptr, size_t size) {
    return ptr ? realloc(ptr, size ? size : 1) : yaml_malloc(size);
}

void yaml_free(void *ptr) {
    if (!ptr) return;
    size_t usable = malloc_usable_size(ptr);
    if (keptCount < KEPT_BLOCKS && usable >= SMALL_REQUEST && usable <= SMALL_BLOCK) {
        if (!releasesAtExit) {
            pthread_once(&exitKeyOnce, makeExitKey);
            releasesAtExit = pthread_setspecific(exitKey, &releasesAtExit) == 0;
            if (!releasesAtExit) {
                free(ptr);
                return;
            }
        }
        kept[keptCount++] = ptr;
        return;
    }
    free(ptr);
}

char *yaml_strdup(const char *str) {
    if (!str) return NULL;
    size_t size = strlen(str) + 1;
    char *copy = yaml_malloc(size);
    return copy ? memcpy(copy, str, size) : NULL;
}

#else
int cyaml_cached_block_count(void) {
    return 0;
}
#endif
