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
   * The payload of {@code n}'s diff list, or null if it has no snapshot feature. An empty list is
   * written too, as the fsimage saver writes it: 2.7.3 keeps the feature once added, and its
   * content summary counts a file with the feature once per diff (so an empty list counts it 0
   * times).
   */
  public static byte[] diffs(INode n) throws IOException {
    return diffs(n, true);
  }

  /**
   * The payload of {@code n}'s diff record as the region keeps it: for a directory without its
   * created and deleted lists, which are in its children's {@code RECORD_DIFF_ENTRY} records
   * ({@link NvmDiffEntries}); {@link NvmDiffEntries#assemble} makes {@link #diffs(INode)}'s payload
   * of the two again.
   */
  public static byte[] head(INode n) throws IOException {
    return diffs(n, false);
  }

  private static byte[] diffs(INode n, boolean lists) throws IOException {
    SaverContext strings = new SaverContext();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    long[] deleted;
    List<INodeReference> refs = new ArrayList<INodeReference>();
    long[] copyAccessTimes = new long[0];
    if (n.isFile()) {
      FileWithSnapshotFeature sf = n.asFile().getFileWithSnapshotFeature();
      if (sf == null) {
        return null;
      }
      fileDiffs(n.asFile(), sf.getDiffs().asList(), strings, body);
      deleted = new long[0];
      copyAccessTimes = emptyBlockLists(sf.getDiffs().asList());
    } else if (n.isDirectory()) {
      DirectoryWithSnapshotFeature sf = n.asDirectory().getDirectoryWithSnapshotFeature();
      if (sf == null) {
        return null;
      }
      deleted = dirDiffs(n.asDirectory(), sf.getDiffs().asList(), strings, refs, body, lists);
      copyAccessTimes = copyAccessTimes(sf.getDiffs().asList());
    } else {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer head =
        ByteBuffer.allocate(12 + 8 * deleted.length + 8 * refs.size() + 8 * copyAccessTimes.length)
            .order(ByteOrder.LITTLE_ENDIAN);
    head.putInt(deleted.length);
    for (long id : deleted) {
      head.putLong(id);
    }
    head.putInt(refs.size());
    for (INodeReference r : refs) {
      head.putLong(r.getId());
    }
    head.putInt(copyAccessTimes.length);
    for (long t : copyAccessTimes) {
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
   * For a file, the head's third list: 1 for each diff that holds an empty block list, newest diff
   * first (empty when none does). 2.7.3 keeps the blocks up to the diff's size once a truncate
   * under the snapshot copies them, so a file that was empty then keeps an empty list, which says
   * "no blocks" in the snapshot; the fsimage's repeated blocks field cannot tell it from none,
   * which says "the later diff's or the file's blocks", and the loader reads it so.
   */
  private static long[] emptyBlockLists(List<FileDiff> list) {
    long[] f = new long[list.size()];
    boolean any = false;
    for (int i = list.size() - 1, k = 0; i >= 0; i--, k++) {
      BlockInfoContiguous[] b = list.get(i).getBlocks();
      f[k] = b != null && b.length == 0 ? 1 : 0;
      any |= f[k] != 0;
    }
    return any ? f : new long[0];
  }

  /**
   * The access time of each directory diff's copy, newest diff first (0 without a copy): the
   * fsimage's directory message has none, and 2.7.3 keeps the directory's in the copy.
   */
  private static long[] copyAccessTimes(List<DirectoryDiff> list) {
    long[] t = new long[list.size()];
    boolean any = false;
    for (int i = list.size() - 1, k = 0; i >= 0; i--, k++) {
      INodeDirectoryAttributes copy = list.get(i).snapshotINode;
      t[k] = copy == null || rootOfItsSnapshot(list.get(i)) ? 0 : copy.getAccessTime();
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
      FileDiff d = list.get(i);
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
      b.build().writeDelimitedTo(out);
    }
  }

  /**
   * Newest diff first; returns the ids of the inodes the deleted lists hold. Without {@code lists},
   * every diff's created and deleted lists are left out (the record's head: NvmDiffEntries).
   */
  private static long[] dirDiffs(
      INodeDirectory dir,
      List<DirectoryDiff> list,
      SaverContext strings,
      List<INodeReference> refs,
      ByteArrayOutputStream out,
      boolean lists)
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
      SnapshotDiffSection.DirectoryDiff.Builder b =
          SnapshotDiffSection.DirectoryDiff.newBuilder()
              .setSnapshotId(d.getSnapshotId())
              .setChildrenSize(d.getChildrenSize())
              .setIsSnapshotRoot(rootOfItsSnapshot(d));
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
      List<INode> created =
          lists ? d.getChildrenDiff().getList(ListType.CREATED) : Collections.<INode>emptyList();
      b.setCreatedListSize(created.size());
      for (INode del :
          lists ? d.getChildrenDiff().getList(ListType.DELETED) : Collections.<INode>emptyList()) {
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
