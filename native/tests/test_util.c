/* test_util.c — see test_util.h */
#include "test_util.h"

#include "nvm_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PATHS 256
static char *paths[MAX_PATHS];
static int npaths;

/* Every file a test made from one of its paths: the path itself and whatever it derived by
 * appending to it (crash images, states, prefixes), so nothing is left in TMPDIR. */
static void cleanup(void) {
  for (int i = 0; i < npaths; i++) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", paths[i]);
    char *slash = strrchr(dir, '/');
    if (slash) {
      const char *base = slash + 1;
      *slash = 0;
      size_t n = strlen(base);
      DIR *d = opendir(dir);
      for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (strncmp(e->d_name, base, n) != 0) continue;
        char f[8200];
        snprintf(f, sizeof f, "%s/%s", dir, e->d_name);
        unlink(f);
      }
      if (d) closedir(d);
    }
    free(paths[i]);
  }
}

const char *tu_path(const char *name) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/dev/shm";
  char buf[4096];
  snprintf(buf, sizeof buf, "%s/nvmtest-%d-%s", dir, (int)getpid(), name);
  CHECK(npaths < MAX_PATHS);
  if (npaths == 0) atexit(cleanup);
  paths[npaths] = strdup(buf);
  unlink(buf);
  return paths[npaths++];
}

nvm_region *tu_create(const char *path, uint64_t size) {
  nvm_identity id = {42, "CID-test", "BP-1-127.0.0.1-1"};
  nvm_region *r = NULL;
  CHECK_OK(nvm_region_create(path, size, &id, NVM_MODE_AUTO, &r));
  return r;
}

nvm_region *tu_open(const char *path) {
  nvm_region *r = NULL;
  CHECK_OK(nvm_region_open(path, NVM_MODE_AUTO, 0, &r));
  return r;
}

void tu_close(nvm_region *r) { CHECK_OK(nvm_region_close(r)); }

uint8_t *tu_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
  CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return buf;
}

void tu_write_file(const char *path, const void *data, size_t len) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0);
  CHECK(write(fd, data, len) == (ssize_t)len);
  close(fd);
}

void tu_pwrite(const char *path, uint64_t off, const void *data, size_t len) {
  int fd = open(path, O_WRONLY);
  CHECK(fd >= 0);
  CHECK(pwrite(fd, data, len, (off_t)off) == (ssize_t)len);
  close(fd);
}

void tu_copy(const char *from, const char *to) {
  size_t n;
  uint8_t *d = tu_read_file(from, &n);
  tu_write_file(to, d, n);
  free(d);
}

int tu_same_file(const char *a, const char *b) {
  size_t na, nb;
  uint8_t *da = tu_read_file(a, &na), *db = tu_read_file(b, &nb);
  int same = na == nb && memcmp(da, db, na) == 0;
  free(da);
  free(db);
  return same;
}

uint64_t tu_ld64(const nvm_region *r, uint64_t off) {
  uint64_t v;
  memcpy(&v, nvm_region_base(r) + off, 8);
  return v;
}

uint64_t tu_counter(const nvm_region *r, uint64_t off) { return nvm_sb_get(r, off); }

/* ---- batches ---- */

void tb_init(tu_batch *b) {
  b->cap = 4096;
  b->buf = calloc(1, b->cap);
  b->len = NVM_BATCH_HEADER;
  CHECK(b->buf);
}

static void tb_reserve(tu_batch *b, size_t more) {
  while (b->len + more > b->cap) {
    b->buf = realloc(b->buf, b->cap * 2);
    CHECK(b->buf);
    memset(b->buf + b->cap, 0, b->cap);
    b->cap *= 2;
  }
}

void tb_add(tu_batch *b, uint32_t op, uint32_t field, uint64_t target, const void *data,
            uint32_t len) {
  size_t padded = (len + 7u) & ~7u;
  tb_reserve(b, NVM_BATCH_ENTRY_HEADER + padded);
  uint8_t *p = b->buf + b->len;
  uint32_t zero = 0;
  memcpy(p, &op, 4);
  memcpy(p + 4, &field, 4);
  memcpy(p + 8, &target, 8);
  memcpy(p + 16, &len, 4);
  memcpy(p + 20, &zero, 4);
  memset(p + NVM_BATCH_ENTRY_HEADER, 0, padded);
  if (len) memcpy(p + NVM_BATCH_ENTRY_HEADER, data, len);
  b->len += NVM_BATCH_ENTRY_HEADER + padded;
  uint32_t n;
  memcpy(&n, b->buf, 4);
  n++;
  memcpy(b->buf, &n, 4);
}

