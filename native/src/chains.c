/*
 * chains.c — recovery steps 4 and 5: extension chains, names and string
 * references of attached inodes, the chains of the strings they refer to, and
 * the chains of the record pages.
 * Read only; marks kept pages in r->used_bits.
 */
#include <stdlib.h>

#include "nvm_internal.h"

struct chain {
  uint64_t owner_off, owner; /* the owner's page (an inode's, a string's, a record's), its id */
  uint64_t link; /* the word pointing at the page being checked: the inode's link or the previous
                    EXT_NEXT */
  unsigned kind;
  uint64_t needed, per_page; /* bytes or records still to cover; max per page */
  const char *what;          /* "name", "block" (an inode's chains), "string" or "record" */
};

/* Reported at `at`: the link to the bad page, or the page's own field (owner id, count). */
static int chain_fail(const nvm_region *r, const struct chain *c, uint64_t at, uint64_t page_off,
                      const char *why) {
  return nvm_fail_at(NVM_ECORRUPT, at, "%s: %s chain of %s %llu (page %llu): page %llu %s", r->path,
                     c->what,
                     c->kind == NVM_KIND_STRING_EXT   ? "string"
                     : c->kind == NVM_KIND_RECORD_EXT ? "record"
                                                      : "inode",
                     (unsigned long long)c->owner, (unsigned long long)c->owner_off,
                     (unsigned long long)page_off, why);
}

/* One page of a chain: in the data area, live, right kind and owner, sane
 * count, not seen before (so the walk is acyclic and pages are not shared). */
static int chain_page(nvm_region *r, const struct chain *c, uint64_t off, uint64_t *count) {
  uint64_t idx;
  if (!nvm_is_page_off(r, off, &idx)) return chain_fail(r, c, c->link, off, "is not a data page");
  if (!nvm_is_live(nvm_ld64(r, off), c->kind))
    return chain_fail(r, c, c->link, off, "is not a live extension page of the right kind");
  if (!nvm_live_checksum_ok(r, off, nvm_ld64(r, off))) /* the scan left extension pages to us */
    return chain_fail(r, c, off, off, "fails its checksum: the page is damaged");
  if (nvm_ld64(r, off + NVM_EXT_OWNER_ID) != c->owner)
    return chain_fail(r, c, off + NVM_EXT_OWNER_ID, off, "has a wrong owner id");
  *count = nvm_ld64(r, off + NVM_EXT_COUNT);
  if (*count == 0 || *count > c->per_page || *count > c->needed)
    return chain_fail(r, c, off + NVM_EXT_COUNT, off, "has a bad count");
  if (nvm_bit_get(r->used_bits, idx))
    return chain_fail(r, c, c->link, off, "is reached twice (shared or cyclic)");
  nvm_bit_set(r->used_bits, idx);
  return NVM_OK;
}

/* first_link: the word naming the first page, which is off: the inode's IN_NAME_EXT,
 * FI_BLOCK_EXT or IN_ATTRS word, the string's ST_EXT word, or the record's RC_EXT word. */
static int walk_chain_from(nvm_region *r, struct chain *c, uint64_t first_link, uint64_t off) {
  uint64_t count = 0;
  c->link = first_link;
  if (c->needed == 0 && off != 0)
    return chain_fail(r, c, c->link, off, "is linked but no extension is needed");
  while (c->needed > 0) {
    if (off == 0) return chain_fail(r, c, c->link, 0, "ends before covering the data");
    int rc = chain_page(r, c, off, &count);
    if (rc) return rc;
    c->needed -= count;
    c->link = off + NVM_EXT_NEXT;
    off = nvm_ld64(r, c->link);
  }
  if (off != 0) return chain_fail(r, c, c->link, off, "follows the last needed page");
  return NVM_OK;
}

