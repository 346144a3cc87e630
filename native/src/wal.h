/*
 * wal.h — the disk mode's write-ahead log file (region-format.md §12): a preallocated ring of
 * CRC'd records addressed by LSN. This layer knows files, records and LSNs only; what a
 * record's entries mean is the caller's (commit_disk.c writes them, walreplay.c applies them).
 * Not installed.
 */
#ifndef NVM_WAL_H
#define NVM_WAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct nvm_wal {
  char *path;
  int fd;
  uint64_t region_id; /* HDR_CREATION_ID of the region it belongs to */
  uint32_t epoch;     /* seeds every record's CRC: a record of another epoch never matches */
  uint64_t capacity;  /* bytes of the record area */
  uint64_t head;      /* LSN of the next record (after the records added so far) */
  uint64_t written;   /* LSN up to which records were handed to the file (pwrite) */
  uint64_t synced;    /* LSN up to which the log is durable (fdatasync returned) */
  uint64_t tail;      /* the checkpoint: records below it are in the region, their room is free.
                         Written by the checkpointer, read by the committer: atomic */

  /* the records added since the last write: at most two extents of the file, the second
   * starting the next lap (a record never wraps) */
  uint8_t *buf;
  size_t len, cap;
  size_t wrap_at; /* buffer offset where the second extent starts; SIZE_MAX if none */

  /* counters since the open */
  uint64_t records, pads, syncs, bytes, sync_ns;

  /* test only (powerloss.c): called with the byte ranges of every write before it is issued
   * and at every fdatasync before it completes */
  struct nvm_wal_watch *watch;
};

/* The test-only observer of the log's writes and syncs (the power-loss model). */
struct nvm_wal_watch {
  void *ctx;
  /* bytes [off, off + len) of the file are about to be written with `data` */
  void (*on_write)(void *ctx, uint64_t off, const uint8_t *data, uint64_t len);
  /* an fdatasync is about to be issued; nonzero: fail it (a simulated crash) */
  int (*on_sync)(void *ctx);
};

/* One valid record, as replay delivers it. */
struct nvm_wal_rec {
  uint64_t lsn, seq;
  uint32_t count, payload_len;
  const uint8_t *payload;
};

/* Opens (create: creating) the log file and makes it WAL_HEADER_SIZE + capacity bytes long,
 * written with zeros where it was shorter, so that an fdatasync of a record never has to
 * allocate (stock's edit log preallocates the same way). Reads nothing. */
int nvm_wal_open_file(const char *path, uint64_t capacity, int create, struct nvm_wal **out);
/* The header's capacity, checked against the region and epoch the caller expects
 * (NVM_ELOG if it is not that log). */
int nvm_wal_check_header(struct nvm_wal *w, uint64_t region_id, uint32_t epoch);
/* Starts a new epoch: a new header (region, epoch, capacity, start LSN), fdatasync'd. Every
 * record of an earlier epoch is invalid from then on. */
int nvm_wal_start_epoch(struct nvm_wal *w, uint64_t region_id, uint32_t epoch, uint64_t start);
void nvm_wal_close(struct nvm_wal *w);

/* Free bytes of the ring: capacity minus what lies between the checkpoint and the head. */
uint64_t nvm_wal_room(const struct nvm_wal *w);
/* Where a group record of payload_len bytes placed at LSN `at` would end (a pad before it
 * included, when the lap is too short for it). */
uint64_t nvm_wal_place(const struct nvm_wal *w, uint64_t at, uint64_t payload_len);
/* The checkpoint LSN (the ring's tail), as the committer reads it. */
uint64_t nvm_wal_tail(const struct nvm_wal *w);
/* A checkpoint moved to `lsn`: the ring's room below it is free. */
void nvm_wal_set_tail(struct nvm_wal *w, uint64_t lsn);
/* The largest payload of one record. */
uint64_t nvm_wal_max_payload(const struct nvm_wal *w);
/* Adds a group record of `count` entries (the iovecs' bytes, together a multiple of 8) to
 * the pending write; the caller checked its room (nvm_wal_place - tail <= capacity). */
void nvm_wal_add(struct nvm_wal *w, uint64_t seq, uint32_t count, const struct iovec *iov,
                 int iovcnt);
/* Writes the pending records (pwrite, one per extent). */
int nvm_wal_write(struct nvm_wal *w);
/* fdatasync: every record written so far is durable when it returns (the commit point). */
int nvm_wal_sync(struct nvm_wal *w);

/* Calls fn for every valid record from LSN `from` on, in order, and stops at the first
 * position that does not hold a valid record of this epoch (a torn or stale record: the
 * log's end); *end is that LSN. fn returning nonzero stops the replay with that code. */
int nvm_wal_replay(struct nvm_wal *w, uint64_t from,
                   int (*fn)(void *ctx, const struct nvm_wal_rec *rec), void *ctx, uint64_t *end);

#endif /* NVM_WAL_H */
