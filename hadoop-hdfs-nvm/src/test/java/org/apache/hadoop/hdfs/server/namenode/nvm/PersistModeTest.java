package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import org.junit.Test;

public class PersistModeTest {
  @Test
  public void parsesConfigNamesIgnoringCaseAndBlanks() {
    assertEquals(PersistMode.PMEM, PersistMode.parse("pmem"));
    assertEquals(PersistMode.EMULATED, PersistMode.parse(" Emulated "));
    assertEquals(PersistMode.MSYNC, PersistMode.parse("MSYNC"));
    assertEquals(PersistMode.AUTO, PersistMode.parse("auto"));
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
    assertEquals(3, PersistMode.MSYNC.value());
  }
}
