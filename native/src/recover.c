/*
 * recover.c — recovery at a read-write open. Order matters for crash safety:
 *   1. replay the valid redo records (redo.c) and the write-ahead log of the disk mode
 *      (walreplay.c), or in a region without the redo log roll back an armed undo record
 *      (the only writes before validation);
 *   2. one sequential scan of the page state words below SB_SCAN_LIMIT;
 *   3-5. attach the tree, check that every unattached inode is a delete's
 *        leftover (orphans.c), check extension chains, string references and
 *        records (read only: an NVM_ECORRUPT here leaves the region untouched);
 *   6. invalidate orphans, unreachable extensions and unused strings (one barrier);
 *   7. rebuild the DRAM allocator.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvm_internal.h"

static int push32(const nvm_region *r, uint32_t **a, uint64_t *n, uint64_t *cap, uint32_t v) {
  if (*n == *cap) {
    uint64_t c = *cap ? *cap * 2 : 1024;
    uint32_t *p = realloc(*a, c * sizeof *p);
    if (!p) return nvm_fail(NVM_EIO, "%s: recovery out of memory", r->path);
    *a = p;
    *cap = c;
  }
  (*a)[(*n)++] = v;
  return NVM_OK;
}

static int scan_live(const nvm_region *r, struct nvm_scan *s, uint32_t i, uint64_t word) {
  switch (NVM_KIND_OF(word)) {
    case NVM_KIND_DIR:
    case NVM_KIND_FILE: return push32(r, &s->inodes, &s->ninodes, &s->icap, i);
    case NVM_KIND_SYMLINK:
      if (r->symlinks) return push32(r, &s->inodes, &s->ninodes, &s->icap, i);
      break; /* a region without the feature has none: refused below */
    case NVM_KIND_NAME_EXT:
    case NVM_KIND_BLOCK_EXT:
    case NVM_KIND_STRING_EXT:
    case NVM_KIND_RECORD_EXT: return push32(r, &s->exts, &s->nexts, &s->ecap, i);
    case NVM_KIND_STRING: return push32(r, &s->spages, &s->nstrs, &s->scap, i);
    case NVM_KIND_RECORD:
      if (r->records) return push32(r, &s->rpages, &s->nrecs, &s->rcap, i);
      break; /* a region without the feature has none: refused below */
    case NVM_KIND_ATTR_EXT:
      if (r->attrs) return push32(r, &s->exts, &s->nexts, &s->ecap, i);
      break;
    default: break;
  }
  return nvm_fail_at(NVM_ECORRUPT, nvm_page_off(i),
                     "%s: live page at offset %llu has unknown kind %u", r->path,
                     (unsigned long long)nvm_page_off(i), NVM_KIND_OF(word));
}

static int scan_pages(const nvm_region *r, struct nvm_scan *s) {
  for (uint64_t i = 0; i < r->scan_limit; i++) { /* pages above were never used */
    uint64_t word = nvm_ld64(r, nvm_page_off(i));
    if (word == 0) continue; /* never used */
    s->high_water = i + 1;
    unsigned state = NVM_STATE_OF(word);
    /* bits 16..31 are zero; a page that is not LIVE carries the magic, a LIVE one its
     * checksum (region-format.md §11; the magic too in a region without checksums) */
    if ((word & 0xffff0000ull) || state > NVM_STATE_INVALID ||
        (state != NVM_STATE_LIVE && NVM_MAGIC_OF(word) != NVM_PAGE_MAGIC))
      return nvm_fail_at(NVM_ECORRUPT, nvm_page_off(i),
                         "%s: page at offset %llu has a bad state word 0x%016llx", r->path,
                         (unsigned long long)nvm_page_off(i), (unsigned long long)word);
    if (state == NVM_STATE_PENDING) s->pending++;
    if (state != NVM_STATE_LIVE) continue;
    /* An extension page is written LIVE out of place and reachable only once its owner
     * links it, so a crash can leave one torn and unreachable: its checksum is judged
     * when a chain reaches it (chains.c); an unreachable one is reclaimed. Unless its
     * checksum is right for another kind: then its kind byte is what was damaged (an inode
     * page turned "extension" would otherwise vanish as an unreachable one). */
    unsigned kind = NVM_KIND_OF(word);
    int ext = kind == NVM_KIND_NAME_EXT || kind == NVM_KIND_BLOCK_EXT ||
              kind == NVM_KIND_STRING_EXT || kind == NVM_KIND_RECORD_EXT ||
              kind == NVM_KIND_ATTR_EXT;
    if (ext && nvm_checksum_of_other_kind(r, nvm_page_off(i), word))
      return nvm_fail_at(NVM_ECORRUPT, nvm_page_off(i),
                         "%s: page at offset %llu has the checksum of another kind than %u: its "
                         "kind byte is damaged",
                         r->path, (unsigned long long)nvm_page_off(i), kind);
    if (!ext && !nvm_live_checksum_ok(r, nvm_page_off(i), word))
      return nvm_fail_at(
          NVM_ECORRUPT, nvm_page_off(i),
          "%s: page at offset %llu (kind %u, id %llu) fails its checksum (stored 0x%08x, "
          "computed 0x%08x): the page is damaged",
          r->path, (unsigned long long)nvm_page_off(i), NVM_KIND_OF(word),
          (unsigned long long)nvm_ld64(r, nvm_page_off(i) + NVM_IN_ID), (unsigned)(word >> 32),
          nvm_page_crc(r, nvm_page_off(i), (uint32_t)word));
    int rc = scan_live(r, s, (uint32_t)i, word);
    if (rc) return rc;
  }
  return NVM_OK;
}