/* A chain whose first page the link word holds as an offset (every chain but attributes). */
static int walk_chain(nvm_region *r, struct chain *c, uint64_t first_link) {
  return walk_chain_from(r, c, first_link, nvm_ld64(r, first_link));
}

/* The attribute chain (§5.6): IN_ATTRS holds its length in bytes and its first page's index;
 * a word of 0 means no attributes, and a region without the feature has none. */
static int attr_chain(nvm_region *r, struct chain *c, uint64_t off) {
  uint64_t w = nvm_ld64(r, off + NVM_IN_ATTRS);
  uint64_t len = w & ((1ull << NVM_ATTRS_PAGE_SHIFT) - 1), first = w >> NVM_ATTRS_PAGE_SHIFT;
  const char *why = !r->attrs && w        ? "is set in a region without inode attributes"
                    : len > NVM_ATTRS_MAX ? "holds a length over ATTRS_MAX"
                    : len == 0 && first   ? "names a page but no bytes"
                                          : NULL;
  if (why)
    return nvm_fail_at(NVM_ECORRUPT, off + NVM_IN_ATTRS,
                       "%s: inode %llu (page %llu): its attribute word 0x%016llx %s", r->path,
                       (unsigned long long)c->owner, (unsigned long long)off, (unsigned long long)w,
                       why);
  c->kind = NVM_KIND_ATTR_EXT;
  c->per_page = NVM_NAME_EXT_MAX;
  c->needed = len;
  c->what = "attribute";
  return walk_chain_from(r, c, off + NVM_IN_ATTRS, len ? nvm_page_off(first) : 0);
}

/* A name no HDFS operation writes: empty (except the root's), ".", "..", or
 * holding '/' (a NUL byte is a valid name byte: the stock NameNode accepts it).
 * Called after the name chain was verified. */
static int check_name(nvm_region *r, uint64_t off, uint64_t len, int is_root) {
  if (is_root) return NVM_OK;
  uint8_t first2[2] = {0, 0};
  const char *why = len == 0 ? "is empty" : NULL;
  uint64_t seen = 0, chunk = len < NVM_NAME_INLINE_MAX ? len : NVM_NAME_INLINE_MAX;
  const uint8_t *p = r->base + off + NVM_IN_NAME_INLINE;
  uint64_t ext = nvm_ld64(r, off + NVM_IN_NAME_EXT);
  while (!why && seen < len) {
    for (uint64_t i = 0; i < chunk && !why; i++, seen++) {
      if (p[i] == '/') why = "contains '/'";
      if (seen < 2) first2[seen] = p[i];
    }
    if (seen < len) { /* next extension page (the chain was verified) */
      chunk = nvm_ld64(r, ext + NVM_EXT_COUNT);
      p = r->base + ext + NVM_EXT_PAYLOAD;
      ext = nvm_ld64(r, ext + NVM_EXT_NEXT);
    }
  }
  if (!why && first2[0] == '.' && (len == 1 || (len == 2 && first2[1] == '.')))
    why = "is \".\" or \"..\"";
  if (!why) return NVM_OK;
  return nvm_fail_at(
      NVM_ECORRUPT, off + NVM_IN_NAME_LEN,
      "%s: inode %llu (page %llu) has a name that %s, which no HDFS operation writes: the page is "
      "damaged",
      r->path, (unsigned long long)nvm_ld64(r, off + NVM_IN_ID), (unsigned long long)off, why);
}

/* A symlink's target (§5.2): 1..SYMLINK_TARGET_MAX bytes, those past the inline part in a
 * NAME_EXT chain of its own (owner id = the symlink's id). */
