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
  /** msync per flushed range: durable on an ordinary file system. */
  MSYNC(3, "msync");

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
   * Parses a configuration value ("auto", "pmem", "emulated", "msync"; case and blanks ignored).
   */
  public static PersistMode parse(String s) {
    if (s == null) {
      throw new IllegalArgumentException(
          "persist mode is null; expected one of auto, pmem, emulated, msync");
    }
    String t = s.trim().toLowerCase(Locale.ROOT);
    for (PersistMode m : values()) {
      if (m.configName.equals(t)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown persist mode '" + s + "'; expected one of auto, pmem, emulated, msync");
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
