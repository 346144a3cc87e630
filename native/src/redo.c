/*
 * redo.c — the commit of a group with the redo log (FEATURE_REDO_LOG, region-format.md §7.3):
 * a group's commit writes its FRESH data and one redo record holding the final bytes of
 * every in-place change, and ONE barrier commits it; the in-place bytes are then stored
 * and flushed, and the next group's barrier makes them durable. Recovery replays the
 * records whose groups may not be in place yet (redolog.c).
 *
 * The three rules every crash relies on:
 *   1. A record is overwritten only once the in-place bytes of its group are durable.
 *      Record N lives in slot N % 2; record N + 2 is written after record N + 1's barrier,
 *      which drained N's in-place flushes. A record that overlaps the last one's area
 *      (a big record, or the first record after one) drains first.
 *   2. A record commits its group only with its FRESH data: recovery replays the newest
 *      valid record only if the seals it holds match the media (seals_hold); a group that
 *      writes a page LIVE in its FRESH data drains that data before writing its record.
 *   3. Replay never writes over data a later committed group wrote out of place. A page
 *      a group frees goes back to the allocator only after two more records committed
 *      (nvm_redo_release), so by the time it is written FRESH again no record that could
 *      name it is still replayable; a FRESH page that one of the last two records wrote in
 *      place (possible only for a reserved page) makes the commit empty the slots first.
 */
#include <stdlib.h>
#include <string.h>

#include "redo.h"

/* ------------------------------------------------------------- writing */

static int set_add(nvm_region *r, struct nvm_pageset *s, uint64_t page) {
  if (s->n == s->cap) {
    uint32_t cap = s->cap ? 2 * s->cap : 64;
    uint32_t *p = realloc(s->p, cap * sizeof *p);
    if (!p) return nvm_fail(NVM_EIO, "%s: redo log: out of memory", r->path);
    s->p = p;
    s->cap = cap;
  }
  s->p[s->n++] = (uint32_t)page;
  return NVM_OK;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static int set_has(const struct nvm_pageset *s, uint64_t page) {
  uint32_t lo = 0, hi = s->n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->p[mid] < page)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < s->n && s->p[lo] == page;
}

/* Does a FRESH entry of b write a page that one of the last two records wrote in place? */
static int fresh_on_recent(const nvm_region *r, const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++)
    if (b->e[i].op == NVM_OP_FRESH &&
        (set_has(&r->redo_recent[0], b->e[i].page) || set_has(&r->redo_recent[1], b->e[i].page)))
      return 1;
  return 0;
}

/* The data pages b writes in place become the last record's; the last one's the one before. */
static int remember_recent(nvm_region *r, const struct batch *b) {
  struct nvm_pageset t = r->redo_recent[1];
  r->redo_recent[1] = r->redo_recent[0];
  r->redo_recent[0] = t;
  r->redo_recent[0].n = 0;
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_INPLACE || e->page == UINT64_MAX) continue;
    int rc = set_add(r, &r->redo_recent[0], e->page);
    if (rc) return rc;
  }
  qsort(r->redo_recent[0].p, r->redo_recent[0].n, sizeof *r->redo_recent[0].p, cmp_u32);
  return NVM_OK;
}

/* The scratch image of a touched page (one per entry of b->touched). */
static uint8_t *scratch_page(nvm_region *r, const struct batch *b, uint64_t page) {
  int64_t k = nvm_batch_touched_at(b, nvm_page_off(page));
  return k < 0 ? NULL : r->redo_scratch + (size_t)k * NVM_PAGE_SIZE;
}

/*
 * Chain pages hold a chained record's payload (REDO_SPAN 3, region-format.md §4.1): each one
 * INVALID, so that no scan takes it for a page in use, then the next page's offset and its part
 * of the payload. The working copy gets the same bytes: it equals the media on every page no
 * staged batch wrote (a page reused later may be written FRESH in part).
 */
