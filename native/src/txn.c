/*
 * txn.c — one batch (or one group of staged batches, which is committed as one):
 * parse it, validate it, account for its log record, write its FRESH data, and the
 * bytes its INPLACE entries store. redo.c commits it (region-format.md §7.3); staging
 * (stage.c) and grouping (group.c) are built on these.
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

static int bad(uint32_t i, const char *why, uint64_t target) {
  return nvm_fail(NVM_EINVAL, "batch entry %u: %s (target %llu)", i, why,
                  (unsigned long long)target);
}

/* A field id of NVM_FIELDS: it labels the undo record the checker reads. */
static int field_known(uint32_t field) {
  switch (field) {
#define NVM_X_CASE(name, value, meaning) case NVM_F_##name:
    NVM_FIELDS(NVM_X_CASE)
#undef NVM_X_CASE
    return 1;
    default: return 0;
  }
}

static int check_fresh(const nvm_region *r, uint32_t i, struct entry *e) {
  if (e->len == 0) return bad(i, "FRESH with length 0", e->target);
  if (!nvm_page_range(r, e->target, e->len, &e->page))
    return bad(i, "FRESH range not inside one page of the data area", e->target);
  if (!nvm_bit_get(r->reserved_bits, e->page))
    return bad(i, "FRESH target page is not reserved", e->target);
  return NVM_OK;
}

/* `img` is the image whose state words count: the working copy when staging. */
static int check_inplace(const nvm_region *r, const uint8_t *img, uint32_t i, struct entry *e) {
  if (e->len == 0) return bad(i, "INPLACE with length 0", e->target);
  if (e->len == 8 && e->target % 8) return bad(i, "8-byte INPLACE not 8-byte aligned", e->target);
  if (e->target < NVM_DATA_OFFSET) {
    if (!nvm_sb_counter_range(e->target, e->len, 0))
      return bad(i, "INPLACE outside the writable superblock counters", e->target);
    if (r->checksums && (e->len != 8 || e->target % 8))
      return bad(i, "a superblock counter is written one aligned word at a time", e->target);
    if (r->checksums && rd64(e->data) >> NVM_SB_COUNTER_BITS)
      return bad(i, "a superblock counter value over 48 bits", e->target);
    e->page = UINT64_MAX;
    return NVM_OK;
  }
  if (!nvm_page_range(r, e->target, e->len, &e->page))
    return bad(i, "INPLACE range not inside one page of the data area", e->target);
  uint64_t word = rd64(img + nvm_page_off(e->page));
  if (NVM_STATE_OF(word) != NVM_STATE_LIVE && !nvm_bit_get(r->reserved_bits, e->page))
    return bad(i, "INPLACE target page is neither live nor reserved", e->target);
  return NVM_OK;
}

static int check_free(const nvm_region *r, uint32_t i, struct entry *e) {
  if (e->len != 0) return bad(i, "FREE with a non-zero length", e->target);
  if (!nvm_is_page_off(r, e->target, &e->page))
    return bad(i, "FREE target is not a data page", e->target);
  if (nvm_bit_get(r->reserved_bits, e->page))
    return bad(i, "FREE target page is reserved", e->target);
  if (!nvm_bit_get(r->used_bits, e->page))
    return bad(i, "FREE target page is not in use (or freed twice)", e->target);
  return NVM_OK;
}

static int check_entry(const nvm_region *r, const uint8_t *img, uint32_t i, struct entry *e) {
  switch (e->op) {
    case NVM_OP_FRESH: return check_fresh(r, i, e);
    case NVM_OP_INPLACE: return check_inplace(r, img, i, e);
    case NVM_OP_FREE: return check_free(r, i, e);
    default: return bad(i, "unknown op", e->target);
  }
}

void nvm_batch_reset(struct batch *b) {
  b->n = 0;
  b->n_inplace = 0;
  b->log_bytes = NVM_UNDO_ENTRY_HEADER + 8; /* the SB_COMMIT_SEQ entry */
  b->ntouched = 0;
  b->tindexed = 0;
}

void nvm_batch_free(struct batch *b) {
  free(b->e);
  free(b->touched);
  free(b->tkeys);
  free(b->tvals);
  memset(b, 0, sizeof *b);
}

static int reserve_entries(struct batch *b, uint32_t more) {
  if (b->n + (uint64_t)more <= b->cap) return NVM_OK;
  uint64_t cap = b->cap ? b->cap : 16;
  while (cap < b->n + (uint64_t)more) cap *= 2;
  if (cap > UINT32_MAX) return nvm_fail(NVM_EINVAL, "batch: too many entries");
  struct entry *e = realloc(b->e, cap * sizeof *e);
  if (!e) return nvm_fail(NVM_EIO, "batch: out of memory");
  b->e = e;
  b->cap = (uint32_t)cap;
  return NVM_OK;
}

