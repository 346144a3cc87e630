/*
 * work.c — the working copy (region-format.md §7.7).
 *
 * A private copy-on-write mapping of the region file: readers read it, staging writes it
 * (stage.c), and the region's own mapping (r->base, the media) is written only by commits,
 * holding persist_lock. Invariant: the working copy equals the media with every staged batch
 * applied in staging order (apart from the log area, which only the media has). So a batch
 * staged under the caller's lock is visible at once, and the media only ever moves from one
 * committed group to the next: a store to the working copy never reaches the region file,
 * whatever the page cache or the CPU caches do.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "nvm_internal.h"

int nvm_work_map(nvm_region *r) {
  void *p = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE, r->fd, 0);
  if (p == MAP_FAILED) return nvm_fail(NVM_EIO, "region %s: cannot map its working copy", r->path);
  r->work = p;
  size_t nbytes = (size_t)((r->size / NVM_OS_PAGE + 7) / 8);
  r->cow_bits = calloc(nbytes ? nbytes : 1, 1);
  if (!r->cow_bits) return nvm_fail(NVM_EIO, "region %s: cannot allocate a page bitmap", r->path);
  return NVM_OK;
}

void nvm_work_unmap(nvm_region *r) {
  if (r->work) munmap(r->work, r->size);
  r->work = NULL;
  free(r->cow_bits);
  r->cow_bits = NULL;
}

void nvm_work_mirror(nvm_region *r, uint64_t off) {
  if (r->work) __atomic_store_n((uint64_t *)(r->work + off), nvm_ld64(r, off), __ATOMIC_RELAXED);
}

const uint8_t *nvm_region_view(const nvm_region *r) { return r->work ? r->work : r->base; }
