/* The disk mode's power-loss sweep (region-format.md §12.6): a workload of every kind of batch
 * (pages written LIVE in their FRESH data with name, block, string, record, attribute and
 * symlink chains; a group of a create, a rename, a create and a delete that frees a page; a
 * group of many renames; checkpoints; enough creates to wrap the 1 MiB log ring, with the
 * checkpoints its room forces) runs with the power-loss model armed. At every sync point of
 * the log and of the region file, every image pair a power loss there could leave (nothing or
 * everything of the writes since the last syncs, each log sector or region page alone or
 * missing, every page torn) must recover, and to exactly the state before that sync's group or
 * after it: never a refused region, never a lost acknowledged group, never half a group.
 * Prints the sync points and images checked. */
#include <stdio.h>
#include <unistd.h>

#include "nvm_internal.h"
#include "test_util.h"

static const nvm_options opts = {NULL, NVM_WAL_MIN_CAPACITY, 0, 0, NVM_OPT_NO_CHECKPOINTER};
static const char *region_path, *prefix, *work;
static uint64_t checked_points, checked_images, seen_before, seen_after;
static uint64_t root, dir_a, dir_b, file_f;

/* Two images hold the same namespace: the same LIVE pages byte for byte, the same counters and
 * commit sequence (uncommitted residue, the scan limit, the log words and the redo slots
 * aside). */
static int same_state(const char *x, const char *y) {
  nvm_region *a = tu_open(x), *b = tu_open(y);
  const uint8_t *pa = nvm_region_base(a), *pb = nvm_region_base(b);
  int same = 1;
  for (uint64_t off = NVM_SB_LAST_INODE_ID; same && off <= NVM_SB_MASTER_KEY_ID; off += 8)
    if (off != NVM_SB_SCAN_LIMIT) same = tu_ld64(a, off) == tu_ld64(b, off);
  for (uint64_t off = NVM_DATA_OFFSET; same && off < nvm_region_size(a); off += NVM_PAGE_SIZE) {
    uint64_t wa, wb;
    memcpy(&wa, pa + off, 8);
    memcpy(&wb, pb + off, 8);
    int la = NVM_STATE_OF(wa) == NVM_STATE_LIVE, lb = NVM_STATE_OF(wb) == NVM_STATE_LIVE;
    same = la == lb && (!la || memcmp(pa + off, pb + off, NVM_PAGE_SIZE) == 0);
  }
  tu_close(a);
  tu_close(b);
  return same;
}

static int exists(const char *p) { return access(p, F_OK) == 0; }

/* The consistent state a power loss at sync point k may return to: the latest applied image
 * before k (the state every acknowledged group made) and k's own, if k committed a group. */
static void applied_path(char *out, size_t n, uint64_t k) {
  snprintf(out, n, "%s.%llu.applied", prefix, (unsigned long long)k);
}

static void check_image(const char *img, const char *before, const char *after) {
  char iw[700], w[700];
  snprintf(iw, sizeof iw, "%s.wal", img);
  snprintf(w, sizeof w, "%s.wal", work);
  tu_copy(img, work);
  tu_copy(iw, w);
  /* recovered in the disk mode and in a memory mode, by turns */
  nvm_region *r = NULL;
  int rc = checked_images % 2 ? nvm_region_open(work, NVM_MODE_EMULATED, 0, &r)
                              : nvm_region_open_with(work, NVM_MODE_DISK, 0, &opts, &r);
  if (rc != NVM_OK) {
    fprintf(stderr, "image %s refused: %s\n", img, nvm_errormsg());
    exit(1);
  }
  tu_close(r);
  if (same_state(work, before)) {
    seen_before++;
  } else if (after && same_state(work, after)) {
    seen_after++;
  } else {
    fprintf(stderr, "image %s recovers to neither %s nor %s\n", img, before,
            after ? after : "(none)");
    exit(1);
  }
  checked_images++;
  unlink(img);
  unlink(iw);
}

/* Checks the sync points captured since the last call, up to `upto`. */
static uint64_t last_checked;
static void check_points(uint64_t upto) {
  static const char *fixed[] = {"lost", "present", "region-only", "log-only", "torn"};
  static const char *forms[] = {"sec%d-only", "sec%d-missing", "page%d-only", "page%d-missing"};
  for (uint64_t k = last_checked + 1; k <= upto; k++) {
    char before[600], after[600], img[700], v[64];
    uint64_t j = k - 1;
    applied_path(before, sizeof before, j);
    while (!exists(before)) applied_path(before, sizeof before, --j);
    applied_path(after, sizeof after, k);
    const char *a = exists(after) ? after : NULL;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
      snprintf(img, sizeof img, "%s.%llu.%s", prefix, (unsigned long long)k, fixed[i]);
      if (exists(img)) check_image(img, before, a);
    }
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
      for (int i = 0; i < 64; i++) {
        snprintf(v, sizeof v, forms[f], i);
        snprintf(img, sizeof img, "%s.%llu.%s", prefix, (unsigned long long)k, v);
        if (!exists(img)) break;
        check_image(img, before, a);
      }
    checked_points++;
  }
  last_checked = upto;
}

