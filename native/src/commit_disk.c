/*
 * commit_disk.c — a group commit in the disk mode (region-format.md §12.3).
 *
 * The staged items (stage.c) already hold, as log entries, every byte their batches stored
 * into the working copy. A commit of a queue of them:
 *   1. makes them group records of the write-ahead log (one record per group, cut at the
 *      largest record; each ends with SB_COMMIT_SEQ := its seq) and writes them with one
 *      pwrite per extent of the file;
 *   2. fdatasync of the log: THE COMMIT POINT. No byte of these records was written to the
 *      region file before it;
 *   3. stores every entry into the region's shared mapping, in record order, with no flush
 *      and no msync: the kernel may write those pages back at any time, in any order, since
 *      every byte of them is durable in the log, and a checkpoint (checkpoint.c) makes them
 *      durable in the region file before the log's room is reused.
 * A crash before 2 completes keeps a prefix of the records (each fdatasync covers every
 * write before it, and replay stops at the first record that is not whole); so a crash
 * leaves the region at the end of some group, as in the memory modes (§7.7).
 *
 * Freed pages go back to the allocator once their record is durable: replay stores every
 * record from the checkpoint on, in order, so a page's later FRESH data always lands after
 * the entries of the record that freed it (the memory modes' two-record delay, §7.4, guards
 * a replay that holds only the last two records).
 */
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "checkpoint.h"
#include "wal.h"

#define ITEM_HEADER 24u /* stage.c's item: u64 bytes, then u32 payload_len, count, nfree, 0 */
#define SEQ_ENTRY (NVM_UNDO_ENTRY_HEADER + 8)

struct item {
  const uint8_t *payload;
  uint32_t payload_len, count, nfree;
  const uint32_t *pages;
  size_t next; /* queue offset of the next item */
};

static struct item item_at(const struct nvm_queue *q, size_t pos) {
  struct item it;
  uint64_t bytes;
  uint32_t h[4];
  memcpy(&bytes, q->buf + pos, 8);
  memcpy(h, q->buf + pos + 8, sizeof h);
  it.payload = q->buf + pos + 8 + ITEM_HEADER;
  it.payload_len = h[0];
  it.count = h[1];
  it.nfree = h[2];
  it.pages = (const uint32_t *)(it.payload + it.payload_len);
  it.next = pos + 8 + bytes;
  return it;
}

static int grow(nvm_region *r, uint64_t nitems) {
  size_t iov = 2 * nitems + 2, seq = SEQ_ENTRY * (nitems + 1);
  if (iov > r->disk_iov_cap) {
    struct iovec *p = realloc(r->disk_iov, iov * sizeof *p);
    if (!p) return nvm_fail(NVM_EIO, "%s: commit: out of memory", r->path);
    r->disk_iov = p;
    r->disk_iov_cap = iov;
  }
  if (seq > r->disk_seq_cap) {
    uint8_t *p = realloc(r->disk_seq, seq);
    if (!p) return nvm_fail(NVM_EIO, "%s: commit: out of memory", r->path);
    r->disk_seq = p;
    r->disk_seq_cap = seq;
  }
  return NVM_OK;
}

/* Step 3 for one payload: its entries stored into the media mapping, in order. */
static void apply_payload(nvm_region *r, const uint8_t *p, uint32_t len) {
  uint32_t pos = 0;
  while (pos < len) {
    uint64_t target;
    uint32_t n;
    memcpy(&target, p + pos, 8);
    memcpy(&n, p + pos + 8, 4);
    nvm_store(r, target, p + pos + NVM_UNDO_ENTRY_HEADER, n);
    pos += NVM_UNDO_ENTRY_HEADER + (uint32_t)NVM_PAD8(n);
  }
}

/*
 * Adds the records of the items from *pos on that fit the log's room (at least one record,
 * after a checkpoint if the room is short); *nrec records, *end = where the last one ends in
 * the queue. Record k's seq is seq0 + k + 1.
 */
