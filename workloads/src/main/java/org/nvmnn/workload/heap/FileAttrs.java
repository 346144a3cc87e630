package org.nvmnn.workload.heap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;

/**
 * The attributes the heap workload's "attrs" files get after they are closed, as a client's {@code
 * hdfs dfs -setfacl -m} and two {@code -setfattr} would set them: the ACL entries {@value
 * #ACL_SPEC} (the same on every file: ACLs are usually shared by many files, and 2.7.3 shares equal
 * ACL features between inodes) and two user xattrs with values that differ per file, {@code user.a}
 * of 16 bytes (the file's number, 16 decimal digits) and {@code user.b} of 32 bytes (two 16-digit
 * hex numbers derived from it, like a checksum).
 *
 * <p>The calls go to the NameNode's server object in this JVM, so the objects they pass are the
 * ones the NameNode keeps: every call gets a new name string and value array, as the RPC layer's
 * deserialization would give it. Without that, a stock NameNode would share one name string among
 * all files and look cheaper than it is.
 */
final class FileAttrs {
  static final String ACL_SPEC = "user:alice:r--,group:eng:r-x";
  static final int A_BYTES = 16;
  static final int B_BYTES = 32;
  private static final EnumSet<XAttrSetFlag> CREATE = EnumSet.of(XAttrSetFlag.CREATE);

  private FileAttrs() {}

  /** Sets the ACL entries and the two xattrs of file number {@code i} at {@code path}. */
  static void set(ClientProtocol nn, String path, long i) throws IOException {
    nn.modifyAclEntries(path, AclEntry.parseAclSpec(ACL_SPEC, true));
    nn.setXAttr(path, xattr("a", valueA(i)), CREATE);
    nn.setXAttr(path, xattr("b", valueB(i)), CREATE);
  }

  /** Fails unless file number {@code i} at {@code path} has its ACL entries and xattrs. */
  static void check(ClientProtocol nn, String path, long i) throws IOException {
    AclStatus s = nn.getAclStatus(path);
    List<String> named = new ArrayList<>();
    for (AclEntry e : s.getEntries()) {
      if (e.getName() != null) {
        named.add(e.toString());
      }
    }
    if (!named.equals(Arrays.asList("user:alice:r--", "group:eng:r-x"))) {
      throw new IOException(path + " has the named ACL entries " + named);
    }
    List<XAttr> xs = nn.getXAttrs(path, null);
    byte[] a = null;
    byte[] b = null;
    for (XAttr x : xs) {
      if (x.getNameSpace() == XAttr.NameSpace.USER && x.getName().equals("a")) {
        a = x.getValue();
      } else if (x.getNameSpace() == XAttr.NameSpace.USER && x.getName().equals("b")) {
        b = x.getValue();
      }
    }
    if (xs.size() != 2 || !Arrays.equals(a, valueA(i)) || !Arrays.equals(b, valueB(i))) {
      throw new IOException(path + " has the xattrs " + xs);
    }
  }

  static byte[] valueA(long i) {
    return String.format("%016d", i).getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] valueB(long i) {
    long h = i * 0x9E3779B97F4A7C15L;
    return String.format("%016x%016x", h, Long.rotateLeft(h, 31) ^ i)
        .getBytes(StandardCharsets.US_ASCII);
  }

  private static XAttr xattr(String name, byte[] value) {
    return new XAttr.Builder()
        .setNameSpace(XAttr.NameSpace.USER)
        .setName(new String(name.toCharArray())) // a new string per call, as from the RPC layer
        .setValue(value)
        .build();
  }
}
