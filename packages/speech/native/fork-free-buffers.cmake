# Every recording the server decodes starts ffmpeg (and ffprobe), and Node.js starts a program by
# fork(), on the event loop: the kernel copies the page tables of the whole process first, about
# 70 µs per MB of private memory. The whisper contexts (weights, key/value caches and compute
# buffers, about 280 MB with two workers on base) made each start of ffmpeg hold the event loop for
# 20 ms on an idle machine, and more on a busy one: 20 uploads arriving together delayed a health
# check by 129 ms in a CI run. ggml's large buffers now get a mapping of their own that a child
# process does not inherit (MADV_DONTFORK): a child only runs exec() and never touches them.
# Buffers under 1 MiB stay with malloc. ggml frees each buffer with the size it was allocated with.
set(_verbatim_aligned_malloc "  #else
    int result = posix_memalign(&aligned_memory, alignment, size);
  #endif")
set(_verbatim_aligned_malloc_patched "  #else
  #if defined(__linux__) && defined(MADV_DONTFORK)
    // verbatim_fork_free_buffers: see packages/speech/native/fork-free-buffers.cmake.
    if (size >= VERBATIM_OWN_MAPPING_BYTES) {
        void * mapping = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapping == MAP_FAILED) {
            GGML_LOG_ERROR(\"%s: insufficient memory (attempted to map %6.2f MB)\\n\", __func__, size/(1024.0*1024.0));
            return NULL;
        }
        madvise(mapping, size, MADV_DONTFORK);
        return mapping;
    }
  #endif
    int result = posix_memalign(&aligned_memory, alignment, size);
  #endif")
set(_verbatim_aligned_free "#else
    free(ptr);
#endif")
set(_verbatim_aligned_free_patched "#else
  #if defined(__linux__) && defined(MADV_DONTFORK)
    if (ptr != NULL && size >= VERBATIM_OWN_MAPPING_BYTES) {
        munmap(ptr, size);
        return;
    }
  #endif
    free(ptr);
#endif")
set(_verbatim_prctl "#if defined(__linux__)
#include <sys/prctl.h>
#endif")
set(_verbatim_prctl_mman "#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/mman.h>
#define VERBATIM_OWN_MAPPING_BYTES ((size_t) 1 << 20)
#endif")
verbatim_patch_source(ggml/src/ggml.c fork-free-buffers.cmake verbatim_fork_free_buffers
  _verbatim_prctl _verbatim_prctl_mman
  _verbatim_aligned_malloc _verbatim_aligned_malloc_patched
  _verbatim_aligned_free _verbatim_aligned_free_patched)
