/*
 * fuzz_corpus.c — writes the seed corpus of make fuzz: real regions made by
 * the library (a tree with extension chains, an attribute chain, a symlink with a target chain,
 * strings and an open file; a
 * delete's leftovers; crash images at every barrier of an undo-logged batch),
 * each in the compact input format of fuzz_input.h. The tree is consistent for
 * the offline checker too (counters above every id, no block id twice), so
 * that the checker-vs-open oracle over the corpus (FuzzCorpusOracleTest) starts
 * from regions both readers accept, and what libFuzzer grows from them tests
 * "checker consistent => open accepts" instead of inheriting checker errors.
 * Usage: fuzz_corpus <dir>
 */
#include <stdio.h>
#include <unistd.h>

#include "fuzz_input.h"
#include "test_util.h"

static const uint64_t R = NVM_ROOT_INODE_ID;
static const char *outdir;
static int seq;

static void emit_file(const char *region, const char *what) {
  size_t len;
  uint8_t *img = tu_read_file(region, &len);
  static uint8_t out[FUZZ_MAX_INPUT];
  size_t n = fuzz_input_from_image(img, len, out, 1);
  char path[4200];
  snprintf(path, sizeof path, "%s/seed-%02d-%s", outdir, seq++, what);
  tu_write_file(path, out, n);
  free(img);
}

/* root, dirs (one with ACL entries and xattrs: a two-page ATTR_EXT chain), a symlink whose
 * 300-byte target takes a one-page target chain, a file with a block chain and a long name,
 * strings (one chained), an open file */
static uint64_t build_tree(nvm_region *r, uint64_t *dir_out) {
  uint64_t root = tu_make_dir(r, R, 0, 0, "");
  tu_set_root(r, root);
  tu_make_string(r, 1, "hdfs");
  tu_make_string(r, 2, "supergroup");
  char client[300]; /* longer than STRING_MAX: a STRING_EXT chain of two pages */
  memset(client, 'c', sizeof client);
  memcpy(client, "DFSClient_", 10);
  tu_make_string_n(r, 3, client, sizeof client);
  tu_make_string(r, 4, "127.0.0.1");
  uint64_t d = tu_make_dir(r, R + 1, root, R, "user");
  uint64_t sub = tu_make_dir(r, R + 2, d, R + 1, "data");
  uint8_t attrs[320]; /* a well-formed encoding, so that the offline checker finds it clean */
  CHECK(tu_set_attrs(r, sub, attrs, tu_attr_encoding(attrs, 280), NULL) == 2);
  char target[300]; /* 112 bytes inline, 188 in a NAME_EXT page owned by the symlink */
  for (size_t i = 0; i < sizeof target; i++) target[i] = (char)('a' + i % 26);
  target[0] = '/';
  tu_make_symlink(r, R + 6, d, R + 1, "latest", target, sizeof target, NULL);
  char longname[200];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  tu_inode big = {NVM_KIND_FILE, R + 3, sub, R + 2, longname, 1, 2, 0, 0, 12};
  tu_make_inode(r, &big);
  tu_inode small = {NVM_KIND_FILE, R + 4, sub, R + 2, "part-0000", 1, 2, 0, 0, 1};
  uint64_t small_off = tu_make_inode(r, &small);
  tu_inode open = {NVM_KIND_FILE, R + 5, d, R + 1, "being-written", 1, 2, 3, 4, 2};
  uint64_t open_off = tu_make_inode(r, &open);
  /* the page builder numbers every file's blocks from 1000: give the small and the open
   * file ids of their own, and set the counters as the NameNode keeps them */
  tu_batch b;
  tb_init(&b);
  uint64_t rec = NVM_FI_BLOCKS_INLINE + NVM_BR_ID;
  tb_add64(&b, NVM_F_BLOCK, small_off + rec, 2000);
  tb_add64(&b, NVM_F_BLOCK, open_off + rec, 3000);
  tb_add64(&b, NVM_F_BLOCK, open_off + rec + NVM_BLOCK_RECORD_SIZE, 3001);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, R + 6);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_STRING_ID, 4);
  tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_BLOCK_ID, 3001);
  CHECK_OK(tb_apply(r, &b));
  tb_free(&b);
  *dir_out = sub;
  return root;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fuzz_corpus <dir>\n");
    return 2;
  }
  outdir = argv[1];
  const char *p = tu_path("corpus"), *base = tu_path("corpus-base"), *work = tu_path("corpus-work");

  nvm_region *r = tu_create(p, NVM_MIN_REGION_SIZE);
  uint64_t sub;
  build_tree(r, &sub);
  tu_close(r);
  emit_file(p, "tree");
  tu_copy(p, base);

  /* a delete's leftovers: the subtree root invalidated, its children still live */
  r = tu_open(p);
  tu_batch b;
  tb_init(&b);
  tb_add(&b, NVM_OP_FREE, NVM_F_PAGE, sub, NULL, 0);
  CHECK_OK(tb_apply(r, &b));
  tu_close(r);
  emit_file(p, "deleted-dir");

  /* crash images at the barrier of a batch (a rename-like change: one redo record) and at the
   * next batch's, where the record is durable and its in-place bytes may not be */
  for (int k = 1; k <= 2; k++) {
    tu_copy(base, work);
    r = tu_open(work);
    uint64_t n;
    const uint64_t *ino = nvm_recovered_inodes(r, &n);
    tb_add64(&b, NVM_F_NAME, ino[n - 1] + NVM_IN_NAME_LEN, 3);
    tb_add64(&b, NVM_F_MTIME, ino[0] + NVM_IN_MTIME, 777);
    tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_TXID, 99);
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "%s-crash", work);
    CHECK_OK(nvm_debug_crash_at(r, (uint64_t)k, prefix));
    if (k == 2) {
      CHECK_OK(tb_apply(r, &b));
      tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_STRING_ID, 7);
    }
    CHECK_RC(tb_apply(r, &b), NVM_ECRASHED);
    tu_close(r);
    char img[4300], what[64];
    snprintf(img, sizeof img, "%s.lost", prefix);
    snprintf(what, sizeof what, "crash-%d-lost", k);
    emit_file(img, what);
    unlink(img);
    snprintf(img, sizeof img, "%s.present", prefix);
    snprintf(what, sizeof what, "crash-%d-present", k);
    emit_file(img, what);
    unlink(img);
  }
  tb_free(&b);
  printf("wrote %d seed inputs to %s\n", seq, outdir);
  return 0;
}
