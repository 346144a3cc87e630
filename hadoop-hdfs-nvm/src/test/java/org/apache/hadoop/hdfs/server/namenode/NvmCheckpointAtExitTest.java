package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.Assert.*;

import java.io.File;
import java.nio.file.Files;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.PersistMode;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionIdentity;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionOptions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The disk mode's checkpoint at JVM shutdown (a SIGTERM'd NameNode never closes its region). */
public class NvmCheckpointAtExitTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static final RegionIdentity ID = new RegionIdentity(7, "CID-exit", "BP-7-127.0.0.1-1");
  private static final RegionOptions NO_CHECKPOINTER =
      new RegionOptions(null, 1 << 20, 0, 0, RegionOptions.NO_CHECKPOINTER);

  @Test
  public void theHookEmptiesTheLogAndTheNextOpenReplaysNothing() throws Exception {
    File f = tmp.newFile("r.region");
    Files.delete(f.toPath());
    Object monitor = new Object();
    try (InodeStore s =
        InodeStore.open(Region.create(f, 4L << 20, ID, PersistMode.DISK, NO_CHECKPOINTER))) {
      s.format(1000L, 0755, "hdfs", "supergroup");
      Region r = s.region();
      assertTrue("the format's commits are in the log", r.logStats().used() > 0);
      NvmCheckpointAtExit hook = NvmCheckpointAtExit.register(monitor, f, r);
      assertNotNull("a disk-mode region gets the hook", hook);
      hook.run(); // what the JVM's shutdown runs
      assertEquals("nothing left to replay", 0, r.logStats().used());
      hook.remove();
      // copy the region and its log as a power loss right now would leave them (no close)
      Files.copy(f.toPath(), new File(tmp.getRoot(), "c.region").toPath());
      Files.copy(r.logFile().toPath(), new File(tmp.getRoot(), "c.region.wal").toPath());
    }
    try (Region c =
        Region.open(new File(tmp.getRoot(), "c.region"), PersistMode.DISK, NO_CHECKPOINTER)) {
      assertEquals("the open replays nothing", 0, c.recovery().logRecords());
    }
  }

  @Test
  public void aClosedRegionOrAMemoryModeGetsNothing() throws Exception {
    File f = tmp.newFile("m.region");
    Files.delete(f.toPath());
    Object monitor = new Object();
    try (Region r = Region.create(f, 4L << 20, ID, PersistMode.EMULATED)) {
      assertNull("no log, no hook", NvmCheckpointAtExit.register(monitor, f, r));
    }
    File d = tmp.newFile("d.region");
    Files.delete(d.toPath());
    Region r = Region.create(d, 4L << 20, ID, PersistMode.DISK, NO_CHECKPOINTER);
    NvmCheckpointAtExit hook = NvmCheckpointAtExit.register(monitor, d, r);
    hook.remove();
    r.close();
    hook.run(); // after the close: no call on the closed region, no exception
    assertTrue(r.isClosed());
  }
}
