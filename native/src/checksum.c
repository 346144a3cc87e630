/*
 * checksum.c — page checksums and superblock counter checks (region-format.md §11).
 * A LIVE page's state word carries, in its top half, the CRC-32C of the page with
 * those 4 bytes taken as zero; other pages carry PAGE_MAGIC there. A counter word is
 * its 48-bit value and, above it, 16 bits of the CRC-32C of (offset, value).
 */
#include <string.h>

#include "nvm_internal.h"

#define LOW32 0xffffffffull

/* The checksum of the page at `page` of the image `img` if its state word's low half
 * were `low`. */
static uint32_t page_crc_of(const uint8_t *bytes, uint32_t low) {
  static const uint8_t zero[4];
  uint32_t c = nvm_crc32c(0, &low, 4);
  c = nvm_crc32c(c, zero, 4);
  return nvm_crc32c(c, bytes + 8, NVM_PAGE_SIZE - 8);
}

static uint32_t page_crc_in(const uint8_t *img, uint64_t page, uint32_t low) {
  return page_crc_of(img + page, low);
}

uint32_t nvm_page_crc(const nvm_region *r, uint64_t page, uint32_t low) {
  return page_crc_in(r->base, page, low);
}

uint64_t nvm_sealed_word_of(const nvm_region *r, const uint8_t *bytes, uint32_t low) {
  if (r->checksums && NVM_STATE_OF(low) == NVM_STATE_LIVE)
    return (uint64_t)page_crc_of(bytes, low) << NVM_PAGE_MAGIC_SHIFT | low;
  return NVM_PAGE_MAGIC << NVM_PAGE_MAGIC_SHIFT | low;
}

uint64_t nvm_sealed_word_in(const nvm_region *r, const uint8_t *img, uint64_t page, uint32_t low) {
  return nvm_sealed_word_of(r, img + page, low);
}

uint64_t nvm_sealed_word(const nvm_region *r, uint64_t page, uint32_t low) {
  return nvm_sealed_word_in(r, r->base, page, low);
}

void nvm_seal(nvm_region *r, uint64_t page) {
  uint64_t w = nvm_sealed_word(r, page, (uint32_t)(nvm_ld64(r, page) & LOW32));
  nvm_store(r, page, &w, 8);
  nvm_flush(r, r->base + page, 8);
}

int nvm_live_checksum_ok(const nvm_region *r, uint64_t page, uint64_t word) {
  uint32_t top = (uint32_t)(word >> NVM_PAGE_MAGIC_SHIFT);
  if (top == nvm_page_crc(r, page, (uint32_t)(word & LOW32))) return 1;
  /* a region being upgraded: a page not sealed yet still has the magic */
  return !r->checksums && top == NVM_PAGE_MAGIC;
}

int nvm_checksum_of_other_kind(const nvm_region *r, uint64_t page, uint64_t word) {
  if (!r->checksums || nvm_live_checksum_ok(r, page, word)) return 0;
  uint32_t top = (uint32_t)(word >> NVM_PAGE_MAGIC_SHIFT);
  for (unsigned k = NVM_KIND_DIR; k <= NVM_KIND_SYMLINK; k++) {
    uint32_t low = (uint32_t)(NVM_STATE_WORD(k, NVM_STATE_LIVE) & LOW32);
    if (k != NVM_KIND_OF(word) && top == nvm_page_crc(r, page, low)) return 1;
  }
  return 0;
}

static uint64_t counter_check(uint64_t off, uint64_t value) {
  uint64_t in[2] = {off, value};
  return nvm_crc32c(0, in, sizeof in) & 0xffffu;
}

uint64_t nvm_counter_word(uint64_t off, uint64_t value) {
  value &= (1ull << NVM_SB_COUNTER_BITS) - 1;
  return value | counter_check(off, value) << NVM_SB_COUNTER_BITS;
}

