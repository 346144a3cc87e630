/* crc32c.c — table-driven CRC-32C (Castagnoli, reflected 0x82F63B78). */
#include <pthread.h>

#include "nvm_internal.h"

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    table[i] = c;
  }
}

/* Chains like zlib's crc32(): start with crc = 0, feed the previous result. */
uint32_t nvm_crc32c(uint32_t crc, const void *data, size_t len) {
  pthread_once(&table_once, build_table);
  const uint8_t *p = data;
  crc = ~crc;
  while (len--) crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}
