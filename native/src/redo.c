/*
 * redo.c — the redo log of a region with FEATURE_REDO_LOG (region-format.md §4.1, §7.3):
 * a group's commit writes its FRESH data and one redo record holding the final bytes of
 * every in-place change, and ONE barrier commits it; the in-place bytes are then stored
 * and flushed, and the next group's barrier makes them durable. Recovery replays the
 * records whose groups may not be in place yet.
 *
 * The two rules every crash relies on:
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

#include "batch.h"

static uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static uint64_t slot_of(uint64_t seq) { return seq % 2 ? NVM_REDO_SLOT1 : NVM_REDO_SLOT0; }

/* Seeded with the region's creation id: a record is valid only in the region that wrote
 * it, and bytes a client chose (a name inside a big record's payload, left where a slot
 * header goes) cannot be made to look like one without that random id. */
uint32_t nvm_redo_crc(const nvm_region *r, const uint8_t *rec, uint32_t bytes) {
  uint64_t id = nvm_ld64(r, NVM_HDR_CREATION_ID);
  uint32_t c = nvm_crc32c(0, &id, 8);
  c = nvm_crc32c(c, rec, NVM_REDO_CRC);
  return nvm_crc32c(c, rec + NVM_REDO_PAYLOAD, bytes);
}

/* ------------------------------------------------------------- reading */

struct rec {
  uint64_t off, seq;
  uint32_t count, bytes, span;
};

/* 1 = a valid record at off (CRC matches), 0 = an empty slot or a torn record, which is
 * ignored: its group never reached its commit point, so none of its in-place bytes were
 * stored. A header that cannot be checked (a span or length out of range) is torn too. */
static int read_slot(const nvm_region *r, uint64_t off, struct rec *out) {
  const uint8_t *p = r->base + off;
  out->off = off;
  out->seq = rd64(p + NVM_REDO_SEQ);
  out->count = rd32(p + NVM_REDO_ENTRY_COUNT);
  out->bytes = rd32(p + NVM_REDO_PAYLOAD_BYTES);
  out->span = rd32(p + NVM_REDO_SPAN);
  if (out->seq == 0) return 0;
  uint32_t max = out->span == 2 ? NVM_REDO_BIG_PAYLOAD_MAX : NVM_REDO_SLOT_PAYLOAD_MAX;
  if ((out->span != 1 && out->span != 2) || (out->span == 2 && off != NVM_REDO_SLOT0) ||
      out->bytes > max)
    return 0;
  return rd32(p + NVM_REDO_CRC) == nvm_redo_crc(r, p, out->bytes);
}

/* A valid record's entries: in bounds, each to a range a batch may write (or SB_COMMIT_SEQ),
 * the last one SB_COMMIT_SEQ := the record's seq. A record that passes its CRC and fails
 * this was written by no library: the region is refused, untouched. */
static int check_entries(const nvm_region *r, const struct rec *c) {
  const uint8_t *p = r->base + c->off + NVM_REDO_PAYLOAD;
  uint64_t pos = 0, last = 0;
  for (uint32_t i = 0; i < c->count; i++) {
    if (pos + NVM_UNDO_ENTRY_HEADER > c->bytes)
      return nvm_fail_at(NVM_ECORRUPT, c->off + NVM_REDO_ENTRY_COUNT,
                         "%s: redo entry %u runs past the payload (%u bytes)", r->path, i,
                         c->bytes);
    uint64_t target = rd64(p + pos);
    uint32_t len = rd32(p + pos + 8);
    last = pos;
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
    if (pos > c->bytes || !nvm_log_target_ok(r, target, len))
      return nvm_fail_at(NVM_ECORRUPT, c->off + NVM_REDO_PAYLOAD + last,
                         "%s: redo entry %u has a bad target %llu / length %u", r->path, i,
                         (unsigned long long)target, len);
  }
  if (pos != c->bytes || c->count == 0)
    return nvm_fail_at(NVM_ECORRUPT, c->off + NVM_REDO_ENTRY_COUNT,
                       "%s: redo record has %u entries covering %llu of %u payload bytes", r->path,
                       c->count, (unsigned long long)pos, c->bytes);
  if (rd64(p + last) != NVM_SB_COMMIT_SEQ || rd32(p + last + 8) != 8 ||
      nvm_counter_value(NVM_SB_COMMIT_SEQ, rd64(p + last + NVM_UNDO_ENTRY_HEADER)) != c->seq)
    return nvm_fail_at(NVM_ECORRUPT, c->off + NVM_REDO_SEQ,
                       "%s: redo record seq %llu does not end by setting SB_COMMIT_SEQ to it",
                       r->path, (unsigned long long)c->seq);
  return NVM_OK;
}