uint64_t nvm_counter_value(uint64_t off, uint64_t w) {
  uint64_t v = w & ((1ull << NVM_SB_COUNTER_BITS) - 1);
  return w == nvm_counter_word(off, v) ? v : w;
}

uint64_t nvm_sb_get(const nvm_region *r, uint64_t off) {
  uint64_t w = nvm_ld64(r, off);
  return r->checksums || w >> NVM_SB_COUNTER_BITS ? w & ((1ull << NVM_SB_COUNTER_BITS) - 1) : w;
}

int nvm_counter_ok(const nvm_region *r, uint64_t off) {
  uint64_t w = nvm_ld64(r, off);
  if (w == nvm_counter_word(off, w)) return 1;
  /* a region being upgraded: a counter not converted yet holds its plain value */
  return !r->checksums && w >> NVM_SB_COUNTER_BITS == 0;
}

uint64_t nvm_next_counter(const nvm_region *r, uint64_t off) {
  if (off == NVM_SB_LAST_TXID) return r->records ? NVM_SB_LAST_RECORD_ID : 0;
  if (off == NVM_SB_MASTER_KEY_ID) return 0;
  return off + 8;
}

int nvm_check_counters(const nvm_region *r) {
  for (uint64_t off = NVM_SB_LAST_INODE_ID; off; off = nvm_next_counter(r, off))
    if (!nvm_counter_ok(r, off))
      return nvm_fail_at(NVM_ECORRUPT, off,
                         "%s: superblock counter at offset %llu (0x%016llx) fails its check",
                         r->path, (unsigned long long)off, (unsigned long long)nvm_ld64(r, off));
  return NVM_OK;
}

void nvm_wal_sb_words(uint32_t epoch, uint64_t checkpoint, uint64_t out[3]) {
  out[0] = epoch ? (uint64_t)(~epoch & LOW32) << 32 | epoch : 0;
  out[1] = checkpoint;
  out[2] = nvm_crc32c(0, out, 2 * sizeof *out);
}

int nvm_wal_sb_read(const nvm_region *r, uint32_t *epoch, uint64_t *checkpoint) {
  uint64_t w[3] = {nvm_ld64(r, NVM_SB_WAL_EPOCH), nvm_ld64(r, NVM_SB_WAL_CHECKPOINT),
                   nvm_ld64(r, NVM_SB_WAL_CHECK)},
           want[3];
  *epoch = 0;
  *checkpoint = 0;
  if (!r->wal_feature || (w[0] == 0 && w[1] == 0 && w[2] == 0)) return NVM_OK; /* never used */
  nvm_wal_sb_words((uint32_t)(w[0] & LOW32), w[1], want);
  if (w[0] != want[0] || w[2] != want[2] || (w[0] == 0 && w[1] != 0))
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_WAL_EPOCH,
                       "%s: the write-ahead log words of the superblock (0x%016llx, %llu, "
                       "0x%016llx) fail their check",
                       r->path, (unsigned long long)w[0], (unsigned long long)w[1],
                       (unsigned long long)w[2]);
  *epoch = (uint32_t)(w[0] & LOW32);
  *checkpoint = w[1];
  return NVM_OK;
}

uint64_t nvm_features_word(uint32_t features) {
  return features ? (uint64_t)(~features & LOW32) << 32 | features : 0;
}