static void write_chain(nvm_region *r, const uint8_t *payload, uint32_t bytes,
                        const struct nvm_pageset *chain) {
  uint8_t pg[NVM_PAGE_SIZE];
  uint64_t at = 0, word = NVM_STATE_WORD(NVM_KIND_REDO_CHAIN, NVM_STATE_INVALID);
  for (uint32_t i = 0; i < chain->n; i++) {
    uint64_t off = nvm_page_off(chain->p[i]);
    uint64_t next = i + 1 < chain->n ? nvm_page_off(chain->p[i + 1]) : 0;
    uint64_t take = bytes - at < NVM_RCH_PAYLOAD_MAX ? bytes - at : NVM_RCH_PAYLOAD_MAX;
    memset(pg, 0, sizeof pg);
    memcpy(pg + NVM_PG_STATE, &word, 8);
    memcpy(pg + NVM_RCH_NEXT, &next, 8);
    memcpy(pg + NVM_RCH_PAYLOAD, payload + at, take);
    memcpy(r->base + off, pg, sizeof pg);
    if (r->work) memcpy(r->work + off, pg, sizeof pg);
    nvm_flush(r, r->base + off, sizeof pg);
    at += take;
  }
}

/*
 * The record of b at off: the final bytes of every INPLACE entry in batch order, then the
 * seal of every page they change, then SB_COMMIT_SEQ := seq; count, length, span, CRC; for a
 * chained record (span 3) the payload goes to the chain pages and the slot names them.
 * With page checksums a seal is computed over a scratch copy of the media page with the
 * group's bytes applied: the media holds this group's FRESH data and every earlier group's
 * in-place bytes (stored, maybe not yet durable), which is what the page will be; the
 * working copy may be ahead of it (nvm_sync_upto commits a prefix of what is staged).
 * *payload is where the entries are, for storing them in place after the commit point.
 */
static int write_record(nvm_region *r, const struct batch *b, uint64_t off, uint64_t seq,
                        uint32_t span, const uint8_t **payload) {
  size_t need = (size_t)b->ntouched * NVM_PAGE_SIZE;
  if (r->checksums && need > r->redo_scratch_cap) {
    uint8_t *s = realloc(r->redo_scratch, need);
    if (!s) return nvm_fail(NVM_EIO, "%s: redo log: out of memory", r->path);
    r->redo_scratch = s;
    r->redo_scratch_cap = need;
  }
  if (span == 3 && nvm_batch_redo_need(b) > r->chain_buf_cap) {
    uint8_t *s = realloc(r->chain_buf, nvm_batch_redo_need(b));
    if (!s) return nvm_fail(NVM_EIO, "%s: redo log: out of memory", r->path);
    r->chain_buf = s;
    r->chain_buf_cap = nvm_batch_redo_need(b);
  }
  if (r->checksums)
    for (uint32_t k = 0; k < b->ntouched; k++)
      memcpy(r->redo_scratch + (size_t)k * NVM_PAGE_SIZE, r->base + b->touched[k], NVM_PAGE_SIZE);
  uint8_t *rec = r->base + off;
  uint8_t *out = span == 3 ? r->chain_buf : rec + NVM_REDO_PAYLOAD;
  uint64_t pos = 0;
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_INPLACE) continue;
    uint8_t *page = r->checksums && e->page != UINT64_MAX ? scratch_page(r, b, e->page) : NULL;
    const void *src = e->data;
    uint64_t w;
    if (e->len == 8 && e->target % 8 == 0) {
      w = nvm_entry_word_over(r, page, e);
      src = &w;
    }
    if (page) memcpy(page + (e->target - nvm_page_off(e->page)), src, e->len);
    pos = nvm_put_entry(out, pos, e->target, e->len, e->field, src);
  }
  for (uint32_t k = 0; r->checksums && k < b->ntouched; k++) { /* after every field */
    uint8_t *page = r->redo_scratch + (size_t)k * NVM_PAGE_SIZE;
    uint64_t w = nvm_sealed_word_of(r, page, (uint32_t)rd64(page));
    pos = nvm_put_entry(out, pos, b->touched[k], 8, NVM_F_STATE, &w);
  }
  uint64_t seq_word = r->checksums ? nvm_counter_word(NVM_SB_COMMIT_SEQ, seq) : seq;
  pos = nvm_put_entry(out, pos, NVM_SB_COMMIT_SEQ, 8, NVM_F_COUNTER, &seq_word);
  uint32_t count = b->n_inplace + (r->checksums ? b->ntouched : 0) + 1;
  uint32_t bytes = (uint32_t)pos;
  if (span == 3) {
    uint64_t first = nvm_page_off(r->chain_taken.p[0]), npages = r->chain_taken.n;
    write_chain(r, out, bytes, &r->chain_taken);
    memcpy(rec + NVM_REDO_CHAIN_FIRST, &first, 8);
    memcpy(rec + NVM_REDO_CHAIN_PAGES, &npages, 8);
  }
  memcpy(rec + NVM_REDO_SEQ, &seq, 8);
  memcpy(rec + NVM_REDO_ENTRY_COUNT, &count, 4);
  memcpy(rec + NVM_REDO_PAYLOAD_BYTES, &bytes, 4);
  memcpy(rec + NVM_REDO_SPAN, &span, 4);
  uint32_t crc = nvm_redo_crc(r, rec, out, bytes);
  memcpy(rec + NVM_REDO_CRC, &crc, 4);
  nvm_flush(r, rec, NVM_REDO_PAYLOAD + (span == 3 ? NVM_REDO_CHAIN_HEAD : bytes));
  *payload = out;
  return NVM_OK;
}