/* The valid records, ascending seq, checked; *n = 0, 1 or 2. A valid big record is the
 * only one (its payload covers slot 1's header). Two valid records are consecutive groups:
 * anything else is refused. */
static int find_records(const nvm_region *r, struct rec out[2], int *n) {
  struct rec a, b;
  *n = 0;
  if (read_slot(r, NVM_REDO_SLOT0, &a)) out[(*n)++] = a;
  if (!(*n && a.span == 2) && read_slot(r, NVM_REDO_SLOT1, &b)) {
    if (b.span != 1)
      return nvm_fail_at(NVM_ECORRUPT, NVM_REDO_SLOT1 + NVM_REDO_SPAN,
                         "%s: a big redo record in slot 1", r->path);
    out[(*n)++] = b;
  }
  if (*n == 2 && out[0].seq > out[1].seq) {
    struct rec t = out[0];
    out[0] = out[1];
    out[1] = t;
  }
  if (*n == 2 && out[1].seq != out[0].seq + 1)
    return nvm_fail_at(NVM_ECORRUPT, out[1].off + NVM_REDO_SEQ,
                       "%s: redo records %llu and %llu are not consecutive groups", r->path,
                       (unsigned long long)out[0].seq, (unsigned long long)out[1].seq);
  for (int i = 0; i < *n; i++) {
    int rc = check_entries(r, &out[i]);
    if (rc) return rc;
  }
  if (*n && !nvm_counter_ok(r, NVM_SB_COMMIT_SEQ))
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_COMMIT_SEQ,
                       "%s: SB_COMMIT_SEQ fails its check: the redo records cannot be ordered "
                       "against it",
                       r->path);
  return NVM_OK;
}

int nvm_redo_check(const nvm_region *r) {
  struct rec recs[2];
  int n;
  return find_records(r, recs, &n);
}

/* Store every entry of the record at off to the media and flush it (no drain). */
static uint32_t apply_record(nvm_region *r, uint64_t off) {
  const uint8_t *rec = r->base + off;
  uint32_t count = rd32(rec + NVM_REDO_ENTRY_COUNT);
  uint64_t pos = NVM_REDO_PAYLOAD;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t target = rd64(rec + pos);
    uint32_t len = rd32(rec + pos + 8);
    nvm_store(r, target, rec + pos + NVM_UNDO_ENTRY_HEADER, len);
    nvm_flush(r, r->base + target, len);
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
  }
  return count;
}

/* Is this the last entry of the record at `c` that stores the state word at `target`? */
static int last_state_entry(const struct rec *c, const uint8_t *p, uint64_t pos, uint32_t i,
                            uint64_t target) {
  pos += NVM_UNDO_ENTRY_HEADER + 8;
  for (uint32_t j = i + 1; j < c->count; j++) {
    uint32_t len = rd32(p + pos + 8);
    if (len == 8 && rd64(p + pos) == target) return 0;
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
  }
  return 1;
}

/*
 * Does the media vouch for the record's FRESH data? The group's FRESH data and its record
 * reach the media at one barrier, in no order, so a record can be whole while a FRESH page
 * is not, if the crash came before that barrier completed. Every page the group leaves LIVE
 * in place has its final state word in the record, and that word holds the page's checksum
 * (region-format.md §11): the record's group is committed only if each such word matches the
 * media page with the record's entries applied. (A group that writes a page LIVE in its FRESH
 * data drains that data before writing its record: nvm_batch_commit.) Between a record's
 * barrier and the next record's nothing but the record's own entries and its FREE
 * invalidations (state words) changes its pages, so a committed group always passes.
 */
