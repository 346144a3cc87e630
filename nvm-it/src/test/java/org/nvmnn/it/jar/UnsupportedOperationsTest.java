package org.nvmnn.it.jar;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NvmUnsupportedOperationException;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.Timeout;
import org.nvmnn.it.NvmCluster;

/**
 * In NVM mode every operation the region cannot persist is refused at the RPC boundary with a
 * message naming the feature and NVM mode, and the namespace is unchanged afterwards; read-only
 * counterparts keep working. Skipped only while the NVM loader is still the placeholder.
 */
public class UnsupportedOperationsTest {
  /**
   * A NameNode that never becomes active (DataNodes cannot register) would otherwise hang
   * waitActive.
   */
  @ClassRule public static final Timeout TIMEOUT = Timeout.seconds(180);

  private static final Path DIR = new Path("/unsup");
  private static final Path FILE = new Path("/unsup/file");
  private static final Path FILE2 = new Path("/unsup/file2");
  private static final Path SUB = new Path("/unsup/sub");

  private static MiniDFSCluster cluster;
  private static DistributedFileSystem fs;
  private static ClientProtocol nn;

  @BeforeClass
  public static void startCluster() throws Exception {
    Configuration conf = NvmCluster.nvmConf();
    // ACLs on, so that an ACL call reaches the point where NVM mode must refuse it
    // (with ACLs off the stock NameNode would reject it for that reason instead).
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
    cluster = NvmCluster.buildOrSkipIfPlaceholder(NvmCluster.builder(conf, 1));
    fs = cluster.getFileSystem();
    nn = fs.getClient().getNamenode();
    assertTrue(fs.mkdirs(SUB));
    for (Path p : new Path[] {FILE, FILE2}) {
      try (FSDataOutputStream out = fs.create(p)) {
        out.write("some bytes".getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  @AfterClass
  public static void stopCluster() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private interface Op {
    void run() throws Exception;
  }

  /**
   * {@code op} fails with a message naming {@code feature} and NVM mode; the namespace is
   * unchanged.
   */
  private static void assertRefused(String feature, Op op) throws Exception {
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    try {
      op.run();
      fail(feature + ": the operation was accepted in NVM mode");
    } catch (IOException e) {
      String m = String.valueOf(e.getMessage());
      assertTrue(
          feature + ": unexpected message: " + e,
          m.contains("NVM NameNode: " + feature)
              && m.contains("not supported")
              && m.contains("dfs.namenode.nvm.enabled=true"));
      if (e instanceof RemoteException) {
        assertEquals(
            NvmUnsupportedOperationException.class.getName(), ((RemoteException) e).getClassName());
      } else {
        assertTrue("unexpected exception type " + e, e instanceof NvmUnsupportedOperationException);
      }
    }
    NvmCluster.assertSameNamespace(feature, before, NvmCluster.snapshot(fs));
  }

  /** A refused call is in the audit log as a denied one: allowed=false, the call, the path. */
  @Test
  public void refusalsAreAudited() throws Exception {
    StringWriter log = new StringWriter();
    org.apache.log4j.Logger audit =
        org.apache.log4j.Logger.getLogger(FSNamesystem.class.getName() + ".audit");
    WriterAppender appender = new WriterAppender(new PatternLayout("%m%n"), log);
    audit.addAppender(appender);
    org.apache.log4j.Level level = audit.getLevel();
    audit.setLevel(org.apache.log4j.Level.INFO); // the NameNode audits only with INFO on
    try {
      assertRefused("snapshots", () -> fs.createSnapshot(DIR, "s1"));
      assertRefused("inotify", () -> nn.getEditsFromTxid(0));
    } finally {
      audit.removeAppender(appender);
      audit.setLevel(level);
    }
    String text = log.toString();
    assertTrue(
        text, text.contains("allowed=false") && text.contains("cmd=createSnapshot\tsrc=" + DIR));
    assertTrue(text, text.contains("cmd=getEditsFromTxid"));
  }

  /**
   * Snapshots are refused; allowing and disallowing them on a directory is not (persisted since
   * issue 40's first step: SnapshottableRestartTest).
   */
  @Test
  public void snapshotsAreRefused() throws Exception {
    fs.allowSnapshot(DIR);
    assertEquals(1, fs.getSnapshottableDirListing().length);
    assertRefused("snapshots", () -> fs.createSnapshot(DIR, "s1"));
    assertRefused("snapshots", () -> fs.renameSnapshot(DIR, "s1", "s2"));
    assertRefused("snapshots", () -> fs.deleteSnapshot(DIR, "s1"));
    fs.disallowSnapshot(DIR);
    assertNull(fs.getSnapshottableDirListing());
  }

  /** The one symlink the region cannot hold: a target over SYMLINK_TARGET_MAX bytes. */
  @Test
  public void aSymlinkTargetLongerThanTheRegionHoldsIsRefused() throws Exception {
    StringBuilder target = new StringBuilder("/t");
    while (target.length() <= RegionLayout.SYMLINK_TARGET_MAX) {
      target.append("/0123456789");
    }
    assertRefused(
        "symlink targets of " + target.length() + " bytes",
        () -> nn.createSymlink(target.toString(), "/unsup/link", FsPermission.getDefault(), false));
  }

  @Test
  public void encryptionZoneWithoutKeyProviderGetsTheStockAnswer() throws Exception {
    // zones are persisted (EncryptionZoneRestartTest, with a KMS); with no key provider configured
    // the stock NameNode refuses every zone itself, and the NVM NameNode gives that answer
    assertStockAnswer("java.io.IOException", () -> fs.createEncryptionZone(SUB, "key"));
    assertFalse(fs.listEncryptionZones().hasNext());
    assertNull(fs.getEZForPath(FILE));
  }

  @Test
  public void rollingUpgradePrepareIsRefused() throws Exception {
    assertRefused(
        "rolling upgrades (PREPARE)", () -> nn.rollingUpgrade(RollingUpgradeAction.PREPARE));
    // nothing was prepared, so nothing to finalize: the stock answer
    assertNull(nn.rollingUpgrade(RollingUpgradeAction.FINALIZE));
    assertNull(nn.rollingUpgrade(RollingUpgradeAction.QUERY));
  }

  private static void assertStockAnswer(String exceptionClass, Op op) throws Exception {
    NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
    try {
      op.run();
      fail("expected " + exceptionClass);
    } catch (RemoteException e) {
      assertEquals(e.toString(), exceptionClass, e.getClassName());
    }
    NvmCluster.assertSameNamespace(exceptionClass, before, NvmCluster.snapshot(fs));
  }

  /**
   * Where the stock NameNode refuses on an earlier check, its answer comes first (found by the
   * differential RPC fuzzer): a negative truncate length, a rolling upgrade by a non-superuser.
   */
  @Test
  public void theStockNameNodesEarlierChecksComeFirst() throws Exception {
    assertStockAnswer(
        "org.apache.hadoop.HadoopIllegalArgumentException",
        () -> nn.truncate(FILE.toString(), -1, "client"));
    UserGroupInformation bob =
        UserGroupInformation.createUserForTesting("bob", new String[] {"staff"});
    ClientProtocol asBob =
        bob.doAs(
            (java.security.PrivilegedExceptionAction<ClientProtocol>)
                () ->
                    ((DistributedFileSystem) FileSystem.newInstance(cluster.getConfiguration(0)))
                        .getClient()
                        .getNamenode());
    assertStockAnswer(
        "org.apache.hadoop.security.AccessControlException",
        () -> asBob.rollingUpgrade(RollingUpgradeAction.FINALIZE));
  }

  /** In safe mode a write is answered with SafeModeException first, as on the stock NameNode. */
  @Test
  public void safeModeIsReportedBeforeTheRefusal() throws Exception {
    fs.setSafeMode(SafeModeAction.SAFEMODE_ENTER);
    try {
      NvmCluster.Snapshot before = NvmCluster.snapshot(fs);
      for (Op op :
          new Op[] {
            () -> fs.setAcl(FILE, AclEntry.parseAclSpec("user::rw-,group::r--,other::---", true)),
            () -> fs.setXAttr(FILE, "user.k", new byte[] {1}, EnumSet.of(XAttrSetFlag.CREATE)),
            () -> fs.truncate(FILE, 1),
            () -> fs.createSnapshot(DIR, "s1")
          }) {
        try {
          op.run();
          fail("a write was accepted in safe mode");
        } catch (IOException e) {
          String cls =
              e instanceof RemoteException
                  ? ((RemoteException) e).getClassName()
                  : e.getClass().getName();
          assertEquals(e.toString(), SafeModeException.class.getName(), cls);
        }
      }
      NvmCluster.assertSameNamespace("safe mode", before, NvmCluster.snapshot(fs));
      // a non-HA stock NameNode starts a rolling upgrade only in safe mode: the NVM refusal
      assertRefused(
          "rolling upgrades (PREPARE)", () -> nn.rollingUpgrade(RollingUpgradeAction.PREPARE));
    } finally {
      fs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
    }
    assertRefused("snapshots", () -> fs.createSnapshot(DIR, "s1"));
  }

  @Test
  public void inotifyIsRefused() throws Exception {
    assertRefused("inotify", () -> nn.getEditsFromTxid(0));
  }
}
