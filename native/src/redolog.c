/*
 * redolog.c — the redo slots as the format defines them (region-format.md §4.1): a record's
 * CRC, which records are valid, the open-time check (read only), storing a record's entries
 * in place, and recovery's replay (§7.6). redo.c writes the records.
 */
#include <stdlib.h>
#include <string.h>

#include "redo.h"

/* Seeded with the region's creation id: a record is valid only in the region that wrote
 * it, and bytes a client chose (a name inside a big record's payload, left where a slot
 * header goes) cannot be made to look like one without that random id. */
uint32_t nvm_redo_crc(const nvm_region *r, const uint8_t *rec, const uint8_t *payload,
                      uint32_t bytes) {
  uint64_t id = nvm_ld64(r, NVM_HDR_CREATION_ID);
  uint32_t c = nvm_crc32c(0, &id, 8);
  c = nvm_crc32c(c, rec, NVM_REDO_CRC);
  if (rd32(rec + NVM_REDO_SPAN) == 3) /* the chain's first page and length */
    c = nvm_crc32c(c, rec + NVM_REDO_PAYLOAD, NVM_REDO_CHAIN_HEAD);
  return nvm_crc32c(c, payload, bytes);
}

uint32_t nvm_redo_chain_pages(uint64_t bytes) {
  if (bytes <= NVM_REDO_BIG_PAYLOAD_MAX) return 0;
  return (uint32_t)((bytes + NVM_RCH_PAYLOAD_MAX - 1) / NVM_RCH_PAYLOAD_MAX);
}

/* ------------------------------------------------------------- reading */

struct rec {
  uint64_t off, seq;
  uint32_t count, bytes, span;
  const uint8_t *payload; /* in the slot, or `buf` for a chained record */
  uint8_t *buf;
};

static void rec_free(struct rec *c) {
  free(c->buf);
  c->buf = NULL;
}

/* A chained record's payload, gathered from its chain pages into c->buf: 1 = whole, 0 = the
 * chain does not hold a payload of c->bytes (a torn record: its pages were being written when
 * the crash came, or were reused after its group was in place). Nothing is read outside the data
 * area. */
static int gather_chain(const nvm_region *r, const uint8_t *slot, struct rec *c, int *rc) {
  uint64_t page = rd64(slot + NVM_REDO_CHAIN_FIRST), n = rd64(slot + NVM_REDO_CHAIN_PAGES), idx;
  if (n == 0 || n != nvm_redo_chain_pages(c->bytes) || n > r->page_count) return 0;
  if (!(c->buf = malloc(c->bytes))) {
    *rc = nvm_fail(NVM_EIO, "%s: redo log: out of memory for a %u-byte record", r->path, c->bytes);
    return 0;
  }
  uint64_t at = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t take = c->bytes - at < NVM_RCH_PAYLOAD_MAX ? c->bytes - at : NVM_RCH_PAYLOAD_MAX;
    if (!nvm_is_page_off(r, page, &idx) ||
        nvm_ld64(r, page) != NVM_STATE_WORD(NVM_KIND_REDO_CHAIN, NVM_STATE_INVALID))
      return 0;
    memcpy(c->buf + at, r->base + page + NVM_RCH_PAYLOAD, take);
    at += take;
    page = nvm_ld64(r, page + NVM_RCH_NEXT);
  }
  if (page != 0) return 0;
  c->payload = c->buf;
  return 1;
}

/* 1 = a valid record at off (CRC matches), 0 = an empty slot or a torn record, which is
 * ignored: its group never reached its commit point, so none of its in-place bytes were
 * stored. A header that cannot be checked (a span or length out of range, a chain that does
 * not hold the payload) is torn too. *rc is set only when memory runs out. */
