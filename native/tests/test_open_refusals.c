/* Every open refusal: exact code, a message naming the problem, the offset of
 * the field that failed (nvm_erroroffset), and the file byte-identical afterwards. */
#include "nvm_internal.h"
#include "test_util.h"

#include <unistd.h>

static const char *good; /* a valid region */
static const char *work; /* the file under test */
static const char *copy; /* its bytes before the open */

static void expect_refusal(int code, int64_t offset, const char *needle) {
  tu_copy(work, copy);
  nvm_region *r = (nvm_region *)1;
  CHECK_RC(nvm_region_open(work, NVM_MODE_AUTO, 0, &r), code);
  CHECK(r == NULL);
  CHECK_MSG(needle);
  CHECK_OFFSET(offset);
  CHECK(tu_same_file(work, copy));
  /* read-only open refuses the same way, at the same place */
  CHECK_RC(nvm_region_open(work, NVM_MODE_AUTO, NVM_OPEN_READONLY, &r), code);
  CHECK_OFFSET(offset);
  CHECK(tu_same_file(work, copy));
  printf("  %-16s at %lld: %s\n", nvm_strerror(code), (long long)offset, nvm_errormsg());
}

static void fresh(void) { tu_copy(good, work); }

static uint64_t limit_word(uint32_t limit) { return (uint64_t)~limit << 32 | limit; }

static void patch(uint64_t off, const void *d, size_t n) { tu_pwrite(work, off, d, n); }

/* The region as the release before the redo log left it: the feature bit clear, the undo
 * area zero (nothing was ever written there by this binary's creation). */
static void fresh_legacy(void) {
  fresh();
  size_t n;
  uint8_t *b = tu_read_file(work, &n);
  uint64_t w;
  memcpy(&w, b + NVM_SB_FEATURES, 8);
  uint32_t f = (uint32_t)w & ~(uint32_t)(NVM_FEATURE_REDO_LOG | NVM_FEATURE_WAL |
                                         NVM_FEATURE_SNAPSHOTS | NVM_FEATURE_REDO_CHAIN);
  w = (uint64_t)~f << 32 | f;
  patch(NVM_SB_FEATURES, &w, 8);
  free(b);
}

/* A redo record in slot `slot` of the work file: header, payload, and the CRC as
 * region-format.md §4.1 defines it (HDR_CREATION_ID, header bytes [0, 20), payload). */
static void put_record(uint64_t slot, uint64_t seq, uint32_t count, uint32_t span,
                       const uint8_t *payload, uint32_t bytes, int good_crc) {
  uint8_t h[NVM_REDO_PAYLOAD] = {0};
  memcpy(h + NVM_REDO_SEQ, &seq, 8);
  memcpy(h + NVM_REDO_ENTRY_COUNT, &count, 4);
  memcpy(h + NVM_REDO_PAYLOAD_BYTES, &bytes, 4);
  memcpy(h + NVM_REDO_SPAN, &span, 4);
  size_t n;
  uint8_t *b = tu_read_file(work, &n);
  uint32_t crc = nvm_crc32c(0, b + NVM_HDR_CREATION_ID, 8);
  free(b);
  crc = nvm_crc32c(crc, h, NVM_REDO_CRC);
  crc = nvm_crc32c(crc, payload, bytes);
  if (!good_crc) crc ^= 1;
  memcpy(h + NVM_REDO_CRC, &crc, 4);
  patch(slot, h, sizeof h);
  patch(slot + NVM_REDO_PAYLOAD, payload, bytes);
}

static uint32_t put_entry(uint8_t *p, uint32_t pos, uint64_t target, uint64_t value) {
  uint32_t len = 8, field = NVM_F_COUNTER;
  memcpy(p + pos, &target, 8);
  memcpy(p + pos + 8, &len, 4);
  memcpy(p + pos + 12, &field, 4);
  memcpy(p + pos + 16, &value, 8);
  return pos + 24;
}

