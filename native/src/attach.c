/*
 * attach.c — recovery step 3: which live inode pages hang off the root.
 * One sequential pass over the live inodes (page order) collects (parent page,
 * page) keys of the children whose parent page carries their parent id, so a
 * reused parent page does not adopt the old children; a stable radix sort on
 * the parent half groups siblings (in page order); the breadth-first walk
 * then touches no page at all. Every pass over the pages is in page order:
 * a walk in tree order visits a directory's children spread over the region
 * and is bound by cache and TLB misses (10M inodes: ~3x slower recovery).
 */
#include <stdlib.h>
#include <string.h>

#include "nvm_internal.h"

/* Stable LSD radix sort on bits [from, 64), 16 bits per pass. */
static int radix_sort_u64(uint64_t *a, uint64_t n, int from) {
  if (n < 2) return NVM_OK;
  uint64_t *tmp = malloc(n * sizeof *tmp);
  uint64_t *cnt = malloc(65536 * sizeof *cnt);
  if (!tmp || !cnt) {
    free(tmp);
    free(cnt);
    return nvm_fail(NVM_EIO, "recovery: out of memory sorting %llu keys", (unsigned long long)n);
  }
  uint64_t *src = a, *dst = tmp;
  for (int shift = from; shift < 64; shift += 16) {
    memset(cnt, 0, 65536 * sizeof *cnt);
    for (uint64_t i = 0; i < n; i++) cnt[(src[i] >> shift) & 0xffff]++;
    uint64_t sum = 0;
    for (int d = 0; d < 65536; d++) {
      uint64_t c = cnt[d];
      cnt[d] = sum;
      sum += c;
    }
    for (uint64_t i = 0; i < n; i++) dst[cnt[(src[i] >> shift) & 0xffff]++] = src[i];
    uint64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, n * sizeof *a); /* an odd number of passes */
  free(tmp);
  free(cnt);
  return NVM_OK;
}

static uint64_t in_id(const nvm_region *r, uint32_t page) {
  return nvm_ld64(r, nvm_page_off(page) + NVM_IN_ID);
}

/* keys[i] = parent page index << 32 | page index, in page order, for inodes whose parent
 * offset is a data page holding their parent id; the others can only be the root or
 * orphans. Marks directory pages in dirs. */
static uint64_t *child_keys(const nvm_region *r, const struct nvm_scan *s, uint8_t *dirs,
                            uint64_t *nkeys) {
  uint64_t *keys = malloc((s->ninodes ? s->ninodes : 1) * sizeof *keys), n = 0, pidx;
  if (!keys) return NULL;
  for (uint64_t i = 0; i < s->ninodes; i++) {
    uint64_t off = nvm_page_off(s->inodes[i]);
    if (NVM_KIND_OF(nvm_ld64(r, off)) == NVM_KIND_DIR) nvm_bit_set(dirs, s->inodes[i]);
    uint64_t poff = nvm_ld64(r, off + NVM_IN_PARENT_PAGE);
    if (nvm_is_page_off(r, poff, &pidx) &&
        nvm_ld64(r, poff + NVM_IN_ID) == nvm_ld64(r, off + NVM_IN_PARENT_ID))
      keys[n++] = pidx << 32 | s->inodes[i];
  }
  *nkeys = n;
  return keys;
}

static uint64_t lower_bound(const uint64_t *keys, uint64_t n, uint64_t parent) {
  uint64_t lo = 0, hi = n, want = parent << 32;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (keys[mid] < want)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int root_page(nvm_region *r, uint32_t *root) {
  uint64_t off = nvm_sb_get(r, NVM_SB_ROOT_PAGE), idx;
  if (!nvm_is_page_off(r, off, &idx))
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_ROOT_PAGE,
                       "%s: superblock root page %llu is not a data page", r->path,
                       (unsigned long long)off);
  uint64_t word = nvm_ld64(r, off);
  if (!nvm_is_live(word, NVM_KIND_DIR)) /* the pointer or the page: the pointer, as the checker */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_ROOT_PAGE,
                       "%s: root page %llu is not a live directory (state word 0x%016llx)", r->path,
                       (unsigned long long)off, (unsigned long long)word);
  *root = (uint32_t)idx;
  return NVM_OK;
}

/* Breadth-first from the root over directories only (only they have children), then the
 * attached files in page order: s->order is the directories, parents first, then the files. */