static uint64_t captured(nvm_region *r) { return nvm_debug_powerloss_points(r); }

static void step(nvm_region *r, const char *what) {
  uint64_t k = captured(r);
  uint64_t images0 = checked_images;
  check_points(k);
  printf("  %-44s sync points %3llu, images %5llu\n", what, (unsigned long long)k,
         (unsigned long long)(checked_images - images0));
}

static void chains(nvm_region *r) {
  char longname[400];
  memset(longname, 'n', sizeof longname - 1);
  longname[sizeof longname - 1] = 0;
  tu_inode in = {NVM_KIND_FILE, 200, dir_a, NVM_ROOT_INODE_ID + 1, longname, 0, 0, 0, 0, 30};
  tu_make_inode(r, &in); /* name and block chains, LIVE in its FRESH data */
  step(r, "a file with name and block chains");
  char s[600];
  memset(s, 's', sizeof s);
  tu_make_string_n(r, 7, s, sizeof s);
  tu_make_record(r, NVM_RECORD_DELEGATION_TOKEN, 1, 5, 99, s, sizeof s);
  step(r, "a long string and a record with a chain");
  uint8_t attrs[900];
  size_t n = tu_attr_encoding(attrs, 700);
  tu_set_attrs(r, file_f, attrs, n, NULL);
  tu_make_symlink(r, 201, dir_b, NVM_ROOT_INODE_ID + 2, "l", s, sizeof s, NULL);
  step(r, "attributes and a symlink with a target chain");
}

static void groups(nvm_region *r) {
  uint64_t g, h;
  CHECK_OK(nvm_reserve_pages(r, 1, &g));
  CHECK_OK(nvm_reserve_pages(r, 1, &h));
  tu_batch b[4];
  for (int i = 0; i < 4; i++) tb_init(&b[i]);
  tu_inode gi = {NVM_KIND_FILE, 300, dir_a, NVM_ROOT_INODE_ID + 1, "g", 0, 0, 0, 0, 1};
  uint8_t img[NVM_PAGE_SIZE];
  tu_inode_image(img, &gi, NVM_STATE_PENDING, 0, 0);
  tb_add(&b[0], NVM_OP_FRESH, NVM_F_PAGE, g, img, NVM_PAGE_SIZE);
  tb_add64(&b[0], NVM_F_STATE, g, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE));
  tb_add64(&b[0], NVM_F_MTIME, dir_a + NVM_IN_MTIME, 5001);
  tb_add64(&b[0], NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 300);
  static const char newname[16] = "renamed-file";
  tb_add(&b[1], NVM_OP_INPLACE, NVM_F_NAME, file_f + NVM_IN_NAME_INLINE, newname, 12);
  tb_add64(&b[1], NVM_F_NAME, file_f + NVM_IN_NAME_LEN, 12);
  tb_add64(&b[1], NVM_F_PARENT, file_f + NVM_IN_PARENT_PAGE, dir_b);
  tb_add64(&b[1], NVM_F_PARENT, file_f + NVM_IN_PARENT_ID, NVM_ROOT_INODE_ID + 2);
  tb_add64(&b[1], NVM_F_COUNTER, NVM_SB_LAST_TXID, 99);
  tu_inode hi = {NVM_KIND_FILE, 301, dir_b, NVM_ROOT_INODE_ID + 2, "h", 0, 0, 0, 0, 1};
  tu_inode_image(img, &hi, NVM_STATE_PENDING, 0, 0);
  tb_add(&b[2], NVM_OP_FRESH, NVM_F_PAGE, h, img, NVM_PAGE_SIZE);
  tb_add64(&b[2], NVM_F_STATE, h, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE));
  tb_add64(&b[2], NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, 301);
  tb_add64(&b[3], NVM_F_STATE, g, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_INVALID));
  tb_add(&b[3], NVM_OP_FREE, NVM_F_PAGE, g, NULL, 0);
  uint64_t seq;
  for (int i = 0; i < 4; i++) CHECK_OK(nvm_stage(r, b[i].buf, b[i].len, &seq));
  CHECK_OK(nvm_sync(r, NULL));
  for (int i = 0; i < 4; i++) tb_free(&b[i]);
  step(r, "one group: create, rename, create, delete");
  for (int i = 0; i < 40; i++) {
    tu_batch m;
    tb_init(&m);
    uint64_t to = i % 2 ? dir_a : dir_b;
    tb_add64(&m, NVM_F_PARENT, file_f + NVM_IN_PARENT_PAGE, to);
    tb_add64(&m, NVM_F_PARENT, file_f + NVM_IN_PARENT_ID, NVM_ROOT_INODE_ID + (i % 2 ? 1 : 2));
    tb_add64(&m, NVM_F_MTIME, to + NVM_IN_MTIME, 6000 + (uint64_t)i);
    CHECK_OK(nvm_stage(r, m.buf, m.len, &seq));
    tb_free(&m);
  }
  CHECK_OK(nvm_sync(r, NULL));
  step(r, "one group of 40 renames");
  CHECK_OK(nvm_checkpoint(r));
  step(r, "a checkpoint");
}

