package org.apache.hadoop.hdfs.server.namenode.snapshot;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeAttributes;
import org.apache.hadoop.hdfs.server.namenode.INodeDirectory;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.INodeReference;
import org.apache.hadoop.hdfs.server.namenode.NvmDirectoryCopies;
import org.apache.hadoop.hdfs.server.namenode.XAttrFeature;
import org.apache.hadoop.hdfs.util.Diff;

/**
 * The snapshot state the NVM side persists and restores (region-format.md §13) that 2.7.3 exposes
 * only to its own package: the {@link SnapshotManager}'s counters (its fsimage saver and loader use
 * the same accessors) and the files a directory's created lists hold.
 */
public final class NvmSnapshotAccess {
  private NvmSnapshotAccess() {}

  /** The last snapshot id handed out (ids are never reused). */
  public static int counter(SnapshotManager sm) {
    return sm.getSnapshotCounter();
  }

  public static INodeDirectory[] snapshottableDirs(SnapshotManager sm) {
    return sm.getSnapshottableDirs();
  }

  /** After a restore: the number of snapshots and the counter, as the fsimage loader sets them. */
  public static void restored(SnapshotManager sm, int numSnapshots, int counter) {
    sm.setNumSnapshots(numSnapshots);
    sm.setSnapshotCounter(counter);
  }

  /** The files (not references) in the created lists of {@code dir}'s diffs. */
  public static List<INodeFile> createdFiles(INodeDirectory dir) {
    List<INodeFile> out = new ArrayList<INodeFile>();
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf != null) {
      for (DirectoryWithSnapshotFeature.DirectoryDiff d : sf.getDiffs()) {
        for (INode c : d.getChildrenDiff().getList(Diff.ListType.CREATED)) {
          if (!c.isReference() && c.isFile()) {
            out.add(c.asFile());
          }
        }
      }
    }
    return out;
  }

  /**
   * The access times of {@code dir}'s diff copies, newest diff first as the encoder wrote them
   * (NvmSnapshotEncoder): each copy with a time not 0 is made again with it.
   */
  public static void restoreCopyAccessTimes(INodeDirectory dir, long[] newestFirst) {
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf == null) {
      return;
    }
    List<DirectoryWithSnapshotFeature.DirectoryDiff> list = sf.getDiffs().asList();
    for (int k = 0; k < newestFirst.length && k < list.size(); k++) {
      DirectoryWithSnapshotFeature.DirectoryDiff d = list.get(list.size() - 1 - k);
      if (newestFirst[k] != 0 && d.snapshotINode != null && !d.isSnapshotRoot()) {
        d.snapshotINode =
            NvmDirectoryCopies.withAccessTime(dir.getId(), d.snapshotINode, newestFirst[k]);
      }
    }
  }

  /**
   * 2.7.3 compares attribute copies' xattrs by identity ({@code metadataEquals}): a copy holds the
   * XAttrFeature object its inode had when the copy was taken (a snapshot's root likewise), until
   * an xattr call gives the inode a new one. The stock loader makes one object per copy, so after a
   * restart every copy with xattrs would differ from its inode and from the next copy, and a diff
   * report would list as modified what it did not list before. Restored: going from the inode to
   * its oldest diff, a copy whose xattrs equal the next later state's (the newer copy's, or the
   * inode's) takes that state's object. (An xattr call that set the same xattrs again made a new
   * object in memory, which 2.7.3 reports as a modification; the region does not tell it apart.)
   */
  public static void shareCopyXAttrs(INode inode) {
    List<? extends AbstractINodeDiff<?, ?, ?>> diffs;
    if (inode.isFile() && inode.asFile().getFileWithSnapshotFeature() != null) {
      diffs = inode.asFile().getFileWithSnapshotFeature().getDiffs().asList();
    } else if (inode.isDirectory()
        && inode.asDirectory().getDirectoryWithSnapshotFeature() != null) {
      diffs = inode.asDirectory().getDirectoryWithSnapshotFeature().getDiffs().asList();
    } else {
      return;
    }
    XAttrFeature later = inode.getXAttrFeature();
    for (int i = diffs.size() - 1; i >= 0; i--) {
      INodeAttributes copy = diffs.get(i).getSnapshotINode();
      if (copy == null) {
        continue;
      }
      XAttrFeature mine = copy.getXAttrFeature();
      if (mine != null
          && later != null
          && mine != later
          && mine.getXAttrs().equals(later.getXAttrs())) {
        setXAttrs(copy, later);
        mine = later;
      }
      later = mine;
    }
  }

  private static void setXAttrs(INodeAttributes copy, XAttrFeature f) {
    if (copy instanceof INodeDirectory) { // a snapshot's root
      INodeDirectory root = (INodeDirectory) copy;
      root.removeXAttrFeature();
      root.addXAttrFeature(f);
      return;
    }
    try {
      COPY_XATTRS.set(copy, f);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("NVM NameNode: cannot restore a snapshot copy's xattrs", e);
    }
  }

  /** The xattrs of 2.7.3's attribute copies (a private field without a setter). */
  private static final Field COPY_XATTRS;

  static {
    try {
      COPY_XATTRS = INodeAttributes.SnapshotCopy.class.getDeclaredField("xAttrFeature");
      COPY_XATTRS.setAccessible(true);
    } catch (NoSuchFieldException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Everything in the deleted lists of {@code dir}'s diffs, oldest diff first, references too. */
  public static List<INode> deletedLists(INodeDirectory dir) {
    List<INode> out = new ArrayList<INode>();
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf != null) {
      for (DirectoryWithSnapshotFeature.DirectoryDiff d : sf.getDiffs()) {
        out.addAll(d.getChildrenDiff().getList(Diff.ListType.DELETED));
      }
    }
    return out;
  }

  /**
   * At a restart: {@code file}'s diffs, loaded one at a time (the stock loader gives a file a new
   * feature per call), as one list; {@code newestFirst} in the loader's order.
   */
  public static void setFileDiffs(INodeFile file, List<FileDiff> newestFirst) {
    FileDiffList list = new FileDiffList();
    for (FileDiff d : newestFirst) {
      list.addFirst(d);
    }
    file.addSnapshotFeature(list);
  }

  /**
   * The empty block lists of {@code file}'s diffs, flagged newest diff first as the encoder wrote
   * them (NvmSnapshotEncoder): the loader left those diffs without a list.
   */
  public static void restoreEmptyBlockLists(INodeFile file, long[] newestFirst) {
    FileWithSnapshotFeature sf = file.getFileWithSnapshotFeature();
    if (sf == null) {
      return;
    }
    List<FileDiff> list = sf.getDiffs().asList();
    for (int k = 0; k < newestFirst.length && k < list.size(); k++) {
      FileDiff d = list.get(list.size() - 1 - k);
      if (newestFirst[k] == 1 && d.getBlocks() == null) {
        d.setBlocks(new BlockInfoContiguous[0]);
      }
    }
  }

  /** The references in the deleted lists of {@code dir}'s diffs (renamed inodes' old places). */
  public static List<INodeReference> deletedReferences(INodeDirectory dir) {
    List<INodeReference> out = new ArrayList<INodeReference>();
    DirectoryWithSnapshotFeature sf = dir.getDirectoryWithSnapshotFeature();
    if (sf != null) {
      for (DirectoryWithSnapshotFeature.DirectoryDiff d : sf.getDiffs()) {
        for (INode c : d.getChildrenDiff().getList(Diff.ListType.DELETED)) {
          if (c.isReference()) {
            out.add(c.asReference());
          }
        }
      }
    }
    return out;
  }
}
