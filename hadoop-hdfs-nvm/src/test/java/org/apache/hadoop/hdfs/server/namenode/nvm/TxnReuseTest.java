package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.Rule;
import org.junit.Test;

/**
 * The store hands out one Txn object again and again (with its batch, reservation and scratch
 * attributes): nothing of a refused or abandoned transaction reaches the next, a finished one and
 * one begun by another thread refuse use, and concurrent writers still get whole batches of their
 * own.
 */
public class TxnReuseTest {
  @Rule public ShmDir shm = new ShmDir();

  @Test
  public void aRefusedStagingLeavesNothingForTheNextTransaction() throws Exception {
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      long file = createInode(s, s.rootPage(), InodeAttrs.file("f").owner("u", "g"));
      long used = s.region().usage().pagesUsed();
      long calls = s.region().nativeWriteCalls();
      try (Txn t = s.begin()) {
        // a new string, a new inode page and the parent's mtime staged ...
        t.create(s.rootPage(), InodeAttrs.file("g").owner("stranger", "g").times(9, 9));
        t.setMtime(s.rootPage(), 9);
        assertTrue(t.size() > 0);
        // ... then a refusal: a file is not a parent
        try {
          t.create(file, InodeAttrs.file("h"));
          fail("created under a file");
        } catch (NvmException e) {
          assertEquals(NvmException.ErrorCode.EINVAL, e.code());
        }
      } // abandoned
      assertEquals(calls, s.region().nativeWriteCalls());
      assertEquals(used, s.region().usage().pagesUsed());
      assertEquals(0, s.strings().lookup("stranger"));
      long page;
      try (Txn t = s.begin()) {
        assertEquals("the reused batch starts empty", 0, t.size());
        page = t.create(s.rootPage(), InodeAttrs.file("k").owner("u", "g").times(3, 3));
        t.commit();
      }
      assertEquals(calls + 1, s.region().nativeWriteCalls());
      assertEquals(used + 1, s.region().usage().pagesUsed());
      assertEquals("k", s.inode(page).name());
      assertEquals("the abandoned mtime is not in it", 0, s.inode(s.rootPage()).mtime());
      assertEquals(0, s.strings().lookup("stranger"));
    }
    try (InodeStore s = shm.reopen("t")) {
      assertEquals(3, s.region().recovery().inodesLive());
    }
  }

  @Test
  public void aFinishedTransactionRefusesUse() throws Exception {
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      Txn t = s.begin();
      t.setMtime(s.rootPage(), 1);
      t.commit();
      try {
        t.setMtime(s.rootPage(), 2);
        fail("staged into a finished transaction");
      } catch (IllegalStateException expected) {
      }
      t.close(); // no-op
      try (Txn u = s.begin()) {
        assertSame("one object, handed out again", t, u);
        assertEquals(0, u.size());
        u.setMtime(s.rootPage(), 3);
        u.commit();
      }
      assertEquals(3, s.inode(s.rootPage()).mtime());
    }
  }

  @Test
  public void anotherThreadCannotUseOrCloseTheOpenTransaction() throws Exception {
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      long atime = s.inode(s.rootPage()).atime();
      try (Txn t = s.begin()) {
        t.setMtime(s.rootPage(), 5);
        AtomicReference<Throwable> staged = new AtomicReference<>();
        Thread other =
            new Thread(
                () -> {
                  try {
                    t.setAtime(s.rootPage(), atime + 6);
                  } catch (Throwable e) {
                    staged.set(e);
                  }
                  t.close(); // ignored: not this thread's
                });
        other.start();
        other.join();
        assertTrue(String.valueOf(staged.get()), staged.get() instanceof IllegalStateException);
        assertEquals("still open, with only this thread's entry", 1, t.size());
        t.commit();
      }
      assertEquals(5, s.inode(s.rootPage()).mtime());
      assertEquals(atime, s.inode(s.rootPage()).atime());
    }
  }

  @Test
  public void scratchAttributesStartClearedEachTime() throws Exception {
    try (InodeStore s = shm.createStore("t", ShmDir.SMALL)) {
      long dir;
      long file;
      long link;
      try (Txn t = s.begin()) {
        InodeAttrs a = t.newAttrs(true, null);
        a.name("d").times(1, 2).mode(0755).owner("u", "g").quota(10, 20).typeQuota(1, 30);
        a.storagePolicy(5).attributes(new byte[] {1});
        assertTrue(a.isDirectory());
        dir = t.create(s.rootPage(), a);
        InodeAttrs b = t.newAttrs(false, null);
        assertSame(a, b);
        assertFalse(b.isDirectory());
        assertFalse(b.isSymlink());
        assertEquals(0, b.name.length);
        assertNull(b.owner);
        assertEquals(-1, b.nsQuota);
        assertEquals(-1, b.typeQuotas[1]);
        assertEquals(0, b.storagePolicy);
        assertEquals(0, b.attributes.length);
        assertEquals(0, b.id);
        file = t.create(s.rootPage(), b.name("f").owner("u", "g").underConstruction("c", "m"));
        InodeAttrs c = t.newAttrs(true, "/x".getBytes());
        assertTrue("a target makes a symlink", c.isSymlink());
        assertFalse(c.isDirectory());
        assertNull(c.clientName);
        link = t.create(s.rootPage(), c.name("l").owner("u", "g"));
        t.commit();
      }
      InodeView d = s.inode(dir);
      assertTrue(d.isDirectory());
      assertEquals(10, d.nsQuota());
      InodeView f = s.inode(file);
      assertTrue(f.isFile());
      assertEquals("c", s.clientName(file));
      assertEquals(0, f.attrsWord());
      assertTrue(s.inode(link).isSymlink());
      assertEquals("l", s.inode(link).name());
    }
  }

  @Test
  public void concurrentWritersGetWholeBatchesOfTheirOwn() throws Exception {
    final int perThread = 300;
    try (InodeStore s = shm.createStore("t", ShmDir.MEDIUM)) {
      long root = s.rootPage();
      List<Thread> threads = new ArrayList<>();
      List<long[]> pages = new ArrayList<>();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      for (int k = 0; k < 3; k++) {
        final int w = k;
        final long[] mine = new long[perThread];
        pages.add(mine);
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < perThread; i++) {
                      try (Txn t = s.begin()) {
                        InodeAttrs a = t.newAttrs(false, null);
                        a.name("w" + w + "-" + i).owner("user" + w, "g").times(i, i);
                        mine[i] = t.create(root, a);
                        t.commit();
                      }
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                }));
      }
      for (Thread t : threads) {
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      assertNull(String.valueOf(failure.get()), failure.get());
      for (int w = 0; w < 3; w++) {
        for (int i = 0; i < perThread; i++) {
          long p = pages.get(w)[i];
          assertEquals("w" + w + "-" + i, s.inode(p).name());
          assertEquals("user" + w, s.owner(p));
          assertEquals(i, s.inode(p).mtime());
        }
      }
    }
  }
}
