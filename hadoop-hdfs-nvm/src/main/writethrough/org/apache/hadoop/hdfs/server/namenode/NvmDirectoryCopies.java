package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.fs.permission.PermissionStatus;

/**
 * A directory's snapshot copy with its access time (region-format.md §13). The fsimage's directory
 * message has no access time, so the stock loader makes every directory copy with 0; 2.7.3 keeps
 * the directory's access time in the copy it takes in memory (a setTimes on a directory sets one),
 * and the region keeps it beside the copy: this makes the copy again with it, through the public
 * constructors from a directory, as 2.7.3 takes a copy.
 */
public final class NvmDirectoryCopies {
  private NvmDirectoryCopies() {}

  /** {@code old}'s attributes with access time {@code atime}, as a new copy. */
  public static INodeDirectoryAttributes withAccessTime(
      long dirId, INodeDirectoryAttributes old, long atime) {
    INodeDirectory tmp =
        new INodeDirectory(
            dirId,
            old.getLocalNameBytes(),
            new PermissionStatus(old.getUserName(), old.getGroupName(), old.getFsPermission()),
            old.getModificationTime());
    tmp.setAccessTime(atime);
    if (old.getAclFeature() != null) {
      tmp.addAclFeature(old.getAclFeature());
    }
    if (old.getXAttrFeature() != null) {
      tmp.addXAttrFeature(old.getXAttrFeature());
    }
    QuotaCounts q = old.getQuotaCounts();
    INodeDirectoryAttributes copy;
    if (old instanceof INodeDirectoryAttributes.CopyWithQuota) {
      tmp.addDirectoryWithQuotaFeature(
          new DirectoryWithQuotaFeature.Builder()
              .nameSpaceQuota(q.getNameSpace())
              .storageSpaceQuota(q.getStorageSpace())
              .typeQuotas(q.getTypeSpaces())
              .build());
      copy = new INodeDirectoryAttributes.CopyWithQuota(tmp);
    } else {
      copy = new INodeDirectoryAttributes.SnapshotCopy(tmp);
    }
    if (old.getAclFeature() != null) {
      AclStorage.removeAclFeature(
          old.getAclFeature()); // the old copy's reference to the shared entry
    }
    return copy;
  }
}
