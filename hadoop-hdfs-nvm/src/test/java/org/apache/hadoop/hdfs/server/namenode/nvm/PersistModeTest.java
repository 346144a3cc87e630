package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import org.junit.Test;

public class PersistModeTest {
  @Test
  public void parsesConfigNamesIgnoringCaseAndBlanks() {
    assertEquals(PersistMode.PMEM, PersistMode.parse("pmem"));
    assertEquals(PersistMode.EMULATED, PersistMode.parse(" Emulated "));
    assertEquals(PersistMode.DISK, PersistMode.parse("Disk"));
    assertEquals(PersistMode.AUTO, PersistMode.parse("auto"));
  }

  @Test
  public void readsTheOldNameMsyncAsDisk() {
    assertEquals(PersistMode.DISK, PersistMode.parse(" MSYNC"));
    assertTrue(PersistMode.isOldName("msync"));
    assertFalse(PersistMode.isOldName("disk"));
  }

  @Test(expected = IllegalArgumentException.class)
  public void rejectsUnknownNames() {
    PersistMode.parse("dax");
  }

  @Test
  public void valuesMirrorEnumNvmMode() {
    assertEquals(0, PersistMode.AUTO.value());
    assertEquals(1, PersistMode.PMEM.value());
    assertEquals(2, PersistMode.EMULATED.value());
    assertEquals(3, PersistMode.DISK.value());
  }
}
