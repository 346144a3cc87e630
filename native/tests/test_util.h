/* test_util.h — assertions, temp files, batch builder and a minimal page
 * builder for the native tests. */
#ifndef NVM_TEST_UTIL_H
#define NVM_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvmns.h"

#define CHECK(cond)                                                                           \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      fprintf(stderr, "%s:%d: CHECK failed: %s (last nvm message: %s)\n", __FILE__, __LINE__, \
              #cond, nvm_errormsg());                                                         \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

#define CHECK_RC(expr, want)                                                                    \
  do {                                                                                          \
    int rc_ = (expr);                                                                           \
    if (rc_ != (want)) {                                                                        \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s (message: %s)\n", __FILE__, __LINE__, \
              #expr, nvm_strerror(rc_), nvm_strerror(want), nvm_errormsg());                    \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

#define CHECK_OK(expr) CHECK_RC(expr, NVM_OK)

/* The last error message is non-empty and contains every needle given. */
#define CHECK_MSG(needle)                                                                    \
  do {                                                                                       \
    if (!nvm_errormsg()[0] || !strstr(nvm_errormsg(), (needle))) {                           \
      fprintf(stderr, "%s:%d: message \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, \
              nvm_errormsg(), (needle));                                                     \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

/* The last error points at `want` (nvm_erroroffset; NVM_NO_OFFSET for none). */
#define CHECK_OFFSET(want)                                                                 \
  do {                                                                                     \
    int64_t off_ = nvm_erroroffset(), want_ = (int64_t)(want);                             \
    if (off_ != want_) {                                                                   \
      fprintf(stderr, "%s:%d: error offset %lld, expected %lld (message: %s)\n", __FILE__, \
              __LINE__, (long long)off_, (long long)want_, nvm_errormsg());                \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

#define TU_REGION_SIZE (4u << 20)

/* temp files (under $TMPDIR or /dev/shm), removed at exit */
const char *tu_path(const char *name);
nvm_region *tu_create(const char *path, uint64_t size);
nvm_region *tu_open(const char *path);
void tu_close(nvm_region *r);
uint8_t *tu_read_file(const char *path, size_t *len);
void tu_write_file(const char *path, const void *data, size_t len);
void tu_pwrite(const char *path, uint64_t off, const void *data, size_t len);
void tu_copy(const char *from, const char *to);
int tu_same_file(const char *a, const char *b);
uint64_t tu_ld64(const nvm_region *r, uint64_t off);
/* the value of a superblock counter (without its check bits, region-format.md §11) */
uint64_t tu_counter(const nvm_region *r, uint64_t off);

/* batch builder */
typedef struct tu_batch {
  uint8_t *buf;
  size_t len, cap;
} tu_batch;
void tb_init(tu_batch *b);
void tb_add(tu_batch *b, uint32_t op, uint32_t field, uint64_t target, const void *data,
            uint32_t len);
void tb_add64(tu_batch *b, uint32_t field, uint64_t target, uint64_t value); /* INPLACE word */
int tb_apply(nvm_region *r, tu_batch *b); /* applies and resets */
void tb_free(tu_batch *b);

/* minimal page builder: whole live pages written FRESH in one batch */
typedef struct tu_inode {
  unsigned kind; /* NVM_KIND_DIR / NVM_KIND_FILE (NVM_KIND_SYMLINK: tu_make_symlink) */
  uint64_t id, parent_off, parent_id;
  const char *name;
  uint32_t owner, group; /* string ids, 0 = none */
  uint32_t uc_client, uc_machine;
  uint64_t nblocks; /* files: block records (id = 1000+i) */
} tu_inode;
uint64_t tu_make_inode(nvm_region *r, const tu_inode *in); /* returns the inode page offset */
uint64_t tu_make_string(nvm_region *r, uint64_t id, const char *s);
/* any length: over STRING_MAX the bytes go into a STRING_EXT chain */
uint64_t tu_make_string_n(nvm_region *r, uint64_t id, const void *s, uint64_t len);
/* A live record page (region-format.md §5.5) with its RECORD_EXT chain, in one batch. */
uint64_t tu_make_record(nvm_region *r, uint64_t type, uint64_t id, uint64_t key, uint64_t value,
                        const void *payload, uint64_t len);
uint64_t tu_make_dir(nvm_region *r, uint64_t id, uint64_t parent_off, uint64_t parent_id,
                     const char *name);
/* An inode's attributes (region-format.md §5.6): a chain of ATTR_EXT pages holding `len`
 * bytes (owner id = the inode's id) and the inode's IN_ATTRS word naming it, in one batch;
 * the chain's page offsets go to pages (NULL: not wanted). Returns how many pages it took. */
uint64_t tu_set_attrs(nvm_region *r, uint64_t inode_off, const void *bytes, uint64_t len,
                      uint64_t *pages);
/* The IN_ATTRS word of `len` bytes whose chain starts at page offset `first`. */
uint64_t tu_attrs_word(uint64_t first, uint64_t len);
/* A well-formed attribute encoding (AttributeCodec's: the ACL entry user:bob:r-x and the
 * xattr user.big with value_len bytes i*7) into out; returns its length. */
size_t tu_attr_encoding(uint8_t *out, size_t value_len);
/* A live symlink page (region-format.md §5.2) named `name` under parent_off, whose target's `len`
 * bytes past SYMLINK_TARGET_INLINE_MAX go into a target chain of NAME_EXT pages (owner id = id),
 * in one batch; the chain's page offsets go to target_pages (NULL: not wanted). Returns the
 * symlink's page offset. */
uint64_t tu_make_symlink(nvm_region *r, uint64_t id, uint64_t parent_off, uint64_t parent_id,
                         const char *name, const void *target, uint64_t len,
                         uint64_t *target_pages);
void tu_set_root(nvm_region *r, uint64_t root_off);
/* build a page image without writing it */
void tu_inode_image(uint8_t *page, const tu_inode *in, unsigned state, uint64_t name_ext,
                    uint64_t block_ext);

#endif
