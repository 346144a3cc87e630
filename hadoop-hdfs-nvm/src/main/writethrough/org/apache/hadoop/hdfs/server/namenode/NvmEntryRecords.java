package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmDiffEntries;

/**
 * The created and deleted lists of directories' snapshot diffs in the region: one {@code
 * RECORD_DIFF_ENTRY} per (directory, child) (region-format.md §13, {@link NvmDiffEntries}), kept
 * equal to memory by the batches of the edits that change them, so that a change under a snapshot
 * costs the records of the children it changed, not the size of the lists.
 *
 * <p>A batch compares a directory's entries either <b>scoped</b>, the records of the children the
 * directory's snapshot branch reported ({@link SnapshotChanges}: 2.7.3 changes a list only through
 * a directory's addChild, removeChild and replaceChild, which report the child, and through its
 * walks), or <b>whole</b>: a directory a stock walk passed (a delete's or a snapshot's deletion),
 * every directory on a sweep, a directory whose diff record still held its lists (written before
 * entry records), and a directory whose records, after a scoped comparison, do not hold as many
 * entries as its lists (a change no hook reported: compared whole, so it is written all the same).
 */
final class NvmEntryRecords {
  private final InodeStore store;

  /** Directory id &rarr; (child id &rarr; record page). */
  private final Map<Long, LongLongMap> pages = new HashMap<Long, LongLongMap>();

  /** Directory id &rarr; the number of entries its records hold. */
  private final LongLongMap counts = new LongLongMap();

  /** Directories whose diff record holds its own lists: compared whole by their next batch. */
  private final LongLongMap legacy = new LongLongMap();

  /** Payloads of the records the running batch created (not readable before its commit). */
  private final Map<Long, byte[]> writtenNow = new HashMap<Long, byte[]>();

  /** Directories the running batch compared whole. */
  private final LongLongMap wholeNow = new LongLongMap();

  /** Scoped comparisons that found fewer or more entries than the lists hold (a metric). */
  private long recounts;

  NvmEntryRecords(InodeStore store) {
    this.store = store;
  }

  boolean isEmpty() {
    return pages.isEmpty() && legacy.size() == 0;
  }

  /**
   * Stages {@code dir}'s entry records: whole if asked, or if the directory needs it (above), else
   * those of the children {@code changed} names for it (child id &rarr; names it was given).
   * Returns, for a scoped comparison, the children it compared (child id &rarr; 1 if a deleted list
   * holds a reference to it now, i.e. the directory is one of its old places, else 0); null when
   * the directory was compared whole (by this call or earlier in the batch).
   */
  LongLongMap stage(Txn t, INodeDirectory dir, boolean whole, Map<Long, List<byte[]>> changed)
      throws IOException {
    long dirId = dir.getId();
    if (wholeNow.containsKey(dirId)) {
      return null;
    }
    if (whole || legacy.containsKey(dirId)) {
      stageWhole(t, dir);
      return null;
    }
    LongLongMap compared = new LongLongMap();
    if (changed != null) {
      for (Map.Entry<Long, List<byte[]>> e : changed.entrySet()) {
        compared.put(e.getKey(), stageChild(t, dir, e.getKey(), e.getValue()) ? 1 : 0);
      }
    }
    if (count(dirId) != NvmDiffEntries.entryCount(dir)) {
      recounts++;
      stageWhole(t, dir);
      return null;
    }
    return compared;
  }

  private long count(long dirId) {
    long n = counts.get(dirId);
    return n == LongLongMap.MISSING ? 0 : n;
  }

  /** Returns whether a deleted list of {@code dir} holds a reference to the child now. */
  private boolean stageChild(Txn t, INodeDirectory dir, long childId, List<byte[]> names)
      throws IOException {
    long dirId = dir.getId();
    LongLongMap byChild = pages.get(dirId);
    long page = byChild == null ? LongLongMap.MISSING : byChild.get(childId);
    byte[] have = page == LongLongMap.MISSING ? null : payload(page);
    List<byte[]> all = new ArrayList<byte[]>(names);
    if (have != null) {
      for (DiffEntryFormat.Entry e : DiffEntryFormat.decode(have)) {
        all.add(e.name);
      }
    }
    byte[] want = NvmDiffEntries.of(dir, childId, all);
    write(t, dirId, childId, page, have, want);
    if (want != null) {
      for (DiffEntryFormat.Entry e : DiffEntryFormat.decode(want)) {
        if (e.kind == DiffEntryFormat.DELETED_REFERENCE) {
          return true;
        }
      }
    }
    return false;
  }

