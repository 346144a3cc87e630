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
 * page image `img` (state words), and adds their INPLACE undo to b's accounting;
 * nothing is written. */
int nvm_batch_validate(nvm_region *r, struct batch *b, uint32_t from, const uint8_t *img);
/* Sets e->page of entries [from, b->n) (already validated when staged) and adds their
 * INPLACE undo to b's accounting, without checking them again. */
int nvm_batch_account(nvm_region *r, struct batch *b, uint32_t from);
/* The undo payload a batch needs, or 0 if it needs none (no INPLACE, or one word
 * stored alone). */
uint64_t nvm_batch_undo_need(const nvm_region *r, const struct batch *b);
/* Writes b to the region in the documented persist order (FRESH data, undo-logged or
 * single-word commit, FREE invalidations); the caller holds persist_lock, not r->lock.
 * The FREE pages go back to the allocator afterwards, under r->lock
 * (nvm_batch_release_frees). */
int nvm_batch_commit(nvm_region *r, const struct batch *b);
void nvm_batch_release_frees(nvm_region *r, const struct batch *b);
/* The word an INPLACE word entry stores over the image `img`. */
uint64_t nvm_entry_word(const nvm_region *r, const uint8_t *img, const struct entry *e);
/* The bytes an INPLACE entry stores over `img` (an aligned word via *word). */
const void *nvm_entry_value(const nvm_region *r, const uint8_t *img, const struct entry *e,
                            uint64_t *word);

#endif /* NVM_BATCH_H */
