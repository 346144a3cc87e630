/*
 * alloc.c — application-level page allocator: a stack of free page indexes
 * below high_water, a reservation bitmap and a used bitmap. All state is in
 * DRAM and rebuilt by recovery; the only write to the region is raising the
 * scan limit (scanlimit.c) before a page at or above it is handed out.
 */
#include <stdlib.h>
#include <string.h>

#include "batch.h"

int nvm_alloc_init(nvm_region *r) {
  size_t nbytes = (size_t)((r->page_count + 7) / 8);
  r->reserved_bits = calloc(nbytes ? nbytes : 1, 1);
  r->used_bits = calloc(nbytes ? nbytes : 1, 1);
  if (!r->reserved_bits || !r->used_bits)
    return nvm_fail(NVM_EIO, "region %s: cannot allocate page bitmaps", r->path);
  return NVM_OK;
}

void nvm_alloc_free(nvm_region *r) {
  free(r->free_stack);
  free(r->reserved_bits);
  free(r->used_bits);
  r->free_stack = NULL;
  r->reserved_bits = r->used_bits = NULL;
}

int nvm_check_writable(nvm_region *r) {
  if (r->crashed)
    return nvm_fail(NVM_ECRASHED, "region %s: simulated crash already happened", r->path);
  if (r->readonly) return nvm_fail(NVM_EINVAL, "region %s is open read-only", r->path);
  return NVM_OK;
}

static uint64_t free_pages(const nvm_region *r) {
  return r->free_top + (r->page_count - r->high_water);
}

/* Pages above the high-water mark would cross the persisted scan limit: raising it writes the
 * media, which takes persist_lock (reserve.c). */
int nvm_alloc_needs_raise(const nvm_region *r, uint32_t n) {
  return n > r->free_top && r->high_water + (n - r->free_top) > r->scan_limit;
}

uint64_t nvm_alloc_free_pages(const nvm_region *r) { return free_pages(r); }

uint64_t nvm_alloc_pages_coming(const nvm_region *r) {
  return free_pages(r) + r->freed[0].n + r->freed[1].n;
}

/* Takes n pages (r->lock held, and persist_lock if the scan limit must rise): invalidated
 * pages first, then never-used pages above the high-water mark; all or nothing. The pages
 * promised to staged batches' chained redo records (r->chain_promised) are not taken. */
int nvm_alloc_take(nvm_region *r, uint32_t n, uint64_t *offs) {
  if (free_pages(r) < n || nvm_alloc_pages_coming(r) - n < r->chain_promised)
    return nvm_fail(NVM_EFULL,
                    "region full: %llu of %llu pages in use (%llu reserved, %llu promised to "
                    "chained redo records), %u requested",
                    (unsigned long long)(r->pages_used + r->pages_reserved),
                    (unsigned long long)r->page_count, (unsigned long long)r->pages_reserved,
                    (unsigned long long)r->chain_promised, n);
  /* pages above the high-water mark come after the free stack is empty */
  int rc = n > r->free_top ? nvm_scan_limit_cover(r, r->high_water + (n - r->free_top)) : NVM_OK;
  for (uint32_t i = 0; rc == NVM_OK && i < n; i++) {
    uint64_t idx = r->free_top ? r->free_stack[--r->free_top] : r->high_water++;
    nvm_bit_set(r->reserved_bits, idx);
    r->pages_reserved++;
    offs[i] = nvm_page_off(idx);
  }
  return rc;
}

/* Clears the reservation bits of offs[0..n); on a bad entry restores the ones
 * already cleared, so release is all or nothing (a duplicate is caught too). */
static int unreserve_all(nvm_region *r, uint32_t n, const uint64_t *offs) {
  uint64_t idx = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (nvm_is_page_off(r, offs[i], &idx) && nvm_bit_get(r->reserved_bits, idx)) {
      nvm_bit_clear(r->reserved_bits, idx);
      continue;
    }
    for (uint32_t j = 0; j < i; j++) {
      nvm_is_page_off(r, offs[j], &idx);
      nvm_bit_set(r->reserved_bits, idx);
    }
    return nvm_fail(NVM_EINVAL,
                    "release: entry %u (offset %llu) is not a reserved page (or is listed twice)",
                    i, (unsigned long long)offs[i]);
  }
  return NVM_OK;
}

int nvm_free_reserve(nvm_region *r, uint64_t extra) {
  uint64_t need = r->free_top + r->pending_frees + extra;
  if (need <= r->free_cap) return NVM_OK;
  uint64_t cap = r->free_cap ? r->free_cap : 1024;
  while (cap < need) cap *= 2;
  uint32_t *n = realloc(r->free_stack, cap * sizeof *n);
  if (!n) return nvm_fail(NVM_EIO, "region %s: cannot grow the free list", r->path);
  r->free_stack = n;
  r->free_cap = cap;
  return NVM_OK;
}

int nvm_release_pages(nvm_region *r, uint32_t n, const uint64_t *offs) {
  pthread_mutex_lock(&r->lock);
  int rc = nvm_check_writable(r);
  if (rc == NVM_OK && n > 0 && !offs) rc = nvm_fail(NVM_EINVAL, "release: offs is NULL");
  if (rc == NVM_OK) rc = nvm_free_reserve(r, n);
  if (rc == NVM_OK) rc = unreserve_all(r, n, offs);
  for (uint32_t i = n; rc == NVM_OK && i > 0; i--) {
    uint64_t idx = 0;
    nvm_is_page_off(r, offs[i - 1], &idx);
    r->pages_reserved--;
    r->free_stack[r->free_top++] = (uint32_t)idx;
  }
  pthread_mutex_unlock(&r->lock);
  return rc;
}

int nvm_free_push(nvm_region *r, uint32_t page) {
  int rc = nvm_free_reserve(r, 1);
  if (rc == NVM_OK) r->free_stack[r->free_top++] = page;
  return rc;
}
