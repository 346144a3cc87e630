package org.nvmnn.it.ha;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.File;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.qjournal.MiniJournalCluster;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.nvm.tools.NamespaceDump;
import org.apache.hadoop.util.ExitUtil;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;

/**
 * A region ahead of the journal quorum is never served (docs/ha.md). With group commit (the
 * default) the active commits a batch to its region only after the quorum acknowledged its op, so
 * an edit the quorum never accepted never reaches the region. Without it (group commit off) the
 * active persists an op's batch before the quorum acknowledges the op; here the quorum is gone when
 * the active logs a mkdir, so the mkdir reaches the active's region but not the journal, and the
 * active stops (as 2.7.3 does when the shared journal fails). The other NameNode takes over without
 * it and writes other edits with the same transaction ids. When the first NameNode starts again, it
 * finds its region ahead of the segment the new active recovered: it sets the region aside, builds
 * a new one from its fsimage and the journal, and serves only what the quorum committed. Restarted
 * before the other NameNode recovered the segment it was writing, it waits for that instead of
 * loading.
 */
public class NvmHaRegionAheadTest {
  @Rule public final HaPair pair = new HaPair("ahead");

  @After
  public void tearDown() {
    ExitUtil.resetFirstExitException(); // before the pair shuts down: nn0 terminated on purpose
  }