int nvm_read_features(nvm_region *r) {
  uint64_t w = nvm_ld64(r, NVM_SB_FEATURES);
  if (w != nvm_features_word((uint32_t)(w & LOW32)))
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock feature word 0x%016llx does not match its complement",
                       r->path, (unsigned long long)w);
  uint32_t f = (uint32_t)(w & LOW32);
  if (f & ~(uint32_t)NVM_FEATURES_ALL)
    return nvm_fail_at(NVM_EVERSION, NVM_SB_FEATURES,
                       "%s: region uses features 0x%x this library does not know", r->path, f);
  r->checksums = (f & NVM_FEATURE_PAGE_CHECKSUMS) != 0;
  r->records = (f & NVM_FEATURE_RECORDS) != 0;
  r->attrs = (f & NVM_FEATURE_INODE_ATTRS) != 0;
  r->symlinks = (f & NVM_FEATURE_SYMLINKS) != 0;
  r->redo = (f & NVM_FEATURE_REDO_LOG) != 0;
  r->wal_feature = (f & NVM_FEATURE_WAL) != 0;
  r->snapshots = (f & NVM_FEATURE_SNAPSHOTS) != 0;
  r->redo_chain = (f & NVM_FEATURE_REDO_CHAIN) != 0;
  if (r->records && !r->checksums) /* the upgrade adds records after checksums, never alone */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: records without page checksums", r->path, f);
  if (r->attrs && !r->records) /* and attributes after records */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: inode attributes without records", r->path,
                       f);
  if (r->symlinks && !r->attrs) /* and symlinks after attributes */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: symlinks without inode attributes", r->path,
                       f);
  if (r->redo && !r->symlinks) /* and the redo log after symlinks */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: the redo log without symlinks", r->path, f);
  if (r->wal_feature && !r->redo) /* and the write-ahead log after the redo log */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: the write-ahead log without the redo log",
                       r->path, f);
  if (r->snapshots && !r->wal_feature) /* and snapshots after the write-ahead log */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: snapshots without the write-ahead log",
                       r->path, f);
  if (r->redo_chain && !r->snapshots) /* and chained redo records after snapshots */
    return nvm_fail_at(NVM_ECORRUPT, NVM_SB_FEATURES,
                       "%s: superblock features 0x%x: chained redo records without snapshots",
                       r->path, f);
  return NVM_OK;
}

static int set_features(nvm_region *r) {
  uint32_t f = (r->checksums ? NVM_FEATURE_PAGE_CHECKSUMS : 0) |
               (r->records ? NVM_FEATURE_RECORDS : 0) | (r->attrs ? NVM_FEATURE_INODE_ATTRS : 0) |
               (r->symlinks ? NVM_FEATURE_SYMLINKS : 0) | (r->redo ? NVM_FEATURE_REDO_LOG : 0) |
               (r->wal_feature ? NVM_FEATURE_WAL : 0) | (r->snapshots ? NVM_FEATURE_SNAPSHOTS : 0) |
               (r->redo_chain ? NVM_FEATURE_REDO_CHAIN : 0);
  uint64_t w = nvm_features_word(f);
  nvm_store(r, NVM_SB_FEATURES, &w, 8);
  nvm_flush(r, r->base + NVM_SB_FEATURES, 8);
  return nvm_drain(r);
}

/* Seal every kept LIVE page and give every counter its check, then set the feature
 * (region-format.md §11): each step is durable before the next; a crash leaves a
 * region without the feature that recovery accepts and the next open finishes. */
static int upgrade_checksums(nvm_region *r) {
  if (r->checksums) return NVM_OK;
  r->checksums = 1; /* nvm_sealed_word computes checksums from here on */
  for (uint64_t i = 0; i < r->high_water; i++) {
    uint64_t page = nvm_page_off(i), w = nvm_ld64(r, page);
    if (NVM_STATE_OF(w) == NVM_STATE_LIVE) nvm_seal(r, page);
  }
  int rc = nvm_drain(r);
  for (uint64_t off = NVM_SB_LAST_INODE_ID; rc == NVM_OK && off <= NVM_SB_LAST_TXID; off += 8) {
    uint64_t w = nvm_counter_word(off, nvm_ld64(r, off)); /* plain values below 2^48 */
    nvm_store(r, off, &w, 8);
    nvm_flush(r, r->base + off, 8);
  }
  if (rc == NVM_OK) rc = nvm_drain(r);
  if (rc == NVM_OK) rc = set_features(r);
  if (rc) r->checksums = 0;
  return rc;
}

