package org.apache.hadoop.hdfs.server.namenode;

import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.InodeLine;

/**
 * What the import verification expects of an inode's attributes (region-format.md §5.6): its ACL
 * entries and xattrs, read from the loaded inode's features (not from the writer's encoding) and
 * given to its {@code dump} line, which the offline tools decode from the region with their own
 * reader. A directory's storage policy xattr is not among them: the region holds it as
 * DI_STORAGE_POLICY, which the line shows as the policy.
 */
final class NvmImportAttributes {
  private NvmImportAttributes() {}

  /** Adds {@code n}'s ACL entries and xattrs to {@code line}; returns whether it had any. */
  static boolean addTo(InodeLine line, INode n) {
    if (n.isSymlink()) {
      return false; // 2.7.3's symlinks have neither (INodeSymlink throws)
    }
    boolean any = false;
    AclFeature acl = n.getAclFeature();
    if (acl != null) {
      List<AclEntry> entries = AclStorage.getEntriesFromAclFeature(acl);
      for (AclEntry e : entries) {
        // FsAction's ordinal is its rwx bits (NONE = 0 ... ALL = 7)
        line.aclEntry(
            e.getScope().name(), e.getType().name(), e.getName(), e.getPermission().ordinal());
        any = true;
      }
    }
    XAttrFeature x = n.getXAttrFeature();
    if (x != null) {
      for (XAttr a : x.getXAttrs()) {
        if (!(n.isDirectory() && BlockStoragePolicySuite.isStoragePolicyXAttr(a))) {
          line.xattr(a.getNameSpace().name(), a.getName(), a.getValue());
          any = true;
        }
      }
    }
    return any;
  }
}