static int read_slot(const nvm_region *r, uint64_t off, struct rec *out, int *rc) {
  const uint8_t *p = r->base + off;
  out->off = off;
  out->seq = rd64(p + NVM_REDO_SEQ);
  out->count = rd32(p + NVM_REDO_ENTRY_COUNT);
  out->bytes = rd32(p + NVM_REDO_PAYLOAD_BYTES);
  out->span = rd32(p + NVM_REDO_SPAN);
  out->payload = p + NVM_REDO_PAYLOAD;
  out->buf = NULL;
  if (out->seq == 0) return 0;
  if (out->span == 3) {
    if (!r->redo_chain || !gather_chain(r, p, out, rc)) {
      rec_free(out);
      return 0;
    }
  } else {
    uint32_t max = out->span == 2 ? NVM_REDO_BIG_PAYLOAD_MAX : NVM_REDO_SLOT_PAYLOAD_MAX;
    if ((out->span != 1 && out->span != 2) || (out->span == 2 && off != NVM_REDO_SLOT0) ||
        out->bytes > max)
      return 0;
  }
  if (rd32(p + NVM_REDO_CRC) == nvm_redo_crc(r, p, out->payload, out->bytes)) return 1;
  rec_free(out);
  return 0;
}

/* A valid record's entries: in bounds, each to a range a batch may write (or SB_COMMIT_SEQ),
 * the last one SB_COMMIT_SEQ := the record's seq. A record that passes its CRC and fails
 * this was written by no library: the region is refused, untouched. */
static int check_entries(const nvm_region *r, const struct rec *c) {
  const uint8_t *p = c->payload;
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

/* The valid records, ascending seq, checked; *n = 0, 1 or 2 (the caller frees them). A valid
 * big record is the only one (its payload covers slot 1's header). Two valid records are
 * consecutive groups: anything else is refused. */
static int find_slots(const nvm_region *r, struct rec out[2], int *n) {
  struct rec a, b;
  int rc = NVM_OK;
  *n = 0;
  if (read_slot(r, NVM_REDO_SLOT0, &a, &rc)) out[(*n)++] = a;
  if (rc) return rc;
  if (!(*n && a.span == 2) && read_slot(r, NVM_REDO_SLOT1, &b, &rc)) {
    out[(*n)++] = b;
    if (b.span == 2)
      return nvm_fail_at(NVM_ECORRUPT, NVM_REDO_SLOT1 + NVM_REDO_SPAN,
                         "%s: a big redo record in slot 1", r->path);
  }
  if (rc) return rc;
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
    rc = check_entries(r, &out[i]);
    if (rc) return rc;
  }
  if (*n && !nvm_counter_ok(r, NVM_SB_COMMIT_SEQ))
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_COMMIT_SEQ,
                       "%s: SB_COMMIT_SEQ fails its check: the redo records cannot be ordered "
                       "against it",
                       r->path);
  return NVM_OK;
}

static int find_records(const nvm_region *r, struct rec out[2], int *n) {
  int rc = find_slots(r, out, n);
  if (rc)
    for (int i = 0; i < *n; i++) rec_free(&out[i]);
  return rc;
}

int nvm_redo_check(const nvm_region *r) {
  struct rec recs[2];
  int n, rc = find_records(r, recs, &n);
  for (int i = 0; rc == NVM_OK && i < n; i++) rec_free(&recs[i]);
  return rc;
}

/* Keeps the bytes at [target, target + len) before an in-place store (r->redo_pre): test-only
 * bookkeeping for the crash hook, a copy of at most the record's size per commit. */
static void keep_pre(nvm_region *r, uint64_t target, uint32_t len) {
  size_t need = r->redo_pre_len + NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
  if (need > r->redo_pre_cap) {
    size_t cap = r->redo_pre_cap ? 2 * r->redo_pre_cap : 2 * NVM_UNDO_SIZE;
    while (cap < need) cap *= 2;
    uint8_t *p = realloc(r->redo_pre, cap);
    if (!p) abort(); /* as the hook's own bookkeeping (persist.c): not recoverable here */
    r->redo_pre = p;
    r->redo_pre_cap = cap;
  }
  nvm_put_entry(r->redo_pre, r->redo_pre_len, target, len, 0, r->base + target);
  r->redo_pre_len = need;
}

void nvm_redo_keep(nvm_region *r, uint64_t target) { keep_pre(r, target, 8); }