/* FREE pages: INVALID (kind kept), flushed; the next barrier makes it durable. They were
 * unreachable from the commit on, so a crash before then leaves orphans recovery reclaims. */
static void invalidate_frees(nvm_region *r, const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_FREE) continue;
    uint64_t word = NVM_STATE_WORD(NVM_KIND_OF(nvm_ld64(r, e->target)), NVM_STATE_INVALID);
    nvm_redo_keep(r, e->target);
    nvm_store(r, e->target, &word, 8);
    nvm_flush(r, r->base + e->target, 8);
  }
}

int nvm_redo_settle(nvm_region *r) {
  int rc = nvm_drain(r); /* the last group's in-place bytes and FREE invalidations */
  if (rc) return rc;
  r->redo_undrained = 0;
  nvm_redo_empty_slots(r);
  if ((rc = nvm_drain(r))) return rc;
  r->redo_last_big = 0;
  r->redo_recent[0].n = r->redo_recent[1].n = 0;
  r->redo_settled = 1; /* no record left to replay: every freed page may be reused */
  return NVM_OK;
}

/* Does b write a page LIVE in its FRESH data (an extension page, or an inode, string or
 * record page that commits itself)? Its checksum is in that data, not in the record. */
static int fresh_live(const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op == NVM_OP_FRESH && (e->target - NVM_DATA_OFFSET) % NVM_PAGE_SIZE == 0 &&
        e->len >= 8 && NVM_STATE_OF(rd64(e->data)) == NVM_STATE_LIVE)
      return 1;
  }
  return 0;
}

/*
 * Takes the n chain pages the batch was promised when it was staged (nvm_stage), with the
 * persist lock the commit holds. Staging counted on the pages that are free or wait for two
 * more records (rule 3), so a region short of free pages empties the slots and takes those back
 * at once, as a reservation does (reserve.c). The pages count as used until they come back to
 * the allocator two records after this one, as a FREE page does (nvm_redo_release).
 */
static int take_chain(nvm_region *r, uint32_t n) {
  pthread_mutex_lock(&r->lock);
  r->chain_promised -= n < r->chain_promised ? n : r->chain_promised;
  r->chain_taken.n = 0;
  int rc = NVM_OK;
  if (nvm_alloc_free_pages(r) < n && (rc = nvm_redo_settle(r)) == NVM_OK)
    rc = nvm_redo_release(r, NULL);
  uint64_t hw = r->high_water, *offs = malloc((size_t)n * sizeof *offs);
  if (rc == NVM_OK && !offs) rc = nvm_fail(NVM_EIO, "%s: redo log: out of memory", r->path);
  if (rc == NVM_OK) rc = nvm_free_reserve(r, n); /* room for their return */
  if (rc == NVM_OK) rc = nvm_alloc_take(r, n, offs);
  for (uint32_t i = 0; rc == NVM_OK && i < n; i++) {
    uint64_t idx = 0;
    nvm_is_page_off(r, offs[i], &idx);
    nvm_bit_clear(r->reserved_bits, idx);
    r->pages_reserved--;
    r->pages_used++;
    r->pending_frees++;
    rc = set_add(r, &r->chain_taken, idx);
  }
  free(offs);
  pthread_mutex_unlock(&r->lock);
  if (r->high_water != hw) nvm_populate_nudge(r);
  return rc;
}

