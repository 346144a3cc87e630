package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

/**
 * One problem {@link RegionCheck} found: what kind, where (the byte offset of the field that holds
 * the bad value, or of the page when the page as a whole is the problem; -1 when the problem has no
 * place in the file, e.g. it is locked), and a message for an operator. docs/offline-tools.md lists
 * every kind with its severity and the reason for it.
 */
public final class Finding {
  /**
   * ERROR: recovery would refuse the region or trust wrong data. RECOVERABLE: the next read-write
   * open repairs it.
   */
  public enum Severity {
    ERROR,
    RECOVERABLE
  }

  /** Every kind of finding; the severity is fixed per kind. */
  public enum Kind {
    REFUSED(Severity.ERROR),
    UNDO_ARMED(Severity.RECOVERABLE),
    REDO_PENDING(Severity.RECOVERABLE),
    LOG_PENDING(Severity.RECOVERABLE),
    LOG_REFUSED(Severity.ERROR),
    BAD_LOG_RECORD(Severity.ERROR),
    STALE_UNDO_RECORD(Severity.ERROR),
    BAD_COUNTER(Severity.ERROR),
    BAD_STATE_WORD(Severity.ERROR),
    BAD_CHECKSUM(Severity.ERROR),
    UNKNOWN_KIND(Severity.ERROR),
    ABOVE_SCAN_LIMIT(Severity.ERROR),
    BAD_ROOT(Severity.ERROR),
    BROKEN_PARENT_LINK(Severity.ERROR),
    PARENT_CYCLE(Severity.ERROR),
    ORPHAN(Severity.RECOVERABLE),
    DUPLICATE_INODE_ID(Severity.ERROR),
    INODE_ID_ABOVE_COUNTER(Severity.ERROR),
    BAD_NAME(Severity.ERROR),
    DUPLICATE_NAME(Severity.ERROR),
    BROKEN_CHAIN(Severity.ERROR),
    CHAIN_LENGTH(Severity.ERROR),
    SHARED_CHAIN(Severity.ERROR),
    CYCLIC_CHAIN(Severity.ERROR),
    BAD_ATTRS_WORD(Severity.ERROR),
    BAD_ATTRIBUTE_ENCODING(Severity.ERROR),
    BAD_SYMLINK_TARGET(Severity.ERROR),
    SYMLINK_ATTRIBUTES(Severity.ERROR),
    DUPLICATE_BLOCK_ID(Severity.ERROR),
    BLOCK_ID_ABOVE_COUNTER(Severity.ERROR),
    GENSTAMP_ABOVE_COUNTER(Severity.ERROR),
    DANGLING_STRING_REF(Severity.ERROR),
    BAD_UC_WORD(Severity.ERROR),
    BAD_SNAPSHOT_WORD(Severity.ERROR),
    BAD_SNAPSHOT_RECORD(Severity.ERROR),
    BAD_STRING_PAGE(Severity.ERROR),
    BAD_RECORD(Severity.ERROR),
    DUPLICATE_RECORD_ID(Severity.ERROR),
    DUPLICATE_RECORD_KEY(Severity.ERROR),
    RECORD_ABOVE_COUNTER(Severity.ERROR),
    BAD_CACHE_RECORD(Severity.ERROR),
    BAD_CACHE_KEY(Severity.ERROR),
    DUPLICATE_CACHE_POOL(Severity.ERROR),
    DUPLICATE_CACHE_DIRECTIVE(Severity.ERROR),
    DUPLICATE_CACHE_IDS(Severity.ERROR),
    DANGLING_CACHE_POOL(Severity.ERROR),
    DIRECTIVE_ID_ABOVE_COUNTER(Severity.ERROR),
    BAD_TRUNCATE_RECORD(Severity.ERROR),
    UNREFERENCED_EXTENSION(Severity.RECOVERABLE),
    UNREFERENCED_STRING(Severity.RECOVERABLE);

    private final Severity severity;

    Kind(Severity severity) {
      this.severity = severity;
    }

    public Severity severity() {
      return severity;
    }
  }

  private final Kind kind;
  private final long offset;
  private final String message;

  Finding(Kind kind, long offset, String message) {
    this.kind = kind;
    this.offset = offset;
    this.message = message;
  }

  public Kind kind() {
    return kind;
  }

  public Severity severity() {
    return kind.severity();
  }

  /** Byte offset in the region file, or -1 if the finding has no place in it. */
  public long offset() {
    return offset;
  }

  public String message() {
    return message;
  }

  /** "ERROR at offset 123456: KIND: message" (or "ERROR: KIND: message" without an offset). */
  public String format() {
    return severity() + (offset >= 0 ? " at offset " + offset : "") + ": " + kind + ": " + message;
  }

  @Override
  public String toString() {
    return format();
  }
}