void tb_add64(tu_batch *b, uint32_t field, uint64_t target, uint64_t value) {
  tb_add(b, NVM_OP_INPLACE, field, target, &value, 8);
}

int tb_apply(nvm_region *r, tu_batch *b) {
  int rc = nvm_apply(r, b->buf, b->len);
  memset(b->buf, 0, b->cap);
  b->len = NVM_BATCH_HEADER;
  return rc;
}

void tb_free(tu_batch *b) { free(b->buf); }

/* ---- pages ---- */

static void put64(uint8_t *p, int off, uint64_t v) { memcpy(p + off, &v, 8); }

void tu_inode_image(uint8_t *page, const tu_inode *in, unsigned state, uint64_t name_ext,
                    uint64_t block_ext) {
  size_t nlen = strlen(in->name);
  memset(page, 0, NVM_PAGE_SIZE);
  put64(page, NVM_PG_STATE, NVM_STATE_WORD(in->kind, state));
  put64(page, NVM_IN_ID, in->id);
  put64(page, NVM_IN_PARENT_PAGE, in->parent_off);
  put64(page, NVM_IN_PARENT_ID, in->parent_id);
  put64(page, NVM_IN_MTIME, 1000);
  put64(page, NVM_IN_PERM,
        0755u | (uint64_t)in->group << NVM_PERM_GROUP_SHIFT |
            (uint64_t)in->owner << NVM_PERM_OWNER_SHIFT);
  put64(page, NVM_IN_NAME_LEN, nlen);
  put64(page, NVM_IN_NAME_EXT, name_ext);
  memcpy(page + NVM_IN_NAME_INLINE, in->name,
         nlen < NVM_NAME_INLINE_MAX ? nlen : NVM_NAME_INLINE_MAX);
  if (in->kind != NVM_KIND_FILE) return;
  put64(page, NVM_FI_HEADER, 134217728u | 3ull << NVM_FI_HDR_REPLICATION_SHIFT);
  put64(page, NVM_FI_UC, in->uc_client | (uint64_t)in->uc_machine << NVM_FI_UC_MACHINE_SHIFT);
  put64(page, NVM_FI_BLOCK_COUNT, in->nblocks);
  put64(page, NVM_FI_BLOCK_EXT, block_ext);
  for (uint64_t i = 0; i < in->nblocks && i < NVM_BLOCKS_INLINE_MAX; i++)
    put64(page, NVM_FI_BLOCKS_INLINE + (int)(i * NVM_BLOCK_RECORD_SIZE), 1000 + i);
}

static uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* Extension pages for `total` units (bytes from `bytes`, or block records), chained in the
 * order of offs. */
static void ext_pages(tu_batch *b, unsigned kind, uint64_t owner, const uint64_t *offs,
                      uint64_t npages, uint64_t total, uint64_t per_page, const char *bytes) {
  uint8_t page[NVM_PAGE_SIZE];
  for (uint64_t p = 0; p < npages; p++) {
    uint64_t count = total - p * per_page < per_page ? total - p * per_page : per_page;
    memset(page, 0, sizeof page);
    put64(page, NVM_PG_STATE, NVM_STATE_WORD(kind, NVM_STATE_LIVE));
    put64(page, NVM_EXT_OWNER_ID, owner);
    put64(page, NVM_EXT_NEXT, p + 1 < npages ? offs[p + 1] : 0);
    put64(page, NVM_EXT_COUNT, count);
    if (kind != NVM_KIND_BLOCK_EXT) {
      memcpy(page + NVM_EXT_PAYLOAD, bytes + p * per_page, count);
    } else {
      for (uint64_t i = 0; i < count; i++)
        put64(page, NVM_EXT_PAYLOAD + (int)(i * NVM_BLOCK_RECORD_SIZE),
              1000 + NVM_BLOCKS_INLINE_MAX + p * per_page + i);
    }
    tb_add(b, NVM_OP_FRESH, NVM_F_PAGE, offs[p], page, NVM_PAGE_SIZE);
  }
}

