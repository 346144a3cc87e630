package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

/**
 * A record page read straight from the mapping (region-format.md §5.5): NameNode state that is not
 * an inode — a delegation token, a master key — as a type, a key, one mutable value and a payload
 * whose bytes past RECORD_INLINE_MAX are in a RECORD_EXT chain. Recovery verified the chain of
 * every record it handed over.
 */
public final class RecordView {
  private final Region region;
  private final long page;

  /**
   * The inline payload's length, read from the page at the first inline read (-1 until then): a
   * record's payload length is set when its page is written and never changes while it is LIVE.
   */
  private long inlineLength = -1;

  public RecordView(Region region, long page) {
    this.region = region;
    this.page = page;
  }

  /**
   * The live record pages of a region opened read-only (no recovery ran, so none were handed over):
   * a scan of the state words below the scan limit, in page order.
   */
  public static long[] scan(Region region) {
    long limit = Math.min(region.pageCount(), region.scanLimit());
    long[] out = new long[16];
    int n = 0;
    for (long i = 0; i < limit; i++) {
      long page = pageOffset(i);
      long w = region.getLong(page);
      if (stateOf(w) == STATE_LIVE && kindOf(w) == KIND_RECORD) {
        if (n == out.length) {
          out = java.util.Arrays.copyOf(out, 2 * n);
        }
        out[n++] = page;
      }
    }
    return java.util.Arrays.copyOf(out, n);
  }

  public long page() {
    return page;
  }

  public long stateWord() {
    return region.getLong(page + PG_STATE);
  }

  public boolean isLive() {
    long w = stateWord();
    return stateOf(w) == STATE_LIVE && kindOf(w) == KIND_RECORD;
  }

  public int type() {
    return (int) region.getLong(page + RC_TYPE);
  }

  public long id() {
    return region.getLong(page + RC_ID);
  }

  public long key() {
    return region.getLong(page + RC_KEY);
  }

  public long value() {
    return region.getLong(page + RC_VALUE);
  }

  public long payloadLength() {
    return region.getLong(page + RC_LEN);
  }

  /** The RECORD_EXT pages, in chain order. */
  public long[] extPages() {
    int n = PageCodec.recordExtPages(payloadLength());
    long[] out = new long[n];
    long p = region.getLong(page + RC_EXT);
    for (int i = 0; i < n; i++) {
      if (p == 0) {
        throw new IllegalStateException("record page " + page + ": chain shorter than " + n);
      }
      out[i] = p;
      p = region.getLong(p + EXT_NEXT);
    }
    return out;
  }

  /**
   * A u64 of the payload's inline part at {@code offset}, read in place (a payload of fixed-size
   * slots, like the retry log's, read without copying it).
   */
  public long inlineLong(int offset) {
    return region.getLong(inline(offset, 8));
  }

  public int inlineInt(int offset) {
    return region.getInt(inline(offset, 4));
  }

  public void inlineBytes(int offset, byte[] dst) {
    region.getBytes(inline(offset, dst.length), dst, 0, dst.length);
  }

  private long inline(int offset, int len) {
    if (inlineLength < 0) {
      inlineLength = Math.min(RECORD_INLINE_MAX, payloadLength());
    }
    if (offset < 0 || offset + len > inlineLength) {
      throw new IndexOutOfBoundsException(
          "record page " + page + ": " + len + " bytes at " + offset + " of the inline payload");
    }
    return page + RC_PAYLOAD + offset;
  }

  /** The payload, inline part and chain joined. */
  public byte[] payload() {
    long len = payloadLength();
    if (len > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("record page " + page + ": payload of " + len + " bytes");
    }
    byte[] out = new byte[(int) len];
    int inline = (int) Math.min(len, RECORD_INLINE_MAX);
    region.getBytes(page + RC_PAYLOAD, out, 0, inline);
    int at = inline;
    for (long p : extPages()) {
      int n = (int) region.getLong(p + EXT_COUNT);
      region.getBytes(p + EXT_PAYLOAD, out, at, n);
      at += n;
    }
    return out;
  }
}
