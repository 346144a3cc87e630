/*
 * stage.c — nvm_stage (region-format.md §7.7): a batch validated against the working copy
 * (work.c) and applied to it, readers see it at once, and queued for the commit; nothing is
 * written to the region file, so no flush or barrier is needed to stage.
 */
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "wal.h"

/* The staging queues and scratch batches (at close). */
void nvm_stage_free(nvm_region *r) {
  free(r->staged.buf);
  free(r->persisting.buf);
  memset(&r->staged, 0, sizeof r->staged);
  memset(&r->persisting, 0, sizeof r->persisting);
  nvm_batch_free(&r->stage_scratch);
  nvm_batch_free(&r->group);
}

/* Counts the OS pages of [off, off+len) written in the working copy for the first time
 * since its pages were last dropped (group.c). */
static void note_written(nvm_region *r, uint64_t off, uint64_t len) {
  for (uint64_t p = off / NVM_OS_PAGE; p <= (off + len - 1) / NVM_OS_PAGE; p++) {
    if (nvm_bit_get(r->cow_bits, p)) continue;
    nvm_bit_set(r->cow_bits, p);
    r->cow_pages++;
  }
}

static void work_store(nvm_region *r, uint64_t off, const void *src, uint32_t len) {
  nvm_store_into(r->work, off, src, len);
  note_written(r, off, len);
}

static void work_seal(nvm_region *r, uint64_t page) {
  uint64_t low = *(const uint64_t *)(r->work + page) & 0xffffffffull;
  uint64_t w = nvm_sealed_word_in(r, r->work, page, (uint32_t)low);
  work_store(r, page, &w, 8);
}

/*
 * The disk mode's staged item (commit_disk.c reads it): the bytes this batch stores, as the
 * entries of a log record, in the order they were stored into the working copy, so that
 * storing them again in that order over the region as the previous batches left it gives
 * the working copy's bytes, seals included; then the pages its FREE entries free.
 *   u64 item_bytes (what follows, a multiple of 8); u32 payload_len; u32 count; u32 nfree;
 *   u32 reserved; payload[payload_len]; u32 pages[nfree] padded to 8
 * A page the batch writes FRESH from its state word on is logged whole: its seal covers the
 * whole page, so the replay must not depend on what the reserved page held before.
 */
#define ITEM_HEADER 24u

struct emit {
  uint8_t *p; /* the payload, inside the queue's reserved room; NULL: memory modes */
  uint64_t len;
  uint32_t count;
};

static void emit_from_work(nvm_region *r, struct emit *o, uint64_t target, uint32_t len,
                           uint32_t field) {
  if (!o->p) return;
  o->len = nvm_put_entry(o->p, o->len, target, len, field, r->work + target);
  o->count++;
}

/* Room a batch's item may need: every FRESH entry as a whole page, every INPLACE entry, a
 * seal per touched page, an invalidation and a page number per FREE entry. */
static uint64_t item_room(const struct batch *b) {
  uint64_t n = 8 + ITEM_HEADER;
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op == NVM_OP_FRESH) n += NVM_UNDO_ENTRY_HEADER + NVM_PAGE_SIZE;
    if (e->op == NVM_OP_INPLACE) n += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(e->len);
    if (e->op == NVM_OP_FREE) n += NVM_UNDO_ENTRY_HEADER + 8 + 4;
  }
  return n + (uint64_t)b->ntouched * (NVM_UNDO_ENTRY_HEADER + 8) + 8;
}

/* The batch's effect on the working copy, in the order a commit writes it to the media
 * (txn.c): FRESH data and the seals of pages written LIVE, INPLACE stores, the seals of
 * the pages they change, FREE pages made INVALID; in the disk mode also as log entries. */
static void work_apply(nvm_region *r, const struct batch *b, struct emit *o) {
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op == NVM_OP_FRESH) work_store(r, e->target, e->data, e->len);
  }
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_FRESH) continue;
    int whole = (e->target - NVM_DATA_OFFSET) % NVM_PAGE_SIZE == 0;
    if (whole) work_seal(r, e->target);
    emit_from_work(r, o, e->target, whole ? NVM_PAGE_SIZE : e->len, whole ? NVM_F_PAGE : e->field);
  }
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_INPLACE) continue;
    uint64_t w;
    work_store(r, e->target, nvm_entry_value(r, r->work, e, &w), e->len);
    emit_from_work(r, o, e->target, e->len, e->field);
  }
  for (uint32_t k = 0; k < b->ntouched; k++) {
    work_seal(r, b->touched[k]);
    emit_from_work(r, o, b->touched[k], 8, NVM_F_STATE);
  }
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op != NVM_OP_FREE) continue;
    uint64_t word = *(const uint64_t *)(r->work + e->target);
    uint64_t inv = NVM_STATE_WORD(NVM_KIND_OF(word), NVM_STATE_INVALID);
    work_store(r, e->target, &inv, 8);
    emit_from_work(r, o, e->target, 8, NVM_F_STATE);
  }
}

/* FRESH pages stop being reservations: they now count as used. FREE pages stop being
 * in use for validation (a second FREE is refused) but go back to the free stack only
 * once their batch is committed (group.c), so that no page is written again before
 * the batch that freed it is in the region. */
static void allocate(nvm_region *r, const struct batch *b) {
  for (uint32_t i = 0; i < b->n; i++) {
    const struct entry *e = &b->e[i];
    if (e->op == NVM_OP_FRESH && nvm_bit_get(r->reserved_bits, e->page)) {
      nvm_bit_clear(r->reserved_bits, e->page);
      nvm_bit_set(r->used_bits, e->page);
      r->pages_reserved--;
      r->pages_used++;
    } else if (e->op == NVM_OP_FREE) {
      nvm_bit_clear(r->used_bits, e->page);
      r->pending_frees++;
    }
  }
}

