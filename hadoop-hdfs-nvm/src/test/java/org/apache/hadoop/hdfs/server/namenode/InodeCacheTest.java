package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfoContiguous;
import org.junit.Test;

/**
 * The inode cache's rules: capacity, pinning of open files, second chance, one object per inode.
 */
public class InodeCacheTest {
  private static final PermissionStatus PERM =
      new PermissionStatus("u", "g", FsPermission.getFileDefault());

  private static INodeFile file(long id) {
    return new INodeFile(
        id,
        DFSUtil.string2Bytes("f" + id),
        PERM,
        1L,
        1L,
        new BlockInfoContiguous[0],
        (short) 1,
        1L << 20);
  }

  @Test
  public void trimEvictsDownToCapacityAndCountsEvictions() {
    InodeCache c = new InodeCache(10);
    for (long id = 1; id <= 25; id++) {
      c.put(file(id));
    }
    assertEquals(25, c.size());
    assertEquals(15, c.trim());
    assertEquals(10, c.size());
    assertEquals(15, c.evictions());
  }

  @Test
  public void openFilesArePinnedAndNotCounted() {
    InodeCache c = new InodeCache(2);
    INodeFile open = file(100);
    open.toUnderConstruction("client", "machine");
    c.put(open);
    for (long id = 1; id <= 10; id++) {
      c.put(file(id));
    }
    c.trim();
    assertSame(open, c.get(100));
    assertEquals(1, c.pinnedCount());
    assertEquals(3, c.size());
    // closed: it joins the evictable part
    open.toCompleteFile(2L);
    c.put(open);
    assertEquals(0, c.pinnedCount());
    for (long id = 11; id <= 20; id++) {
      c.put(file(id));
    }
    c.trim();
    assertEquals(2, c.size());
  }

  @Test
  public void aFileUsedSinceTheHandPassedGetsASecondChance() {
    InodeCache c = new InodeCache(4);
    for (long id = 1; id <= 4; id++) {
      c.put(file(id));
    }
    c.put(file(5));
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
    assertSame(first, c.addLoaded(first));
    assertSame(first, c.addLoaded(file(7)));
    assertSame(first, c.get(7));
    c.remove(7);
    assertNull(c.get(7));
    assertEquals(1, c.misses());
    assertEquals(1, c.hits());
  }
}
