package org.apache.hadoop.hdfs.server.namenode.snapshot;

import com.google.common.primitives.SignedBytes;
import com.google.protobuf.ByteString;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeReferenceSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotDiffSection;
import org.apache.hadoop.hdfs.server.namenode.NvmStringTables;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;

/**
 * An inode's diffs as the restart feeds them to the stock fsimage loader, one diff at a time
 * (region-format.md §13): each diff with its own string table, its own references and a stream of a
 * {@code DiffEntry} of one diff, the diff's message and its created names. Made of the inode's
 * {@code RECORD_INODE_DIFFS} head, its {@code RECORD_DIFF} records and, for a directory, its
 * children's {@code RECORD_DIFF_ENTRY} records put back into the diffs' lists in name order (2.7.3
 * keeps its lists sorted by name). A head written by an older build holds the diffs itself (with or
 * without their lists); they are read from it the same way.
 */
public final class NvmDiffUnits {
  /** One diff, ready for {@code FSImageFormatPBSnapshot.Loader.loadSnapshotDiffSection}. */
  public static final class Unit {
    public final int snapshotId;

    /** The string table its copy's permission, ACL and xattr words name. */
    public final String[] strings;

    /** Its deleted references, which its {@code deletedINodeRef} indexes count from 0. */
    public final List<INodeReferenceSection.INodeReference> references;

    /** A {@code DiffEntry} of one diff, the diff, its created names: all length-delimited. */
    public final byte[] stream;

    /** A directory copy's access time, or for a file 1 if the diff holds an empty block list. */
    public final long extra;

    Unit(
        int snapshotId,
        String[] strings,
        List<INodeReferenceSection.INodeReference> references,
        byte[] stream,
        long extra) {
      this.snapshotId = snapshotId;
      this.strings = strings;
      this.references = references;
      this.stream = stream;
      this.extra = extra;
    }
  }

  /** An inode's diffs: the units, and what its head said. */
  public static final class Diffs {
    /** Newest first. */
    public final List<Unit> units;

    /** The head is an older build's, holding diffs (RECORD_DIFF records did not exist then). */
    public final boolean headHoldsDiffs;

    /** A {@code DiffEntry} of no diffs: the loader gives the inode the feature, empty. */
    public final byte[] emptyStream;

    Diffs(List<Unit> units, boolean headHoldsDiffs, byte[] emptyStream) {
      this.units = units;
      this.headHoldsDiffs = headHoldsDiffs;
      this.emptyStream = emptyStream;
    }
  }

  private NvmDiffUnits() {}

  private static ByteArrayInputStream afterLists(byte[] head) {
    int at = NvmDiffEntries.headLength(NvmDiffEntries.headLists(head));
    return new ByteArrayInputStream(head, at, head.length - at);
  }

