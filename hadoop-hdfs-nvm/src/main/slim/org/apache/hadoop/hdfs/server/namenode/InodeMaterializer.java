package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.StringTable;

/** Full inode objects from their pages: the rebuild's directories and the cache's files. */
final class InodeMaterializer {
  private InodeMaterializer() {}

  static PermissionStatus perm(InodeStore store, InodeView v) {
    StringTable strings = store.strings();
    return new PermissionStatus(
        strings.get(v.ownerId()), strings.get(v.groupId()), new FsPermission((short) v.mode()));
  }

  /** A directory with its quotas and storage policy; its children are added by the caller. */
  static NvmINodeDirectory directory(InodeStore store, InodeView v, SlimNamespace slim)
      throws IOException {
    NvmINodeDirectory d =
        new NvmINodeDirectory(v.id(), v.nameBytes(), perm(store, v), v.mtime(), slim);
    // a directory's access time (setTimes) is in memory and in the stock edit log, though not in
    // the stock fsimage; the page has it, so a restart brings back what was served
    d.setAccessTime(v.atime());
    if (v.nsQuota() != -1 || v.dsQuota() != -1 || anyTypeQuota(v)) {
      DirectoryWithQuotaFeature.Builder b =
          new DirectoryWithQuotaFeature.Builder()
              .nameSpaceQuota(v.nsQuota())
              .storageSpaceQuota(v.dsQuota());
      for (StorageType t : StorageType.values()) {
        if (t.ordinal() < RegionLayout.DI_TYPE_QUOTA_COUNT && v.typeQuota(t.ordinal()) != -1) {
          b.typeQuota(t, v.typeQuota(t.ordinal()));
        }
      }
      d.addDirectoryWithQuotaFeature(b.build());
    }
    InodeAttributes.restore(d, v.attrBytes(), v.directoryStoragePolicy());
    return d;
  }

  /**
   * A file over the given block objects (those of the BlocksMap, so the object and the block layer
   * share them), under construction as its page says.
   */
  static INodeFile file(InodeStore store, InodeView v, BlockInfoContiguous[] blocks)
      throws IOException {
    return file(store, v, blocks, perm(store, v));
  }

  /** As {@link #file(InodeStore, InodeView, BlockInfoContiguous[])}, with the page's status. */
  static INodeFile file(
      InodeStore store, InodeView v, BlockInfoContiguous[] blocks, PermissionStatus perm)
      throws IOException {
    short repl = (short) v.replication();
    INodeFile f =
        new INodeFile(
            v.id(),
            v.nameBytes(),
            perm,
            v.mtime(),
            v.atime(),
            blocks,
            repl,
            v.preferredBlockSize(),
            (byte) v.storagePolicy());
    if (v.isUnderConstruction()) {
      f.toUnderConstruction(
          store.strings().get(v.clientId()), store.strings().get(v.clientMachineId()));
    }
    if (v.attrsWord() != 0) {
      InodeAttributes.restore(f, v.attrBytes(), 0);
    }
    return f;
  }

  /** A symlink (resident, as directories are; 2.7.3's symlinks have no ACL and no xattrs). */
  static INodeSymlink symlink(InodeStore store, InodeView v) throws IOException {
    INodeSymlink s =
        new INodeSymlink(
            v.id(),
            v.nameBytes(),
            perm(store, v),
            v.mtime(),
            v.atime(),
            DFSUtil.bytes2String(v.symlinkTarget()));
    if (v.attrsWord() != 0) {
      throw new IOException("symlink " + v.id() + " (page " + v.page() + ") has attributes");
    }
    return s;
  }

  /** The root exists already (FSDirectory made it); its attributes come from the page. */
  static void restoreRoot(InodeStore store, INodeDirectory root, InodeView v) throws IOException {
    PermissionStatus perm = perm(store, v);
    root.setUser(perm.getUserName());
    root.setGroup(perm.getGroupName());
    root.setPermission(perm.getPermission());
    root.setModificationTime(v.mtime());
    root.setAccessTime(v.atime());
    DirectoryWithQuotaFeature q = root.getDirectoryWithQuotaFeature();
    if (q != null) {
      q.setQuota(v.nsQuota(), v.dsQuota());
      for (StorageType t : StorageType.values()) {
        if (t.ordinal() < RegionLayout.DI_TYPE_QUOTA_COUNT) {
          q.setQuota(v.typeQuota(t.ordinal()), t);
        }
      }
    }
    InodeAttributes.restore(root, v.attrBytes(), v.directoryStoragePolicy());
  }

  private static boolean anyTypeQuota(InodeView v) {
    for (int i = 0; i < RegionLayout.DI_TYPE_QUOTA_COUNT; i++) {
      if (v.typeQuota(i) != -1) {
        return true;
      }
    }
    return false;
  }
}
