/*
 * txn.c — one batch (or one group of staged batches, which is committed as one):
 * parse it, validate it, then write it to the region with the documented persist
 * order (FRESH data, undo-logged or single-word INPLACE commit, then FREE
 * invalidations). Staging (stage.c) and grouping (group.c) are built on these.
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
  b->undo_bytes = NVM_UNDO_ENTRY_HEADER + 8; /* the SB_COMMIT_SEQ entry */
  b->ntouched = 0;
}

void nvm_batch_free(struct batch *b) {
  free(b->e);
  free(b->touched);
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

/* A page INPLACE entries change: its state word is resealed (and undo-logged) in the
 * batch. Batches touch few pages: a linear look for duplicates is enough. */
static int touch(const nvm_region *r, struct batch *b, uint64_t page) {
  uint64_t off = nvm_page_off(page);
  for (uint32_t k = 0; k < b->ntouched; k++)
    if (b->touched[k] == off) return NVM_OK;
  if (b->ntouched == b->touched_cap) {
    uint32_t cap = b->touched_cap ? 2 * b->touched_cap : 8;
    uint64_t *t = realloc(b->touched, cap * sizeof *t);
    if (!t) return nvm_fail(NVM_EIO, "%s: batch: out of memory", r->path);
    b->touched = t;
    b->touched_cap = cap;
  }
  b->touched[b->ntouched++] = off;
  b->undo_bytes += NVM_UNDO_ENTRY_HEADER + 8;
  return NVM_OK;
}

/* Adds an INPLACE entry's undo (its old bytes and its page's seal) to the accounting. */
static int account_inplace(nvm_region *r, struct batch *b, const struct entry *e) {
  b->n_inplace++;
  b->undo_bytes += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(e->len);
  return r->checksums && e->target >= NVM_DATA_OFFSET ? touch(r, b, e->page) : NVM_OK;
}

static const struct entry *sole_word(const nvm_region *r, const struct batch *b);

uint64_t nvm_batch_undo_need(const nvm_region *r, const struct batch *b) {
  return b->n_inplace == 0 || sole_word(r, b) ? 0 : b->undo_bytes;
}

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
  if (nvm_batch_undo_need(r, b) > NVM_UNDO_PAYLOAD_MAX)
    return nvm_fail(NVM_EINVAL,
                    "batch too large for the undo record (%llu bytes of undo, at most %d)",
                    (unsigned long long)b->undo_bytes, NVM_UNDO_PAYLOAD_MAX);
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
static void apply_fresh(nvm_region *r, const struct batch *b) {
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

/* The single aligned word a batch changes in place, if it can be stored alone: any
 * word without page checksums; with them a page's state word (its checksum is in
 * the same word) or a superblock counter (its check is), not another page field. */
static const struct entry *sole_word(const nvm_region *r, const struct batch *b) {
  if (b->n_inplace != 1) return NULL;
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_INPLACE) continue;
    if (e->len != 8 || e->target % 8) return NULL;
    return !r->checksums || is_state_word(e->target) || e->target < NVM_DATA_OFFSET ? e : NULL;
  }
  return NULL;
}

/* The word an INPLACE word entry stores: a counter with its check, a state word
 * with the page's seal over `img`, anything else as given. */
uint64_t nvm_entry_word(const nvm_region *r, const uint8_t *img, const struct entry *e) {
  uint64_t v;
  memcpy(&v, e->data, 8);
  if (!r->checksums) return v;
  if (e->target < NVM_DATA_OFFSET) return nvm_counter_word(e->target, v);
  if (is_state_word(e->target)) return nvm_sealed_word_in(r, img, e->target, (uint32_t)v);
  return v;
}

/* The bytes an INPLACE entry stores over the image `img`: an aligned word as
 * nvm_entry_word makes it (into *word), anything else as given. */
const void *nvm_entry_value(const nvm_region *r, const uint8_t *img, const struct entry *e,
                            uint64_t *word) {
  if (e->len != 8 || e->target % 8) return e->data;
  *word = nvm_entry_word(r, img, e);
  return word;
}

/* One aligned word needs no undo: the store itself is atomic. With FRESH data
 * the first drain makes it durable before the word can point at it; without,
 * every earlier store was drained by the batch that made it, so one barrier. */
static int commit_word(nvm_region *r, const struct entry *e, int has_fresh) {
  int rc = has_fresh ? nvm_drain(r) : NVM_OK;
  if (rc) return rc;
  uint64_t w = nvm_entry_word(r, r->base, e);
  nvm_store(r, e->target, &w, 8);
  nvm_flush(r, r->base + e->target, 8);
  return nvm_drain(r);
}

static uint64_t undo_put(nvm_region *r, uint64_t pos, uint64_t target, uint32_t len,
                         uint32_t field) {
  uint8_t *p = r->base + pos;
  memcpy(p, &target, 8);
  memcpy(p + 8, &len, 4);
  memcpy(p + 12, &field, 4);
  memcpy(p + NVM_UNDO_ENTRY_HEADER, r->base + target, len);
  memset(p + NVM_UNDO_ENTRY_HEADER + len, 0, NVM_PAD8(len) - len);
  return pos + NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
}

