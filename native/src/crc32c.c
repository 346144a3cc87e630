/* crc32c.c — CRC-32C (Castagnoli, reflected 0x82F63B78): the SSE4.2 crc32
 * instruction where the CPU has it (8 bytes a step), else a table a byte at a
 * time. Both give the same result (test_crc32c checks them against each other). */
#include <pthread.h>
#include <string.h>

#include "nvm_internal.h"

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int have_sse42;

static void init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    table[i] = c;
  }
#if defined(__x86_64__)
  have_sse42 = __builtin_cpu_supports("sse4.2");
#endif
}

static uint32_t crc_table(uint32_t crc, const uint8_t *p, size_t len) {
  while (len--) crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_sse42(uint32_t crc, const uint8_t *p,
                                                            size_t len) {
  uint64_t c = crc;
  for (; len >= 8; len -= 8, p += 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c = __builtin_ia32_crc32di(c, w);
  }
  uint32_t c32 = (uint32_t)c;
  for (; len; len--) c32 = __builtin_ia32_crc32qi(c32, *p++);
  return c32;
}
#endif

/* Chains like zlib's crc32(): start with crc = 0, feed the previous result. */
uint32_t nvm_crc32c(uint32_t crc, const void *data, size_t len) {
  pthread_once(&table_once, init);
  crc = ~crc;
#if defined(__x86_64__)
  if (have_sse42) return ~crc_sse42(crc, data, len);
#endif
  return ~crc_table(crc, data, len);
}

/* The table path alone, for the test that holds the two paths equal. */
uint32_t nvm_crc32c_portable(uint32_t crc, const void *data, size_t len) {
  pthread_once(&table_once, init);
  return ~crc_table(~crc, data, len);
}