static int add_records(nvm_region *r, const struct nvm_queue *q, size_t pos, uint64_t seq0,
                       int *nrec, size_t *end) {
  struct nvm_wal *w = r->wal;
  uint64_t max = nvm_wal_max_payload(w), at = w->head;
  int niov = 0;
  *nrec = 0;
  while (pos < q->len) {
    size_t first = pos;
    int iov0 = niov;
    uint64_t payload = SEQ_ENTRY;
    uint32_t count = 1;
    while (pos < q->len) { /* one record: items while they fit the largest record */
      struct item it = item_at(q, pos);
      if (pos != first && payload + it.payload_len > max) break;
      r->disk_iov[niov++] = (struct iovec){(void *)it.payload, it.payload_len};
      payload += it.payload_len;
      count += it.count;
      pos = it.next;
    }
    uint64_t seq = seq0 + (uint64_t)*nrec + 1, word = nvm_counter_word(NVM_SB_COMMIT_SEQ, seq);
    uint8_t *e = r->disk_seq + (size_t)*nrec * SEQ_ENTRY;
    nvm_put_entry(e, 0, NVM_SB_COMMIT_SEQ, 8, NVM_F_COUNTER, &word);
    r->disk_iov[niov++] = (struct iovec){e, SEQ_ENTRY};
    uint64_t next = nvm_wal_place(w, at, payload);
    if (next - nvm_wal_tail(w) > w->capacity) {
      if (*nrec > 0) { /* the next round takes it, after this one's sync and a checkpoint */
        pos = first;
        break;
      }
      int rc = nvm_ckpt_take(r); /* everything before is applied: the whole ring is free */
      if (rc) return rc;
    }
    nvm_wal_add(w, seq, count, r->disk_iov + iov0, niov - iov0);
    at = next;
    (*nrec)++;
  }
  *end = pos;
  return NVM_OK;
}

int nvm_disk_commit(nvm_region *r, const struct nvm_queue *q) {
  if (q->len == 0) return NVM_OK;
  int rc = grow(r, q->nbatches);
  size_t pos = 0;
  while (rc == NVM_OK && pos < q->len) {
    uint64_t seq0 = nvm_sb_get(r, NVM_SB_COMMIT_SEQ);
    int nrec;
    size_t end;
    if ((rc = add_records(r, q, pos, seq0, &nrec, &end))) break;
    if ((rc = nvm_wal_write(r->wal))) break; /* step 1 */
    if ((rc = nvm_wal_sync(r->wal))) break;  /* step 2: THE COMMIT POINT */
    /* step 3: the records' bytes into the region's mapping, in order; the kernel may write
     * them back whenever it likes from here on. No batch writes SB_COMMIT_SEQ, so storing
     * the last record's value once equals storing each record's after its items. */
    for (size_t p = pos; p < end;) {
      struct item it = item_at(q, p);
      apply_payload(r, it.payload, it.payload_len);
      p = it.next;
    }
    uint64_t seq = nvm_counter_word(NVM_SB_COMMIT_SEQ, seq0 + (uint64_t)nrec);
    nvm_store(r, NVM_SB_COMMIT_SEQ, &seq, 8);
    nvm_work_mirror(r, NVM_SB_COMMIT_SEQ);
    __atomic_store_n(&r->applied_lsn, r->wal->head, __ATOMIC_RELEASE);
    nvm_powerloss_applied(r);     /* test only: no-op unless armed */
    pthread_mutex_lock(&r->lock); /* the freed pages back to the allocator */
    for (size_t p = pos; p < end;) {
      struct item it = item_at(q, p);
      for (uint32_t i = 0; i < it.nfree; i++) {
        r->pending_frees--;
        r->pages_used--;
        r->free_stack[r->free_top++] = it.pages[i];
      }
      p = it.next;
    }
    pthread_mutex_unlock(&r->lock);
    nvm_ckpt_note_commit(r);
    pos = end;
  }
  return rc;
}
