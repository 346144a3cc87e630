package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.junit.Rule;
import org.junit.Test;

/**
 * The redo replay: a crash at every persist barrier of a rename, and at the barrier of the commit
 * after it (which makes the rename's in-place bytes durable), leaves a region whose namespace is
 * exactly the state before or exactly the state after the rename, both in the ".lost" image (only
 * completed barriers reached media) and in the ".present" image (every store issued so far reached
 * media). The ".lost" image of the next commit's barrier holds the rename's record but none of its
 * in-place bytes: only the replay brings it to the state after (region-format.md §7.3).
 */
public class RenameCrashTest {
  @Rule public ShmDir shm = new ShmDir();

  private long a, b, f, dst;

  /** name, parent page, parent id, mtime of a, mtime of b, whether dst is live. */
  private static final class Snapshot {
    final String name;
    final long parentPage, parentId, mtimeA, mtimeB;
    final boolean dstLive;
    final int inodes;
    final boolean undoRolledBack;

    Snapshot(InodeStore s, long a, long b, long f, long dst) {
      InodeView v = s.inode(f);
      name = v.name();
      parentPage = v.parentPage();
      parentId = v.parentId();
      mtimeA = s.inode(a).mtime();
      mtimeB = s.inode(b).mtime();
      dstLive = dst != 0 && s.inode(dst).isLive();
      inodes = s.region().recoveredInodes().length;
      undoRolledBack = s.region().recovery().undoRolledBack();
    }

    @Override
    public boolean equals(Object o) {
      Snapshot x = (Snapshot) o;
      return name.equals(x.name)
          && parentPage == x.parentPage
          && parentId == x.parentId
          && mtimeA == x.mtimeA
          && mtimeB == x.mtimeB
          && dstLive == x.dstLive
          && inodes == x.inodes;
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }

    @Override
    public String toString() {
      return "{name="
          + (name.length() > 20 ? name.substring(0, 20) + "...(" + name.length() + ")" : name)
          + ", parent="
          + parentPage
          + "/"
          + parentId
          + ", mtimeA="
          + mtimeA
          + ", mtimeB="
          + mtimeB
          + ", dstLive="
          + dstLive
          + ", inodes="
          + inodes
          + "}";
    }
  }

  private interface Rename {
    void run(InodeStore s) throws NvmException;
  }

  private File base(String oldName, String dstName) throws Exception {
    try (InodeStore s = shm.createStore("base", ShmDir.SMALL)) {
      a = createInode(s, s.rootPage(), InodeAttrs.directory("a").times(10, 10));
      b = createInode(s, s.rootPage(), InodeAttrs.directory("b").times(20, 20));
      f = createInode(s, a, InodeAttrs.file(oldName).times(30, 30).owner("alice", "staff"));
      dst = dstName == null ? 0 : createInode(s, b, InodeAttrs.file(dstName).times(40, 40));
      setMtime(s, a, 10);
      setMtime(s, b, 20);
    }
    return shm.file("base");
  }

  private Snapshot snapshot(File image) throws Exception {
    try (InodeStore s = InodeStore.open(Region.open(image, PersistMode.EMULATED))) {
      return new Snapshot(s, a, b, f, dst);
    }
  }

  private File copy(File base, String name) throws Exception {
    File c = shm.file(name);
    Files.copy(base.toPath(), c.toPath(), StandardCopyOption.REPLACE_EXISTING);
    return c;
  }

  private void crashAtEveryBarrier(File base, Rename rename) throws Exception {
    Snapshot before = snapshot(copy(base, "before"));
    long barriers;
    File afterFile = copy(base, "after");
    try (InodeStore s = InodeStore.open(Region.open(afterFile, PersistMode.EMULATED))) {
      long b0 = s.region().barrierCount();
      rename.run(s);
      barriers = s.region().barrierCount() - b0;
    }
    Snapshot after = snapshot(afterFile);
    assertNotEquals(before, after);
    assertTrue(
        "a rename is one redo record: 1 barrier, 2 when it writes extension pages LIVE; took "
            + barriers,
        barriers >= 1 && barriers <= 2);
    int sawBefore = 0, sawAfter = 0, rolledBack = 0;
    for (long n = 1; n <= barriers + 1; n++) {
      File work = copy(base, "work" + n);
      String prefix = new File(shm.dir(), "crash" + n).getPath();
      InodeStore s = InodeStore.open(Region.open(work, PersistMode.EMULATED));
      try {
        s.region().debugCrashAt(n, prefix);
        try {
          rename.run(s);
          setLastTxId(s, 4242); // the next commit: its barrier is barriers + 1
          fail("crash hook at barrier " + n + " of " + barriers + " did not fire");
        } catch (NvmException e) {
          assertEquals(e.getMessage(), NvmException.ErrorCode.ECRASHED, e.code());
        }
        assertTrue(s.region().debugCrashed());
      } finally {
        s.close();
      }
      for (String kind : new String[] {".lost", ".present"}) {
        File image = new File(prefix + kind);
        assertTrue(image + " missing", image.isFile());
        Snapshot got = snapshot(image);
        sawBefore += got.equals(before) ? 1 : 0;
        sawAfter += got.equals(after) ? 1 : 0;
        rolledBack += got.undoRolledBack ? 1 : 0;
        assertTrue(
            "crash at barrier "
                + n
                + "/"
                + barriers
                + " ("
                + kind
                + "): "
                + got
                + " is neither before "
                + before
                + " nor after "
                + after,
            got.equals(before) || got.equals(after));
        if (n == 1 && kind.equals(".lost")) {
          assertEquals("nothing is durable before the first barrier", before, got);
        }
        if (n >= barriers && kind.equals(".present")) {
          assertEquals("every store of the rename was issued before its last barrier", after, got);
        }
        if (n == barriers + 1) {
          assertEquals("the rename committed at its barrier (" + kind + ")", after, got);
          assertTrue("the rename's record was replayed (" + kind + ")", got.undoRolledBack);
        }
      }
    }
    assertTrue("no crash image showed the state before", sawBefore > 0);
    assertTrue("no crash image showed the state after", sawAfter > 0);
    assertTrue("no crash image needed the redo record", rolledBack > 0);
  }

  @Test
  public void crashAtEachBarrierOfARenameAcrossDirectoriesGivesBeforeOrAfter() throws Exception {
    File base = base("old", null);
    crashAtEveryBarrier(
        base,
        new Rename() {
          @Override
          public void run(InodeStore s) throws NvmException {
            rename(s, f, b, "new", 500);
          }
        });
  }

  @Test
  public void crashAtEachBarrierOfAShortToLongRenameGivesBeforeOrAfter() throws Exception {
    File base = base("old", null);
    crashAtEveryBarrier(
        base,
        new Rename() {
          @Override
          public void run(InodeStore s) throws NvmException {
            rename(s, f, b, RenameDeleteTest.longName(600, 'a'), 500);
          }
        });
  }

  @Test
  public void crashAtEachBarrierOfALongToShortRenameOverAFileGivesBeforeOrAfter() throws Exception {
    File base = base(RenameDeleteTest.longName(300, 'p'), "target");
    crashAtEveryBarrier(
        base,
        new Rename() {
          @Override
          public void run(InodeStore s) throws NvmException {
            rename(s, f, b, "target".getBytes(), 500, dst, new long[0]);
          }
        });
  }
}