/* Invalidate the listed pages that were not kept; returns how many. */
static uint64_t reclaim(nvm_region *r, const uint32_t *pages, uint64_t n) {
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (nvm_bit_get(r->used_bits, pages[i])) continue;
    uint64_t off = nvm_page_off(pages[i]);
    uint64_t word = NVM_STATE_WORD(NVM_KIND_OF(nvm_ld64(r, off)), NVM_STATE_INVALID);
    nvm_store(r, off, &word, 8);
    nvm_flush(r, r->base + off, 8);
    count++;
  }
  return count;
}

static int reclaim_all(nvm_region *r, const struct nvm_scan *s) {
  r->rec.orphans_reclaimed = reclaim(r, s->inodes, s->ninodes);
  r->rec.ext_reclaimed = reclaim(r, s->exts, s->nexts);
  r->rec.strings_reclaimed = reclaim(r, s->spages, s->nstrs);
  if (r->rec.orphans_reclaimed + r->rec.ext_reclaimed + r->rec.strings_reclaimed == 0)
    return NVM_OK;
  return nvm_drain(r);
}

/* Results for the caller: BFS inode offsets, kept string offsets, counters,
 * and a free stack that pops the lowest free page first. */
static int build_results(nvm_region *r, const struct nvm_scan *s) {
  r->inodes = malloc((s->norder ? s->norder : 1) * sizeof *r->inodes);
  r->record_offs = malloc((s->nrecs ? s->nrecs : 1) * sizeof *r->record_offs);
  r->strings = malloc((s->nstrs ? s->nstrs : 1) * sizeof *r->strings);
  r->string_refs = malloc((s->nstrs ? s->nstrs : 1) * sizeof *r->string_refs);
  if (!r->inodes || !r->strings || !r->string_refs || !r->record_offs)
    return nvm_fail(NVM_EIO, "%s: recovery out of memory", r->path);
  for (uint64_t i = 0; i < s->norder; i++) r->inodes[i] = nvm_page_off(s->order[i]);
  r->ninodes = s->norder;
  for (uint64_t i = 0; i < s->nrecs; i++) r->record_offs[i] = nvm_page_off(s->rpages[i]);
  r->nrecords = s->nrecs;
  for (uint64_t i = 0; i < s->nstrs; i++) { /* s->strs by id: a kept page is the one counted */
    if (!nvm_bit_get(r->used_bits, s->strs[i].page)) continue;
    r->strings[r->nstrings] = nvm_page_off(s->strs[i].page);
    r->string_refs[r->nstrings++] = s->strs[i].refs;
  }
  r->pages_used = 0;
  for (uint64_t i = 0; i < s->high_water; i++) r->pages_used += nvm_bit_get(r->used_bits, i);
  r->high_water = s->high_water;
  int rc = nvm_free_reserve(r, s->high_water - r->pages_used);
  for (uint64_t i = s->high_water; rc == NVM_OK && i > 0; i--)
    if (!nvm_bit_get(r->used_bits, i - 1)) r->free_stack[r->free_top++] = (uint32_t)(i - 1);
  return rc;
}

static void scan_free(struct nvm_scan *s) {
  free(s->inodes);
  free(s->exts);
  free(s->spages);
  free(s->rpages);
  free(s->strs);
  free(s->order);
}

static int recover_steps(nvm_region *r, struct nvm_scan *s) {
  int rc = NVM_OK;
  if (r->redo) {
    if ((rc = nvm_redo_recover(r)) || (rc = nvm_wal_recover(r))) return rc;
  } else if (nvm_ld64(r, NVM_UNDO_STATE) != 0) {
    rc = nvm_undo_rollback(r, &r->rec.undo_entries);
    if (rc) return rc;
    r->rec.undo_rolled_back = 1;
  }
  if ((rc = nvm_check_counters(r)) || (rc = scan_pages(r, s)) || (rc = nvm_attach_tree(r, s)) ||
      (rc = nvm_check_orphans(r, s)) || (rc = nvm_check_chains(r, s)) ||
      (rc = nvm_check_strings(r, s)) || (rc = nvm_check_records(r, s)))
    return rc;
  r->rec.pages_scanned = r->scan_limit;
  r->rec.inodes_live = s->norder;
  r->rec.pending_discarded = s->pending;
  if ((rc = reclaim_all(r, s))) return rc;
  rc = build_results(r, s);
  r->rec.strings_live = r->nstrings;
  return rc;
}

int nvm_recover(nvm_region *r) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  struct nvm_scan s;
  memset(&s, 0, sizeof s);
  int rc = recover_steps(r, &s);
  scan_free(&s);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  r->rec.elapsed_ns =
      (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
  return rc;
}