uint64_t tu_make_inode(nvm_region *r, const tu_inode *in) {
  size_t nlen = strlen(in->name);
  uint64_t name_units = nlen > NVM_NAME_INLINE_MAX ? nlen - NVM_NAME_INLINE_MAX : 0;
  uint64_t blk_units = in->kind == NVM_KIND_FILE && in->nblocks > NVM_BLOCKS_INLINE_MAX
                           ? in->nblocks - NVM_BLOCKS_INLINE_MAX
                           : 0;
  uint64_t nn = div_up(name_units, NVM_NAME_EXT_MAX), nb = div_up(blk_units, NVM_BLOCKS_EXT_MAX);
  uint64_t *offs = calloc(1 + nn + nb, sizeof *offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)(1 + nn + nb), offs));
  tu_batch b;
  tb_init(&b);
  ext_pages(&b, NVM_KIND_NAME_EXT, in->id, offs + 1, nn, name_units, NVM_NAME_EXT_MAX,
            in->name + (nn ? NVM_NAME_INLINE_MAX : 0));
  ext_pages(&b, NVM_KIND_BLOCK_EXT, in->id, offs + 1 + nn, nb, blk_units, NVM_BLOCKS_EXT_MAX, NULL);
  uint8_t page[NVM_PAGE_SIZE];
  tu_inode_image(page, in, NVM_STATE_LIVE, nn ? offs[1] : 0, nb ? offs[1 + nn] : 0);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, offs[0], page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  uint64_t off = offs[0];
  free(offs);
  return off;
}

uint64_t tu_make_dir(nvm_region *r, uint64_t id, uint64_t parent_off, uint64_t parent_id,
                     const char *name) {
  tu_inode in = {NVM_KIND_DIR, id, parent_off, parent_id, name, 0, 0, 0, 0, 0};
  return tu_make_inode(r, &in);
}

uint64_t tu_make_string(nvm_region *r, uint64_t id, const char *s) {
  return tu_make_string_n(r, id, s, strlen(s));
}

uint64_t tu_make_string_n(nvm_region *r, uint64_t id, const void *s, uint64_t len) {
  uint64_t nexts = len > NVM_STRING_MAX ? div_up(len, NVM_NAME_EXT_MAX) : 0;
  uint64_t *offs = calloc(1 + nexts, sizeof *offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)(1 + nexts), offs));
  tu_batch b;
  tb_init(&b);
  ext_pages(&b, NVM_KIND_STRING_EXT, id, offs + 1, nexts, len, NVM_NAME_EXT_MAX, s);
  uint8_t page[NVM_PAGE_SIZE] = {0};
  put64(page, NVM_PG_STATE, NVM_STATE_WORD(NVM_KIND_STRING, NVM_STATE_LIVE));
  put64(page, NVM_ST_ID, id);
  put64(page, NVM_ST_LEN, len);
  if (nexts)
    put64(page, NVM_ST_EXT, offs[1]);
  else
    memcpy(page + NVM_ST_BYTES, s, len);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, offs[0], page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  uint64_t off = offs[0];
  free(offs);
  return off;
}

uint64_t tu_make_record(nvm_region *r, uint64_t type, uint64_t id, uint64_t key, uint64_t value,
                        const void *payload, uint64_t len) {
  uint64_t rest = len > NVM_RECORD_INLINE_MAX ? len - NVM_RECORD_INLINE_MAX : 0;
  uint64_t nexts = div_up(rest, NVM_NAME_EXT_MAX);
  uint64_t *offs = calloc(1 + nexts, sizeof *offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)(1 + nexts), offs));
  tu_batch b;
  tb_init(&b);
  ext_pages(&b, NVM_KIND_RECORD_EXT, id, offs + 1, nexts, rest, NVM_NAME_EXT_MAX,
            (const char *)payload + (len - rest));
  uint8_t page[NVM_PAGE_SIZE] = {0};
  put64(page, NVM_PG_STATE, NVM_STATE_WORD(NVM_KIND_RECORD, NVM_STATE_LIVE));
  put64(page, NVM_RC_TYPE, type);
  put64(page, NVM_RC_ID, id);
  put64(page, NVM_RC_KEY, key);
  put64(page, NVM_RC_VALUE, value);
  put64(page, NVM_RC_LEN, len);
  put64(page, NVM_RC_EXT, nexts ? offs[1] : 0);
  memcpy(page + NVM_RC_PAYLOAD, payload, len - rest);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, offs[0], page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  uint64_t off = offs[0];
  free(offs);
  return off;
}

