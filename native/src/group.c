/*
 * group.c — nvm_sync: commit the staged batches to the region in groups, and
 * nvm_apply (stage, then sync). region-format.md §7.7.
 *
 * A group is consecutive staged batches committed as one batch by redo.c's persist
 * order: one redo record holds the final bytes of every INPLACE range of all of them
 * (a word written by several batches holds the last one's value), SB_COMMIT_SEQ rises by
 * one per group, and one barrier makes the group's FRESH data and its record durable
 * together. So a crash leaves the region at the end of some group: a prefix of the staged
 * batches, never a gap.
 *
 * Committing the union of the entries writes what applying the batches one after the
 * other writes, because all FRESH data is written before any INPLACE byte, and a FRESH
 * page is a page no earlier batch could have written: it was reserved when its batch was
 * staged, and reserved pages do not take FREE, while a page an earlier FRESH entry wrote
 * is no longer reserved. The one exception is an INPLACE entry on a reserved page
 * followed, in a later batch, by FRESH data on that page: a group ends before such a batch
 * (fresh_after_inplace; across groups redo.c empties the slots instead). A group also ends
 * before a batch that would make its record larger than a slot (REDO_SLOT_PAYLOAD_MAX): a
 * record that fits one slot costs one barrier, a big one (the whole area) two and one
 * more for the group after it, so only a batch too large for a slot on its own takes it.
 *
 * A batch that writes an inode, string or record page LIVE in its FRESH data (the
 * NameNode writes them PENDING and makes them LIVE in place; only extension pages,
 * which nothing reaches until a link to them commits, are written LIVE) commits itself
 * once that data reaches the media, which may be before its group's commit point: it
 * forms a group alone (self_committing), so that no later batch can become durable before
 * it, and every earlier batch is committed before its data is written.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <stdio.h>

#include "batch.h"

/* Drop the working copy's copied pages once this many were written since the last drop. */
#define NVM_COW_DROP_PAGES 65536u /* 256 MiB */

static int fresh_after_inplace(const struct batch *g, uint32_t first) {
  for (uint32_t i = first; i < g->n; i++) {
    if (g->e[i].op != NVM_OP_FRESH) continue;
    for (uint32_t j = 0; j < first; j++)
      if (g->e[j].op == NVM_OP_INPLACE && g->e[j].page == g->e[i].page) return 1;
  }
  return 0;
}

/* Does batch [first, g->n) write a page LIVE that is reachable without a link? */
static int self_committing(const struct batch *g, uint32_t first) {
  for (uint32_t i = first; i < g->n; i++) {
    const struct entry *e = &g->e[i];
    if (e->op != NVM_OP_FRESH || (e->target - NVM_DATA_OFFSET) % NVM_PAGE_SIZE || e->len < 8)
      continue;
    uint64_t w;
    memcpy(&w, e->data, 8);
    unsigned kind = NVM_KIND_OF(w);
    if (NVM_STATE_OF(w) == NVM_STATE_LIVE &&
        (kind == NVM_KIND_DIR || kind == NVM_KIND_FILE || kind == NVM_KIND_SYMLINK ||
         kind == NVM_KIND_STRING || kind == NVM_KIND_RECORD))
      return 1;
  }
  return 0;
}

static int commit_group(nvm_region *r, struct batch *g) {
  int rc = g->n ? nvm_batch_commit(r, g) : NVM_OK;
  if (rc || !g->n) return rc;
  pthread_mutex_lock(&r->lock);
  rc = nvm_redo_release(r, g);
  pthread_mutex_unlock(&r->lock);
  if (rc) return rc;
  if (r->hook.capture && g->n) rc = nvm_hook_capture_applied(r);
  nvm_batch_reset(g);
  return rc;
}

static uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* Commits every batch of q, in order, in as few groups as fit. */
static int commit_queue(nvm_region *r, const struct nvm_queue *q) {
  struct batch *g = &r->group;
  nvm_batch_reset(g);
  size_t pos = 0;
  while (pos < q->len) {
    uint64_t len = rd64(q->buf + pos);
    uint32_t first = g->n, n_inplace = g->n_inplace, ntouched = g->ntouched;
    uint64_t log_bytes = g->log_bytes;
    int rc = nvm_batch_parse(g, q->buf + pos + 8, len);
    if (rc == NVM_OK) rc = nvm_batch_account(r, g, first);
    if (rc) return rc;
    int alone = self_committing(g, first);
    if (first > 0 && (alone || nvm_batch_redo_need(g) > NVM_REDO_SLOT_PAYLOAD_MAX ||
                      fresh_after_inplace(g, first))) {
      /* this batch starts the next group */
      g->n = first;
      g->n_inplace = n_inplace;
      g->ntouched = ntouched;
      g->log_bytes = log_bytes;
      if ((rc = commit_group(r, g))) return rc;
      continue;
    }
    pos += 8 + NVM_PAD8(len);
    if (alone && (rc = commit_group(r, g))) return rc;
  }
  return commit_group(r, g);
}

/* The working copy's pages that staged, uncommitted batches wrote, so that dropping
 * the others loses nothing: sets bits in r->cow_bits (cleared by the caller). */
