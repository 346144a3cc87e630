package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.junit.Test;

public class AttrArgsTest {
  @Test
  public void aclSpecsCarryEscapedNamesAndRemovalsNoPermission() {
    List<AclEntry> e = AttrArgs.acl("user::rwx,default:group:a%3Ab%2Cc%25:r-x,mask::-w-", true);
    assertEquals(3, e.size());
    assertEquals("user::rwx", e.get(0).toString());
    assertEquals(AclEntryScope.DEFAULT, e.get(1).getScope());
    assertEquals("a:b,c%", e.get(1).getName());
    assertEquals(FsAction.READ_EXECUTE, e.get(1).getPermission());
    assertEquals("mask::-w-", e.get(2).toString());
    List<AclEntry> r = AttrArgs.acl("user:bob:rwx,default:mask:", false);
    assertEquals("bob", r.get(0).getName());
    assertNull(r.get(0).getPermission());
    assertEquals(AclEntryScope.DEFAULT, r.get(1).getScope());
    assertEquals(AclEntryType.MASK, r.get(1).getType());
    assertNull(r.get(1).getName());
    assertEquals(0, AttrArgs.acl("", true).size());
    for (String bad : new String[] {"user:bob", "bogus::rwx", "user::rwz", "user:a:b:rwx"}) {
      try {
        AttrArgs.acl(bad, true);
        fail("accepted " + bad);
      } catch (IllegalArgumentException expected) {
        // refused in the client, on both sides alike
      }
    }
  }

  @Test
  public void xattrNamesAndValues() throws Exception {
    XAttr x = AttrArgs.xattr("USER.a.b", "0x01ff");
    assertEquals(XAttr.NameSpace.USER, x.getNameSpace());
    assertEquals("a.b", x.getName());
    assertArrayEquals(new byte[] {1, (byte) 0xff}, x.getValue());
    assertEquals("", AttrArgs.xattr("raw.", null).getName());
    assertNull(AttrArgs.xattr("trusted.t", null).getValue());
    assertArrayEquals(new byte[] {7, 38, 69}, AttrArgs.value("#3"));
    assertEquals(0, AttrArgs.value("").length);
    assertEquals(
        Arrays.asList("USER.\"fz\"=0x01ff", "TRUSTED.\"t\""),
        Arrays.asList(
            Canon.xattr(AttrArgs.xattr("user.fz", "0x01ff")),
            Canon.xattr(AttrArgs.xattr("trusted.t", null))));
    assertNull(AttrArgs.names(null));
    assertEquals(2, AttrArgs.names("user.a,trusted.b").size());
  }
}
