package org.nvmnn.workload.heap;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.AclFeature;
import org.apache.hadoop.hdfs.server.namenode.AclStorage;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.hdfs.util.ReferenceCountMap;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import org.nvmnn.it.NvmCluster;

/**
 * The heap driver's file creation against a MiniDFSCluster NameNode without real DataNodes (stock
 * and NVM): the fake DataNode lets every one-block file close with its 1-byte block located on it,
 * empty files close without blocks, and the driver's own check passes; files with attributes get
 * their ACL and xattrs; and the class histogram of this JVM is read from the real jcmd.
 */
@RunWith(Parameterized.class)
public class HeapFillClusterTest {
  @Parameters(name = "nvm={0}")
  public static Collection<Object[]> modes() {
    return Arrays.asList(new Object[][] {{false}, {true}});
  }

  private final boolean nvm;

  public HeapFillClusterTest(boolean nvm) {
    this.nvm = nvm;
  }

  @Test
  public void filesCloseWithTheirBlocksOnTheFakeDatanode() throws Exception {
    Configuration conf = nvm ? NvmCluster.nvmConf() : new HdfsConfiguration();
    MiniDFSCluster cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 0));
    try {
      NamenodeProtocols nn = cluster.getNameNodeRpc();
      HeapFill fill = new HeapFill(nn, 2, 10);
      try (FakeDatanode dn = new FakeDatanode(nn, 40010)) {
        fill.createAll("/heap/block", 0, 30, 30, dn);
        fill.verify("/heap/block", 30, true);
        fill.createAll("/heap/empty", 0, 20, 20, null);
        fill.verify("/heap/empty", 20, false);
      }
      for (int i = 0; i < 30; i++) {
        LocatedBlocks lbs =
            nn.getBlockLocations("/heap/block/d" + (i / 10) + "/f" + i, 0, Long.MAX_VALUE);
        assertFalse(lbs.isUnderConstruction());
        assertEquals(1, lbs.getFileLength());
        assertEquals(1, lbs.locatedBlockCount());
        assertEquals(1, lbs.get(0).getLocations().length);
        assertEquals(40010, lbs.get(0).getLocations()[0].getXferPort());
      }
      for (int i = 0; i < 20; i++) {
        LocatedBlocks lbs =
            nn.getBlockLocations("/heap/empty/d" + (i / 10) + "/f" + i, 0, Long.MAX_VALUE);
        assertFalse(lbs.isUnderConstruction());
        assertEquals(0, lbs.locatedBlockCount());
      }
    } finally {
      cluster.shutdown();
    }
  }

  /**
   * Files with an ACL and two xattrs: every file has them (also when evicted and read back from its
   * page in NVM mode), and in NVM mode the global ACL feature map counts no more references than
   * the inode cache holds files (evicted files give theirs back).
   */
  @Test
  public void filesGetTheirAclAndXattrs() throws Exception {
    Configuration conf = nvm ? NvmCluster.nvmConf() : new HdfsConfiguration();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
    MiniDFSCluster cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 0));
    try {
      NamenodeProtocols nn = cluster.getNameNodeRpc();
      HeapFill fill = new HeapFill(nn, 2, 10);
      long refs0 = aclReferences();
      fill.createAll("/heap/attrs", 0, 40, 40, null, true);
      fill.verifyAttrs("/heap/attrs", 40);
      for (int i = 0; i < 40; i++) {
        FileAttrs.check(nn, "/heap/attrs/d" + (i / 10) + "/f" + i, i);
      }
      long added = aclReferences() - refs0;
      if (nvm) {
        assertTrue("ACL references " + added, added <= NvmCluster.TEST_CACHE_INODES);
      } else {
        assertEquals(40, added);
      }
    } finally {
      cluster.shutdown();
    }
  }

  /**
   * Directories that inherit a default ACL count one reference each, as in the stock NameNode, and
   * give it back when deleted: the NVM NameNode replaces each new directory's object at the end of
   * its operation, and the replaced object's reference must not stay in the map.
   */
  @Test
  public void inheritedDirectoryAclsAreCountedOnce() throws Exception {
    Configuration conf = nvm ? NvmCluster.nvmConf() : new HdfsConfiguration();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
    MiniDFSCluster cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 0));
    try {
      org.apache.hadoop.hdfs.DistributedFileSystem fs = cluster.getFileSystem();
      org.apache.hadoop.fs.Path parent = new org.apache.hadoop.fs.Path("/inherit");
      fs.mkdirs(parent);
      fs.modifyAclEntries(
          parent,
          org.apache.hadoop.fs.permission.AclEntry.parseAclSpec("default:user:alice:r-x", true));
      long refs0 = aclReferences();
      for (int i = 0; i < 30; i++) {
        fs.mkdirs(new org.apache.hadoop.fs.Path(parent, "d" + i));
      }
      assertEquals("references of 30 new directories", 30, aclReferences() - refs0);
      fs.delete(parent, true);
      assertTrue("references left after the delete", aclReferences() - refs0 <= 0);
    } finally {
      cluster.shutdown();
    }
  }

  /** The references of 2.7.3's global ACL feature map (it outlives a MiniDFSCluster). */
  private static long aclReferences() {
    ReferenceCountMap<AclFeature> m = AclStorage.getUniqueAclFeatures();
    long refs = 0;
    for (AclFeature a : m.getEntries()) {
      refs += m.getReferenceCount(a);
    }
    return refs;
  }

  @Test
  public void readsThisJvmsHistogramWithJcmd() throws Exception {
    if (nvm) {
      return; // no NameNode involved; once is enough
    }
    long pid = Long.parseLong(ManagementFactory.getRuntimeMXBean().getName().split("@")[0]);
    ClassHistogram h = ClassHistogram.take("jcmd", pid);
    assertTrue(h.totalBytes > 0);
    assertTrue(h.byClass.containsKey("java.lang.String"));
    assertTrue(h.byClass.get("java.lang.String")[0] > 0);
  }
}
