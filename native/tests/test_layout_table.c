/* The exported table holds every layout constant as NAME=value and every entry
 * of the error, op and field lists as PREFIX_NAME=value meaning, each once, in
 * well-formed lines; nvm_strerror agrees with the error list. */
#include "test_util.h"

/* The whole line "\n<line>\n" occurs in the table (the table starts after a
 * virtual newline). */
static int has_line(const char *table, const char *line) {
  size_t n = strlen(line);
  if (strncmp(table, line, n) == 0 && table[n] == '\n') return 1;
  char buf[512];
  snprintf(buf, sizeof buf, "\n%s\n", line);
  return strstr(table, buf) != NULL;
}

static void check_entry(const char *table, const char *prefix, const char *name, int value,
                        const char *meaning) {
  char line[512];
  snprintf(line, sizeof line, "%s%s=%d %s", prefix, name, value, meaning);
  if (!has_line(table, line)) {
    fprintf(stderr, "table lacks the line \"%s\"\n", line);
    exit(1);
  }
  CHECK(meaning[0] != '\0' && !strpbrk(meaning, "|`\n"));
}

/* Every line is NAME=value[ meaning] with an upper-case NAME that occurs once. */
static void check_lines(const char *table) {
  CHECK(table[0] != '\0' && table[strlen(table) - 1] == '\n');
  int lines = 0;
  for (const char *p = table; *p; lines++) {
    const char *end = strchr(p, '\n'), *eq = strchr(p, '=');
    CHECK(end && eq && eq < end && eq > p);
    for (const char *c = p; c < eq; c++)
      CHECK((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_');
    CHECK(eq[1] == '-' || (eq[1] >= '0' && eq[1] <= '9'));
    char name[128];
    CHECK((size_t)(eq - p) < sizeof name - 2);
    snprintf(name, sizeof name, "\n%.*s=", (int)(eq - p), p);
    const char *again = strstr(end, name);
    if (again) {
      fprintf(stderr, "duplicate table name %s", name + 1);
      exit(1);
    }
    p = end + 1;
  }
  CHECK(lines > 100);
}

int main(void) {
  const char *t = nvm_layout_table();
  check_lines(t);
  CHECK(strstr(t, "PAGE_SIZE=256\n") != NULL);
  CHECK(has_line(t, "DATA_OFFSET=16384"));
  CHECK(has_line(t, "UNDO_PAYLOAD_MAX=8168"));
  CHECK(has_line(t, "REDO_SLOT1=12288"));
  CHECK(has_line(t, "REDO_BIG_PAYLOAD_MAX=8168"));
  CHECK(has_line(t, "FEATURE_REDO_LOG=16"));
  CHECK(has_line(t, "ROOT_INODE_ID=16385"));
  CHECK(has_line(t, "KIND_STRING=5"));
  char buf[64];
  snprintf(buf, sizeof buf, "REGION_MAGIC=%llu", NVM_REGION_MAGIC);
  CHECK(has_line(t, buf));
  snprintf(buf, sizeof buf, "PAGE_MAGIC=%llu", NVM_PAGE_MAGIC);
  CHECK(has_line(t, buf));
  CHECK(has_line(t, "MAX_PAGE_COUNT=4294967295"));
  CHECK(has_line(t, "BATCH_HEADER=8"));
  CHECK(has_line(t, "BATCH_ENTRY_HEADER=24"));

  /* every entry of every list, and the C names the lists generate */
#define X(name, value, meaning)                    \
  check_entry(t, "ERROR_", #name, value, meaning); \
  CHECK(NVM_##name == (value));                    \
  CHECK(strcmp(nvm_strerror(value), "NVM_" #name) == 0);
  NVM_ERRORS(X)
#undef X
#define X(name, value, meaning)                 \
  check_entry(t, "OP_", #name, value, meaning); \
  CHECK(NVM_OP_##name == (value));
  NVM_OPS(X)
#undef X
#define X(name, value, meaning)                    \
  check_entry(t, "FIELD_", #name, value, meaning); \
  CHECK(NVM_F_##name == (value));
  NVM_FIELDS(X)
#undef X
#define X(name, value, config)                   \
  check_entry(t, "MODE_", #name, value, config); \
  CHECK(NVM_MODE_##name == (value));             \
  CHECK(strcmp(nvm_mode_name(value), config) == 0);
  NVM_MODES(X)
#undef X
  CHECK(strcmp(nvm_mode_name(99), "unknown") == 0);
  CHECK(strcmp(nvm_strerror(NVM_EFULL), "NVM_EFULL") == 0);
  CHECK(strcmp(nvm_strerror(-1), "NVM_EUNKNOWN") == 0);
  CHECK(strcmp(nvm_strerror(1000), "NVM_EUNKNOWN") == 0);

  CHECK(strncmp(nvm_version_string(), "libhdfsnvm ", 11) == 0);
  CHECK(strstr(nvm_version_string(), "libpmem 1.") != NULL);
  printf("%s\n", nvm_version_string());
  return 0;
}