/* Store every entry of a record's payload to the media and flush it (no drain); with `keep`,
 * keep what each store replaces (keep_pre). */
uint32_t nvm_redo_apply(nvm_region *r, const uint8_t *payload, uint32_t count, int keep) {
  uint64_t pos = 0;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t target = rd64(payload + pos);
    uint32_t len = rd32(payload + pos + 8);
    if (keep) keep_pre(r, target, len);
    nvm_store(r, target, payload + pos + NVM_UNDO_ENTRY_HEADER, len);
    nvm_flush(r, r->base + target, len);
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
  }
  return count;
}

/* An entry of a record on a data page: its page, its place in the record (for sorting). */
struct page_entry {
  uint64_t page; /* the page's offset */
  uint32_t index;
  uint64_t pos; /* the entry's offset in the payload */
};

static int cmp_page_entry(const void *a, const void *b) {
  const struct page_entry *x = a, *y = b;
  if (x->page != y->page) return x->page < y->page ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
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
 * The entries are grouped by page (sorted), so a chained record of 100,000s of entries is
 * checked in O(n log n); *rc is set when memory runs out.
 */
static int seals_hold(const nvm_region *r, const struct rec *c, int *rc) {
  const uint8_t *p = c->payload;
  struct page_entry *es = malloc(((size_t)c->count + 1) * sizeof *es);
  if (!es) {
    *rc = nvm_fail(NVM_EIO, "%s: redo log: out of memory checking a record", r->path);
    return 0;
  }
  uint32_t n = 0;
  uint64_t pos = 0, idx;
  for (uint32_t i = 0; i < c->count; i++) {
    uint64_t target = rd64(p + pos);
    uint32_t len = rd32(p + pos + 8);
    if (target >= NVM_DATA_OFFSET && target < r->size) {
      uint64_t page = target - (target - NVM_DATA_OFFSET) % NVM_PAGE_SIZE;
      es[n++] = (struct page_entry){page, i, pos};
    }
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
  }
  qsort(es, n, sizeof *es, cmp_page_entry);
  uint8_t page[NVM_PAGE_SIZE];
  int ok = 1;
  for (uint32_t g = 0; ok && g < n;) {
    uint32_t end = g, sealed = 0;
    memcpy(page, r->base + es[g].page, NVM_PAGE_SIZE);
    for (; end < n && es[end].page == es[g].page; end++) { /* every entry on it, in order */
      uint64_t t = rd64(p + es[end].pos);
      uint32_t l = rd32(p + es[end].pos + 8);
      memcpy(page + (t - es[g].page), p + es[end].pos + NVM_UNDO_ENTRY_HEADER, l);
      sealed |= l == 8 && t == es[g].page && nvm_is_page_off(r, t, &idx);
    }
    uint64_t word = rd64(page);
    if (sealed && NVM_STATE_OF(word) == NVM_STATE_LIVE &&
        word != nvm_sealed_word_of(r, page, (uint32_t)word))
      ok = 0;
    g = end;
  }
  free(es);
  return ok;
}

/* Zero both slots' seq words (flush; the caller drains): no record is valid after. */
void nvm_redo_empty_slots(nvm_region *r) {
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
    if (i == n - 1 && !seals_hold(r, &recs[i], &rc)) { /* its FRESH data is not all there */
      if (rc) break;
      continue;
    }
    entries += nvm_redo_apply(r, recs[i].payload, recs[i].count, 0);
    replayed++;
  }
  for (int i = 0; i < n; i++) rec_free(&recs[i]);
  if (rc) return rc;
  if (replayed && (rc = nvm_drain(r))) return rc;
  r->rec.undo_rolled_back = replayed ? 1 : 0;
  r->rec.undo_entries = entries;
  if (nvm_ld64(r, NVM_REDO_SLOT0 + NVM_REDO_SEQ) == 0 &&
      nvm_ld64(r, NVM_REDO_SLOT1 + NVM_REDO_SEQ) == 0)
    return NVM_OK;
  nvm_redo_empty_slots(r);
  return nvm_drain(r);
}
