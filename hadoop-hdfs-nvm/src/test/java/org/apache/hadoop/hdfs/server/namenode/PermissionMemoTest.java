package org.apache.hadoop.hdfs.server.namenode;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.createInode;
import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.setOwner;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;

import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeView;
import org.apache.hadoop.hdfs.server.namenode.nvm.ShmDir;
import org.junit.Rule;
import org.junit.Test;

/**
 * The permission memo of materialized files: one status per permission word for readers, the page's
 * own strings again after a write operation ends (a freed string id handed to another name).
 */
public class PermissionMemoTest {
  @Rule public ShmDir shm = new ShmDir();

  private static void assertStatus(String owner, String group, int mode, PermissionStatus p) {
    assertEquals(owner, p.getUserName());
    assertEquals(group, p.getGroupName());
    assertEquals(mode, p.getPermission().toShort());
  }

  @Test
  public void readersShareOneStatusPerPermissionWord() throws Exception {
    try (InodeStore s = shm.createStore("r", 4L << 20)) {
      long a =
          createInode(s, s.rootPage(), InodeAttrs.file("a").owner("alice", "staff").mode(0644));
      long b =
          createInode(s, s.rootPage(), InodeAttrs.file("b").owner("alice", "staff").mode(0644));
      long c =
          createInode(s, s.rootPage(), InodeAttrs.file("c").owner("alice", "staff").mode(0600));
      PermissionMemo m = new PermissionMemo();
      PermissionStatus pa = m.of(s, s.inode(a), true);
      assertStatus("alice", "staff", 0644, pa);
      assertSame(pa, m.of(s, s.inode(b), true));
      assertStatus("alice", "staff", 0600, m.of(s, s.inode(c), true));
      PermissionStatus writer = m.of(s, s.inode(a), false);
      assertNotSame("a write operation reads its page afresh", pa, writer);
      assertStatus("alice", "staff", 0644, writer);
      m.invalidate();
      PermissionStatus again = m.of(s, s.inode(a), true);
      assertNotSame(pa, again);
      assertStatus("alice", "staff", 0644, again);
    }
  }

  @Test
  public void afterAWriteOperationAReusedStringIdIsReadAgain() throws Exception {
    try (InodeStore s = shm.createStore("r", 4L << 20)) {
      long f =
          createInode(s, s.rootPage(), InodeAttrs.file("f").owner("alice", "staff").mode(0644));
      PermissionMemo m = new PermissionMemo();
      long before = s.inode(f).permWord();
      assertStatus("alice", "staff", 0644, m.of(s, s.inode(f), true));
      // a write operation: alice's id is freed and handed to carol, whom f then gets
      setOwner(s, f, "bob", null);
      s.reclaimIdleStrings();
      setOwner(s, f, "carol", null);
      InodeView v = s.inode(f);
      assertEquals("the same permission word, another owner", before, v.permWord());
      m.invalidate(); // the namesystem does this when the operation ends
      assertStatus("carol", "staff", 0644, m.of(s, v, true));
    }
  }
}
