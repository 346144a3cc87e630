package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;

/**
 * The LIVE STRING pages by id, and their texts. Where two pages carry one id, the lower page is the
 * one a reference resolves to, as in recovery (native/src/chains.c, mark_string). A string of up to
 * STRING_MAX bytes is inside its page; a longer one is read through its STRING_EXT chain
 * (region-format.md §5.4), and only if the chain is sound.
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

  static String decode(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  /**
   * The bytes of the string on {@code page}: inline, or gathered from its STRING_EXT chain; null if
   * the chain is broken (the checker reports it where it matters: for a string an inode refers to).
   */
  byte[] bytesAt(long page) {
    long len = image.getLong(page + ST_LEN);
    if (!ChainSpec.isChainedString(image, page)) {
      return image.getBytes(page + ST_BYTES, (int) len);
    }
    ExtChain chain = ExtChain.string(image, page, null);
    if (chain.problem() != null
        || len > ExtChain.READ_MAX) { // a sound chain holds len bytes: len >= 0
      return null;
    }
    byte[] b = new byte[(int) len];
    chain.copyPayloads(image, b, 0);
    return b;
  }

  /** The text on {@code page}, or null if it cannot be read ({@link #bytesAt}). */
  String textAt(long page) {
    byte[] b = bytesAt(page);
    return b == null ? null : decode(b);
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

  /** A text for a message: quoted, and cut after 64 characters (a string may be megabytes). */
  static String quote(String text) {
    return text.length() <= 64
        ? "\"" + text + "\""
        : "\"" + text.substring(0, 64) + "\"... (" + text.length() + " characters)";
  }
}
