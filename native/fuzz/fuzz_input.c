/* fuzz_input.c — see fuzz_input.h */
#include "fuzz_input.h"

#include <string.h>

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

unsigned fuzz_image_from_input(const uint8_t *in, size_t n, uint8_t *image) {
  memset(image, 0, FUZZ_REGION_SIZE);
  if (n == 0) return 0;
  unsigned flag = in[n - 1];
  size_t payload = n - 1 < FUZZ_REGION_SIZE ? n - 1 : FUZZ_REGION_SIZE;
  memcpy(image, in, payload);
  if (flag & 1) {
    put64(image + NVM_HDR_MAGIC, NVM_REGION_MAGIC);
    put32(image + NVM_HDR_VERSION, NVM_FORMAT_VERSION);
    put32(image + NVM_HDR_HEADER_SIZE, NVM_HEADER_SIZE);
    put64(image + NVM_HDR_REGION_SIZE, FUZZ_REGION_SIZE);
    put32(image + NVM_HDR_PAGE_SIZE, NVM_PAGE_SIZE);
    put64(image + NVM_HDR_DATA_OFFSET, NVM_DATA_OFFSET);
    put64(image + NVM_HDR_PAGE_COUNT, (FUZZ_REGION_SIZE - NVM_DATA_OFFSET) / NVM_PAGE_SIZE);
    put32(image + NVM_HDR_CRC, nvm_crc32c(0, image, NVM_HDR_CRC_COVERED));
  }
  return flag;
}

size_t fuzz_input_from_image(const uint8_t *image, size_t image_len, uint8_t *out, unsigned flag) {
  size_t pages = 0;
  for (size_t i = 0; i < FUZZ_MAX_PAGES && NVM_DATA_OFFSET + (i + 1) * NVM_PAGE_SIZE <= image_len;
       i++) {
    uint64_t word;
    memcpy(&word, image + NVM_DATA_OFFSET + i * NVM_PAGE_SIZE, 8);
    if (word != 0) pages = i + 1;
  }
  size_t n = NVM_DATA_OFFSET + pages * NVM_PAGE_SIZE;
  memcpy(out, image, n);
  out[n] = (uint8_t)flag;
  return n + 1;
}
