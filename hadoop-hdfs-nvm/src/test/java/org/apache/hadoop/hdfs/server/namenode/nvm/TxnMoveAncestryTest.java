package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import org.junit.Rule;
import org.junit.Test;

/**
 * {@link Txn#move} refuses to put an inode under its own subtree, seeing the moves its batch staged
 * before (a batch may move X out from under Y and then Y under X), and only those: the store's one
 * Txn object serves every batch, and a page freed and reused since an earlier batch's move must be
 * walked by its parent now (with the earlier move remembered, a rename stopped the NameNode).
 */
public class TxnMoveAncestryTest {
  @Rule public ShmDir shm = new ShmDir();

  @Test
  public void aBatchSeesItsOwnEarlierMoves() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      long a = createInode(s, s.rootPage(), InodeAttrs.directory("a"));
      long y = createInode(s, s.rootPage(), InodeAttrs.directory("y"));
      long x = createInode(s, y, InodeAttrs.directory("x"));
      try (Txn t = s.begin()) {
        assertTrue("x is under y: y cannot go under x", t.wouldCycle(y, x));
        t.move(x, a, "x".getBytes("UTF-8"));
        assertFalse("x was moved out from under y in this batch", t.wouldCycle(y, x));
        t.move(y, x, "y".getBytes("UTF-8"));
        t.commit();
      }
      assertEquals(x, s.inode(y).parentPage());
      assertEquals(a, s.inode(x).parentPage());
    }
  }

  @Test
  public void aLaterBatchWalksAReusedPageByItsParentNow() throws Exception {
    try (InodeStore s = shm.createStore("r", ShmDir.SMALL)) {
      long a = createInode(s, s.rootPage(), InodeAttrs.directory("a"));
      long b = createInode(s, s.rootPage(), InodeAttrs.directory("b"));
      long x = createInode(s, a, InodeAttrs.directory("x"));
      rename(s, x, b, "x", 1); // one batch moves x's page under b
      delete(s, x, new long[0], b, 2); // x's page is freed
      long reused = 0;
      for (int i = 0; i < 1000 && reused == 0; i++) {
        long p = createInode(s, a, InodeAttrs.directory("n" + i));
        if (p == x) {
          reused = p;
        }
      }
      assertEquals("a new directory under a took x's freed page", x, reused);
      try (Txn t = s.begin()) {
        assertFalse(
            "b under the new directory (under a) is no cycle; the old move put x's page under b",
            t.wouldCycle(b, reused));
        t.move(b, reused, "b".getBytes("UTF-8"));
        t.commit();
      }
      assertEquals(reused, s.inode(b).parentPage());
    }
  }
}
