package org.apache.hadoop.hdfs.server.namenode.snapshot;

import com.google.common.primitives.SignedBytes;
import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeReferenceSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotDiffSection;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.NvmStringTables;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.snapshot.DirectoryWithSnapshotFeature.DirectoryDiff;
import org.apache.hadoop.hdfs.util.Diff.ListType;

/**
 * The created and deleted lists of a directory's snapshot diffs, one record per child ({@code
 * RECORD_DIFF_ENTRY}, region-format.md §13): key = the directory, value = the child's inode id (a
 * reference's referred id), payload = every entry naming that child in the directory's diffs,
 * newest diff first, in each diff its created entry before its deleted one. A change under a
 * snapshot (a create, a delete, a rename) rewrites the record of the child it changed, whatever the
 * size of the lists; the directory's own diff record ({@code RECORD_INODE_DIFFS}) keeps the diffs
 * without their lists, and {@link #assemble} puts the two back into the stock fsimage's messages.
 * The payload's format is {@link DiffEntryFormat}'s.
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
   * The payload {@link NvmSnapshotEncoder#diffs(INode)} writes for a directory, made of its diff
   * record's head and its children's entry records ({@code childIds[i]}'s payload is {@code
   * entries.get(i)}): what the restart's stock loader, the debugging comparison and the export
   * read. Each diff's created names and deleted entries go back in name order, as 2.7.3 keeps its
   * lists.
   */
  public static byte[] assemble(byte[] head, long[] childIds, List<byte[]> entries)
      throws IOException {
    if (entries.isEmpty()) {
      return head;
    }
    long[][] lists = headLists(head);
    if (lists[0].length + lists[1].length > 0) {
      throw new IOException("a diff record with its own deleted lists has entry records too");
    }
    int tableStart = headLength(lists);
    ByteArrayInputStream in = new ByteArrayInputStream(head, tableStart, head.length - tableStart);
    NvmStringTables.read(in);
    int tableEnd = head.length - in.available();
    SnapshotDiffSection.DiffEntry entry = SnapshotDiffSection.DiffEntry.parseDelimitedFrom(in);
    if (entry == null || entry.getType() != SnapshotDiffSection.DiffEntry.Type.DIRECTORYDIFF) {
      throw new IOException("entry records for an inode whose diffs are not a directory's");
    }
    Map<Integer, List<Object[]>> created = new HashMap<Integer, List<Object[]>>();
    Map<Integer, List<Object[]>> deleted = new HashMap<Integer, List<Object[]>>();
    int count = 0;
    for (int i = 0; i < entries.size(); i++) {
      for (DiffEntryFormat.Entry e : DiffEntryFormat.decode(entries.get(i))) {
        Map<Integer, List<Object[]>> to = e.kind == DiffEntryFormat.CREATED ? created : deleted;
        to.computeIfAbsent(e.snapshotId, k -> new ArrayList<Object[]>())
            .add(new Object[] {e, childIds[i]});
        count++;
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    entry.writeDelimitedTo(body);
    List<Long> deletedIds = new ArrayList<Long>();
    List<Long> referredIds = new ArrayList<Long>();
    List<byte[]> references = new ArrayList<byte[]>();
    int placed = 0;
    for (int i = 0; i < entry.getNumOfDiff(); i++) {
      SnapshotDiffSection.DirectoryDiff d =
          SnapshotDiffSection.DirectoryDiff.parseDelimitedFrom(in);
      if (d == null || d.getCreatedListSize() != 0) {
        throw new IOException("diff " + i + " of the record's head is missing or has a list");
      }
      List<Object[]> c = sorted(created.remove(d.getSnapshotId()));
      List<Object[]> del = sorted(deleted.remove(d.getSnapshotId()));
      SnapshotDiffSection.DirectoryDiff.Builder b = d.toBuilder().setCreatedListSize(c.size());
      for (Object[] x : del) {
        DiffEntryFormat.Entry e = (DiffEntryFormat.Entry) x[0];
        long id = (Long) x[1];
        if (e.kind == DiffEntryFormat.DELETED_REFERENCE) {
          b.addDeletedINodeRef(references.size());
          references.add(e.reference);
          referredIds.add(id);
        } else {
          b.addDeletedINode(id);
          deletedIds.add(id);
        }
      }
      b.build().writeDelimitedTo(body);
      for (Object[] x : c) {
        SnapshotDiffSection.CreatedListEntry.newBuilder()
            .setName(ByteString.copyFrom(((DiffEntryFormat.Entry) x[0]).name))
            .build()
            .writeDelimitedTo(body);
      }
      placed += c.size() + del.size();
    }
    if (placed != count) {
      throw new IOException(
          (count - placed)
              + " entries name snapshots "
              + created.keySet()
              + deleted.keySet()
              + " the directory has no diff for");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer h =
        ByteBuffer.allocate(12 + 8 * (deletedIds.size() + referredIds.size() + lists[2].length))
            .order(ByteOrder.LITTLE_ENDIAN);
    for (List<Long> ids : Arrays.asList(deletedIds, referredIds)) {
      h.putInt(ids.size());
      for (long id : ids) {
        h.putLong(id);
      }
    }
    h.putInt(lists[2].length);
    for (long t : lists[2]) {
      h.putLong(t);
    }
    out.write(h.array());
    out.write(head, tableStart, tableEnd - tableStart);
    for (byte[] r : references) {
      INodeReferenceSection.INodeReference.parseFrom(r).writeDelimitedTo(out);
    }
    body.writeTo(out);
    return out.toByteArray();
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

  /**
   * Whether a directory's diff record holds created or deleted entries itself (written before entry
   * records, or by {@link NvmSnapshotEncoder#diffs(INode)}): such a record is read as it is.
   */
  public static boolean hasLists(byte[] record) throws IOException {
    long[][] lists = headLists(record);
    if (lists[0].length + lists[1].length > 0) {
      return true;
    }
    int at = headLength(lists);
    ByteArrayInputStream in = new ByteArrayInputStream(record, at, record.length - at);
    NvmStringTables.read(in);
    SnapshotDiffSection.DiffEntry entry = SnapshotDiffSection.DiffEntry.parseDelimitedFrom(in);
    if (entry == null || entry.getType() != SnapshotDiffSection.DiffEntry.Type.DIRECTORYDIFF) {
      return false;
    }
    for (int i = 0; i < entry.getNumOfDiff(); i++) {
      SnapshotDiffSection.DirectoryDiff d =
          SnapshotDiffSection.DirectoryDiff.parseDelimitedFrom(in);
      if (d == null) {
        throw new IOException("the record ends before its diff " + i);
      }
      if (d.getCreatedListSize() > 0 || d.getDeletedINodeCount() > 0) {
        return true;
      }
    }
    return false;
  }

  /** Entries of one list of one diff in name order (2.7.3's lists are sorted by name). */
  private static List<Object[]> sorted(List<Object[]> l) {
    if (l == null) {
      return Collections.emptyList();
    }
    Comparator<byte[]> names = SignedBytes.lexicographicalComparator();
    l.sort(
        (a, b) ->
            names.compare(
                ((DiffEntryFormat.Entry) a[0]).name, ((DiffEntryFormat.Entry) b[0]).name));
    return l;
  }
}