  private void stageWhole(Txn t, INodeDirectory dir) throws IOException {
    long dirId = dir.getId();
    wholeNow.put(dirId, 1);
    legacy.remove(dirId);
    Map<Long, byte[]> want = NvmDiffEntries.all(dir);
    LongLongMap byChild = pages.get(dirId);
    if (byChild != null) {
      for (long childId : byChild.keys()) {
        if (!want.containsKey(childId)) {
          long page = byChild.get(childId);
          write(t, dirId, childId, page, payload(page), null);
        }
      }
    }
    for (Map.Entry<Long, byte[]> e : want.entrySet()) {
      byChild = pages.get(dirId);
      long page = byChild == null ? LongLongMap.MISSING : byChild.get(e.getKey());
      write(
          t,
          dirId,
          e.getKey(),
          page,
          page == LongLongMap.MISSING ? null : payload(page),
          e.getValue());
    }
  }

  /**
   * Replaces the record of (dirId, childId) at {@code page} holding {@code have} by {@code want}.
   */
  private void write(Txn t, long dirId, long childId, long page, byte[] have, byte[] want)
      throws IOException {
    if (Arrays.equals(have, want)) {
      return;
    }
    LongLongMap byChild = pages.get(dirId);
    if (have != null) {
      t.removeRecord(page);
      writtenNow.remove(page);
      byChild.remove(childId);
      counts.put(dirId, count(dirId) - entries(have));
    }
    if (want != null) {
      if (byChild == null) {
        byChild = new LongLongMap();
        pages.put(dirId, byChild);
      }
      long created = t.createRecord(RegionLayout.RECORD_DIFF_ENTRY, dirId, childId, want);
      byChild.put(childId, created);
      writtenNow.put(created, want);
      counts.put(dirId, count(dirId) + entries(want));
    }
    if (byChild != null && byChild.size() == 0) {
      pages.remove(dirId);
      counts.remove(dirId);
    }
  }

  private byte[] payload(long page) throws IOException {
    byte[] p = writtenNow.get(page);
    return p != null ? p : store.record(page).payload();
  }

  private static int entries(byte[] payload) {
    return DiffEntryFormat.count(payload);
  }

  /** A removed directory's entry records go with it. */
  void stageRemoval(Txn t, long dirId) throws IOException {
    LongLongMap byChild = pages.remove(dirId);
    counts.remove(dirId);
    legacy.remove(dirId);
    if (byChild != null) {
      for (long childId : byChild.keys()) {
        long page = byChild.get(childId);
        t.removeRecord(page);
        writtenNow.remove(page);
      }
    }
  }

  /** The end of a batch's staging. */
  void batchStaged() {
    writtenNow.clear();
    wholeNow.clear();
  }

  /** Scoped comparisons that were redone whole (their count differed). */
  long recounts() {
    return recounts;
  }

  /** The debug check: a description of {@code dir}'s entry records if they differ from memory. */
  void differing(INodeDirectory dir, Map<Long, String> out) throws IOException {
    Map<Long, byte[]> want = NvmDiffEntries.all(dir);
    LongLongMap byChild = pages.get(dir.getId());
    int have = byChild == null ? 0 : byChild.size();
    String why = null;
    if (have != want.size()) {
      why = have + " entry records, " + want.size() + " children in the lists";
    } else {
      for (Map.Entry<Long, byte[]> e : want.entrySet()) {
        long page = byChild.get(e.getKey());
        if (page == LongLongMap.MISSING) {
          why = "child " + e.getKey() + " has no entry record";
        } else if (!Arrays.equals(payload(page), e.getValue())) {
          why = "the entry record of child " + e.getKey() + " differs";
        }
        if (why != null) {
          break;
        }
      }
    }
    if (why != null) {
      out.put(dir.getId(), "the lists of directory " + dir.getFullPathName() + ": " + why);
    }
  }

  // ---- restart (SnapshotRestore)

  void restored(long dirId, long childId, long page, byte[] payload) {
    pages.computeIfAbsent(dirId, k -> new LongLongMap()).put(childId, page);
    counts.put(dirId, count(dirId) + entries(payload));
  }

  /** A directory whose diff record was written with its lists (before entry records). */
  void restoredLegacy(long dirId) {
    legacy.put(dirId, 1);
  }
}
