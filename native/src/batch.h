/*
 * batch.h — a parsed mutation batch, shared by the three steps a batch goes through:
 * stage.c (validate it against the working copy and apply it there, under the caller's
 * lock), group.c (gather staged batches into groups and commit each group to the
 * region with the persist order of txn.c) and txn.c (parsing, validation and that
 * persist order). Not installed.
 */
#ifndef NVM_BATCH_H
#define NVM_BATCH_H

#include <stdint.h>

#include "nvm_internal.h"

/* txn.c */
void nvm_batch_reset(struct batch *b); /* empty, keeping the arrays */
void nvm_batch_free(struct batch *b);
/* Appends the entries of the encoded batch buf[0, len) to b, checking bounds and
 * reserved fields only. */
int nvm_batch_parse(struct batch *b, const uint8_t *buf, size_t len);
/* Checks entries [from, b->n) against the region's allocation state and against the
 * page image `img` (state words), and adds their INPLACE log bytes to b's accounting;
 * nothing is written. */
int nvm_batch_validate(nvm_region *r, struct batch *b, uint32_t from, const uint8_t *img);
/* Sets e->page of entries [from, b->n) (already validated when staged) and adds their
 * INPLACE log bytes to b's accounting, without checking them again. */
int nvm_batch_account(nvm_region *r, struct batch *b, uint32_t from);
/* The log record payload a batch (or a group) needs: every group writes one redo record. */
uint64_t nvm_batch_redo_need(const struct batch *b);
/* The position of the touched page at `off` in b->touched, or -1. */
int64_t nvm_batch_touched_at(const struct batch *b, uint64_t off);
/* Writes b's FRESH data to the media and flushes it (no drain). */
void nvm_batch_write_fresh(nvm_region *r, const struct batch *b);
/* Commits b as one group with the persist order of region-format.md §7.3 (redo.c): FRESH
 * data and the redo record, one barrier (the commit point), then the in-place bytes and the
 * FREE pages' invalidation, flushed and left for the next barrier. The caller holds
 * persist_lock, not r->lock. The FREE pages go back to the allocator two records later
 * (nvm_redo_release, under r->lock). */
int nvm_batch_commit(nvm_region *r, const struct batch *b);
/* After a commit, under r->lock: the FREE pages two records old back to the allocator, and
 * b's kept for later. */
int nvm_redo_release(nvm_region *r, const struct batch *b);
/* The word an INPLACE word entry stores over the bytes of its page `page` (a state word's
 * seal is computed over them; NULL for any other target). */
uint64_t nvm_entry_word_over(const nvm_region *r, const uint8_t *page, const struct entry *e);
/* The word an INPLACE word entry stores over the image `img`. */
uint64_t nvm_entry_word(const nvm_region *r, const uint8_t *img, const struct entry *e);
/* The bytes an INPLACE entry stores over `img` (an aligned word via *word). */
const void *nvm_entry_value(const nvm_region *r, const uint8_t *img, const struct entry *e,
                            uint64_t *word);

#endif /* NVM_BATCH_H */
