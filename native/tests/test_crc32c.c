/* CRC-32C known vector and chaining. */
#include "test_util.h"

int main(void) {
  CHECK(nvm_crc32c(0, "123456789", 9) == 0xE3069283u);
  CHECK(nvm_crc32c(nvm_crc32c(0, "1234", 4), "56789", 5) == 0xE3069283u);
  CHECK(nvm_crc32c(0, "", 0) == 0);
  printf("crc32c ok\n");
  return 0;
}
