package org.nvmnn.workload;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class SubtreeModelTest {
  private final SubtreeModel m = new SubtreeModel("/crash/t0", "t0#0");

  @Test
  public void renameMovesTheWholeSubtreeAndRemembersWhoMovedIt() {
    m.mkdir("/crash/t0/d1", "t0#1");
    m.mkdir("/crash/t0/d1/d2", "t0#2");
    m.createFile("/crash/t0/d1/d2/f3", 7, 300, FileContent.crc(7, 300), 1003, "t0#3");
    m.mkdir("/crash/t0/d4", "t0#4");
    m.rename("/crash/t0/d1", "/crash/t0/d4/d5", "t0#5");

    assertEquals(5, m.size()); // root, d4, d5, d2, f3
    assertEquals("t0#5", m.get("/crash/t0/d4/d5/d2/f3").placedBy);
    assertEquals("t0#3", m.get("/crash/t0/d4/d5/d2/f3").contentBy);
    assertEquals(1003, m.get("/crash/t0/d4/d5/d2/f3").inodeId);
    assertNull(m.get("/crash/t0/d1"));
    assertEquals("t0#5", m.removedBy("/crash/t0/d1/d2/f3"));
    assertEquals("t0#5", m.removedBy("/crash/t0/d1/d2/f3/never-existed"));
    assertNull(m.removedBy("/crash/t0/d4/d5"));
  }

  @Test
  public void descendantsDoNotIncludeSiblingsSharingANamePrefix() {
    m.mkdir("/crash/t0/d1", "t0#1");
    m.mkdir("/crash/t0/d10", "t0#2");
    m.mkdir("/crash/t0/d1/d3", "t0#3");
    assertEquals(1, m.descendants("/crash/t0/d1").size());
    assertTrue(m.descendants("/crash/t0/d1").containsKey("/crash/t0/d1/d3"));
  }

  @Test
  public void overwritingRenameReplacesTheDestinationFile() {
    m.createFile("/crash/t0/f1", 1, 100, FileContent.crc(1, 100), -1, "t0#1");
    m.createFile("/crash/t0/f2", 2, 200, FileContent.crc(2, 200), -1, "t0#2");
    m.rename("/crash/t0/f1", "/crash/t0/f2", "t0#3");
    assertEquals(2, m.size());
    assertEquals(100, m.get("/crash/t0/f2").length);
    assertEquals("t0#3", m.removedBy("/crash/t0/f1"));
  }

  @Test
  public void deleteRemovesTheSubtree() {
    m.mkdir("/crash/t0/d1", "t0#1");
    m.createFile("/crash/t0/d1/f2", 2, 200, FileContent.crc(2, 200), -1, "t0#2");
    m.delete("/crash/t0/d1", "t0#3");
    assertEquals(1, m.size());
    assertEquals("t0#3", m.removedBy("/crash/t0/d1/f2"));
  }

  @Test(expected = IllegalStateException.class)
  public void renamingADirectoryIntoItselfIsRejected() {
    m.mkdir("/crash/t0/d1", "t0#1");
    m.rename("/crash/t0/d1", "/crash/t0/d1/d2", "t0#2");
  }
}