int nvm_batch_commit(nvm_region *r, const struct batch *b) {
  uint64_t need = nvm_batch_redo_need(b);
  uint32_t nchain = r->redo_chain ? nvm_redo_chain_pages(need) : 0;
  uint32_t span = nchain ? 3 : need > NVM_REDO_SLOT_PAYLOAD_MAX ? 2 : 1;
  int rc, live = fresh_live(b);
  if (fresh_on_recent(r, b) && (rc = nvm_redo_settle(r))) return rc;
  if (nchain && (rc = take_chain(r, nchain))) return rc;
  /* Rule 1 for a record that overlaps the last one's area: the slot alternation does not
   * protect it, so the last group's in-place bytes are made durable first. */
  if ((span == 2 || r->redo_last_big) && r->redo_undrained) {
    if ((rc = nvm_drain(r))) return rc;
    r->redo_undrained = 0;
  }
  nvm_batch_write_fresh(r, b);
  /* A page written LIVE in FRESH data carries its own checksum, which the record cannot
   * vouch for at recovery (seals_hold): that data is made durable before the record is
   * written, one barrier more. The seals of pages made LIVE in place are in the record. */
  if (live) {
    if ((rc = nvm_drain(r))) return rc;
    r->redo_undrained = 0;
  }
  uint64_t seq = nvm_sb_get(r, NVM_SB_COMMIT_SEQ) + 1;
  /* Rule 1 for a slot record: slot seq % 2 holds record seq - 2, whose in-place bytes the
   * barrier of record seq - 1 drained (or the drain just above, after a big record). */
  uint64_t off = span == 2 ? NVM_REDO_SLOT0 : slot_of(seq);
  const uint8_t *payload = NULL;
  if ((rc = write_record(r, b, off, seq, span, &payload))) return rc;
  /* THE COMMIT POINT: FRESH data, the record and a chained record's pages (flushed by
   * write_record before its header) durable together; the group is committed once the record's
   * CRC, which covers the chain's payload, matches on media. It also drains the last group's
   * in-place bytes and FREE invalidations. */
  if ((rc = nvm_drain(r))) return rc;
  r->redo_pre_len = 0;
  /* in place, flushed, not drained: the next barrier does it */
  nvm_redo_apply(r, payload, rd32(r->base + off + NVM_REDO_ENTRY_COUNT), 1);
  invalidate_frees(r, b);
  r->redo_undrained = 1;
  r->redo_last_big = span == 2;
  nvm_work_mirror(r, NVM_SB_COMMIT_SEQ);
  return remember_recent(r, b);
}

static void release_set(nvm_region *r, struct nvm_pageset *s) {
  for (uint32_t i = 0; i < s->n; i++) {
    r->pending_frees--;
    r->free_stack[r->free_top++] = s->p[i];
  }
  s->n = 0;
}

/* Rule 3: a page freed by record N is handed out again only after record N + 2 committed;
 * staging made room for it on the free stack (r->pending_frees), so releasing cannot fail. It
 * stops counting as used at once (nvm_region_usage: free, not yet reusable). */
int nvm_redo_release(nvm_region *r, const struct batch *b) {
  release_set(r, &r->freed[1]);
  if (r->redo_settled) release_set(r, &r->freed[0]);
  r->redo_settled = 0;
  if (!b) return NVM_OK;
  struct nvm_pageset t = r->freed[1];
  r->freed[1] = r->freed[0];
  r->freed[0] = t;
  for (uint32_t i = 0; i < b->n; i++) {
    if (b->e[i].op != NVM_OP_FREE) continue;
    int rc = set_add(r, &r->freed[0], b->e[i].page);
    if (rc) return rc;
    r->pages_used--;
  }
  for (uint32_t i = 0; i < r->chain_taken.n; i++) { /* the record's chain: as a FREE page */
    int rc = set_add(r, &r->freed[0], r->chain_taken.p[i]);
    if (rc) return rc;
    r->pages_used--;
  }
  r->chain_taken.n = 0;
  return NVM_OK;
}

void nvm_redo_free(nvm_region *r) {
  for (int i = 0; i < 2; i++) {
    free(r->redo_recent[i].p);
    free(r->freed[i].p);
  }
  memset(r->redo_recent, 0, sizeof r->redo_recent);
  memset(r->freed, 0, sizeof r->freed);
  free(r->redo_scratch);
  r->redo_scratch = NULL;
  free(r->chain_taken.p);
  memset(&r->chain_taken, 0, sizeof r->chain_taken);
  free(r->chain_buf);
  r->chain_buf = NULL;
  r->chain_buf_cap = 0;
  r->chain_promised = 0;
  free(r->redo_pre);
  r->redo_pre = NULL;
  r->redo_pre_len = r->redo_pre_cap = 0;
  r->redo_scratch_cap = 0;
}
