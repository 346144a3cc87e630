package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.server.namenode.nvm.AttributeCodec;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmException;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;

/**
 * Inode attributes written through the store into a {@link SampleNamespace} region, as the NameNode
 * writes them (Txn.setAttributes with AttributeCodec's encoding): /user/alice has a named access
 * entry, a default ACL and two xattrs, one with a 600-byte value (a chain of three ATTR_EXT pages);
 * small.txt has an xattr without a value and one with an empty value (one page).
 */
final class AttributeSample {
  /** The 600-byte value of /user/alice's trusted.big. */
  static final byte[] BIG_VALUE = new byte[600];

  static {
    for (int i = 0; i < BIG_VALUE.length; i++) {
      BIG_VALUE[i] = (byte) (i * 7);
    }
  }

  static final List<AclEntry> ALICE_ACL =
      Arrays.asList(
          acl(AclEntryScope.ACCESS, AclEntryType.USER, "bob", FsAction.READ_EXECUTE),
          acl(AclEntryScope.DEFAULT, AclEntryType.USER, null, FsAction.ALL),
          acl(AclEntryScope.DEFAULT, AclEntryType.USER, "carol", FsAction.READ_WRITE),
          acl(AclEntryScope.DEFAULT, AclEntryType.GROUP, null, FsAction.READ_EXECUTE),
          acl(AclEntryScope.DEFAULT, AclEntryType.MASK, null, FsAction.ALL),
          acl(AclEntryScope.DEFAULT, AclEntryType.OTHER, null, FsAction.NONE));

  static final List<XAttr> ALICE_XATTRS =
      Arrays.asList(
          xattr(XAttr.NameSpace.USER, "project", "apollo".getBytes()),
          xattr(XAttr.NameSpace.TRUSTED, "big", BIG_VALUE));

  static final List<XAttr> SMALL_XATTRS =
      Arrays.asList(
          xattr(XAttr.NameSpace.USER, "flag", null),
          xattr(XAttr.NameSpace.USER, "empty", new byte[0]));

  /** The encodings as written. */
  final byte[] aliceEncoding = AttributeCodec.encode(ALICE_ACL, ALICE_XATTRS);

  final byte[] smallEncoding = AttributeCodec.encode(null, SMALL_XATTRS);

  /** The ATTR_EXT pages of /user/alice and small.txt, in chain order. */
  long[] aliceExt;

  long[] smallExt;

  private AttributeSample() {}

  static AttributeSample add(ShmDir shm, SampleNamespace n) throws NvmException {
    AttributeSample a = new AttributeSample();
    try (InodeStore s = shm.reopen("r")) {
      try (Txn t = s.begin()) {
        t.setAttributes(n.alice, a.aliceEncoding);
        t.commit();
      }
      try (Txn t = s.begin()) {
        t.setAttributes(n.small, a.smallEncoding);
        t.commit();
      }
      a.aliceExt = s.inode(n.alice).attrExtPages();
      a.smallExt = s.inode(n.small).attrExtPages();
    }
    return a;
  }

  static AclEntry acl(AclEntryScope scope, AclEntryType type, String name, FsAction perm) {
    AclEntry.Builder b = new AclEntry.Builder().setScope(scope).setType(type).setPermission(perm);
    return (name == null ? b : b.setName(name)).build();
  }

  static XAttr xattr(XAttr.NameSpace ns, String name, byte[] value) {
    return new XAttr.Builder().setNameSpace(ns).setName(name).setValue(value).build();
  }
}
