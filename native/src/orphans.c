/*
 * orphans.c — recovery step 3b: every LIVE inode the tree walk did not attach
 * must be a crash leftover of a delete, or recovery refuses the region.
 *
 * A delete invalidates the deleted subtree's root page inside its commit (the
 * page keeps its kind and id) and frees the pages below it afterwards
 * (region-format.md §7.4); a page is reused only after that. So a crash leaves
 * detached subtrees whose top names, as its parent, an INVALID directory page
 * with the recorded parent id. Anything else — a live directory with another
 * id, a file, a never-used page, an offset outside the data area, a cycle —
 * is a damaged parent link, and reclaiming would silently delete a subtree.
 * Read only: an NVM_ECORRUPT here leaves the region untouched.
 */
#include <stdlib.h>

#include "nvm_internal.h"

static uint64_t ld(const nvm_region *r, uint32_t page, uint64_t field) {
  return nvm_ld64(r, nvm_page_off(page) + field);
}

/* A LIVE, unattached directory page with the id the child records: the walk goes on above it. */
static int detached_parent(const nvm_region *r, uint64_t poff, uint64_t pid, uint32_t *out) {
  uint64_t idx;
  if (!nvm_is_page_off(r, poff, &idx) || nvm_bit_get(r->used_bits, idx)) return 0;
  if (!nvm_is_live(nvm_ld64(r, poff), NVM_KIND_DIR)) return 0;
  if (nvm_ld64(r, poff + NVM_IN_ID) != pid) return 0;
  *out = (uint32_t)idx;
  return 1;
}

static int deleted_parent(const nvm_region *r, uint64_t poff, uint64_t pid) {
  uint64_t idx;
  return nvm_is_page_off(r, poff, &idx) &&
         nvm_ld64(r, poff) == NVM_STATE_WORD(NVM_KIND_DIR, NVM_STATE_INVALID) &&
         nvm_ld64(r, poff + NVM_IN_ID) == pid;
}

/* The field of a damaged parent link to report: the parent id if the parent page is a
 * directory page with another id, else the parent page pointer (also for a cycle). */
static uint64_t bad_link_field(const nvm_region *r, uint64_t poff, uint64_t pid) {
  uint64_t idx;
  if (!nvm_is_page_off(r, poff, &idx)) return NVM_IN_PARENT_PAGE;
  uint64_t word = nvm_ld64(r, poff);
  int dir = (NVM_MAGIC_OF(word) == NVM_PAGE_MAGIC || nvm_is_live(word, NVM_KIND_DIR)) &&
            NVM_KIND_OF(word) == NVM_KIND_DIR;
  return dir && nvm_ld64(r, poff + NVM_IN_ID) != pid ? NVM_IN_PARENT_ID : NVM_IN_PARENT_PAGE;
}

int nvm_check_orphans(nvm_region *r, const struct nvm_scan *s) {
  if (nvm_sb_get(r, NVM_SB_ROOT_PAGE) == 0) return NVM_OK; /* no tree yet (as nvm_attach_tree) */
  uint8_t *ok = calloc((r->page_count + 7) / 8 + 1, 1);    /* pages already judged leftovers */
  if (!ok) return nvm_fail(NVM_EIO, "%s: recovery out of memory", r->path);
  int rc = NVM_OK;
  for (uint64_t i = 0; rc == NVM_OK && i < s->ninodes; i++) {
    uint32_t start = s->inodes[i], cur = start, up;
    if (nvm_bit_get(r->used_bits, start) || nvm_bit_get(ok, start)) continue;
    uint64_t steps = 0;
    for (;;) {
      uint64_t poff = ld(r, cur, NVM_IN_PARENT_PAGE), pid = ld(r, cur, NVM_IN_PARENT_ID);
      if (nvm_bit_get(ok, cur) || deleted_parent(r, poff, pid)) break;
      if (!detached_parent(r, poff, pid, &up) || ++steps > s->ninodes) {
        rc = nvm_fail_at(
            NVM_ECORRUPT, nvm_page_off(cur) + bad_link_field(r, poff, pid),
            "%s: inode %llu (page %llu) is not attached to the tree and its parent link (page "
            "%llu, "
            "parent id %llu) does not name a deleted directory: a damaged parent link, not a crash "
            "leftover; refusing to reclaim it (NvmRegionTool check lists the damage)",
            r->path, (unsigned long long)ld(r, cur, NVM_IN_ID),
            (unsigned long long)nvm_page_off(cur), (unsigned long long)poff,
            (unsigned long long)pid);
        break;
      }
      cur = up;
    }
    if (rc) break;
    /* everything on the walk is a leftover too */
    for (cur = start; !nvm_bit_get(ok, cur);) {
      nvm_bit_set(ok, cur);
      if (!detached_parent(r, ld(r, cur, NVM_IN_PARENT_PAGE), ld(r, cur, NVM_IN_PARENT_ID), &up))
        break;
      cur = up;
    }
  }
  free(ok);
  return rc;
}
