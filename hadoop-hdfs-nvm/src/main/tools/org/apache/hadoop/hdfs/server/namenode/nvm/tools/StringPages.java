package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * The LIVE STRING pages by id. Where two pages carry one id, the lower page is the one a reference
 * resolves to, as in recovery (native/src/chains.c, mark_string).
 */
final class StringPages {
  private final RegionImage image;
  private final LongLongMap byId;

  /** Decoded texts by id: a dump asks for the same few owners and groups millions of times. */
  private final Map<Long, String> texts = new HashMap<Long, String>();

  private StringPages(RegionImage image, LongLongMap byId) {
    this.image = image;
    this.byId = byId;
  }

  static StringPages load(RegionImage image, PageCensus census) {
    LongLongMap byId = new LongLongMap(Math.max(16, census.liveStrings.size()));
    for (int i = 0; i < census.liveStrings.size(); i++) {
      long page = census.liveStrings.get(i); // page order: the first page seen per id is the lowest
      long id = image.getLong(page + ST_ID);
      if (id != 0 && !byId.containsKey(id)) {
        byId.put(id, page);
      }
    }
    return new StringPages(image, byId);
  }

  /** The page a reference to {@code id} resolves to, or 0. */
  long page(long id) {
    long p = id == 0 ? LongLongMap.MISSING : byId.get(id);
    return p == LongLongMap.MISSING ? 0 : p;
  }

  /** The stored length if it is within STRING_MAX, else -1. */
  int length(long page) {
    long len = image.getLong(page + ST_LEN);
    return len >= 0 && len <= STRING_MAX ? (int) len : -1;
  }

  static String decode(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  /** The text on {@code page}, or null if its length is over STRING_MAX. */
  String textAt(long page) {
    int len = length(page);
    return len < 0 ? null : decode(image.getBytes(page + ST_BYTES, len));
  }

  /** The text of string {@code id}; null for 0 (none) and when no usable page holds it. */
  String text(long id) {
    String s = texts.get(id);
    if (s == null && !texts.containsKey(id)) {
      long p = page(id);
      s = p == 0 ? null : textAt(p);
      texts.put(id, s);
    }
    return s;
  }
}