  /**
   * The diffs of one inode, newest first (the order the loader wants: it prepends each): those its
   * head holds and those of {@code diffRecords} (RECORD_DIFF payloads, any order; {@code
   * diffIds[i]} the snapshot id of {@code diffRecords.get(i)}, its record's value), with the
   * entries of {@code entries} ({@code childIds[i]}'s entry record is {@code entries.get(i)}) in
   * their lists. A diff record's message is passed on as it is unless entries go into it.
   */
  public static Diffs of(
      byte[] head, long[] diffIds, List<byte[]> diffRecords, long[] childIds, List<byte[]> entries)
      throws IOException {
    long[][] lists = NvmDiffEntries.headLists(head);
    ByteArrayInputStream in = afterLists(head);
    String[] table = NvmStringTables.read(in);
    List<INodeReferenceSection.INodeReference> refs =
        new ArrayList<INodeReferenceSection.INodeReference>();
    for (int i = 0; i < lists[1].length; i++) {
      refs.add(INodeReferenceSection.INodeReference.parseDelimitedFrom(in));
    }
    SnapshotDiffSection.DiffEntry entry = SnapshotDiffSection.DiffEntry.parseDelimitedFrom(in);
    if (entry == null) {
      throw new IOException("the diff record has no DiffEntry");
    }
    boolean file = entry.getType() == SnapshotDiffSection.DiffEntry.Type.FILEDIFF;
    if (entry.getNumOfDiff() > 0 && !diffRecords.isEmpty()) {
      throw new IOException("a diff record holding its diffs has diff records too");
    }
    List<Parsed> diffs = new ArrayList<Parsed>();
    for (int i = 0; i < entry.getNumOfDiff(); i++) {
      Parsed p = parse(in, file, table, lists[2].length > i ? lists[2][i] : 0, "diff " + i);
      if (!file) {
        // its references are the head's, by index: its own from 0 on
        List<Integer> idx = p.dir.getDeletedINodeRefList();
        p.dir = p.dir.toBuilder().clearDeletedINodeRef().build();
        for (int k : idx) {
          if (k < 0 || k >= refs.size()) {
            throw new IOException("diff " + i + " names reference " + k + " of " + refs.size());
          }
          p.refs.add(refs.get(k));
        }
        p.dir = p.dir.toBuilder().addAllDeletedINodeRef(range(idx.size())).build();
      }
      diffs.add(p);
    }
    for (int i = 0; i < diffRecords.size(); i++) {
      byte[] r = diffRecords.get(i);
      if (r.length < 8) {
        throw new IOException("a diff record of " + r.length + " bytes");
      }
      long extra = ByteBuffer.wrap(r).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
      ByteArrayInputStream rin = new ByteArrayInputStream(r, 8, r.length - 8);
      Parsed p = new Parsed(NvmStringTables.read(rin), extra);
      p.rawId = (int) diffIds[i];
      p.raw = java.util.Arrays.copyOfRange(r, r.length - rin.available(), r.length);
      diffs.add(p);
    }
    diffs.sort((a, b) -> Integer.compare(b.snapshotId(), a.snapshotId()));
    for (int i = 1; i < diffs.size(); i++) {
      if (diffs.get(i).snapshotId() == diffs.get(i - 1).snapshotId()) {
        throw new IOException("two diffs of snapshot " + diffs.get(i).snapshotId());
      }
    }
    if (!entries.isEmpty()) {
      if (file) {
        throw new IOException("entry records for an inode whose diffs are a file's");
      }
      fill(diffs, childIds, entries);
    }
    ByteArrayOutputStream one = new ByteArrayOutputStream();
    entry.toBuilder().setNumOfDiff(1).build().writeDelimitedTo(one);
    ByteArrayOutputStream none = new ByteArrayOutputStream();
    entry.toBuilder().setNumOfDiff(0).build().writeDelimitedTo(none);
    List<Unit> units = new ArrayList<Unit>(diffs.size());
    for (Parsed p : diffs) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      one.writeTo(out);
      if (p.raw != null) {
        out.write(p.raw);
      } else if (file) {
        p.file.writeDelimitedTo(out);
      } else {
        p.dir.toBuilder().setCreatedListSize(p.created.size()).build().writeDelimitedTo(out);
        for (byte[] name : p.created) {
          SnapshotDiffSection.CreatedListEntry.newBuilder()
              .setName(ByteString.copyFrom(name))
              .build()
              .writeDelimitedTo(out);
        }
      }
      units.add(new Unit(p.snapshotId(), p.strings, p.refs, out.toByteArray(), p.extra));
    }
    return new Diffs(units, entry.getNumOfDiff() > 0, none.toByteArray());
  }

  /** One diff parsed, its lists growing as the entries are put back. */
  private static final class Parsed {
    SnapshotDiffSection.FileDiff file;
    SnapshotDiffSection.DirectoryDiff dir;
    final String[] strings;
    final long extra;
    final List<byte[]> created = new ArrayList<byte[]>();
    final List<INodeReferenceSection.INodeReference> refs =
        new ArrayList<INodeReferenceSection.INodeReference>();

    /** A diff record's message, length-delimited, as it was read (parsed only if it must be). */
    byte[] raw;

    int rawId;

    Parsed(String[] strings, long extra) {
      this.strings = strings;
      this.extra = extra;
    }

    int snapshotId() {
      return raw != null ? rawId : file != null ? file.getSnapshotId() : dir.getSnapshotId();
    }

    /** The directory diff's message, parsed from the record if it was not. */
    SnapshotDiffSection.DirectoryDiff dir() throws IOException {
      if (raw != null) {
        dir = SnapshotDiffSection.DirectoryDiff.parseDelimitedFrom(new ByteArrayInputStream(raw));
        if (dir == null || dir.getSnapshotId() != rawId) {
          throw new IOException("a diff record whose message is not its snapshot " + rawId + "'s");
        }
        raw = null;
      }
      return dir;
    }
  }

  private static Parsed parse(
      ByteArrayInputStream in, boolean file, String[] strings, long extra, String what)
      throws IOException {
    Parsed p = new Parsed(strings, extra);
    if (file) {
      p.file = SnapshotDiffSection.FileDiff.parseDelimitedFrom(in);
    } else {
      p.dir = SnapshotDiffSection.DirectoryDiff.parseDelimitedFrom(in);
    }
    if (p.file == null && p.dir == null) {
      throw new IOException(what + " is missing");
    }
    if (!file) {
      for (int c = 0; c < p.dir.getCreatedListSize(); c++) {
        SnapshotDiffSection.CreatedListEntry e =
            SnapshotDiffSection.CreatedListEntry.parseDelimitedFrom(in);
        if (e == null) {
          throw new IOException(what + " ends before its created list");
        }
        p.created.add(e.getName().toByteArray());
      }
    }
    return p;
  }

  private static List<Integer> range(int n) {
    List<Integer> l = new ArrayList<Integer>(n);
    for (int i = 0; i < n; i++) {
      l.add(i);
    }
    return l;
  }

  /** The entry records' entries into the diffs of their snapshot ids, each list in name order. */
  private static void fill(List<Parsed> diffs, long[] childIds, List<byte[]> entries)
      throws IOException {
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
    int placed = 0;
    for (Parsed p : diffs) {
      List<Object[]> c = sorted(created.remove(p.snapshotId()));
      List<Object[]> del = sorted(deleted.remove(p.snapshotId()));
      if (c.isEmpty() && del.isEmpty()) {
        continue;
      }
      if (!p.created.isEmpty()
          || p.dir().getDeletedINodeCount() > 0
          || p.dir().getDeletedINodeRefCount() > 0) {
        throw new IOException("a diff record with its own lists has entry records too");
      }
      SnapshotDiffSection.DirectoryDiff.Builder b = p.dir().toBuilder();
      for (Object[] x : c) {
        p.created.add(((DiffEntryFormat.Entry) x[0]).name);
      }
      for (Object[] x : del) {
        DiffEntryFormat.Entry e = (DiffEntryFormat.Entry) x[0];
        if (e.kind == DiffEntryFormat.DELETED_REFERENCE) {
          b.addDeletedINodeRef(p.refs.size());
          p.refs.add(INodeReferenceSection.INodeReference.parseFrom(e.reference));
        } else {
          b.addDeletedINode((Long) x[1]);
        }
      }
      p.dir = b.build();
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
