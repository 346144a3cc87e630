package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * nvm_layout_table() parsed: one {@code NAME=value} line per layout constant and magic, and one
 * {@code PREFIX_NAME=value meaning} line per entry of the enumerated lists of nvmns.h (errors,
 * batch ops, field ids) and for the batch header sizes.
 */
final class NativeTable {
  /** The prefixes of the enumerated lists (nvmns.h) and of the batch format constants. */
  static final String ERROR = "ERROR_",
      OP = "OP_",
      FIELD = "FIELD_",
      MODE = "MODE_",
      BATCH = "BATCH_";

  private static final String[] LIST_PREFIXES = {ERROR, OP, FIELD, MODE, BATCH};

  /** One line of the table. */
  static final class Entry {
    final long value;

    /** The list entry's one-line meaning; null for a layout constant. */
    final String meaning;

    Entry(long value, String meaning) {
      this.value = value;
      this.meaning = meaning;
    }
  }

  private static Map<String, Entry> all;

  private NativeTable() {}

  /** Every line by name. */
  static synchronized Map<String, Entry> all() {
    if (all == null) {
      Map<String, Entry> m = new TreeMap<String, Entry>();
      for (String line : NvmNative.layoutTable().split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        int eq = line.indexOf('=');
        assertTrue("malformed layout table line: " + line, eq > 0);
        String rest = line.substring(eq + 1);
        int sp = rest.indexOf(' ');
        String v = sp < 0 ? rest : rest.substring(0, sp);
        String meaning = sp < 0 ? null : rest.substring(sp + 1);
        long value =
            v.startsWith("0x")
                ? Long.parseUnsignedLong(v.substring(2), 16)
                : v.startsWith("-") ? Long.parseLong(v) : Long.parseUnsignedLong(v);
        assertNull(
            "duplicate name " + line, m.put(line.substring(0, eq), new Entry(value, meaning)));
      }
      all = Collections.unmodifiableMap(m);
    }
    return all;
  }

  /** The layout constants and magics (RegionLayout's mirror): every name outside the lists. */
  static Map<String, Long> layout() {
    Map<String, Long> m = new TreeMap<String, Long>();
    for (Map.Entry<String, Entry> e : all().entrySet()) {
      if (listPrefix(e.getKey()) == null) {
        m.put(e.getKey(), e.getValue().value);
      }
    }
    return m;
  }

  /** The entries of one list by their name without the prefix (ERROR_EFULL is EFULL). */
  static Map<String, Entry> list(String prefix) {
    Map<String, Entry> m = new TreeMap<String, Entry>();
    for (Map.Entry<String, Entry> e : all().entrySet()) {
      if (prefix.equals(listPrefix(e.getKey()))) {
        m.put(e.getKey().substring(prefix.length()), e.getValue());
      }
    }
    return m;
  }

  /** The list prefix a table name starts with, or null for a layout constant. */
  static String listPrefix(String name) {
    for (String p : LIST_PREFIXES) {
      if (name.startsWith(p)) {
        return p;
      }
    }
    return null;
  }
}
