package org.nvmnn.workload;

import java.lang.reflect.Method;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.StringUtils;

/**
 * The process-crash test's NameNode main class: {@code NameNode.main}'s start-up (the NameNode of
 * the jar on the class path, unmodified, NVM or stock by configuration), then the lease limits
 * shortened the way upstream tests shorten them — {@code MiniDFSCluster#setLeasePeriod} is {@code
 * LeaseManager#setLeasePeriod} on the running namesystem — because 2.7.3 has no configuration key
 * for them: the hard limit is the constant {@code HdfsConstants.LEASE_HARDLIMIT_PERIOD}, one hour.
 * The limits are set once the NameNode is constructed (it is then in safe mode, where the lease
 * monitor does nothing), so they apply from the first lease check after the start; every restart is
 * a new process and sets them again.
 *
 * <p>System properties: {@code nvmnn.lease.hard-limit-ms} (required), {@code
 * nvmnn.lease.soft-limit-ms} (default: the smaller of the hard limit and 2.7.3's soft limit).
 */
public final class ShortLeaseNameNode {
  private static final Log LOG = LogFactory.getLog(NameNode.class);

  private ShortLeaseNameNode() {}

  public static void main(String[] args) {
    long hard = Long.getLong("nvmnn.lease.hard-limit-ms", -1);
    long soft =
        Long.getLong(
            "nvmnn.lease.soft-limit-ms", Math.min(hard, HdfsConstants.LEASE_SOFTLIMIT_PERIOD));
    try {
      if (hard <= 0 || soft <= 0) {
        throw new IllegalArgumentException("-Dnvmnn.lease.hard-limit-ms=<ms> is required");
      }
      StringUtils.startupShutdownMessage(NameNode.class, args, LOG);
      NameNode nn = NameNode.createNameNode(args, null);
      if (nn == null) {
        ExitUtil.terminate(0);
        return;
      }
      setLeasePeriod(nn.getNamesystem(), soft, hard);
      LOG.info(
          "Lease limits of this test NameNode (LeaseManager#setLeasePeriod, as"
              + " MiniDFSCluster#setLeasePeriod): soft "
              + soft
              + " ms, hard "
              + hard
              + " ms");
      nn.join();
    } catch (Throwable e) {
      LOG.error("Failed to start namenode.", e);
      ExitUtil.terminate(1, e);
    }
  }

  /**
   * {@code LeaseManager} is public, its {@code setLeasePeriod} too; the namesystem's accessor is
   * package-private. Unlike {@code NameNodeAdapter#setLeasePeriod} this does not interrupt the
   * lease monitor thread (an interrupt during its edit-log sync would close the stock edit log's
   * channel).
   */
  private static void setLeasePeriod(FSNamesystem fsn, long soft, long hard) throws Exception {
    Method m = FSNamesystem.class.getDeclaredMethod("getLeaseManager");
    m.setAccessible(true);
    Object leaseManager = m.invoke(fsn);
    leaseManager
        .getClass()
        .getMethod("setLeasePeriod", long.class, long.class)
        .invoke(leaseManager, soft, hard);
  }
}
