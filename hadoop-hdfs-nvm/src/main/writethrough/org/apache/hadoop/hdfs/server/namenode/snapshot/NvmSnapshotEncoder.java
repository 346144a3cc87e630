package org.apache.hadoop.hdfs.server.namenode.snapshot;

import com.google.protobuf.ByteString;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocolPB.PBHelper;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.namenode.FSImageFormatPBINode;
import org.apache.hadoop.hdfs.server.namenode.FSImageFormatProtobuf.SaverContext;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeReferenceSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotDiffSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotSection;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectoryAttributes;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.INodeFileAttributes;
import org.apache.hadoop.hdfs.server.namenode.INodeReference;
import org.apache.hadoop.hdfs.server.namenode.NvmStringTables;
import org.apache.hadoop.hdfs.server.namenode.snapshot.DirectoryWithSnapshotFeature.DirectoryDiff;
import org.apache.hadoop.hdfs.util.Diff.ListType;

/**
 * The payloads of the snapshot records (region-format.md §13): a snapshot ({@code RECORD_SNAPSHOT})
 * and an inode's diff list ({@code RECORD_INODE_DIFFS}) in the stock fsimage's protobuf messages
 * ({@code SnapshotSection.Snapshot}, {@code SnapshotDiffSection.DiffEntry} and its diffs), each
 * preceded by its own string table, so that the stock loader ({@code FSImageFormatPBSnapshot})
 * reads them back at a restart; and a renamed inode's current reference ({@code RECORD_INODE_REF}:
 * an {@code INodeReferenceSection.INodeReference}). A diff list's payload starts with the ids of
 * the inodes its deleted lists hold and of the inodes its references there refer to, little-endian,
 * which the rebuild and the offline tools read without protobuf; the references themselves follow
 * the string table, and the diffs' {@code deletedINodeRef} indexes count from the first of them.
 *
 * <p>In the snapshot package because the diffs' children sizes, copies and root flags are
 * package-private there; the messages are the ones 2.7.3's saver writes for the same objects.
 */
public final class NvmSnapshotEncoder {
  private NvmSnapshotEncoder() {}

  /** The payload of a snapshot's record. */
  public static byte[] snapshot(Snapshot s) throws IOException {
    SaverContext strings = new SaverContext();
    Snapshot.Root root = s.getRoot();
    INodeSection.INode r =
        INodeSection.INode.newBuilder()
            .setId(root.getId())
            .setType(INodeSection.INode.Type.DIRECTORY)
            .setName(ByteString.copyFrom(root.getLocalNameBytes()))
            .setDirectory(FSImageFormatPBINode.Saver.buildINodeDirectory(root, strings))
            .build();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    SnapshotSection.Snapshot.newBuilder()
        .setSnapshotId(s.getId())
        .setRoot(r)
        .build()
        .writeDelimitedTo(body);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // the root copy's access time, which the fsimage's directory message has no field for
    out.write(
        ByteBuffer.allocate(8)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putLong(root.getAccessTime())
            .array());
    NvmStringTables.write(strings, out);
    body.writeTo(out);
    return out.toByteArray();
  }

