/* fuzz_input.h — the compact input format shared by the fuzz target and the
 * corpus generator. A fuzz input is
 *     payload || flag
 * The payload's first DATA_OFFSET bytes are the region's header, superblock
 * and undo record; the rest are pages from page 0 on. It is laid into a
 * zero-filled region of MIN_REGION_SIZE bytes (pages past the payload are
 * never-used). If the flag byte's low bit is set, the header's geometry
 * fields and CRC are made valid after that, so the fuzzer reaches the
 * superblock, undo record and pages instead of stopping at the header. */
#ifndef NVM_FUZZ_INPUT_H
#define NVM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "nvmns.h"

#define FUZZ_REGION_SIZE ((size_t)NVM_MIN_REGION_SIZE)
#define FUZZ_MAX_PAGES 64u
#define FUZZ_MAX_INPUT ((size_t)NVM_DATA_OFFSET + FUZZ_MAX_PAGES * NVM_PAGE_SIZE + 1)

/* Fills image[FUZZ_REGION_SIZE] from an input; returns the flag byte. */
unsigned fuzz_image_from_input(const uint8_t *in, size_t n, uint8_t *image);
/* Writes the compact input of a region image (up to its high-water page). */
size_t fuzz_input_from_image(const uint8_t *image, size_t image_len, uint8_t *out, unsigned flag);

#endif
