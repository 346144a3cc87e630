package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;

/**
 * An inode's ACL feature and xattrs to and from the region's attribute encoding ({@link
 * AttributeCodec}). A directory's storage policy, which 2.7.3 keeps as the xattr {@code
 * system.hsm.block.storage.policy.id}, is not part of the encoding: the directory page has a field
 * for it (DI_STORAGE_POLICY), so the encoding leaves it out and a restore puts it first.
 */
final class InodeAttributes {
  private InodeAttributes() {}

  /** The encoding of {@code n}'s ACL entries and xattrs; empty if it has none (or is a symlink). */
  static byte[] encode(INode n) {
    if (n.isSymlink()) {
      return AttributeCodec.NONE; // 2.7.3's symlinks have neither (INodeSymlink throws)
    }
    AclFeature acl = n.getAclFeature();
    XAttrFeature x = n.getXAttrFeature();
    if (acl == null && x == null) {
      return AttributeCodec.NONE;
    }
    List<AclEntry> entries = acl == null ? null : AclStorage.getEntriesFromAclFeature(acl);
    List<XAttr> xattrs = x == null ? null : withoutPolicy(n, x.getXAttrs());
    return AttributeCodec.encode(entries, xattrs);
  }

  /** The xattrs an inode's page encoding holds: a directory's storage policy xattr is a field. */
  private static List<XAttr> withoutPolicy(INode n, List<XAttr> xattrs) {
    if (!n.isDirectory()) {
      return xattrs;
    }
    List<XAttr> out = new ArrayList<>(xattrs.size());
    for (XAttr x : xattrs) {
      if (!BlockStoragePolicySuite.isStoragePolicyXAttr(x)) {
        out.add(x);
      }
    }
    return out;
  }

  /**
   * Gives a materialized inode the attributes its page holds: the ACL feature (its mode bits are
   * already the page's) and the xattrs, after a directory's storage policy xattr when {@code
   * dirPolicy} is not 0.
   */
  static void restore(INode n, byte[] encoded, int dirPolicy) throws IOException {
    AttributeCodec.Attributes a = encoded.length == 0 ? null : AttributeCodec.decode(encoded);
    if (a != null && !a.acl.isEmpty()) {
      n.addAclFeature(new AclFeature(AclEntryStatusFormat.toInt(a.acl)));
    }
    List<XAttr> xattrs = new ArrayList<>();
    if (dirPolicy != 0) {
      xattrs.add(BlockStoragePolicySuite.buildXAttr((byte) dirPolicy));
    }
    if (a != null) {
      xattrs.addAll(a.xattrs);
    }
    if (!xattrs.isEmpty()) {
      XAttrStorage.updateINodeXAttrs(n, xattrs, Snapshot.CURRENT_STATE_ID);
    }
  }
}