static void mark_pending(nvm_region *r) {
  struct batch *b = &r->stage_scratch;
  size_t pos = 0;
  while (pos < r->staged.len) {
    uint64_t len = rd64(r->staged.buf + pos);
    nvm_batch_reset(b);
    if (nvm_batch_parse(b, r->staged.buf + pos + 8, len) == NVM_OK) /* parsed when staged */
      for (uint32_t i = 0; i < b->n; i++) {
        uint64_t off = b->e[i].target, end = off + (b->e[i].len ? b->e[i].len : 8);
        if (b->e[i].target >= NVM_DATA_OFFSET) { /* a seal changes the page's state word */
          uint64_t page = off - (off - NVM_DATA_OFFSET) % NVM_PAGE_SIZE;
          nvm_bit_set(r->cow_bits, page / NVM_OS_PAGE);
        }
        for (uint64_t p = off / NVM_OS_PAGE; p <= (end - 1) / NVM_OS_PAGE; p++)
          nvm_bit_set(r->cow_bits, p);
      }
    pos += 8 + NVM_PAD8(len);
  }
}

/*
 * Bounds the working copy's private pages: once NVM_COW_DROP_PAGES were written, every
 * page no uncommitted batch wrote is dropped (MADV_DONTNEED on a private mapping: the
 * next access reads the region file again). Those pages equal the media, since every
 * batch that wrote them is committed, so a reader reading during the drop sees the same
 * bytes either way. Holds r->lock (nothing is staged meanwhile) and persist_lock.
 */
static void maybe_drop_work(nvm_region *r) {
  if (r->cow_pages < NVM_COW_DROP_PAGES) return;
  pthread_mutex_lock(&r->lock);
  uint64_t npages = r->size / NVM_OS_PAGE;
  memset(r->cow_bits, 0, (size_t)((npages + 7) / 8));
  mark_pending(r);
  uint64_t kept = 0, p = 0;
  while (p < npages) {
    uint64_t q = p;
    while (q < npages && !nvm_bit_get(r->cow_bits, q)) q++;
    if (q > p) madvise(r->work + p * NVM_OS_PAGE, (q - p) * NVM_OS_PAGE, MADV_DONTNEED);
    for (p = q; p < npages && nvm_bit_get(r->cow_bits, p); p++) kept++;
  }
  r->cow_pages = kept;
  pthread_mutex_unlock(&r->lock);
  nvm_populate_forget(r); /* the pages it had made private ahead are dropped too */
}

/* Moves the staged batches up to up_to from r->staged to the empty r->persisting (all of
 * them by swapping the buffers); *last is the last one moved. Holds r->lock. */
static int take_staged(nvm_region *r, uint64_t up_to, uint64_t *last) {
  uint64_t first = r->staged_seq - r->staged.nbatches + 1;
  if (up_to >= r->staged_seq) {
    struct nvm_queue q = r->persisting;
    r->persisting = r->staged;
    r->staged = q;
    *last = r->staged_seq;
    return NVM_OK;
  }
  size_t cut = 0;
  uint64_t n = 0;
  for (uint64_t seq = first; seq <= up_to; seq++, n++)
    cut += 8 + NVM_PAD8(rd64(r->staged.buf + cut));
  *last = first - 1 + n;
  if (n == 0) return NVM_OK;
  struct nvm_queue *p = &r->persisting;
  if (p->cap < cut) {
    uint8_t *buf = realloc(p->buf, cut);
    if (!buf) return nvm_fail(NVM_EIO, "region %s: cannot take the staged batches", r->path);
    p->buf = buf;
    p->cap = cut;
  }
  memcpy(p->buf, r->staged.buf, cut);
  p->len = cut;
  p->nbatches = n;
  memmove(r->staged.buf, r->staged.buf + cut, r->staged.len - cut);
  r->staged.len -= cut;
  r->staged.nbatches -= n;
  return NVM_OK;
}

uint64_t nvm_durable_seq(const nvm_region *r) {
  return __atomic_load_n(&r->durable_seq, __ATOMIC_ACQUIRE);
}

int nvm_sync_upto(nvm_region *r, uint64_t up_to, uint64_t *durable) {
  pthread_mutex_lock(&r->persist_lock);
  int rc = NVM_OK;
  uint64_t upto = r->durable_seq;
  if (up_to > r->durable_seq) {
    pthread_mutex_lock(&r->lock);
    rc = r->readonly || !r->work ? NVM_OK : nvm_check_writable(r);
    if (rc == NVM_OK) rc = nvm_check_not_failed(r);
    if (rc == NVM_OK) rc = take_staged(r, up_to, &upto);
    pthread_mutex_unlock(&r->lock);
  }
  if (rc == NVM_OK)
    rc = r->wal ? nvm_disk_commit(r, &r->persisting) : commit_queue(r, &r->persisting);
  r->persisting.len = 0;
  r->persisting.nbatches = 0;
  if (rc == NVM_OK) {
    __atomic_store_n(&r->durable_seq, upto, __ATOMIC_RELEASE);
    if (r->work && !r->wal) maybe_drop_work(r);
  } else if (!r->failed) {
    snprintf(r->fail_msg, sizeof r->fail_msg, "%s", nvm_errormsg());
    r->failed = rc == NVM_ECRASHED ? NVM_ECRASHED : NVM_EIO;
  }
  if (durable) *durable = nvm_durable_seq(r);
  pthread_mutex_unlock(&r->persist_lock);
  return rc;
}

int nvm_sync(nvm_region *r, uint64_t *durable) { return nvm_sync_upto(r, UINT64_MAX, durable); }

int nvm_apply(nvm_region *r, const void *batch, size_t batch_len) {
  uint64_t seq = 0;
  int rc = nvm_stage(r, batch, batch_len, &seq);
  return rc ? rc : nvm_sync(r, NULL);
}