/* Old bytes of every INPLACE range, of the state word of every page they change,
 * and of SB_COMMIT_SEQ, then count/length/CRC.
 * UNDO_STATE is still 0 here, so a torn record is never acted upon. All old bytes
 * are captured before any INPLACE byte is written, so entries that overlap (a
 * batch, or a group of staged batches, may write one word several times) all hold
 * the values from before the batch and rollback order does not matter. */
static void write_undo(nvm_region *r, const struct batch *b) {
  uint64_t pos = NVM_UNDO_PAYLOAD;
  for (uint32_t i = 0; i < b->n; i++)
    if (b->e[i].op == NVM_OP_INPLACE)
      pos = undo_put(r, pos, b->e[i].target, b->e[i].len, b->e[i].field);
  for (uint32_t k = 0; k < b->ntouched; k++) /* the seals the batch rewrites */
    pos = undo_put(r, pos, b->touched[k], 8, NVM_F_STATE);
  pos = undo_put(r, pos, NVM_SB_COMMIT_SEQ, 8, NVM_F_COUNTER);
  uint32_t count = b->n_inplace + b->ntouched + 1, bytes = (uint32_t)(pos - NVM_UNDO_PAYLOAD);
  uint32_t crc = nvm_crc32c(0, r->base + NVM_UNDO_PAYLOAD, bytes);
  memcpy(r->base + NVM_UNDO_ENTRY_COUNT, &count, 4);
  memcpy(r->base + NVM_UNDO_PAYLOAD_BYTES, &bytes, 4);
  memcpy(r->base + NVM_UNDO_CRC, &crc, 4);
  nvm_flush(r, r->base + NVM_UNDO_ENTRY_COUNT, pos - NVM_UNDO_ENTRY_COUNT);
}

static int set_undo_state(nvm_region *r, uint64_t v) {
  __atomic_store_n((uint64_t *)(r->base + NVM_UNDO_STATE), v, __ATOMIC_RELAXED);
  nvm_flush(r, r->base + NVM_UNDO_STATE, 8);
  return nvm_drain(r);
}

static int commit_undo(nvm_region *r, const struct batch *b) {
  uint64_t seq = nvm_sb_get(r, NVM_SB_COMMIT_SEQ) + 1;
  write_undo(r, b);
  int rc = nvm_drain(r);
  if (rc) return rc;
  /* from here on a crash rolls back: the record is durable and armed */
  if ((rc = set_undo_state(r, seq))) return rc;
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_INPLACE) continue;
    uint64_t w;
    nvm_store(r, e->target, nvm_entry_value(r, r->base, e, &w), e->len);
    nvm_flush(r, r->base + e->target, e->len);
  }
  for (uint32_t k = 0; k < b->ntouched; k++) nvm_seal(r, b->touched[k]); /* after every field */
  uint64_t seq_word = r->checksums ? nvm_counter_word(NVM_SB_COMMIT_SEQ, seq) : seq;
  nvm_store(r, NVM_SB_COMMIT_SEQ, &seq_word, 8);
  nvm_flush(r, r->base + NVM_SB_COMMIT_SEQ, 8);
  if ((rc = nvm_drain(r))) return rc;
  nvm_work_mirror(r, NVM_SB_COMMIT_SEQ);
  /* all new bytes are durable: disarm the record (the commit point) */
  return set_undo_state(r, 0);
}

/* Runs only after the commit: a crash before it leaves the pages live. */
static int invalidate_frees(nvm_region *r, const struct batch *b) {
  uint32_t nfree = 0;
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_FREE) continue;
    uint64_t word = nvm_ld64(r, e->target);
    nvm_store(r, e->target, &(uint64_t){NVM_STATE_WORD(NVM_KIND_OF(word), NVM_STATE_INVALID)}, 8);
    nvm_flush(r, r->base + e->target, 8);
    nfree++;
  }
  return nfree ? nvm_drain(r) : NVM_OK;
}

int nvm_batch_commit(nvm_region *r, const struct batch *b) {
  int has_fresh = 0, rc;
  for (uint32_t i = 0; i < b->n; i++) has_fresh |= b->e[i].op == NVM_OP_FRESH;
  apply_fresh(r, b);
  const struct entry *w = sole_word(r, b);
  if (w)
    rc = commit_word(r, w, has_fresh);
  else if (b->n_inplace)
    rc = commit_undo(r, b);
  else
    rc = has_fresh ? nvm_drain(r) : NVM_OK;
  return rc ? rc : invalidate_frees(r, b);
}

/* The committed FREE pages back to the allocator: staging made room for them on the
 * free stack (r->pending_frees), so this cannot fail. */
void nvm_batch_release_frees(nvm_region *r, const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    if (b->e[i].op != NVM_OP_FREE) continue;
    r->pending_frees--;
    r->pages_used--;
    r->free_stack[r->free_top++] = (uint32_t)b->e[i].page;
  }
}