uint64_t tu_attrs_word(uint64_t first, uint64_t len) {
  return (first - NVM_DATA_OFFSET) / NVM_PAGE_SIZE << NVM_ATTRS_PAGE_SHIFT | len;
}

uint64_t tu_set_attrs(nvm_region *r, uint64_t inode_off, const void *bytes, uint64_t len,
                      uint64_t *pages) {
  uint64_t n = div_up(len, NVM_NAME_EXT_MAX);
  uint64_t *offs = calloc(n ? n : 1, sizeof *offs);
  CHECK(n > 0 && offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)n, offs));
  tu_batch b;
  tb_init(&b);
  ext_pages(&b, NVM_KIND_ATTR_EXT, tu_ld64(r, inode_off + NVM_IN_ID), offs, n, len,
            NVM_NAME_EXT_MAX, bytes);
  tb_add64(&b, NVM_F_ATTRS, inode_off + NVM_IN_ATTRS, tu_attrs_word(offs[0], len));
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  if (pages) memcpy(pages, offs, n * sizeof *offs);
  free(offs);
  return n;
}

static size_t varint(uint8_t *out, uint64_t v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7) out[n++] = (uint8_t)(v | 0x80);
  out[n++] = (uint8_t)v;
  return n;
}

size_t tu_attr_encoding(uint8_t *out, size_t value_len) {
  size_t n = 0;
  out[n++] = 1;                   /* one ACL entry: */
  out[n++] = 0 << 5 | 0 << 3 | 5; /* access scope, user, r-x */
  n += varint(out + n, 3);
  memcpy(out + n, "bob", 3);
  n += 3;
  out[n++] = 1; /* one xattr: */
  out[n++] = 0; /* namespace user */
  n += varint(out + n, 3);
  memcpy(out + n, "big", 3);
  n += 3;
  n += varint(out + n, value_len + 1);
  for (size_t i = 0; i < value_len; i++) out[n++] = (uint8_t)(i * 7);
  return n;
}

uint64_t tu_make_symlink(nvm_region *r, uint64_t id, uint64_t parent_off, uint64_t parent_id,
                         const char *name, const void *target, uint64_t len,
                         uint64_t *target_pages) {
  size_t nlen = strlen(name);
  uint64_t name_units = nlen > NVM_NAME_INLINE_MAX ? nlen - NVM_NAME_INLINE_MAX : 0;
  uint64_t target_units =
      len > NVM_SYMLINK_TARGET_INLINE_MAX ? len - NVM_SYMLINK_TARGET_INLINE_MAX : 0;
  uint64_t nn = div_up(name_units, NVM_NAME_EXT_MAX), nt = div_up(target_units, NVM_NAME_EXT_MAX);
  uint64_t *offs = calloc(1 + nn + nt, sizeof *offs);
  CHECK(offs);
  CHECK_OK(nvm_reserve_pages(r, (uint32_t)(1 + nn + nt), offs));
  tu_batch b;
  tb_init(&b);
  ext_pages(&b, NVM_KIND_NAME_EXT, id, offs + 1, nn, name_units, NVM_NAME_EXT_MAX,
            name + (nn ? NVM_NAME_INLINE_MAX : 0));
  ext_pages(&b, NVM_KIND_NAME_EXT, id, offs + 1 + nn, nt, target_units, NVM_NAME_EXT_MAX,
            (const char *)target + (nt ? NVM_SYMLINK_TARGET_INLINE_MAX : 0));
  tu_inode in = {NVM_KIND_SYMLINK, id, parent_off, parent_id, name, 0, 0, 0, 0, 0};
  uint8_t page[NVM_PAGE_SIZE];
  tu_inode_image(page, &in, NVM_STATE_LIVE, nn ? offs[1] : 0, 0);
  put64(page, NVM_SL_TARGET_LEN, len);
  put64(page, NVM_SL_TARGET_EXT, nt ? offs[1 + nn] : 0);
  memcpy(page + NVM_SL_TARGET_INLINE, target,
         len < NVM_SYMLINK_TARGET_INLINE_MAX ? len : NVM_SYMLINK_TARGET_INLINE_MAX);
  tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, offs[0], page, NVM_PAGE_SIZE);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  if (target_pages) memcpy(target_pages, offs + 1 + nn, nt * sizeof *offs);
  uint64_t off = offs[0];
  free(offs);
  return off;
}

void tu_set_root(nvm_region *r, uint64_t root_off) {
  tu_batch b;
  tb_init(&b);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_ROOT_PAGE, root_off);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
}