/* 200 creates a group, until the ring has wrapped: pad records, and the checkpoints the
 * ring's room forces in the middle of commits. */
static void wrap(nvm_region *r) {
  uint64_t id = 1000;
  nvm_log_stats st;
  do {
    uint64_t seq;
    for (int i = 0; i < 200; i++, id++) {
      char name[32];
      snprintf(name, sizeof name, "w%llu", (unsigned long long)id);
      uint64_t pg;
      CHECK_OK(nvm_reserve_pages(r, 1, &pg));
      tu_inode in = {NVM_KIND_FILE, id, dir_b, NVM_ROOT_INODE_ID + 2, name, 0, 0, 0, 0, 1};
      uint8_t img[NVM_PAGE_SIZE];
      tu_inode_image(img, &in, NVM_STATE_PENDING, 0, 0);
      tu_batch b;
      tb_init(&b);
      tb_add(&b, NVM_OP_FRESH, NVM_F_PAGE, pg, img, NVM_PAGE_SIZE);
      tb_add64(&b, NVM_F_STATE, pg, NVM_STATE_WORD(NVM_KIND_FILE, NVM_STATE_LIVE));
      tb_add64(&b, NVM_F_MTIME, dir_b + NVM_IN_MTIME, 7000 + id);
      tb_add64(&b, NVM_F_COUNTER, NVM_SB_LAST_INODE_ID, id);
      CHECK_OK(nvm_stage(r, b.buf, b.len, &seq));
      tb_free(&b);
    }
    CHECK_OK(nvm_sync(r, NULL));
    step(r, "a group of 200 creates");
    CHECK_OK(nvm_log_stats_get(r, &st));
  } while (st.head - st.capacity < st.capacity + 200 * 1024);
  CHECK(st.checkpoints >= 2);
}

int main(void) {
  region_path = tu_path("pl");
  prefix = tu_path("pl-cap");
  work = tu_path("pl-work");
  nvm_identity id = {42, "CID-test", "BP-1"};
  nvm_region *r = NULL;
  CHECK_OK(nvm_region_create_with(region_path, TU_REGION_SIZE, &id, NVM_MODE_DISK, &opts, &r));
  root = tu_make_dir(r, NVM_ROOT_INODE_ID, 0, 0, "");
  tu_set_root(r, root);
  dir_a = tu_make_dir(r, NVM_ROOT_INODE_ID + 1, root, NVM_ROOT_INODE_ID, "a");
  dir_b = tu_make_dir(r, NVM_ROOT_INODE_ID + 2, root, NVM_ROOT_INODE_ID, "b");
  tu_inode f = {NVM_KIND_FILE, 150, dir_a, NVM_ROOT_INODE_ID + 1, "f", 0, 0, 0, 0, 2};
  file_f = tu_make_inode(r, &f);
  CHECK_OK(nvm_debug_powerloss(r, prefix, 0, NULL));
  char a0[600];
  applied_path(a0, sizeof a0, 0);
  tu_write_file(a0, nvm_region_base(r), nvm_region_size(r));
  uint64_t zero[3] = {0, 0, 0};
  tu_pwrite(a0, NVM_SB_WAL_EPOCH, zero, sizeof zero);
  chains(r);
  groups(r);
  wrap(r);
  uint64_t k;
  CHECK_OK(nvm_debug_powerloss(r, NULL, 0, &k));
  check_points(k);
  tu_close(r);
  printf(
      "power-loss sweep ok: %llu sync points, %llu images (%llu before their sync's group, "
      "%llu after it), 0 violations\n",
      (unsigned long long)checked_points, (unsigned long long)checked_images,
      (unsigned long long)seen_before, (unsigned long long)seen_after);
  return 0;
}
