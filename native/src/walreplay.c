/*
 * walreplay.c — recovery of a region whose write-ahead log holds records the region file may
 * lack (a disk-mode region that was not closed; region-format.md §12.5). Runs at a read-write
 * open in any mode, before the page scan:
 *   1. SB_WAL_CHECKPOINT = 0: nothing to do. Otherwise the log file must be there, of this
 *      region and of the epoch SB_WAL_EPOCH names (NVM_ELOG if not);
 *   2. every valid record from the checkpoint on is stored in place, in order: the region's
 *      pages since the checkpoint may be on media in part, whole, or torn at any sector, and
 *      storing every byte changed since then again repairs each of them. A record whose CRC
 *      matches but whose entries no library writes (out of bounds, a range no batch writes,
 *      not ending with SB_COMMIT_SEQ := its seq, a seq that does not follow the previous
 *      record's) refuses the region (NVM_ECORRUPT);
 *   3. the scan limit raised to cover every page a record wrote (the raise itself was not
 *      logged: it reaches the region file with the superblock's page, lazily);
 *   4. the region file made durable. The log stays the region's until the open moves the
 *      checkpoint (checkpoint.c): a crash before that replays again, which stores the same
 *      bytes.
 */
#include <stdio.h>
#include <string.h>

#include "checkpoint.h"
#include "wal.h"

struct replay {
  nvm_region *r;
  uint64_t prev_seq, max_page, records, bytes, entries;
};

static uint32_t get32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* The entries of a valid record, checked before any of them is stored (read only). */
static int check_record(const struct replay *x, const struct nvm_wal_rec *c) {
  const nvm_region *r = x->r;
  uint64_t pos = 0, last = 0;
  for (uint32_t i = 0; i < c->count; i++) {
    if (pos + NVM_UNDO_ENTRY_HEADER > c->payload_len)
      return nvm_fail(NVM_ECORRUPT, "%s: log record at LSN %llu: entry %u runs past its payload",
                      r->path, (unsigned long long)c->lsn, i);
    uint64_t target = get64(c->payload + pos);
    uint32_t len = get32(c->payload + pos + 8);
    last = pos;
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
    if (pos > c->payload_len || !nvm_log_target_ok(r, target, len))
      return nvm_fail(NVM_ECORRUPT,
                      "%s: log record at LSN %llu: entry %u has a bad target %llu / length %u",
                      r->path, (unsigned long long)c->lsn, i, (unsigned long long)target, len);
  }
  if (pos != c->payload_len || c->count == 0)
    return nvm_fail(
        NVM_ECORRUPT, "%s: log record at LSN %llu has %u entries covering %llu of %u payload bytes",
        r->path, (unsigned long long)c->lsn, c->count, (unsigned long long)pos, c->payload_len);
  const uint8_t *e = c->payload + last;
  if (get64(e) != NVM_SB_COMMIT_SEQ || get32(e + 8) != 8 ||
      nvm_counter_value(NVM_SB_COMMIT_SEQ, get64(e + NVM_UNDO_ENTRY_HEADER)) != c->seq)
    return nvm_fail(NVM_ECORRUPT,
                    "%s: log record at LSN %llu (seq %llu) does not end by setting "
                    "SB_COMMIT_SEQ to its seq",
                    r->path, (unsigned long long)c->lsn, (unsigned long long)c->seq);
  if (x->records && c->seq != x->prev_seq + 1)
    return nvm_fail(
        NVM_ECORRUPT, "%s: log record at LSN %llu has seq %llu after a record of seq %llu", r->path,
        (unsigned long long)c->lsn, (unsigned long long)c->seq, (unsigned long long)x->prev_seq);
  return NVM_OK;
}

static int replay_one(void *ctx, const struct nvm_wal_rec *c) {
  struct replay *x = ctx;
  nvm_region *r = x->r;
  int rc = check_record(x, c);
  if (rc) return rc;
  for (uint64_t pos = 0; pos < c->payload_len;) {
    uint64_t target = get64(c->payload + pos), idx;
    uint32_t len = get32(c->payload + pos + 8);
    nvm_store(r, target, c->payload + pos + NVM_UNDO_ENTRY_HEADER, len);
    if (r->mode != NVM_MODE_DISK) nvm_flush(r, r->base + target, len); /* disk: one fsync after */
    if (nvm_page_range(r, target, len, &idx) && idx + 1 > x->max_page) x->max_page = idx + 1;
    pos += NVM_UNDO_ENTRY_HEADER + NVM_PAD8(len);
    x->entries++;
  }
  x->prev_seq = c->seq;
  x->records++;
  x->bytes += NVM_WR_PAYLOAD + c->payload_len;
  return NVM_OK;
}

int nvm_wal_recover(nvm_region *r) {
  uint32_t epoch;
  uint64_t checkpoint;
  int rc = nvm_wal_sb_read(r, &epoch, &checkpoint);
  if (rc || checkpoint == 0) return rc;
  rc = nvm_wal_open_file(r->log_path, 0, 0, &r->wal);
  if (rc == NVM_ELOG)
    return nvm_fail_at(NVM_ELOG, NVM_SB_WAL_CHECKPOINT,
                       "%s: the region was not closed and needs its write-ahead log %s (epoch %u, "
                       "from LSN %llu), which cannot be opened: put the log back (or name it "
                       "with dfs.namenode.nvm.log.path); the region alone may lack acknowledged "
                       "operations",
                       r->path, r->log_path, epoch, (unsigned long long)checkpoint);
  if (rc == NVM_OK) rc = nvm_wal_check_header(r->wal, nvm_ld64(r, NVM_HDR_CREATION_ID), epoch);
  if (rc == NVM_ELOG) { /* a foreign or damaged log: reported at the region's word that needs it */
    char why[256];
    snprintf(why, sizeof why, "%s", nvm_errormsg());
    return nvm_fail_at(NVM_ELOG, NVM_SB_WAL_CHECKPOINT,
                       "%s: the region was not closed and needs "
                       "its write-ahead log, which is refused: %s",
                       r->path, why);
  }
  if (rc) return rc;
  struct replay x = {r, 0, 0, 0, 0, 0};
  uint64_t end;
  rc = nvm_wal_replay(r->wal, checkpoint, replay_one, &x, &end); /* step 2 */
  if (rc) return rc;
  r->wal->head = r->wal->written = r->wal->synced = end;
  nvm_wal_set_tail(r->wal, checkpoint);
  r->ckpt_lsn = checkpoint;
  __atomic_store_n(&r->applied_lsn, end, __ATOMIC_RELEASE);
  r->replayed = x.records;
  r->replayed_bytes = x.bytes;
  r->rec.log_records = x.records;
  r->rec.log_bytes = x.bytes;
  r->rec.log_entries = x.entries;
  if (x.records == 0) return NVM_OK;
  if (x.max_page > r->scan_limit && (rc = nvm_scan_limit_cover(r, x.max_page))) return rc; /* 3 */
  return r->mode == NVM_MODE_DISK ? nvm_media_sync(r, 0, 0) : nvm_drain(r); /* step 4 */
}
