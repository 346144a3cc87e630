package org.apache.hadoop.hdfs.server.namenode.nvm;

import java.util.Locale;

/** How stores are made durable: NVM_MODES in nvmns.h, checked both ways by FormatFactsTest. */
public enum PersistMode {
  /** pmem if the mapping is persistent memory, otherwise as the library decides. */
  AUTO(0, "auto"),
  /** Cache-line flush + fence; requires real (or forced) persistent memory. */
  PMEM(1, "pmem"),
  /** Cache-line flush + fence on a non-DAX file: survives a process crash, not a power loss. */
  EMULATED(2, "emulated"),
  /**
   * An ordinary file system (region-format.md §12): a group commit is one append to the write-ahead
   * log and one fdatasync; the region file is written after the log and made durable by
   * checkpoints. Survives a power loss. Replaces the earlier "msync" mode, which the parser still
   * reads as this one.
   */
  DISK(3, "disk");

  /** The configuration value of the mode DISK replaced: read as DISK. */
  public static final String MSYNC_ALIAS = "msync";

  private final int value;
  private final String configName;

  PersistMode(int value, String configName) {
    this.value = value;
    this.configName = configName;
  }

  public int value() {
    return value;
  }

  public String configName() {
    return configName;
  }

  /**
   * Parses a configuration value ("auto", "pmem", "emulated", "disk", and "msync" for "disk"; case
   * and blanks ignored).
   */
  public static PersistMode parse(String s) {
    if (s == null) {
      throw new IllegalArgumentException(
          "persist mode is null; expected one of auto, pmem, emulated, disk");
    }
    String t = s.trim().toLowerCase(Locale.ROOT);
    if (t.equals(MSYNC_ALIAS)) {
      return DISK;
    }
    for (PersistMode m : values()) {
      if (m.configName.equals(t)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown persist mode '" + s + "'; expected one of auto, pmem, emulated, disk");
  }

  /** Whether a configuration value names the mode by its old name ("msync", now DISK). */
  public static boolean isOldName(String s) {
    return s != null && s.trim().toLowerCase(Locale.ROOT).equals(MSYNC_ALIAS);
  }

  static PersistMode ofValue(int v) {
    for (PersistMode m : values()) {
      if (m.value == v) {
        return m;
      }
    }
    throw new IllegalStateException("native library reported unknown persist mode " + v);
  }
}
