package org.nvmnn.it.core;

import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.namenode.FSEditLog;
import org.apache.hadoop.util.ExitUtil;
import org.junit.After;
import org.junit.Test;

/**
 * The last line of defence: an edit-log operation the NVM edit log does not persist (here starting
 * a rolling upgrade, whose PREPARE NvmRpcServer refuses up front) reaching the edit log stops the
 * NameNode (ExitUtil.terminate naming the op) instead of being acknowledged and lost on restart.
 */
public class NvmSafetyNetTest {
  private MiniDFSCluster c;

  @After
  public void tearDown() {
    ExitUtil.resetFirstExitException();
    if (c != null) {
      c.shutdown();
    }
  }

  @Test
  public void unsupportedOpReachingTheEditLogTerminatesTheNameNode() throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(true);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR, NamespaceOpsTestBase.baseDir(NvmSafetyNetTest.class));
    c = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    ExitUtil.disableSystemExit();
    FSEditLog log = c.getNamesystem().getEditLog();
    Method m = FSEditLog.class.getDeclaredMethod("logStartRollingUpgrade", long.class);
    m.setAccessible(true);
    try {
      m.invoke(log, 1234567890000L);
      fail("the NameNode accepted an op it cannot persist");
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      assertTrue("expected ExitException, got " + t, t instanceof ExitUtil.ExitException);
      assertTrue(t.getMessage(), t.getMessage().contains("OP_ROLLING_UPGRADE_START"));
    }
    assertTrue(ExitUtil.terminateCalled());
  }
}