static void bfs(nvm_region *r, struct nvm_scan *s, const uint64_t *keys, uint64_t nkeys,
                const uint8_t *dirs, uint32_t root) {
  uint8_t *attached = r->used_bits; /* used bits double as the "kept" set */
  s->order[s->norder++] = root;
  nvm_bit_set(attached, root);
  for (uint64_t head = 0; head < s->norder; head++) {
    uint32_t p = s->order[head];
    for (uint64_t k = lower_bound(keys, nkeys, p); k < nkeys && (keys[k] >> 32) == p; k++) {
      uint32_t c = (uint32_t)keys[k];
      if (nvm_bit_get(attached, c)) continue;
      nvm_bit_set(attached, c);
      if (nvm_bit_get(dirs, c)) s->order[s->norder++] = c;
    }
  }
  for (uint64_t i = 0; i < s->ninodes; i++) {
    uint32_t c = s->inodes[i];
    if (nvm_bit_get(attached, c) && !nvm_bit_get(dirs, c)) s->order[s->norder++] = c;
  }
}

/* Reported at the IN_ID of the attached page with that id at the highest offset: which
 * of the two is damaged cannot be known (the checker reports the same place). */
static int duplicate_id(nvm_region *r, const struct nvm_scan *s, uint64_t id) {
  uint32_t last = 0;
  for (uint64_t i = 0; i < s->norder; i++)
    if (in_id(r, s->order[i]) == id && s->order[i] > last) last = s->order[i];
  return nvm_fail_at(NVM_ECORRUPT, nvm_page_off(last) + NVM_IN_ID,
                     "%s: inode id %llu appears on two attached inode pages", r->path,
                     (unsigned long long)id);
}

/* Inode ids are handed out in increasing order, so n live ids usually span a range not much
 * wider than n: a bitmap over it finds a repeat in one pass over the ids. Ids spread wider
 * than 64 per inode (the bitmap would outgrow the id array) are sorted instead. */
static int check_unique_ids(nvm_region *r, const struct nvm_scan *s) {
  uint64_t n = s->norder, lo = UINT64_MAX, hi = 0;
  uint64_t *ids = malloc((n ? n : 1) * sizeof *ids);
  if (!ids) return nvm_fail(NVM_EIO, "recovery: out of memory");
  for (uint64_t i = 0; i < n; i++) {
    ids[i] = in_id(r, s->order[i]);
    if (ids[i] < lo) lo = ids[i];
    if (ids[i] > hi) hi = ids[i];
  }
  int rc = NVM_OK;
  uint8_t *seen = n > 1 && hi - lo < 64 * n ? calloc((hi - lo) / 8 + 1, 1) : NULL;
  if (seen) {
    for (uint64_t i = 0; rc == NVM_OK && i < n; i++) {
      if (nvm_bit_get(seen, ids[i] - lo)) rc = duplicate_id(r, s, ids[i]);
      nvm_bit_set(seen, ids[i] - lo);
    }
    free(seen);
  } else {
    rc = radix_sort_u64(ids, n, 0);
    for (uint64_t i = 1; rc == NVM_OK && i < n; i++)
      if (ids[i] == ids[i - 1]) rc = duplicate_id(r, s, ids[i]);
  }
  free(ids);
  return rc;
}

int nvm_attach_tree(nvm_region *r, struct nvm_scan *s) {
  if (nvm_sb_get(r, NVM_SB_ROOT_PAGE) == 0) return NVM_OK; /* empty namespace */
  uint32_t root = 0;
  int rc = root_page(r, &root);
  if (rc) return rc;
  uint8_t *dirs = calloc((r->page_count + 7) / 8 + 1, 1);
  uint64_t nkeys = 0, *keys = dirs ? child_keys(r, s, dirs, &nkeys) : NULL;
  s->order = malloc((s->ninodes ? s->ninodes : 1) * sizeof *s->order);
  if (!dirs || !keys || !s->order) {
    free(dirs);
    free(keys);
    return nvm_fail(NVM_EIO, "recovery: out of memory for %llu inodes",
                    (unsigned long long)s->ninodes);
  }
  rc = radix_sort_u64(keys, nkeys, 32); /* by parent; stable, so siblings stay in page order */
  if (rc == NVM_OK) bfs(r, s, keys, nkeys, dirs, root);
  free(dirs);
  free(keys);
  return rc ? rc : check_unique_ids(r, s);
}
