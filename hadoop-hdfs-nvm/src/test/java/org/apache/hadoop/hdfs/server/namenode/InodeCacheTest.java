package org.apache.hadoop.hdfs.server.namenode;

import static org.apache.hadoop.hdfs.server.namenode.CachedFiles.file;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.junit.Test;

/**
 * The inode cache's rules: capacity, pinning of open files, a closed file leaving at the end of its
 * closing operation, evictions only where allowed, second chance, one object per inode.
 */
public class InodeCacheTest {
  private static INodeFile open(long id) {
    INodeFile f = file(id);
    f.toUnderConstruction("client", "machine");
    return f;
  }

  @Test
  public void trimEvictsDownToCapacityAndCountsEvictions() {
    InodeCache c = new InodeCache(10);
    for (long id = 1; id <= 25; id++) {
      c.addLoaded(file(id), false);
    }
    assertEquals(25, c.size());
    assertTrue(c.overCapacity());
    assertEquals(15, c.trim());
    assertEquals(10, c.size());
    assertEquals(15, c.evictions());
    assertTrue(!c.overCapacity());
  }

  @Test
  public void openFilesArePinnedAndNotCounted() {
    InodeCache c = new InodeCache(2);
    INodeFile open = open(100);
    c.put(open);
    for (long id = 1; id <= 10; id++) {
      c.addLoaded(file(id), false);
    }
    c.trim();
    assertSame(open, c.get(100));
    assertEquals(1, c.pinnedCount());
    assertEquals(3, c.size());
  }

  @Test
  public void aFileClosedByItsWriterLeavesWhenTheClosingOperationEnds() {
    InodeCache c = new InodeCache(10);
    INodeFile f = open(100);
    c.put(f); // create
    f.toCompleteFile(2L);
    c.put(f); // close
    // still found until the operation ends (it may look the file up again), and not evictable
    assertSame(f, c.peek(100));
    assertEquals(0, c.trim());
    assertEquals(1, c.releaseClosed());
    assertNull(c.peek(100));
    assertEquals(0, c.size());
    assertEquals("a release is not an eviction", 0, c.evictions());
    // read after its close: a miss materializes it into the evictable part, where it stays
    INodeFile read = file(100);
    assertSame(read, c.addLoaded(read, true));
    assertEquals(0, c.releaseClosed());
    assertSame(read, c.get(100));
    assertEquals(0, c.pinnedCount());
  }

  @Test
  public void aFileClosedAndReopenedByOneOperationStaysPinned() {
    InodeCache c = new InodeCache(10);
    INodeFile f = open(100);
    c.put(f);
    f.toCompleteFile(2L);
    c.put(f); // closed (lease recovery) ...
    f.toUnderConstruction("other", "machine");
    c.put(f); // ... and appended to within the same operation
    assertEquals(0, c.releaseClosed());
    assertSame(f, c.peek(100));
    assertEquals(1, c.pinnedCount());
  }

  @Test
  public void aClosedFileReadBeforeItsAppendLeavesAtItsNextClose() {
    InodeCache c = new InodeCache(10);
    INodeFile f = file(100);
    c.addLoaded(f, true); // read
    f.toUnderConstruction("client", "machine");
    c.put(f); // append: pinned
    assertEquals(1, c.pinnedCount());
    f.toCompleteFile(3L);
    c.put(f);
    assertEquals(1, c.releaseClosed());
    assertNull(c.peek(100));
  }

  @Test
  public void aClosedFileAWriteOperationChangesStaysEvictable() {
    InodeCache c = new InodeCache(10);
    INodeFile f = file(100);
    c.addLoaded(f, false); // a write operation's miss
    f.setModificationTime(9L);
    c.put(f); // its change persisted
    assertEquals(0, c.releaseClosed());
    assertSame(f, c.peek(100));
    assertEquals(0, c.pinnedCount());
    assertEquals(1, c.size());
  }

  @Test
  public void onlyAnAddAllowedToEvictEvicts() {
    InodeCache c = new InodeCache(4);
    for (long id = 1; id <= 6; id++) {
      c.addLoaded(file(id), false); // a write operation's misses: no eviction under it
    }
    assertEquals(6, c.size());
    assertEquals(0, c.evictions());
    assertTrue("the excess waits for a trim", c.overCapacity());
    INodeFile last = file(7);
    assertSame(last, c.addLoaded(last, true)); // a reader's miss: its set gives up an entry
    assertEquals(6, c.size());
    assertEquals(1, c.evictions());
    assertSame(last, c.peek(7));
    assertEquals(2, c.trim()); // the excess moves in, each evicting one
    assertEquals(4, c.size());
    assertTrue(!c.overCapacity());
    assertEquals(3, c.evictions());
  }

