/*
 * attach.c — recovery step 3: which live inode pages hang off the root.
 * Children are found through one array of (parent page, page) keys sorted by
 * radix sort, so the pass is O(n) over 10M inodes; a child also has to carry
 * its parent's id, so a reused parent page does not adopt the old children.
 */
#include <stdlib.h>
#include <string.h>

#include "nvm_internal.h"

/* LSD radix sort, 16 bits per pass. */
int nvm_radix_sort_u64(uint64_t *a, uint64_t n) {
  if (n < 2) return NVM_OK;
  uint64_t *tmp = malloc(n * sizeof *tmp);
  uint64_t *cnt = malloc(65536 * sizeof *cnt);
  if (!tmp || !cnt) {
    free(tmp);
    free(cnt);
    return nvm_fail(NVM_EIO, "recovery: out of memory sorting %llu keys", (unsigned long long)n);
  }
  uint64_t *src = a, *dst = tmp;
  for (int shift = 0; shift < 64; shift += 16) {
    memset(cnt, 0, 65536 * sizeof *cnt);
    for (uint64_t i = 0; i < n; i++) cnt[(src[i] >> shift) & 0xffff]++;
    uint64_t sum = 0;
    for (int d = 0; d < 65536; d++) { uint64_t c = cnt[d]; cnt[d] = sum; sum += c; }
    for (uint64_t i = 0; i < n; i++) dst[cnt[(src[i] >> shift) & 0xffff]++] = src[i];
    uint64_t *t = src; src = dst; dst = t;
  }
  /* four passes: the result is back in a */
  free(tmp);
  free(cnt);
  return NVM_OK;
}

static uint64_t in_id(const nvm_region *r, uint32_t page) { return nvm_ld64(r, nvm_page_off(page) + NVM_IN_ID); }

/* keys[i] = parent page index << 32 | page index, for inodes whose parent
 * offset is a data page; the others can only be the root or orphans. */
static uint64_t *child_keys(const nvm_region *r, const struct nvm_scan *s, uint64_t *nkeys) {
  uint64_t *keys = malloc((s->ninodes ? s->ninodes : 1) * sizeof *keys), n = 0, pidx;
  if (!keys) return NULL;
  for (uint64_t i = 0; i < s->ninodes; i++) {
    uint64_t poff = nvm_ld64(r, nvm_page_off(s->inodes[i]) + NVM_IN_PARENT_PAGE);
    if (nvm_is_page_off(r, poff, &pidx)) keys[n++] = pidx << 32 | s->inodes[i];
  }
  *nkeys = n;
  return keys;
}

static uint64_t lower_bound(const uint64_t *keys, uint64_t n, uint64_t parent) {
  uint64_t lo = 0, hi = n, want = parent << 32;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < want) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static int root_page(nvm_region *r, uint32_t *root) {
  uint64_t off = nvm_ld64(r, NVM_SB_ROOT_PAGE), idx;
  if (!nvm_is_page_off(r, off, &idx))
    return nvm_fail(NVM_ECORRUPT, "%s: superblock root page %llu is not a data page", r->path,
                    (unsigned long long)off);
  uint64_t word = nvm_ld64(r, off);
  if (word != NVM_STATE_WORD(NVM_KIND_DIR, NVM_STATE_LIVE))
    return nvm_fail(NVM_ECORRUPT, "%s: root page %llu is not a live directory (state word 0x%016llx)", r->path,
                    (unsigned long long)off, (unsigned long long)word);
  *root = (uint32_t)idx;
  return NVM_OK;
}

/* Breadth-first from the root; only directories have children. */
static void bfs(nvm_region *r, struct nvm_scan *s, const uint64_t *keys, uint64_t nkeys, uint32_t root) {
  uint8_t *attached = r->used_bits; /* used bits double as the "kept" set */
  s->order[s->norder++] = root;
  nvm_bit_set(attached, root);
  for (uint64_t head = 0; head < s->norder; head++) {
    uint32_t p = s->order[head];
    if (NVM_KIND_OF(nvm_ld64(r, nvm_page_off(p))) != NVM_KIND_DIR) continue;
    uint64_t pid = in_id(r, p);
    for (uint64_t k = lower_bound(keys, nkeys, p); k < nkeys && (keys[k] >> 32) == p; k++) {
      uint32_t c = (uint32_t)keys[k];
      if (nvm_bit_get(attached, c)) continue;
      if (nvm_ld64(r, nvm_page_off(c) + NVM_IN_PARENT_ID) != pid) continue;
      nvm_bit_set(attached, c);
      s->order[s->norder++] = c;
    }
  }
}

static int check_unique_ids(nvm_region *r, const struct nvm_scan *s) {
  uint64_t *ids = malloc((s->norder ? s->norder : 1) * sizeof *ids);
  if (!ids) return nvm_fail(NVM_EIO, "recovery: out of memory");
  for (uint64_t i = 0; i < s->norder; i++) ids[i] = in_id(r, s->order[i]);
  int rc = nvm_radix_sort_u64(ids, s->norder);
  for (uint64_t i = 1; rc == NVM_OK && i < s->norder; i++)
    if (ids[i] == ids[i - 1])
      rc = nvm_fail(NVM_ECORRUPT, "%s: inode id %llu appears on two attached inode pages", r->path,
                    (unsigned long long)ids[i]);
  free(ids);
  return rc;
}

int nvm_attach_tree(nvm_region *r, struct nvm_scan *s) {
  if (nvm_ld64(r, NVM_SB_ROOT_PAGE) == 0) return NVM_OK; /* empty namespace */
  uint32_t root = 0;
  int rc = root_page(r, &root);
  if (rc) return rc;
  uint64_t nkeys = 0, *keys = child_keys(r, s, &nkeys);
  s->order = malloc((s->ninodes ? s->ninodes : 1) * sizeof *s->order);
  if (!keys || !s->order) {
    free(keys);
    return nvm_fail(NVM_EIO, "recovery: out of memory for %llu inodes", (unsigned long long)s->ninodes);
  }
  rc = nvm_radix_sort_u64(keys, nkeys);
  if (rc == NVM_OK) bfs(r, s, keys, nkeys, root);
  free(keys);
  return rc ? rc : check_unique_ids(r, s);
}
