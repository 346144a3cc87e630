package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.Crc32c;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The redo records a read-write open would replay (region-format.md §4.1, §7.6), in a region with
 * FEATURE_REDO_LOG: the valid records of the two slots (a record is valid when its CRC-32C over
 * HDR_CREATION_ID, its header and its payload matches; a torn one is ignored), a valid big record
 * (REDO_SPAN 2, in slot 0) alone (a chained one, REDO_SPAN 3, keeps its payload in chain pages), in
 * ascending seq, without those below the media's SB_COMMIT_SEQ (their groups are in place), and
 * without the newest if the seals it holds do not match the media with the records applied (its
 * group's FRESH data did not all reach the media: it never passed its barrier). Only parsed after
 * the native read-only open accepted the region, which refuses a valid record with bad entries; the
 * bounds checks here only keep a racing writer from sending the parser out of the record.
 */
final class RedoLog {
  static final RedoLog NONE = new RedoLog(Collections.<Record>emptyList());

  /** One entry: the new bytes recovery stores at {@code target}. */
  static final class Entry {
    final long target;
    final int fieldId;
    final byte[] bytes;

    Entry(long target, int fieldId, byte[] bytes) {
      this.target = target;
      this.fieldId = fieldId;
      this.bytes = bytes;
    }
  }

  /** One valid record: its slot offset, the group's seq, its entries in order. */
  static final class Record {
    final long offset;
    final long seq;
    final int span;
    final int payloadBytes;
    final List<Entry> entries;

    Record(long offset, long seq, int span, int payloadBytes, List<Entry> entries) {
      this.offset = offset;
      this.seq = seq;
      this.span = span;
      this.payloadBytes = payloadBytes;
      this.entries = entries;
    }
  }

  /** The records recovery replays, ascending seq. */
  final List<Record> replayed;

  private RedoLog(List<Record> replayed) {
    this.replayed = replayed;
  }

  boolean isEmpty() {
    return replayed.isEmpty();
  }

  static RedoLog read(Region region) {
    List<Record> valid = new ArrayList<Record>();
    Record a = slot(region, REDO_SLOT0);
    if (a != null) {
      valid.add(a);
    }
    if (a == null || a.span != 2) {
      Record b = slot(region, REDO_SLOT1);
      if (b != null) {
        valid.add(b);
      }
    }
    if (valid.size() == 2 && Long.compareUnsigned(valid.get(0).seq, valid.get(1).seq) > 0) {
      Collections.reverse(valid);
    }
    // a region with the redo log has page checksums: SB_COMMIT_SEQ is a checked counter
    long committed = Seals.counterValue(region.getLong(SB_COMMIT_SEQ), true);
    List<Record> replayed = new ArrayList<Record>();
    for (int i = 0; i < valid.size(); i++) {
      Record r = valid.get(i);
      if (Long.compareUnsigned(r.seq, committed) < 0) {
        continue;
      }
      if (i == valid.size() - 1 && !sealsHold(region, replayed, r)) {
        continue;
      }
      replayed.add(r);
    }
    return new RedoLog(Collections.unmodifiableList(replayed));
  }

  /**
   * Whether every page {@code r} leaves LIVE matches the seal {@code r} holds for it: the media
   * page with the records replayed before it and {@code r}'s entries applied. The entries are
   * grouped by page first: a chained record holds 100,000s of them.
   */
  private static boolean sealsHold(Region region, List<Record> before, Record r) {
    Map<Long, List<Entry>> mine = byPage(region, r);
    List<Map<Long, List<Entry>>> earlier = new ArrayList<Map<Long, List<Entry>>>();
    for (Record b : before) {
      earlier.add(byPage(region, b));
    }
    for (Map.Entry<Long, List<Entry>> pe : mine.entrySet()) {
      long pageOff = pe.getKey();
      boolean sealed = false;
      for (Entry e : pe.getValue()) {
        sealed |= e.bytes.length == 8 && e.target == pageOff && isPageStart(region, pageOff);
      }
      if (!sealed) {
        continue;
      }
      byte[] page = region.getBytes(pageOff, PAGE_SIZE);
      for (Map<Long, List<Entry>> b : earlier) {
        apply(b.get(pageOff), pageOff, page);
      }
      apply(pe.getValue(), pageOff, page);
      long word = ByteBuffer.wrap(page, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
      if ((word & STATE_MASK) == STATE_LIVE && (word >>> 32) != Seals.pageChecksum(page)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPageStart(Region region, long off) {
    return off >= DATA_OFFSET && off < region.size() && (off - DATA_OFFSET) % PAGE_SIZE == 0;
  }

  /** {@code r}'s entries on data pages, by page offset, each page's in record order. */
  private static Map<Long, List<Entry>> byPage(Region region, Record r) {
    Map<Long, List<Entry>> out = new HashMap<Long, List<Entry>>();
    for (Entry e : r.entries) {
      if (e.target >= DATA_OFFSET && e.target < region.size()) {
        long page = e.target - (e.target - DATA_OFFSET) % PAGE_SIZE;
        out.computeIfAbsent(page, k -> new ArrayList<Entry>()).add(e);
      }
    }
    return out;
  }

  /** Applies {@code entries} (all inside the page at {@code page}; may be null) to its image. */
  private static void apply(List<Entry> entries, long page, byte[] image) {
    if (entries == null) {
      return;
    }
    for (Entry e : entries) {
      System.arraycopy(e.bytes, 0, image, (int) (e.target - page), e.bytes.length);
    }
  }

  /** The valid record at {@code off}, or null (an empty slot or a torn record). */
  private static Record slot(Region region, long off) {
    long seq = region.getLong(off + REDO_SEQ);
    long count = region.getInt(off + REDO_ENTRY_COUNT) & 0xffffffffL;
    long bytes = region.getInt(off + REDO_PAYLOAD_BYTES) & 0xffffffffL;
    long span = region.getInt(off + REDO_SPAN) & 0xffffffffL;
    long max =
        span == 3 ? Integer.MAX_VALUE : span == 2 ? REDO_BIG_PAYLOAD_MAX : REDO_SLOT_PAYLOAD_MAX;
    if (seq == 0
        || span < 1
        || span > 3
        || (span == 2 && off != REDO_SLOT0)
        || bytes > max
        || (span == 3 && (region.getLong(SB_FEATURES) & FEATURE_REDO_CHAIN) == 0)) {
      return null;
    }
    byte[] payload =
        span == 3
            ? chain(region, off, (int) bytes)
            : region.getBytes(off + REDO_PAYLOAD, (int) bytes);
    if (payload == null) {
      return null;
    }
    byte[] id = region.getBytes(HDR_CREATION_ID, 8);
    byte[] header = region.getBytes(off, REDO_CRC);
    int crc = Crc32c.update(0, id, 0, id.length);
    crc = Crc32c.update(crc, header, 0, header.length);
    if (span == 3) {
      byte[] head = region.getBytes(off + REDO_PAYLOAD, REDO_CHAIN_HEAD);
      crc = Crc32c.update(crc, head, 0, head.length);
    }
    crc = Crc32c.update(crc, payload, 0, payload.length);
    if (crc != region.getInt(off + REDO_CRC)) {
      return null;
    }
    ByteBuffer p = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    List<Entry> entries = new ArrayList<Entry>();
    long pos = 0;
    for (long i = 0; i < count && pos + UNDO_ENTRY_HEADER <= bytes; i++) {
      long target = p.getLong((int) pos);
      long len = p.getInt((int) pos + 8) & 0xffffffffL;
      int field = p.getInt((int) pos + 12);
      if (pos + UNDO_ENTRY_HEADER + len > bytes || target < 0 || target > region.size() - len) {
        break;
      }
      byte[] data = new byte[(int) len];
      System.arraycopy(payload, (int) (pos + UNDO_ENTRY_HEADER), data, 0, (int) len);
      entries.add(new Entry(target, field, data));
      pos += UNDO_ENTRY_HEADER + ((len + 7) & ~7L);
    }
    return new Record(off, seq, (int) span, (int) bytes, Collections.unmodifiableList(entries));
  }

  /**
   * A chained record's payload (REDO_SPAN 3): the chain pages the slot names, each INVALID with
   * kind REDO_CHAIN, in order; null when the chain does not hold {@code bytes} (a torn record).
   */
  private static byte[] chain(Region region, long off, int bytes) {
    long page = region.getLong(off + REDO_CHAIN_FIRST);
    long n = region.getLong(off + REDO_CHAIN_PAGES);
    if (bytes <= REDO_BIG_PAYLOAD_MAX || n != (bytes + RCH_PAYLOAD_MAX - 1) / RCH_PAYLOAD_MAX) {
      return null;
    }
    long chainWord = stateWord(KIND_REDO_CHAIN, STATE_INVALID);
    byte[] payload = new byte[bytes];
    int at = 0;
    for (long i = 0; i < n; i++) {
      if (!isPageStart(region, page) || region.getLong(page) != chainWord) {
        return null;
      }
      int take = Math.min(bytes - at, RCH_PAYLOAD_MAX);
      System.arraycopy(region.getBytes(page + RCH_PAYLOAD, take), 0, payload, at, take);
      at += take;
      page = region.getLong(page + RCH_NEXT);
    }
    return page == 0 ? payload : null;
  }
}