/* Split the buffer into entries, checking bounds and reserved fields. */
int nvm_batch_parse(struct batch *b, const uint8_t *buf, size_t len) {
  if (!buf || len < NVM_BATCH_HEADER) return nvm_fail(NVM_EINVAL, "batch shorter than its header");
  if (rd32(buf + 4) != 0) return nvm_fail(NVM_EINVAL, "batch header reserved field is not 0");
  uint32_t n = rd32(buf);
  if (n > (len - NVM_BATCH_HEADER) / NVM_BATCH_ENTRY_HEADER)
    return nvm_fail(NVM_EINVAL, "batch declares %u entries but has only %zu bytes", n, len);
  int rc = reserve_entries(b, n);
  if (rc) return rc;
  size_t pos = NVM_BATCH_HEADER;
  for (uint32_t i = 0; i < n; i++) {
    if (len - pos < NVM_BATCH_ENTRY_HEADER)
      return nvm_fail(NVM_EINVAL, "batch entry %u: header past the end", i);
    const uint8_t *p = buf + pos;
    struct entry *e = &b->e[b->n + i];
    e->op = rd32(p);
    e->field = rd32(p + 4);
    e->target = rd64(p + 8);
    e->len = rd32(p + 16);
    e->page = 0;
    if (rd32(p + 20) != 0) return bad(i, "reserved field is not 0", e->target);
    if (!field_known(e->field)) return bad(i, "unknown field id", e->target);
    pos += NVM_BATCH_ENTRY_HEADER;
    if (NVM_PAD8(e->len) > len - pos)
      return bad(i, "data runs past the end of the batch", e->target);
    e->data = buf + pos;
    pos += NVM_PAD8(e->len);
  }
  if (pos != len)
    return nvm_fail(NVM_EINVAL, "batch has %zu trailing bytes after %u entries", len - pos, n);
  b->n += n;
  return NVM_OK;
}

/* Past this many touched pages a batch indexes them: a delete of hundreds of files' records
 * touches thousands of pages, and a linear look per entry made staging it quadratic. */
#define NVM_TOUCH_LINEAR 32u

static uint32_t touch_slot(const struct batch *b, uint64_t off) {
  uint64_t h = (off / NVM_PAGE_SIZE) * 0x9e3779b97f4a7c15ull;
  return (uint32_t)(h >> 32) & (b->tcap - 1);
}

static int64_t touched_linear(const struct batch *b, uint64_t off) {
  for (uint32_t k = 0; k < b->ntouched; k++)
    if (b->touched[k] == off) return k;
  return -1;
}

int64_t nvm_batch_touched_at(const struct batch *b, uint64_t off) {
  if (!b->tindexed) return touched_linear(b, off);
  for (uint32_t i = touch_slot(b, off);; i = (i + 1) & (b->tcap - 1)) {
    if (b->tkeys[i] == 0) return -1;
    if (b->tkeys[i] == off)
      return b->tvals[i] < b->ntouched && b->touched[b->tvals[i]] == off ? (int64_t)b->tvals[i]
                                                                         : -1;
  }
}

/* Index entry for touched[k] (the table has room). */
static void index_put(struct batch *b, uint32_t k) {
  uint64_t off = b->touched[k];
  uint32_t i = touch_slot(b, off);
  while (b->tkeys[i] != 0 && b->tkeys[i] != off) i = (i + 1) & (b->tcap - 1);
  b->tkeys[i] = off;
  b->tvals[i] = k;
}

/* (Re)builds the index over touched[0, ntouched) at a load of at most a quarter. */
static int index_build(const nvm_region *r, struct batch *b) {
  uint32_t cap = b->tcap ? b->tcap : 256;
  while (cap < 4 * (uint64_t)b->ntouched) cap *= 2;
  if (cap != b->tcap) {
    uint64_t *k = realloc(b->tkeys, cap * sizeof *k);
    uint32_t *v = k ? realloc(b->tvals, cap * sizeof *v) : NULL;
    if (k) b->tkeys = k;
    if (!k || !v) return nvm_fail(NVM_EIO, "%s: batch: out of memory", r->path);
    b->tvals = v;
    b->tcap = cap;
  }
  memset(b->tkeys, 0, b->tcap * sizeof *b->tkeys); /* 0 is never a data page's offset */
  for (uint32_t k = 0; k < b->ntouched; k++) index_put(b, k);
  b->tindexed = 1;
  return NVM_OK;
}

/* Notes that the batch changes a data page in place (its seal goes into the log), once. */
static int touch(const nvm_region *r, struct batch *b, uint64_t page) {
  uint64_t off = nvm_page_off(page);
  if (nvm_batch_touched_at(b, off) >= 0) return NVM_OK;
  if (b->ntouched == b->touched_cap) {
    uint32_t cap = b->touched_cap ? 2 * b->touched_cap : 8;
    uint64_t *t = realloc(b->touched, cap * sizeof *t);
    if (!t) return nvm_fail(NVM_EIO, "%s: batch: out of memory", r->path);
    b->touched = t;
    b->touched_cap = cap;
  }
  b->touched[b->ntouched++] = off;
  b->log_bytes += NVM_UNDO_ENTRY_HEADER + 8;
  if (b->ntouched > NVM_TOUCH_LINEAR && (!b->tindexed || 4 * (uint64_t)b->ntouched > b->tcap))
    return index_build(r, b);
  if (b->tindexed) index_put(b, b->ntouched - 1);
  return NVM_OK;
}