  @Test
  public void anAppendToACachedFilePinsItUntilItsClose() {
    InodeCache c = new InodeCache(4);
    INodeFile f = file(100);
    c.addLoaded(f, true);
    f.toUnderConstruction("client", "machine");
    c.put(f);
    assertEquals(1, c.pinnedCount());
    for (long id = 1; id <= 20; id++) {
      c.addLoaded(file(id), true); // fill and churn the sets
    }
    assertSame(f, c.peek(100));
    f.toCompleteFile(3L);
    c.put(f);
    assertEquals(1, c.releaseClosed());
    assertNull(c.peek(100));
    assertEquals(4, c.size());
  }

  @Test
  public void aFileUsedSinceTheHandPassedGetsASecondChance() {
    InodeCache c = new InodeCache(4);
    for (long id = 1; id <= 5; id++) {
      c.addLoaded(file(id), false);
    }
    // 1 and 2 are used; 3, 4 and 5 are not
    assertNotNull(c.get(1));
    assertNotNull(c.get(2));
    assertEquals(1, c.trim());
    assertNotNull(c.peek(1));
    assertNotNull(c.peek(2));
    int unusedLeft = 0;
    for (long id = 3; id <= 5; id++) {
      unusedLeft += c.peek(id) != null ? 1 : 0;
    }
    assertEquals(2, unusedLeft);
  }

  @Test
  public void aRacingMaterializationKeepsTheFirstObject() {
    InodeCache c = new InodeCache(10);
    INodeFile first = file(7);
    assertSame(first, c.addLoaded(first, true));
    assertSame(first, c.addLoaded(file(7), true));
    assertSame(first, c.get(7));
    c.remove(7);
    assertNull(c.get(7));
    assertEquals(1, c.misses());
    assertEquals(1, c.hits());
  }

  @Test
  public void aReplacedObjectIsTheOneFound() {
    InodeCache c = new InodeCache(10);
    c.addLoaded(file(7), false);
    INodeFile other = file(7);
    c.put(other);
    assertSame(other, c.peek(7));
    assertEquals(1, c.size());
  }

  @Test
  public void aReleasedOrEvictedFileGivesBackItsAclReference() {
    AclFeature acl =
        new AclFeature(
            AclEntryStatusFormat.toInt(
                Arrays.asList(
                    new AclEntry.Builder()
                        .setScope(AclEntryScope.ACCESS)
                        .setType(AclEntryType.USER)
                        .setName("cachetest-" + System.nanoTime())
                        .setPermission(FsAction.READ)
                        .build())));
    InodeCache c = new InodeCache(1);
    INodeFile written = open(100);
    written.addAclFeature(acl);
    AclFeature shared = written.getAclFeature();
    assertEquals(1, refs(shared));
    c.put(written);
    written.toCompleteFile(2L);
    c.put(written);
    c.releaseClosed();
    assertEquals("after the closing operation", 0, refs(shared));

    INodeFile read = file(101);
    read.addAclFeature(acl);
    c.addLoaded(read, true);
    assertEquals(1, refs(shared));
    c.addLoaded(file(102), true); // evicts 101
    assertNull(c.peek(101));
    assertEquals("after the eviction", 0, refs(shared));
  }

  private static long refs(AclFeature a) {
    return AclStorage.getUniqueAclFeatures().getReferenceCount(a);
  }

  @Test
  public void theTableShrinksBackAfterALargeExcess() {
    InodeCache c = new InodeCache(1000);
    int initial = c.tableLength();
    for (long id = 1; id <= 50_000; id++) {
      c.addLoaded(file(id), false); // e.g. a rename's quota walk over a large subtree
    }
    assertTrue(c.tableLength() > 49_000);
    assertEquals(49_000, c.trim());
    assertTrue("back to " + c.tableLength(), c.tableLength() <= 2 * initial);
    for (long id = 1; id <= 50_000; id++) {
      INodeFile f = c.peek(id);
      assertTrue(f == null || f.getId() == id);
    }
    assertEquals(1000, c.size());
  }
}