static uint64_t file_ld64(uint64_t off) {
  size_t n;
  uint8_t *b = tu_read_file(work, &n);
  uint64_t v;
  memcpy(&v, b + off, 8);
  free(b);
  return v;
}

/* The redo slots (region-format.md §4.1, §7.6): a torn record (its CRC fails, or its header
 * claims more than its slot holds) is ignored and replays nothing; a record whose CRC matches
 * but whose contents no library writes refuses the region, untouched. */
static void redo_refusals(void) {
  uint8_t pl[96] = {0};
  uint64_t seq_word = nvm_counter_word(NVM_SB_COMMIT_SEQ, 1);
  uint64_t txid = nvm_counter_word(NVM_SB_LAST_TXID, 4242);
  uint32_t bytes = put_entry(pl, 0, NVM_SB_LAST_TXID, txid);
  bytes = put_entry(pl, bytes, NVM_SB_COMMIT_SEQ, seq_word);
  uint64_t before = file_ld64(NVM_SB_LAST_TXID);

  /* a valid record is replayed at open */
  fresh();
  put_record(NVM_REDO_SLOT1, 1, 2, 1, pl, bytes, 1);
  tu_close(tu_open(work));
  CHECK(file_ld64(NVM_SB_LAST_TXID) == txid && file_ld64(NVM_REDO_SLOT1) == 0);
  printf("  a valid redo record (seq 1, slot 1) is replayed and the slot emptied\n");

  /* torn: the CRC does not match; or the length is over the slot's payload */
  fresh();
  put_record(NVM_REDO_SLOT1, 1, 2, 1, pl, bytes, 0);
  tu_close(tu_open(work));
  CHECK(file_ld64(NVM_SB_LAST_TXID) == before);
  fresh();
  put_record(NVM_REDO_SLOT1, 1, 2, 1, pl, bytes, 1);
  uint32_t over = NVM_REDO_SLOT_PAYLOAD_MAX + 8;
  patch(NVM_REDO_SLOT1 + NVM_REDO_PAYLOAD_BYTES, &over, 4);
  tu_close(tu_open(work));
  CHECK(file_ld64(NVM_SB_LAST_TXID) == before);
  fresh(); /* a big record (span 2) is only ever written in slot 0 */
  put_record(NVM_REDO_SLOT1, 1, 2, 2, pl, bytes, 1);
  tu_close(tu_open(work));
  CHECK(file_ld64(NVM_SB_LAST_TXID) == before);
  printf("  torn redo records (CRC, length over the slot, span 2 in slot 1) are ignored\n");

  /* a valid record with an entry on the header: at that entry */
  fresh();
  uint8_t badpl[96] = {0};
  uint32_t badbytes = put_entry(badpl, 0, NVM_HDR_REGION_SIZE, 5);
  badbytes = put_entry(badpl, badbytes, NVM_SB_COMMIT_SEQ, seq_word);
  put_record(NVM_REDO_SLOT0, 2, 2, 1, badpl, badbytes, 1);
  expect_refusal(NVM_ECORRUPT, NVM_REDO_SLOT0 + NVM_REDO_PAYLOAD,
                 "redo entry 0 has a bad target 16");
  /* a valid record that does not end by setting SB_COMMIT_SEQ to its seq */
  fresh();
  put_record(NVM_REDO_SLOT0, 2, 2, 1, pl, bytes, 1); /* its entry says 1 */
  expect_refusal(NVM_ECORRUPT, NVM_REDO_SLOT0 + NVM_REDO_SEQ,
                 "does not end by setting SB_COMMIT_SEQ");
  /* fewer entries than the payload holds */
  fresh();
  put_record(NVM_REDO_SLOT1, 1, 1, 1, pl, bytes, 1);
  expect_refusal(NVM_ECORRUPT, NVM_REDO_SLOT1 + NVM_REDO_ENTRY_COUNT,
                 "1 entries covering 24 of 48");
  /* two valid records that are not consecutive groups */
  fresh();
  uint8_t pl3[96] = {0};
  uint32_t bytes3 = put_entry(pl3, 0, NVM_SB_COMMIT_SEQ, nvm_counter_word(NVM_SB_COMMIT_SEQ, 4));
  put_record(NVM_REDO_SLOT1, 1, 2, 1, pl, bytes, 1);
  put_record(NVM_REDO_SLOT0, 4, 1, 1, pl3, bytes3, 1);
  expect_refusal(NVM_ECORRUPT, NVM_REDO_SLOT0 + NVM_REDO_SEQ, "are not consecutive groups");
  /* a feature bit this library does not know: what the release before the chained redo records
   * says of a region with FEATURE_REDO_CHAIN */
  fresh();
  uint64_t w = file_ld64(NVM_SB_FEATURES);
  uint32_t f = (uint32_t)w | 256u;
  w = (uint64_t)~f << 32 | f;
  patch(NVM_SB_FEATURES, &w, 8);
  expect_refusal(NVM_EVERSION, NVM_SB_FEATURES, "features 0x1ff this library does not know");
  /* chained redo records without snapshots: no upgrade writes it */
  fresh();
  w = file_ld64(NVM_SB_FEATURES);
  f = (uint32_t)w & ~(uint32_t)NVM_FEATURE_SNAPSHOTS;
  w = (uint64_t)~f << 32 | f;
  patch(NVM_SB_FEATURES, &w, 8);
  expect_refusal(NVM_ECORRUPT, NVM_SB_FEATURES, "chained redo records without snapshots");
  /* the snapshots feature without the write-ahead log: no upgrade writes it */
  fresh();
  w = file_ld64(NVM_SB_FEATURES);
  f = (uint32_t)w & ~(uint32_t)NVM_FEATURE_WAL;
  w = (uint64_t)~f << 32 | f;
  patch(NVM_SB_FEATURES, &w, 8);
  expect_refusal(NVM_ECORRUPT, NVM_SB_FEATURES, "snapshots without the write-ahead log");
}