  /** The payload of a current reference's record: the reference as the fsimage lists it. */
  public static byte[] reference(INodeReference r) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    referenceMessage(r).writeDelimitedTo(out);
    return out.toByteArray();
  }

  static INodeReferenceSection.INodeReference referenceMessage(INodeReference r) {
    INodeReferenceSection.INodeReference.Builder b =
        INodeReferenceSection.INodeReference.newBuilder().setReferredId(r.getId());
    if (r instanceof INodeReference.WithName) {
      b.setLastSnapshotId(((INodeReference.WithName) r).getLastSnapshotId())
          .setName(ByteString.copyFrom(r.getLocalNameBytes()));
    } else if (r instanceof INodeReference.DstReference) {
      b.setDstSnapshotId(r.getDstSnapshotId());
    }
    return b.build();
  }

  /**
   * The payload of {@code n}'s diff record ({@code RECORD_INODE_DIFFS}) as the region keeps it, or
   * null if it has no snapshot feature: the record only says that the inode has the feature and of
   * which kind (its {@code DiffEntry} with no diffs, empty lists, an empty string table); each diff
   * is a {@code RECORD_DIFF} of its own ({@link #diff}) and a directory's created and deleted lists
   * are its children's {@code RECORD_DIFF_ENTRY} records ({@link NvmDiffEntries}). So a change
   * writes the diff it changed, whatever the number of diffs (a whole-list record made each of
   * 65,536 createSnapshot calls on one directory rewrite all earlier diffs).
   */
  public static byte[] head(INode n) throws IOException {
    SnapshotDiffSection.DiffEntry.Type type = diffType(n);
    if (type == null) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[12]); // three empty lists
    NvmStringTables.write(new SaverContext(), out);
    SnapshotDiffSection.DiffEntry.newBuilder()
        .setInodeId(n.getId())
        .setType(type)
        .setNumOfDiff(0)
        .build()
        .writeDelimitedTo(out);
    return out.toByteArray();
  }

  /** Whether {@code n} has a diff list (the snapshot feature), even an empty one. */
  public static boolean hasDiffList(INode n) {
    return diffType(n) != null;
  }

  /** The kind of {@code n}'s diffs, or null if it has no snapshot feature. */
  private static SnapshotDiffSection.DiffEntry.Type diffType(INode n) {
    if (n.isFile() && n.asFile().getFileWithSnapshotFeature() != null) {
      return SnapshotDiffSection.DiffEntry.Type.FILEDIFF;
    }
    if (n.isDirectory() && n.asDirectory().getDirectoryWithSnapshotFeature() != null) {
      return SnapshotDiffSection.DiffEntry.Type.DIRECTORYDIFF;
    }
    return null;
  }

  /** The diffs of {@code n}, oldest first (2.7.3 keeps them sorted by snapshot id). */
  private static List<? extends AbstractINodeDiff<?, ?, ?>> diffList(INode n) {
    if (n.isFile() && n.asFile().getFileWithSnapshotFeature() != null) {
      return n.asFile().getFileWithSnapshotFeature().getDiffs().asList();
    }
    if (n.isDirectory() && n.asDirectory().getDirectoryWithSnapshotFeature() != null) {
      return n.asDirectory().getDirectoryWithSnapshotFeature().getDiffs().asList();
    }
    return Collections.emptyList();
  }

  /** The number of {@code n}'s diffs (0 without the feature). */
  public static int diffCount(INode n) {
    return diffList(n).size();
  }

  /** The snapshot id of {@code n}'s diff {@code i}, oldest first. */
  public static int diffId(INode n, int i) {
    return diffList(n).get(i).getSnapshotId();
  }

  /**
   * The payload of {@code n}'s diff {@code i} (oldest first) as its {@code RECORD_DIFF} keeps it
   * (region-format.md §13): a little-endian u64 (for a directory the access time of the diff's
   * copy, 0 without one; for a file 1 if the diff holds an empty block list), the diff's string
   * table, and the stock fsimage's {@code FileDiff} or {@code DirectoryDiff} message,
   * length-delimited, a directory's without its created and deleted lists.
   */
  public static byte[] diff(INode n, int i) throws IOException {
    SaverContext strings = new SaverContext();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long extra;
    if (n.isFile()) {
      FileDiff d = n.asFile().getFileWithSnapshotFeature().getDiffs().asList().get(i);
      fileDiff(d, strings).writeDelimitedTo(body);
      extra = emptyBlockList(d) ? 1 : 0;
    } else {
      DirectoryDiff d =
          n.asDirectory().getDirectoryWithSnapshotFeature().getDiffs().asList().get(i);
      dirDiff(d, strings).writeDelimitedTo(body);
      extra = copyAccessTime(d);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(extra).array());
    NvmStringTables.write(strings, out);
    body.writeTo(out);
    return out.toByteArray();
  }

  /**
   * The payload of {@code n}'s whole diff list in one record, with the lists (the form the preview
   * wrote before entry and diff records, which a restart still reads; tests write it to check
   * that).
   */
  public static byte[] diffs(INode n) throws IOException {
    SaverContext strings = new SaverContext();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long[] deleted;
    List<INodeReference> refs = new ArrayList<INodeReference>();
    long[] extras;
    if (n.isFile()) {
      FileWithSnapshotFeature sf = n.asFile().getFileWithSnapshotFeature();
      if (sf == null) {
        return null;
      }
      fileDiffs(n.asFile(), sf.getDiffs().asList(), strings, body);
      deleted = new long[0];
      extras = emptyBlockLists(sf.getDiffs().asList());
    } else if (n.isDirectory()) {
      DirectoryWithSnapshotFeature sf = n.asDirectory().getDirectoryWithSnapshotFeature();
      if (sf == null) {
        return null;
      }
      deleted = dirDiffs(n.asDirectory(), sf.getDiffs().asList(), strings, refs, body);
      extras = copyAccessTimes(sf.getDiffs().asList());
    } else {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer head =
        ByteBuffer.allocate(12 + 8 * deleted.length + 8 * refs.size() + 8 * extras.length)
            .order(ByteOrder.LITTLE_ENDIAN);
    head.putInt(deleted.length);
    for (long id : deleted) {
      head.putLong(id);
    }
    head.putInt(refs.size());
    for (INodeReference r : refs) {
      head.putLong(r.getId());
    }
    head.putInt(extras.length);
    for (long t : extras) {
      head.putLong(t);
    }
    out.write(head.array());
    NvmStringTables.write(strings, out);
    for (INodeReference r : refs) {
      referenceMessage(r).writeDelimitedTo(out);
    }
    body.writeTo(out);
    return out.toByteArray();
  }

  /**
   * Whether a file diff holds an empty block list. 2.7.3 keeps the blocks up to the diff's size
   * once a truncate under the snapshot copies them, so a file that was empty then keeps an empty
   * list, which says "no blocks" in the snapshot; the fsimage's repeated blocks field cannot tell
   * it from none, which says "the later diff's or the file's blocks", and the loader reads it so.
   */
  private static boolean emptyBlockList(FileDiff d) {
    BlockInfoContiguous[] b = d.getBlocks();
    return b != null && b.length == 0;
  }

  /** For a whole-list record: {@link #emptyBlockList} per diff, newest first (empty if none). */
  private static long[] emptyBlockLists(List<FileDiff> list) {
    long[] f = new long[list.size()];
    boolean any = false;
    for (int i = list.size() - 1, k = 0; i >= 0; i--, k++) {
      f[k] = emptyBlockList(list.get(i)) ? 1 : 0;
      any |= f[k] != 0;
    }
    return any ? f : new long[0];
  }

  /**
   * The access time of a directory diff's copy (0 without one): the fsimage's directory message has
   * none, and 2.7.3 keeps the directory's in the copy.
   */
  private static long copyAccessTime(DirectoryDiff d) {
    INodeDirectoryAttributes copy = d.snapshotINode;
    return copy == null || rootOfItsSnapshot(d) ? 0 : copy.getAccessTime();
  }

  /** For a whole-list record: {@link #copyAccessTime} per diff, newest first (empty if all 0). */
  private static long[] copyAccessTimes(List<DirectoryDiff> list) {
    long[] t = new long[list.size()];
    boolean any = false;
    for (int i = list.size() - 1, k = 0; i >= 0; i--, k++) {
      t[k] = copyAccessTime(list.get(i));
      any |= t[k] != 0;
    }
    return any ? t : new long[0];
  }

  /**
   * Whether {@code d} is the diff of a snapshot root whose copy is the root of the snapshot with
   * the diff's id, which is what the stock loader puts back for a diff flagged as a root. 2.7.3's
   * deletion of a snapshot whose prior is an ancestor's snapshot gives the root's diff that prior's
   * id and keeps the flag and the deleted snapshot's root as the copy: flagged, the loader would
   * take the ancestor's snapshot root as the copy, so such a diff is written with its copy.
   */
  private static boolean rootOfItsSnapshot(DirectoryDiff d) {
    if (!d.isSnapshotRoot()) {
      return false;
    }
    INodeDirectoryAttributes copy = d.snapshotINode;
    if (!(copy instanceof Snapshot.Root)) {
      return true;
    }
    INodeDirectory dir = ((Snapshot.Root) copy).getParent();
    DirectorySnapshottableFeature sf = dir == null ? null : dir.getDirectorySnapshottableFeature();
    Snapshot s = sf == null ? null : sf.getSnapshotById(d.getSnapshotId());
    return s != null && s.getRoot() == copy;
  }

  /** A file diff's message, as the saver writes it. */
  private static SnapshotDiffSection.FileDiff fileDiff(FileDiff d, SaverContext strings) {
    SnapshotDiffSection.FileDiff.Builder b =
        SnapshotDiffSection.FileDiff.newBuilder()
            .setSnapshotId(d.getSnapshotId())
            .setFileSize(d.getFileSize());
    if (d.getBlocks() != null) {
      for (Block blk : d.getBlocks()) {
        b.addBlocks(PBHelper.convert(blk));
      }
    }
    INodeFileAttributes copy = d.snapshotINode;
    if (copy != null) {
      b.setName(ByteString.copyFrom(copy.getLocalNameBytes()))
          .setSnapshotCopy(FSImageFormatPBINode.Saver.buildINodeFile(copy, strings));
    }
    return b.build();
  }

  /** Newest diff first, as the saver writes them (the loader prepends each). */
  private static void fileDiffs(
      INodeFile f, List<FileDiff> list, SaverContext strings, ByteArrayOutputStream out)
      throws IOException {
    SnapshotDiffSection.DiffEntry.newBuilder()
        .setInodeId(f.getId())
        .setType(SnapshotDiffSection.DiffEntry.Type.FILEDIFF)
        .setNumOfDiff(list.size())
        .build()
        .writeDelimitedTo(out);
    for (int i = list.size() - 1; i >= 0; i--) {
      fileDiff(list.get(i), strings).writeDelimitedTo(out);
    }
  }

  /** A directory diff's message without its created and deleted lists. */
  private static SnapshotDiffSection.DirectoryDiff dirDiff(DirectoryDiff d, SaverContext strings) {
    SnapshotDiffSection.DirectoryDiff.Builder b =
        SnapshotDiffSection.DirectoryDiff.newBuilder()
            .setSnapshotId(d.getSnapshotId())
            .setChildrenSize(d.getChildrenSize())
            .setIsSnapshotRoot(rootOfItsSnapshot(d))
            .setCreatedListSize(0);
    INodeDirectoryAttributes copy = d.snapshotINode;
    if (!rootOfItsSnapshot(d) && copy != null) {
      INodeSection.INodeDirectory.Builder c =
          FSImageFormatPBINode.Saver.buildINodeDirectory(copy, strings);
      if (copy instanceof INodeDirectoryAttributes.CopyWithQuota && !c.hasTypeQuotas()) {
        // the stock loader makes a copy with quotas but without type quotas with type quotas 0
        // (QuotaCounts.Builder's default), where the copy 2.7.3 took holds -1, as its directory
        // does: the diff report would list the directory as modified after a restart. Present
        // (even empty), the loader starts from -1.
        c.setTypeQuotas(INodeSection.QuotaByStorageTypeFeatureProto.getDefaultInstance());
      }
      b.setName(ByteString.copyFrom(copy.getLocalNameBytes())).setSnapshotCopy(c);
    }
    return b.build();
  }

  /** Newest diff first, with the lists; returns the ids of the inodes the deleted lists hold. */
  private static long[] dirDiffs(
      INodeDirectory dir,
      List<DirectoryDiff> list,
      SaverContext strings,
      List<INodeReference> refs,
      ByteArrayOutputStream out)
      throws IOException {
    SnapshotDiffSection.DiffEntry.newBuilder()
        .setInodeId(dir.getId())
        .setType(SnapshotDiffSection.DiffEntry.Type.DIRECTORYDIFF)
        .setNumOfDiff(list.size())
        .build()
        .writeDelimitedTo(out);
    long[] deletedIds = new long[8];
    int n = 0;
    for (int i = list.size() - 1; i >= 0; i--) {
      DirectoryDiff d = list.get(i);
      List<INode> created = d.getChildrenDiff().getList(ListType.CREATED);
      SnapshotDiffSection.DirectoryDiff.Builder b =
          dirDiff(d, strings).toBuilder().setCreatedListSize(created.size());
      for (INode del : d.getChildrenDiff().getList(ListType.DELETED)) {
        if (del
            .isReference()) { // a renamed inode's old place (WithName), or a deleted DstReference
          b.addDeletedINodeRef(refs.size());
          refs.add(del.asReference());
          continue;
        }
        b.addDeletedINode(del.getId());
        if (n == deletedIds.length) {
          deletedIds = Arrays.copyOf(deletedIds, n * 2);
        }
        deletedIds[n++] = del.getId();
      }
      b.build().writeDelimitedTo(out);
      for (INode c : created) {
        SnapshotDiffSection.CreatedListEntry.newBuilder()
            .setName(ByteString.copyFrom(c.getLocalNameBytes()))
            .build()
            .writeDelimitedTo(out);
      }
    }
    return Arrays.copyOf(deletedIds, n);
  }
}
