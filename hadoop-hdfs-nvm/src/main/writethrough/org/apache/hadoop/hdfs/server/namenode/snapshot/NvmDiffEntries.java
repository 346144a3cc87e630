package org.apache.hadoop.hdfs.server.namenode.snapshot;

import com.google.common.primitives.SignedBytes;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.snapshot.DirectoryWithSnapshotFeature.DirectoryDiff;
import org.apache.hadoop.hdfs.util.Diff.ListType;

/**
 * The created and deleted lists of a directory's snapshot diffs, one record per child ({@code
 * RECORD_DIFF_ENTRY}, region-format.md §13): key = the directory, value = the child's inode id (a
 * reference's referred id), payload = every entry naming that child in the directory's diffs,
 * newest diff first, in each diff its created entry before its deleted one. A change under a
 * snapshot (a create, a delete, a rename) rewrites the record of the child it changed, whatever the
 * size of the lists; the directory's {@code RECORD_DIFF} records keep the diffs without their
 * lists, and {@link NvmDiffUnits} puts the two back into the stock fsimage's messages. The
 * payload's format is {@link DiffEntryFormat}'s.
 */
public final class NvmDiffEntries {
  private NvmDiffEntries() {}

  private static final ListType[] LISTS = {ListType.CREATED, ListType.DELETED};

  /** Every child {@code dir}'s diffs name: child id &rarr; its payload (a full comparison). */
  public static Map<Long, byte[]> all(INodeDirectory dir) {
    Map<Long, ByteArrayOutputStream> by = new LinkedHashMap<Long, ByteArrayOutputStream>();
    Map<Long, int[]> counts = new LinkedHashMap<Long, int[]>();
    for (DirectoryDiff d : newestFirst(dir)) {
      for (ListType type : LISTS) {
        for (INode c : d.getChildrenDiff().getList(type)) {
          ByteArrayOutputStream out = by.get(c.getId());
          if (out == null) {
            out = new ByteArrayOutputStream();
            by.put(c.getId(), out);
            counts.put(c.getId(), new int[1]);
          }
          write(out, d.getSnapshotId(), type, c);
          counts.get(c.getId())[0]++;
        }
      }
    }
    Map<Long, byte[]> payloads = new LinkedHashMap<Long, byte[]>();
    for (Map.Entry<Long, ByteArrayOutputStream> e : by.entrySet()) {
      payloads.put(e.getKey(), payload(counts.get(e.getKey())[0], e.getValue()));
    }
    return payloads;
  }

  /**
   * The payload of child {@code childId}'s entries in {@code dir}'s diffs, or null if none: every
   * list is searched for each of {@code names} (the names its record held and the ones the running
   * operation gave it), each list being sorted by name.
   */
  public static byte[] of(INodeDirectory dir, long childId, Collection<byte[]> names) {
    TreeSet<byte[]> sorted = new TreeSet<byte[]>(SignedBytes.lexicographicalComparator());
    sorted.addAll(names);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int n = 0;
    for (DirectoryDiff d : newestFirst(dir)) {
      for (ListType type : LISTS) {
        List<INode> list = d.getChildrenDiff().getList(type);
        if (list.isEmpty()) {
          continue;
        }
        for (byte[] name : sorted) {
          int k = Collections.binarySearch(list, name);
          if (k >= 0 && list.get(k).getId() == childId) {
            write(out, d.getSnapshotId(), type, list.get(k));
            n++;
          }
        }
      }
    }
    return n == 0 ? null : payload(n, out);
  }

  /** The total length of {@code dir}'s created and deleted lists (the entries its records hold). */
  public static long entryCount(INodeDirectory dir) {
    long n = 0;
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf != null) {
      for (DirectoryDiff d : sf.getDiffs().asList()) {
        n += d.getChildrenDiff().getList(ListType.CREATED).size();
        n += d.getChildrenDiff().getList(ListType.DELETED).size();
      }
    }
    return n;
  }

  private static List<DirectoryDiff> newestFirst(INodeDirectory dir) {
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf == null) {
      return Collections.emptyList();
    }
    List<DirectoryDiff> l = new ArrayList<DirectoryDiff>(sf.getDiffs().asList());
    Collections.reverse(l);
    return l;
  }

  private static void write(ByteArrayOutputStream out, int snapshotId, ListType type, INode c) {
    if (type == ListType.CREATED) {
      DiffEntryFormat.write(out, snapshotId, DiffEntryFormat.CREATED, c.getLocalNameBytes(), null);
    } else if (c.isReference()) {
      DiffEntryFormat.write(
          out,
          snapshotId,
          DiffEntryFormat.DELETED_REFERENCE,
          c.getLocalNameBytes(),
          NvmSnapshotEncoder.referenceMessage(c.asReference()).toByteArray());
    } else {
      DiffEntryFormat.write(out, snapshotId, DiffEntryFormat.DELETED, c.getLocalNameBytes(), null);
    }
  }

  private static byte[] payload(int count, ByteArrayOutputStream entries) {
    return DiffEntryFormat.payload(count, entries);
  }

  /**
   * The three lists at the head of a diff record (region-format.md §13): the deleted inodes' ids,
   * the referred ids of the deleted references, the directory copies' access times.
   */
  public static long[][] headLists(byte[] record) {
    ByteBuffer b = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
    long[][] lists = new long[3][];
    for (int l = 0; l < 3; l++) {
      lists[l] = new long[b.getInt()];
      for (int i = 0; i < lists[l].length; i++) {
        lists[l][i] = b.getLong();
      }
    }
    return lists;
  }

  /** The length in bytes of a head holding {@code lists}. */
  public static int headLength(long[][] lists) {
    return 12 + 8 * (lists[0].length + lists[1].length + lists[2].length);
  }
}