static void fix_crc(void) {
  size_t n;
  uint8_t *b = tu_read_file(work, &n);
  uint32_t crc = nvm_crc32c(0, b, NVM_HDR_CRC_COVERED);
  patch(NVM_HDR_CRC, &crc, 4);
  free(b);
}

int main(void) {
  good = tu_path("good");
  work = tu_path("work");
  copy = tu_path("copy");
  tu_close(tu_create(good, NVM_MIN_REGION_SIZE));

  nvm_region *r;
  CHECK_RC(nvm_region_open(tu_path("missing"), NVM_MODE_AUTO, 0, &r), NVM_EIO);
  CHECK_MSG("missing");
  CHECK_MSG("No such file");
  CHECK_OFFSET(NVM_NO_OFFSET);

  tu_write_file(work, "tiny", 4);
  expect_refusal(NVM_ENOTREGION, NVM_HDR_MAGIC, "smaller than a header");

  uint8_t *rnd = malloc(NVM_MIN_REGION_SIZE);
  for (size_t i = 0; i < NVM_MIN_REGION_SIZE; i++) rnd[i] = (uint8_t)(i * 2654435761u >> 13);
  tu_write_file(work, rnd, NVM_MIN_REGION_SIZE);
  expect_refusal(NVM_ENOTREGION, NVM_HDR_MAGIC, "bad magic 0x");
  free(rnd);

  char text[2048];
  for (size_t i = 0; i < sizeof text; i++) text[i] = "hello, this is a text file\n"[i % 27];
  tu_write_file(work, text, sizeof text);
  expect_refusal(NVM_ENOTREGION, NVM_HDR_MAGIC, "not an NVM namespace region");

  fresh();
  uint32_t v1 = 1; /* format 1 had no scan limit */
  patch(NVM_HDR_VERSION, &v1, 4);
  fix_crc();
  expect_refusal(NVM_EVERSION, NVM_HDR_VERSION, "version 1");

  fresh();
  uint32_t ps = 512;
  patch(NVM_HDR_PAGE_SIZE, &ps, 4);
  fix_crc();
  expect_refusal(NVM_EVERSION, NVM_HDR_PAGE_SIZE, "page size 512");

  fresh();
  uint8_t x = 'Z';
  patch(NVM_HDR_CLUSTER_ID + 1, &x, 1);
  expect_refusal(NVM_ECORRUPT, NVM_HDR_CRC, "header checksum mismatch");

  fresh();
  CHECK(truncate(work, NVM_MIN_REGION_SIZE - 4096) == 0);
  expect_refusal(NVM_ETRUNCATED, NVM_MIN_REGION_SIZE - 4096, "truncated");

  fresh();
  uint8_t page[NVM_PAGE_SIZE] = {0};
  tu_pwrite(work, NVM_MIN_REGION_SIZE, page,
            sizeof page); /* one page longer than the header says */
  expect_refusal(NVM_ECORRUPT, NVM_HDR_REGION_SIZE, "header says");

  fresh();
  uint64_t pages = 7;
  patch(NVM_HDR_PAGE_COUNT, &pages, 8);
  fix_crc();
  expect_refusal(NVM_ECORRUPT, NVM_HDR_PAGE_COUNT, "page count 7 inconsistent");

  fresh();
  uint64_t bad = 0x1234;
  patch(NVM_SB_MAGIC, &bad, 8);
  expect_refusal(NVM_ECORRUPT, NVM_SB_MAGIC, "superblock magic");

  /* scan limit: halves that disagree (a zero word too), a limit beyond the page count */
  uint64_t words[3] = {0, limit_word(5) ^ 1ull << 40, limit_word(4096)};
  for (int i = 0; i < 3; i++) {
    fresh();
    patch(NVM_SB_SCAN_LIMIT, &words[i], 8);
    expect_refusal(NVM_ECORRUPT, NVM_SB_SCAN_LIMIT, "bad scan limit word");
  }

  /* the undo record of a region from before the redo log (without FEATURE_REDO_LOG) */
  fresh_legacy();
  uint8_t undo[NVM_UNDO_PAYLOAD - NVM_UNDO_OFFSET + 24] = {0};
  uint64_t state = 7, target = NVM_SB_LAST_INODE_ID;
  uint32_t count = 1, bytes = 24, crc = 0xdeadbeef, len = 8;
  memcpy(undo, &state, 8);
  memcpy(undo + 8, &count, 4);
  memcpy(undo + 12, &bytes, 4);
  memcpy(undo + 16, &crc, 4);
  memcpy(undo + 24, &target, 8);
  memcpy(undo + 32, &len, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_CRC, "undo record (seq 7) checksum mismatch");

  fresh_legacy();
  bytes = NVM_UNDO_PAYLOAD_MAX + 8;
  memcpy(undo + 12, &bytes, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_PAYLOAD_BYTES, "payload length");

  /* a record whose checksum matches but whose entry targets the header: at that entry */
  fresh_legacy();
  bytes = 24;
  memcpy(undo + 12, &bytes, 4);
  target = NVM_HDR_REGION_SIZE;
  memcpy(undo + 24, &target, 8);
  crc = nvm_crc32c(0, undo + 24, 24);
  memcpy(undo + 16, &crc, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_PAYLOAD, "undo entry 0 has a bad target 16");

  /* fewer entries than the payload holds: at the entry count */
  fresh_legacy();
  count = 0;
  memcpy(undo + 8, &count, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_ENTRY_COUNT, "0 entries covering 0 of 24");

  redo_refusals();

  /* and the untouched copy still opens */
  fresh();
  tu_close(tu_open(work));
  printf("open refusals ok\n");
  return 0;
}
