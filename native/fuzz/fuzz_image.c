/*
 * fuzz_image.c — writes the region file the fuzz target opens for each given
 * input (fuzz_image_from_input, the expansion fuzz_region_open.c uses), so
 * that the offline checker can be run over the fuzz corpus as an oracle of the
 * native open (FuzzCorpusOracleTest). Built in every build, not only with
 * NVM_FUZZ.
 * Usage: fuzz_image <outdir> <input>...
 *   writes <outdir>/<k>.region for the k-th input (k from 0); an input the fuzz
 *   target skips (longer than FUZZ_MAX_INPUT) gets no file and a line
 *   "skipped <k> <input>" on stdout.
 */
#include <stdio.h>

#include "fuzz_input.h"
#include "test_util.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: fuzz_image <outdir> <input>...\n");
    return 2;
  }
  uint8_t *image = malloc(FUZZ_REGION_SIZE);
  CHECK(image != NULL);
  for (int k = 0; k + 2 < argc; k++) {
    size_t n;
    uint8_t *in = tu_read_file(argv[k + 2], &n);
    if (n > FUZZ_MAX_INPUT) {
      printf("skipped %d %s\n", k, argv[k + 2]);
    } else {
      fuzz_image_from_input(in, n, image);
      char path[4200];
      snprintf(path, sizeof path, "%s/%d.region", argv[1], k);
      tu_write_file(path, image, FUZZ_REGION_SIZE);
    }
    free(in);
  }
  free(image);
  return 0;
}