/* The record counters were never written before the feature (zero words): give each its
 * checked 0, then set the feature (region-format.md §5.5). A crash in between leaves a
 * region without the feature, whose record counters nothing reads; the next open repeats. */
static int upgrade_records(nvm_region *r) {
  if (r->records) return NVM_OK;
  for (uint64_t off = NVM_SB_LAST_RECORD_ID; off <= NVM_SB_MASTER_KEY_ID; off += 8) {
    uint64_t w = nvm_counter_word(off, 0);
    nvm_store(r, off, &w, 8);
    nvm_flush(r, r->base + off, 8);
  }
  int rc = nvm_drain(r);
  r->records = 1;
  if (rc == NVM_OK) rc = set_features(r);
  if (rc) r->records = 0;
  return rc;
}

/* A feature whose upgrade is setting its bit alone (one atomic store of SB_FEATURES): `flag`
 * is the region's field for it. */
static int gain_feature(nvm_region *r, int *flag) {
  if (*flag) return NVM_OK;
  *flag = 1;
  int rc = set_features(r);
  if (rc) *flag = 0;
  return rc;
}

/* Before the feature every IN_ATTRS word was reserved and zero (no attributes) and no
 * page had KIND_ATTR_EXT: setting the bit is the whole upgrade (region-format.md §5.6). */
static int upgrade_attrs(nvm_region *r) { return gain_feature(r, &r->attrs); }

/* Before the feature no page had KIND_SYMLINK: setting the bit is the whole upgrade. */
static int upgrade_symlinks(nvm_region *r) { return gain_feature(r, &r->symlinks); }

/* Recovery has rolled back (or found empty) the old undo record. Its payload stays behind
 * a zero UNDO_STATE, so the whole area is zeroed and drained before the bit is set: a redo
 * slot then never starts with bytes of the old format (region-format.md §4.1). A crash in
 * between leaves a region without the feature and with an empty undo record, which both
 * this binary and the one before accept; the next open repeats the step. */
static int upgrade_redo(nvm_region *r) {
  if (r->redo) return NVM_OK;
  memset(r->base + NVM_UNDO_OFFSET, 0, NVM_UNDO_SIZE);
  nvm_flush(r, r->base + NVM_UNDO_OFFSET, NVM_UNDO_SIZE);
  int rc = nvm_drain(r);
  r->redo = 1;
  if (rc == NVM_OK) rc = set_features(r);
  if (rc) r->redo = 0;
  return rc;
}

/* Before the feature the three SB_WAL_* words were unused zeros, which mean "no log": setting
 * the bit is the whole upgrade (region-format.md §12.2). */
static int upgrade_wal(nvm_region *r) { return gain_feature(r, &r->wal_feature); }

/* Before the feature every directory page's DI_SNAPSHOT word was reserved and zero (no
 * directory snapshottable): setting the bit is the whole upgrade (region-format.md §5.2). */
static int upgrade_snapshots(nvm_region *r) { return gain_feature(r, &r->snapshots); }

/* Before the feature no record had REDO_SPAN 3 and no page KIND_REDO_CHAIN: setting the bit is
 * the whole upgrade (region-format.md §4.1). A binary from before it would take a chained record
 * for a torn one and lose its group, so it refuses the region (NVM_EVERSION). */
static int upgrade_redo_chain(nvm_region *r) { return gain_feature(r, &r->redo_chain); }

int nvm_upgrade_features(nvm_region *r) {
  int rc = upgrade_checksums(r);
  if (rc == NVM_OK) rc = upgrade_records(r);
  if (rc == NVM_OK) rc = upgrade_attrs(r);
  if (rc == NVM_OK) rc = upgrade_symlinks(r);
  if (rc == NVM_OK) rc = upgrade_redo(r);
  if (rc == NVM_OK) rc = upgrade_wal(r);
  if (rc == NVM_OK) rc = upgrade_snapshots(r);
  return rc ? rc : upgrade_redo_chain(r);
}