static int target_chain(nvm_region *r, struct chain *c, uint64_t off) {
  uint64_t len = nvm_ld64(r, off + NVM_SL_TARGET_LEN);
  if (len == 0 || len > NVM_SYMLINK_TARGET_MAX)
    return nvm_fail_at(NVM_ECORRUPT, off + NVM_SL_TARGET_LEN,
                       "%s: symlink %llu (page %llu) has target length %llu, not 1..%d", r->path,
                       (unsigned long long)c->owner, (unsigned long long)off,
                       (unsigned long long)len, NVM_SYMLINK_TARGET_MAX);
  c->kind = NVM_KIND_NAME_EXT;
  c->per_page = NVM_NAME_EXT_MAX;
  c->needed = len > NVM_SYMLINK_TARGET_INLINE_MAX ? len - NVM_SYMLINK_TARGET_INLINE_MAX : 0;
  c->what = "target";
  return walk_chain(r, c, off + NVM_SL_TARGET_EXT);
}

static int inode_chains(nvm_region *r, uint32_t page, int is_root) {
  uint64_t off = nvm_page_off(page);
  struct chain c = {off,   nvm_ld64(r, off + NVM_IN_ID), 0, NVM_KIND_NAME_EXT, 0, NVM_NAME_EXT_MAX,
                    "name"};
  uint64_t name_len = nvm_ld64(r, off + NVM_IN_NAME_LEN);
  if (name_len > NVM_NAME_MAX) /* the root's too: the format stores no longer name */
    return nvm_fail_at(NVM_ECORRUPT, off + NVM_IN_NAME_LEN,
                       "%s: inode %llu (page %llu) has name length %llu > %d", r->path,
                       (unsigned long long)c.owner, (unsigned long long)off,
                       (unsigned long long)name_len, NVM_NAME_MAX);
  c.needed = name_len > NVM_NAME_INLINE_MAX ? name_len - NVM_NAME_INLINE_MAX : 0;
  int rc = walk_chain(r, &c, off + NVM_IN_NAME_EXT);
  if (rc == NVM_OK) rc = check_name(r, off, name_len, is_root);
  if (rc == NVM_OK) rc = attr_chain(r, &c, off);
  if (rc == NVM_OK && NVM_KIND_OF(nvm_ld64(r, off)) == NVM_KIND_SYMLINK)
    return target_chain(r, &c, off);
  if (rc || NVM_KIND_OF(nvm_ld64(r, off)) != NVM_KIND_FILE) return rc;
  uint64_t blocks = nvm_ld64(r, off + NVM_FI_BLOCK_COUNT);
  c.kind = NVM_KIND_BLOCK_EXT;
  c.per_page = NVM_BLOCKS_EXT_MAX;
  c.needed = blocks > NVM_BLOCKS_INLINE_MAX ? blocks - NVM_BLOCKS_INLINE_MAX : 0;
  c.what = "block";
  return walk_chain(r, &c, off + NVM_FI_BLOCK_EXT);
}

int nvm_check_chains(nvm_region *r, const struct nvm_scan *s) {
  for (uint64_t i = 0; i < s->norder; i++) {
    int rc = inode_chains(r, s->order[i], i == 0); /* BFS order: the root first */
    if (rc) return rc;
  }
  return NVM_OK;
}

/* ---- strings ---- */

static int cmp_str(const void *a, const void *b) {
  const struct nvm_str *x = a, *y = b;
  if (x->id != y->id) return x->id < y->id ? -1 : 1;
  return x->page < y->page ? -1 : x->page > y->page;
}

/* The chain of a string longer than STRING_MAX, walked when its page is first kept. */
static int string_chain(nvm_region *r, uint64_t id, uint32_t page) {
  uint64_t off = nvm_page_off(page), len = nvm_ld64(r, off + NVM_ST_LEN);
  if (len <= NVM_STRING_MAX) return NVM_OK;
  struct chain c = {off, id, 0, NVM_KIND_STRING_EXT, len, NVM_NAME_EXT_MAX, "string"};
  return walk_chain(r, &c, off + NVM_ST_EXT);
}

/* Keep the lowest live page holding string id (and its chain, the first time);
 * *found = 0 if there is none. */