/* Adds an INPLACE entry's log entry (its bytes and its page's seal) to the accounting. */
static int account_inplace(nvm_region *r, struct batch *b, const struct entry *e) {
  b->n_inplace++;
  b->log_bytes += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(e->len);
  return r->checksums && e->target >= NVM_DATA_OFFSET ? touch(r, b, e->page) : NVM_OK;
}

/* A redo record's entries have the shape of an undo record's (region-format.md §4.1), so
 * the payload is the one the undo record needed; every group writes one. */
uint64_t nvm_batch_redo_need(const struct batch *b) { return b->log_bytes; }

/* FREE targets get their used bit cleared while validating so that a page
 * listed twice is caught in O(1); the bits are restored before returning. */
static int validate_entries(nvm_region *r, struct batch *b, uint32_t from, const uint8_t *img,
                            uint32_t *done) {
  for (*done = from; *done < b->n; (*done)++) {
    struct entry *e = &b->e[*done];
    int rc = check_entry(r, img, *done - from, e);
    if (rc) return rc;
    if (e->op == NVM_OP_FREE) nvm_bit_clear(r->used_bits, e->page);
    if (e->op == NVM_OP_INPLACE && (rc = account_inplace(r, b, e))) return rc;
  }
  /* The undo record took batches whose payload was at most UNDO_PAYLOAD_MAX, the size of a
   * big redo record, so no batch accepted before the redo log is refused now; a region with
   * chained records takes any size (its record's chain pages are promised at staging), the disk
   * mode up to its log's largest record (stage.c). */
  if (!r->wal && !r->redo_chain && nvm_batch_redo_need(b) > NVM_REDO_BIG_PAYLOAD_MAX)
    return nvm_fail(NVM_EINVAL,
                    "batch too large for the log record (%llu bytes of log, at most %d)",
                    (unsigned long long)b->log_bytes, NVM_REDO_BIG_PAYLOAD_MAX);
  return NVM_OK;
}

int nvm_batch_validate(nvm_region *r, struct batch *b, uint32_t from, const uint8_t *img) {
  uint32_t done = from;
  int rc = validate_entries(r, b, from, img, &done);
  for (uint32_t i = from; i < done && i < b->n; i++)
    if (b->e[i].op == NVM_OP_FREE) nvm_bit_set(r->used_bits, b->e[i].page);
  return rc;
}

int nvm_batch_account(nvm_region *r, struct batch *b, uint32_t from) {
  for (uint32_t i = from; i < b->n; i++) {
    struct entry *e = &b->e[i];
    if (e->target < NVM_DATA_OFFSET) {
      e->page = UINT64_MAX;
    } else if (e->op == NVM_OP_FREE) {
      nvm_is_page_off(r, e->target, &e->page);
    } else {
      nvm_page_range(r, e->target, e->len, &e->page);
    }
    int rc = e->op == NVM_OP_INPLACE ? account_inplace(r, b, e) : NVM_OK;
    if (rc) return rc;
  }
  return NVM_OK;
}

/* ------------------------------------------------------------------ apply */

/* FRESH data first; a page written LIVE (an extension page) is sealed before it is
 * flushed, so its checksum reaches media with it (region-format.md §11). */
void nvm_batch_write_fresh(nvm_region *r, const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op == NVM_OP_FRESH) memcpy(r->base + e->target, e->data, e->len);
  }
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_FRESH) continue;
    if ((e->target - NVM_DATA_OFFSET) % NVM_PAGE_SIZE == 0) {
      uint64_t w = nvm_sealed_word(r, e->target, (uint32_t)nvm_ld64(r, e->target));
      memcpy(r->base + e->target, &w, 8);
    }
    nvm_flush(r, r->base + e->target, e->len);
  }
}

static int is_state_word(uint64_t target) {
  return target >= NVM_DATA_OFFSET && (target - NVM_DATA_OFFSET) % NVM_PAGE_SIZE == 0;
}

/* The word an INPLACE word entry stores: a counter with its check, a state word
 * with the seal over `page` (the bytes of the entry's page), anything else as given. */
uint64_t nvm_entry_word_over(const nvm_region *r, const uint8_t *page, const struct entry *e) {
  uint64_t v;
  memcpy(&v, e->data, 8);
  if (!r->checksums) return v;
  if (e->target < NVM_DATA_OFFSET) return nvm_counter_word(e->target, v);
  if (is_state_word(e->target)) return nvm_sealed_word_of(r, page, (uint32_t)v);
  return v;
}

uint64_t nvm_entry_word(const nvm_region *r, const uint8_t *img, const struct entry *e) {
  return nvm_entry_word_over(r, is_state_word(e->target) ? img + e->target : NULL, e);
}

/* The bytes an INPLACE entry stores over the image `img`: an aligned word as
 * nvm_entry_word makes it (into *word), anything else as given. */
const void *nvm_entry_value(const nvm_region *r, const uint8_t *img, const struct entry *e,
                            uint64_t *word) {
  if (e->len != 8 || e->target % 8) return e->data;
  *word = nvm_entry_word(r, img, e);
  return word;
}