static int queue_room(nvm_region *r, struct nvm_queue *q, uint64_t more) {
  size_t need = q->len + more;
  if (need <= q->cap) return NVM_OK;
  size_t cap = q->cap ? q->cap : 64 * 1024;
  while (cap < need) cap *= 2;
  uint8_t *n = realloc(q->buf, cap);
  if (!n) return nvm_fail(NVM_EIO, "region %s: cannot grow the staging queue", r->path);
  q->buf = n;
  q->cap = cap;
  return NVM_OK;
}

/* The memory modes queue the batch as it came (u64 length, bytes padded to 8). */
static void queue_batch(struct nvm_queue *q, const void *batch, size_t len) {
  uint64_t l = len;
  memcpy(q->buf + q->len, &l, 8);
  memcpy(q->buf + q->len + 8, batch, len);
  memset(q->buf + q->len + 8 + len, 0, NVM_PAD8(len) - len);
  q->len += 8 + NVM_PAD8(len);
  q->nbatches++;
}

/* The disk mode's item around the payload emitted at q->buf + q->len + 8 + ITEM_HEADER. */
static void queue_item(struct nvm_queue *q, const struct batch *b, const struct emit *o) {
  uint8_t *item = q->buf + q->len;
  uint32_t nfree = 0, hdr[4];
  uint32_t *pages = (uint32_t *)(item + 8 + ITEM_HEADER + o->len);
  for (uint32_t i = 0; i < b->n; i++)
    if (b->e[i].op == NVM_OP_FREE) pages[nfree++] = (uint32_t)b->e[i].page;
  uint64_t tail = NVM_PAD8((uint64_t)nfree * 4);
  memset((uint8_t *)pages + nfree * 4, 0, tail - nfree * 4);
  hdr[0] = (uint32_t)o->len;
  hdr[1] = o->count;
  hdr[2] = nfree;
  hdr[3] = 0;
  memcpy(item + 8, hdr, sizeof hdr);
  uint64_t bytes = ITEM_HEADER + o->len + tail;
  memcpy(item, &bytes, 8);
  q->len += 8 + bytes;
  q->nbatches++;
}

/* A handle whose commit failed refuses everything after (nvm_sync). */
int nvm_check_not_failed(const nvm_region *r) {
  if (r->failed)
    return nvm_fail(r->failed,
                    "region %s: an earlier commit failed (%s); its staged batches are not "
                    "in the region and this handle cannot be used",
                    r->path, r->fail_msg);
  return NVM_OK;
}

int nvm_stage(nvm_region *r, const void *batch, size_t batch_len, uint64_t *seq) {
  pthread_mutex_lock(&r->lock);
  struct batch *b = &r->stage_scratch;
  nvm_batch_reset(b);
  int rc = nvm_check_writable(r);
  if (rc == NVM_OK) rc = nvm_check_not_failed(r);
  if (rc == NVM_OK) rc = nvm_batch_parse(b, batch, batch_len);
  if (rc == NVM_OK) rc = nvm_batch_validate(r, b, 0, r->work);
  uint64_t nfree = 0;
  for (uint32_t i = 0; rc == NVM_OK && i < b->n; i++) nfree += b->e[i].op == NVM_OP_FREE;
  if (rc == NVM_OK && nfree) rc = nvm_free_reserve(r, nfree);
  uint64_t room = r->wal ? item_room(b) : 8 + NVM_PAD8(batch_len);
  if (rc == NVM_OK && r->wal && room - 8 - ITEM_HEADER > nvm_wal_max_payload(r->wal))
    rc = nvm_fail(NVM_EINVAL,
                  "batch of %llu bytes of log is larger than the write-ahead log's largest "
                  "record (%llu bytes: half its capacity)",
                  (unsigned long long)(room - 8 - ITEM_HEADER),
                  (unsigned long long)nvm_wal_max_payload(r->wal));
  /* A chained redo record's pages are taken at its commit (redo.c), from the pages free then or
   * coming back by then: promised here, so that the commit never finds the region full. */
  uint32_t nchain = r->wal || !r->redo_chain ? 0 : nvm_redo_chain_pages(nvm_batch_redo_need(b));
  if (rc == NVM_OK && nchain && nvm_alloc_pages_coming(r) < r->chain_promised + nchain)
    rc = nvm_fail(NVM_EFULL,
                  "region full: a batch of %llu bytes of log needs %u pages for its redo record, "
                  "%llu are free or coming free and %llu promised",
                  (unsigned long long)nvm_batch_redo_need(b), nchain,
                  (unsigned long long)nvm_alloc_pages_coming(r),
                  (unsigned long long)r->chain_promised);
  if (rc == NVM_OK) rc = queue_room(r, &r->staged, room);
  if (rc == NVM_OK) { /* nothing can fail from here on */
    struct emit o = {r->wal ? r->staged.buf + r->staged.len + 8 + ITEM_HEADER : NULL, 0, 0};
    work_apply(r, b, &o);
    if (r->wal)
      queue_item(&r->staged, b, &o);
    else
      queue_batch(&r->staged, batch, batch_len);
    allocate(r, b);
    r->chain_promised += nchain;
    *seq = ++r->staged_seq;
  }
  pthread_mutex_unlock(&r->lock);
  return rc;
}