static int mark_string(nvm_region *r, struct nvm_scan *s, uint64_t id, int *found) {
  uint64_t lo = 0, hi = s->nstrs;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (s->strs[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = lo < s->nstrs && s->strs[lo].id == id;
  if (!*found) return NVM_OK;
  s->strs[lo].refs++;
  if (nvm_bit_get(r->used_bits, s->strs[lo].page)) return NVM_OK;
  nvm_bit_set(r->used_bits, s->strs[lo].page);
  return string_chain(r, id, s->strs[lo].page);
}

static int inode_strings(nvm_region *r, struct nvm_scan *s, uint32_t page) {
  uint64_t off = nvm_page_off(page), perm = nvm_ld64(r, off + NVM_IN_PERM), ids[4] = {0};
  ids[0] = perm >> NVM_PERM_OWNER_SHIFT;
  ids[1] = (perm >> NVM_PERM_GROUP_SHIFT) & NVM_PERM_STRING_ID_MAX;
  if (NVM_KIND_OF(nvm_ld64(r, off)) == NVM_KIND_FILE) {
    uint64_t uc = nvm_ld64(r, off + NVM_FI_UC);
    ids[2] = uc & ((1ull << NVM_FI_UC_LAST_COMPLETE_SHIFT) - 1); /* the flag is not the id's */
    ids[3] = uc >> NVM_FI_UC_MACHINE_SHIFT;
  }
  for (int k = 0; k < 4; k++) {
    if (!ids[k]) continue;
    int found, rc = mark_string(r, s, ids[k], &found);
    if (rc) return rc;
    if (!found)
      return nvm_fail_at(
          NVM_ECORRUPT,
          off + (k < 2 ? NVM_IN_PERM : NVM_FI_UC), /* owner, group | client, machine */
          "%s: inode %llu (page %llu) refers to string id %llu, which has no live string page",
          r->path, (unsigned long long)nvm_ld64(r, off + NVM_IN_ID), (unsigned long long)off,
          (unsigned long long)ids[k]);
  }
  return NVM_OK;
}

int nvm_check_strings(nvm_region *r, struct nvm_scan *s) {
  s->strs = malloc((s->nstrs ? s->nstrs : 1) * sizeof *s->strs);
  if (!s->strs)
    return nvm_fail(NVM_EIO, "recovery: out of memory for %llu strings",
                    (unsigned long long)s->nstrs);
  for (uint64_t i = 0; i < s->nstrs; i++) {
    s->strs[i].page = s->spages[i];
    s->strs[i].id = nvm_ld64(r, nvm_page_off(s->spages[i]) + NVM_ST_ID);
    s->strs[i].refs = 0;
  }
  qsort(s->strs, s->nstrs, sizeof *s->strs, cmp_str);
  for (uint64_t i = 0; i < s->norder; i++) {
    int rc = inode_strings(r, s, s->order[i]);
    if (rc) return rc;
  }
  return NVM_OK;
}

/* ---- records ---- */

/* A record page is live by its own state word (nothing links to it) and is always
 * kept; the payload past RECORD_INLINE_MAX is in its RECORD_EXT chain, owner id RC_ID. */
int nvm_check_records(nvm_region *r, const struct nvm_scan *s) {
  for (uint64_t i = 0; i < s->nrecs; i++) {
    uint64_t off = nvm_page_off(s->rpages[i]), len = nvm_ld64(r, off + NVM_RC_LEN);
    nvm_bit_set(r->used_bits, s->rpages[i]);
    struct chain c = {off,
                      nvm_ld64(r, off + NVM_RC_ID),
                      0,
                      NVM_KIND_RECORD_EXT,
                      len > NVM_RECORD_INLINE_MAX ? len - NVM_RECORD_INLINE_MAX : 0,
                      NVM_NAME_EXT_MAX,
                      "record"};
    int rc = walk_chain(r, &c, off + NVM_RC_EXT);
    if (rc) return rc;
  }
  return NVM_OK;
}
