/* Every open refusal: exact code, a message naming the problem, the offset of
 * the field that failed (nvm_erroroffset), and the file byte-identical afterwards. */
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

  fresh();
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

  fresh();
  bytes = NVM_UNDO_PAYLOAD_MAX + 8;
  memcpy(undo + 12, &bytes, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_PAYLOAD_BYTES, "payload length");

  /* a record whose checksum matches but whose entry targets the header: at that entry */
  fresh();
  bytes = 24;
  memcpy(undo + 12, &bytes, 4);
  target = NVM_HDR_REGION_SIZE;
  memcpy(undo + 24, &target, 8);
  crc = nvm_crc32c(0, undo + 24, 24);
  memcpy(undo + 16, &crc, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_PAYLOAD, "undo entry 0 has a bad target 16");

  /* fewer entries than the payload holds: at the entry count */
  fresh();
  count = 0;
  memcpy(undo + 8, &count, 4);
  patch(NVM_UNDO_OFFSET, undo, sizeof undo);
  expect_refusal(NVM_ECORRUPT, NVM_UNDO_ENTRY_COUNT, "0 entries covering 0 of 24");

  /* and the untouched copy still opens */
  fresh();
  tu_close(tu_open(work));
  printf("open refusals ok\n");
  return 0;
}
