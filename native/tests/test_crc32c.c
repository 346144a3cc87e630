/* CRC-32C known vector and chaining; the SSE4.2 path (where the CPU has it) and the
 * table path agree on every length and alignment. */
#include "nvm_internal.h"
#include "test_util.h"

int main(void) {
  CHECK(nvm_crc32c(0, "123456789", 9) == 0xE3069283u);
  CHECK(nvm_crc32c(nvm_crc32c(0, "1234", 4), "56789", 5) == 0xE3069283u);
  CHECK(nvm_crc32c(0, "", 0) == 0);
  CHECK(nvm_crc32c_portable(0, "123456789", 9) == 0xE3069283u);
  uint8_t buf[600];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(i * 131 + 7);
  for (size_t off = 0; off < 9; off++)
    for (size_t len = 0; len + off <= sizeof buf; len += 37)
      CHECK(nvm_crc32c(5, buf + off, len) == nvm_crc32c_portable(5, buf + off, len));
  printf("crc32c ok\n");
  return 0;
}
