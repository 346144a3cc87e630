/*
 * checkpoint.h — the disk mode's checkpoints and the log's lifecycle around them
 * (region-format.md §12.4). Not installed.
 */
#ifndef NVM_CHECKPOINT_H
#define NVM_CHECKPOINT_H

#include "nvm_internal.h"

/* One checkpoint at the LSN every applied record ends at (checkpoint.c). Takes ckpt_lock;
 * the caller may hold persist_lock. */
int nvm_ckpt_take(nvm_region *r);
/* After a commit (persist_lock held): the log grew; wakes the checkpointer when it is due. */
void nvm_ckpt_note_commit(nvm_region *r);
/* The background thread that takes checkpoints by size and by age. */
int nvm_ckpt_start(nvm_region *r);
void nvm_ckpt_stop(nvm_region *r);
/* The region file made durable and SB_WAL_CHECKPOINT := 0: the region needs no log (a clean
 * close, or a memory mode after a replay). */
int nvm_ckpt_clean(nvm_region *r);
/* Disk mode, at a read-write open or a create, the region needing no log: the log file
 * opened (created, resized to the configured capacity) and a new epoch started in it, then
 * SB_WAL_EPOCH and SB_WAL_CHECKPOINT name it, durable, before the first commit. */
int nvm_ckpt_begin_epoch(nvm_region *r);

#endif /* NVM_CHECKPOINT_H */