static int seals_hold(const nvm_region *r, const struct rec *c) {
  const uint8_t *p = r->base + c->off + NVM_REDO_PAYLOAD;
  uint64_t pos = 0;
  uint8_t page[NVM_PAGE_SIZE];
  for (uint32_t i = 0; i < c->count; i++) {
    uint64_t target = rd64(p + pos), idx;
    uint32_t len = rd32(p + pos + 8);
    if (len == 8 && nvm_is_page_off(r, target, &idx) && last_state_entry(c, p, pos, i, target)) {
      memcpy(page, r->base + target, NVM_PAGE_SIZE);
      uint64_t q = 0;
      for (uint32_t j = 0; j < c->count; j++) { /* every entry on this page, in order */
        uint64_t t = rd64(p + q);
        uint32_t l = rd32(p + q + 8);
        if (t >= target && t < target + NVM_PAGE_SIZE)
          memcpy(page + (t - target), p + q + NVM_UNDO_ENTRY_HEADER, l);
        q += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(l);
      }
      uint64_t word = rd64(page);
      if (NVM_STATE_OF(word) == NVM_STATE_LIVE &&
          word != nvm_sealed_word_of(r, page, (uint32_t)word))
        return 0;
    }
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
  }
  return 1;
}

/* Zero both slots' seq words (flush; the caller drains): no record is valid after. */
static void empty_slots(nvm_region *r) {
  static const uint64_t zero = 0;
  nvm_store(r, NVM_REDO_SLOT0 + NVM_REDO_SEQ, &zero, 8);
  nvm_store(r, NVM_REDO_SLOT1 + NVM_REDO_SEQ, &zero, 8);
  nvm_flush(r, r->base + NVM_REDO_SLOT0 + NVM_REDO_SEQ, 8);
  nvm_flush(r, r->base + NVM_REDO_SLOT1 + NVM_REDO_SEQ, 8);
}

/*
 * Replay, in ascending seq, every valid record whose seq is not below the media's
 * SB_COMMIT_SEQ (a group below it is in place: its successor's in-place stores, which
 * set SB_COMMIT_SEQ, come after the successor's barrier, which drained it). The older of
 * two is committed (the newer was written after its barrier); the newest is committed if
 * the media vouches for its FRESH data (seals_hold, checked after the older one is
 * replayed), else its group never passed its barrier and it is ignored as torn. Redo is
 * idempotent, so a crash during replay replays again. Then drain, and empty the slots
 * (drain): the region is left with no record. A record that stays valid because the crash
 * came between the two drains is at most SB_COMMIT_SEQ by then, and is replayed (it equals
 * it) or skipped (it is below).
 */
int nvm_redo_recover(nvm_region *r) {
  struct rec recs[2];
  int n, rc = find_records(r, recs, &n);
  if (rc) return rc;
  uint64_t committed = nvm_sb_get(r, NVM_SB_COMMIT_SEQ);
  uint64_t entries = 0, replayed = 0;
  for (int i = 0; i < n; i++) {
    if (recs[i].seq < committed) continue;
    if (i == n - 1 && !seals_hold(r, &recs[i])) continue; /* its FRESH data is not all there */
    entries += apply_record(r, recs[i].off);
    replayed++;
  }
  if (replayed && (rc = nvm_drain(r))) return rc;
  r->rec.undo_rolled_back = replayed ? 1 : 0;
  r->rec.undo_entries = entries;
  if (nvm_ld64(r, NVM_REDO_SLOT0 + NVM_REDO_SEQ) == 0 &&
      nvm_ld64(r, NVM_REDO_SLOT1 + NVM_REDO_SEQ) == 0)
    return NVM_OK;
  empty_slots(r);
  return nvm_drain(r);
}

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

static uint64_t put_entry(uint8_t *rec, uint64_t pos, uint64_t target, uint32_t len, uint32_t field,
                          const void *data) {
  uint8_t *p = rec + pos;
  memcpy(p, &target, 8);
  memcpy(p + 8, &len, 4);
  memcpy(p + 12, &field, 4);
  memcpy(p + NVM_UNDO_ENTRY_HEADER, data, len);
  memset(p + NVM_UNDO_ENTRY_HEADER + len, 0, NVM_PAD8(len) - len);
  return pos + NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
}

/* The scratch image of a touched page (one per entry of b->touched). */
static uint8_t *scratch_page(nvm_region *r, const struct batch *b, uint64_t page) {
  uint64_t off = nvm_page_off(page);
  for (uint32_t k = 0; k < b->ntouched; k++)
    if (b->touched[k] == off) return r->redo_scratch + (size_t)k * NVM_PAGE_SIZE;
  return NULL;
}

