package org.apache.hadoop.hdfs.server.namenode.nvm;

/**
 * The logical field a batch entry writes (NVM_FIELDS in nvmns.h; FormatFactsTest checks the ids
 * both ways). It labels the log records and the checker's view; it does not change how bytes are
 * written.
 */
public enum Field {
  NONE(0),
  PAGE(1),
  STATE(2),
  PARENT(3),
  MTIME(4),
  ATIME(5),
  PERM(6),
  NAME(7),
  FILE_HEADER(8),
  UC(9),
  BLOCK_COUNT(10),
  BLOCK(11),
  EXT_LINK(12),
  QUOTA(13),
  COUNTER(14),
  STRING(15),
  RECORD(16),
  ATTRS(17);

  private final int id;

  Field(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }
}