  private static boolean holds(List<String> dump, String path) {
    for (String line : dump) {
      if (line.startsWith(path + " ")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The quorum goes away; NameNode 0's next op, a mkdir of /lost, reaches its region only (without
   * group commit; with it, nothing), and it terminates (as 2.7.3 does when the shared journal
   * fails); the JournalNodes come back.
   */
  private void crashWithAnUnacknowledgedMkdir(MiniDFSCluster c) throws Exception {
    crashWithAnUnacknowledgedMkdir(c, true);
  }

  private void crashWithAnUnacknowledgedMkdir(MiniDFSCluster c, boolean reachesTheRegion)
      throws Exception {
    MiniJournalCluster jns = pair.qjm().getJournalCluster();
    for (int i = 0; i < jns.getNumNodes(); i++) {
      jns.getJournalNode(i).stopAndJoin(0);
    }
    try {
      c.getNameNode(0).getRpcServer().mkdirs("/lost", FsPermission.getDefault(), true);
      fail("the mkdir was acknowledged without a journal quorum");
    } catch (ExitUtil.ExitException expected) {
      // logSync could not reach the quorum: the stock NameNode terminates
    }
    try {
      c.shutdownNameNode(0);
    } catch (RuntimeException e) {
      // the NameNode is already terminating
    }
    List<String> held = NamespaceDump.lines(HaPair.region(c, 0));
    if (reachesTheRegion) {
      assertTrue(
          "the test's premise: nn0's region holds the unacknowledged mkdir", holds(held, "/lost"));
    } else {
      assertFalse(
          "group commit: the unacknowledged mkdir is not in the region", holds(held, "/lost"));
      assertTrue(holds(held, "/before"));
    }
    for (int i = 0; i < jns.getNumNodes(); i++) {
      jns.restartJournalNode(i);
    }
    ExitUtil.resetFirstExitException();
  }

  /**
   * Its partner down, a NameNode that died as active with an unacknowledged edit in its region
   * waits for nobody: after dfs.namenode.nvm.ha.undecided.wait.ms it recovers the journal's last
   * segment itself (a new writer epoch), finds its region ahead, rebuilds it and serves only what
   * the quorum committed.
   */
  @Test(timeout = 300_000)
  public void aNameNodeLeftAloneRecoversTheJournalItself() throws Exception {
    pair.conf().setLong(NvmConfigKeys.NVM_HA_UNDECIDED_WAIT_KEY, 2000);
    pair.conf().setBoolean(NvmConfigKeys.NVM_GROUP_COMMIT_KEY, false);
    MiniDFSCluster c = pair.start(0);
    DistributedFileSystem fs = pair.client();
    fs.mkdirs(new Path("/before"));
    crashWithAnUnacknowledgedMkdir(c);
    c.shutdownNameNode(1);

    c.restartNameNode(0, false);
    assertTrue(
        "the region ahead was set aside",
        new File(HaPair.region(c, 0).getPath() + ".set-aside").isFile());
    c.transitionToActive(0);
    assertTrue(fs.exists(new Path("/before")));
    assertFalse("nn0 serves an edit the quorum never accepted", fs.exists(new Path("/lost")));
    fs.mkdirs(new Path("/after"));
    assertTrue(fs.exists(new Path("/after")));
  }

  /**
   * With group commit the same crash leaves a region that is not ahead: restarted alone, nn0
   * recovers the journal's last segment, finds its region servable (nothing set aside) and serves
   * what the quorum committed.
   */
  @Test(timeout = 300_000)
  public void withGroupCommitAnUnacknowledgedEditNeverReachesTheRegion() throws Exception {
    pair.conf().setLong(NvmConfigKeys.NVM_HA_UNDECIDED_WAIT_KEY, 2000);
    MiniDFSCluster c = pair.start(0);
    DistributedFileSystem fs = pair.client();
    fs.mkdirs(new Path("/before"));
    crashWithAnUnacknowledgedMkdir(c, false);
    c.shutdownNameNode(1);

    c.restartNameNode(0, false);
    assertFalse(
        "a region that is not ahead is kept",
        new File(HaPair.region(c, 0).getPath() + ".set-aside").exists());
    c.transitionToActive(0);
    assertTrue(fs.exists(new Path("/before")));
    assertFalse(fs.exists(new Path("/lost")));
    fs.mkdirs(new Path("/after"));
    assertTrue(fs.exists(new Path("/after")));
  }

  @Test(timeout = 300_000)
  public void aRegionAheadOfTheQuorumIsSetAsideAndRebuilt() throws Exception {
    // nn0 waits for nn1's transition rather than recovering the journal itself (that is the test
    // below)
    pair.conf().setLong(NvmConfigKeys.NVM_HA_UNDECIDED_WAIT_KEY, 120_000);
    pair.conf().setBoolean(NvmConfigKeys.NVM_GROUP_COMMIT_KEY, false);
    MiniDFSCluster c = pair.start(0);
    DistributedFileSystem fs = pair.client();
    fs.mkdirs(new Path("/before"));

    crashWithAnUnacknowledgedMkdir(c);
    File mark = new File(HaPair.region(c, 0).getParentFile(), "nvm-ha-writer-segment");
    assertTrue("nn0 stopped inside the segment it wrote as active: " + mark, mark.isFile());

    // nn0 restarts first: the segment it was writing is not finalized, so it cannot tell yet
    // whether its region is ahead, and waits instead of loading
    Throwable[] restart = new Throwable[1];
    Thread starter =
        new Thread(
            () -> {
              try {
                c.restartNameNode(0, false);
              } catch (Throwable t) {
                restart[0] = t;
              }
            },
            "restart nn0");
    starter.start();
    Thread.sleep(4000);
    assertTrue("nn0 waits for the journal to decide", starter.isAlive());

    c.transitionToActive(1); // recovers nn0's segment without the mkdir
    fs.mkdirs(new Path("/after")); // a different edit with the lost one's transaction id
    starter.join(120_000); // nn0 finds its region ahead: set aside, rebuilt, standby
    assertFalse("nn0's restart finished", starter.isAlive());
    if (restart[0] != null) {
      throw new AssertionError("nn0's restart failed", restart[0]);
    }
    File aside = new File(HaPair.region(c, 0).getPath() + ".set-aside");
    assertTrue("the region ahead of the quorum was set aside: " + aside, aside.isFile());
    assertTrue(holds(NamespaceDump.lines(aside), "/lost"));
    HATestUtil.waitForStandbyToCatchUp(c.getNameNode(1), c.getNameNode(0));

    c.transitionToStandby(1);
    c.transitionToActive(0);
    assertTrue(fs.exists(new Path("/before")));
    assertTrue(fs.exists(new Path("/after")));
    assertFalse("nn0 serves an edit the quorum never accepted", fs.exists(new Path("/lost")));

    c.shutdownNameNodes();
    List<String> dump0 = NamespaceDump.lines(HaPair.region(c, 0));
    assertEquals(
        "the rebuilt region and the other NameNode's hold the same namespace",
        NamespaceDump.lines(HaPair.region(c, 1)),
        dump0);
    assertFalse(holds(dump0, "/lost"));
  }
}