/*
 * The record of b at off: the final bytes of every INPLACE entry in batch order, then the
 * seal of every page they change, then SB_COMMIT_SEQ := seq; count, length, span, CRC.
 * With page checksums a seal is computed over a scratch copy of the media page with the
 * group's bytes applied: the media holds this group's FRESH data and every earlier group's
 * in-place bytes (stored, maybe not yet durable), which is what the page will be; the
 * working copy may be ahead of it (nvm_sync_upto commits a prefix of what is staged).
 */
static int write_record(nvm_region *r, const struct batch *b, uint64_t off, uint64_t seq,
                        uint32_t span) {
  size_t need = (size_t)b->ntouched * NVM_PAGE_SIZE;
  if (r->checksums && need > r->redo_scratch_cap) {
    uint8_t *s = realloc(r->redo_scratch, need);
    if (!s) return nvm_fail(NVM_EIO, "%s: redo log: out of memory", r->path);
    r->redo_scratch = s;
    r->redo_scratch_cap = need;
  }
  if (r->checksums)
    for (uint32_t k = 0; k < b->ntouched; k++)
      memcpy(r->redo_scratch + (size_t)k * NVM_PAGE_SIZE, r->base + b->touched[k], NVM_PAGE_SIZE);
  uint8_t *rec = r->base + off;
  uint64_t pos = NVM_REDO_PAYLOAD;
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
    pos = put_entry(rec, pos, e->target, e->len, e->field, src);
  }
  for (uint32_t k = 0; r->checksums && k < b->ntouched; k++) { /* after every field */
    uint8_t *page = r->redo_scratch + (size_t)k * NVM_PAGE_SIZE;
    uint64_t w = nvm_sealed_word_of(r, page, (uint32_t)rd64(page));
    pos = put_entry(rec, pos, b->touched[k], 8, NVM_F_STATE, &w);
  }
  uint64_t seq_word = r->checksums ? nvm_counter_word(NVM_SB_COMMIT_SEQ, seq) : seq;
  pos = put_entry(rec, pos, NVM_SB_COMMIT_SEQ, 8, NVM_F_COUNTER, &seq_word);
  uint32_t count = b->n_inplace + (r->checksums ? b->ntouched : 0) + 1;
  uint32_t bytes = (uint32_t)(pos - NVM_REDO_PAYLOAD);
  memcpy(rec + NVM_REDO_SEQ, &seq, 8);
  memcpy(rec + NVM_REDO_ENTRY_COUNT, &count, 4);
  memcpy(rec + NVM_REDO_PAYLOAD_BYTES, &bytes, 4);
  memcpy(rec + NVM_REDO_SPAN, &span, 4);
  uint32_t crc = nvm_redo_crc(r, rec, bytes);
  memcpy(rec + NVM_REDO_CRC, &crc, 4);
  nvm_flush(r, rec, pos);
  return NVM_OK;
}

/* FREE pages: INVALID (kind kept), flushed; the next barrier makes it durable. They were
 * unreachable from the commit on, so a crash before then leaves orphans recovery reclaims. */
static void invalidate_frees(nvm_region *r, const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_FREE) continue;
    uint64_t word = NVM_STATE_WORD(NVM_KIND_OF(nvm_ld64(r, e->target)), NVM_STATE_INVALID);
    nvm_store(r, e->target, &word, 8);
    nvm_flush(r, r->base + e->target, 8);
  }
}

int nvm_redo_settle(nvm_region *r) {
  int rc = nvm_drain(r); /* the last group's in-place bytes and FREE invalidations */
  if (rc) return rc;
  r->redo_undrained = 0;
  empty_slots(r);
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

int nvm_batch_commit(nvm_region *r, const struct batch *b) {
  uint64_t need = nvm_batch_redo_need(b);
  uint32_t span = need > NVM_REDO_SLOT_PAYLOAD_MAX ? 2 : 1;
  int rc, live = fresh_live(b);
  if (fresh_on_recent(r, b) && (rc = nvm_redo_settle(r))) return rc;
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
  if ((rc = write_record(r, b, off, seq, span))) return rc;
  /* THE COMMIT POINT: FRESH data and the record durable together; the group is committed
   * once the record's CRC matches on media. It also drains the last group's in-place bytes
   * and FREE invalidations. */
  if ((rc = nvm_drain(r))) return rc;
  apply_record(r, off); /* in place, flushed, not drained: the next barrier does it */
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
  r->redo_scratch_cap = 0;
}
