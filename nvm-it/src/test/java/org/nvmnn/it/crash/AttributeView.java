package org.nvmnn.it.crash;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;

/**
 * One inode's attributes as the client sees them, in one comparable line: its permission bits and
 * ACL bit (getFileInfo), its ACL entries (getAclStatus) and its user and trusted xattrs with their
 * values (getXAttrs as the superuser). Read either from a live NameNode by path, or from a
 * (recovered) region by inode id, where the NameNode's own decoder (AttributeCodec) reads the
 * inode's ATTR_EXT chain as a restart materializes it. {@link #ABSENT} when there is no such inode.
 */
final class AttributeView {
  static final String ABSENT = "absent";

  private AttributeView() {}

  /** From the NameNode: the inode at {@code path} ({@link #ABSENT} for null or none). */
  static String ofRpc(ClientProtocol nn, String path) throws IOException {
    HdfsFileStatus st = path == null ? null : nn.getFileInfo(path);
    if (st == null) {
      return ABSENT;
    }
    List<String> acl = new ArrayList<>();
    for (AclEntry e : nn.getAclStatus(path).getEntries()) {
      acl.add(e.toString());
    }
    return line(
        st.getFileId(),
        st.getPermission().toShort(),
        st.getPermission().getAclBit(),
        acl,
        nn.getXAttrs(path, null));
  }

  /** From a region that needs no recovery: the live inode with id {@code id}. */
  static String inRegion(File region, long id) throws IOException {
    try (Region r = Region.openReadOnly(region)) {
      for (long i = 0; i < r.pageCount(); i++) {
        InodeView v = new InodeView(r, RegionLayout.pageOffset(i));
        if (!v.isLive() || v.id() != id) {
          continue;
        }
        AttributeCodec.Attributes a = AttributeCodec.decode(v.attrBytes());
        List<String> acl = new ArrayList<>();
        for (AclEntry e : a.acl) {
          acl.add(e.toString());
        }
        List<XAttr> shown = new ArrayList<>();
        for (XAttr x : a.xattrs) {
          // what getXAttrs answers the superuser on a path outside /.reserved/raw
          if (x.getNameSpace() == XAttr.NameSpace.USER
              || x.getNameSpace() == XAttr.NameSpace.TRUSTED) {
            shown.add(x);
          }
        }
        return line(id, (short) v.mode(), !a.acl.isEmpty(), acl, shown);
      }
    }
    return ABSENT;
  }

  private static String line(
      long id, short mode, boolean aclBit, List<String> acl, List<XAttr> xattrs) {
    StringBuilder b = new StringBuilder("inode ").append(id);
    b.append(String.format(" perm=%04o", mode & 01777)).append(aclBit ? "+acl" : "");
    b.append(" acl=").append(acl).append(" xattrs=[");
    for (int i = 0; i < xattrs.size(); i++) {
      XAttr x = xattrs.get(i);
      b.append(i == 0 ? "" : ", ").append(x.getNameSpace()).append('.').append(x.getName());
      byte[] v = x.getValue();
      if (v != null) {
        b.append("=0x");
        for (byte c : v) {
          b.append(Character.forDigit((c >> 4) & 15, 16)).append(Character.forDigit(c & 15, 16));
        }
      }
    }
    return b.append(']').toString();
  }
}
