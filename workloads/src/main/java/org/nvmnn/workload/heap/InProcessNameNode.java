package org.nvmnn.workload.heap;

import java.io.IOException;
import java.net.InetAddress;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;

/**
 * The NameNode the in-process drivers ({@link NamespaceBuild}, {@link SnapshotDeleteBench}, {@link
 * SnapshotOpsBench}) call directly: started from the configuration on the class path (stock or
 * NVM), out of safe mode, its namesystem's class printed as "LABEL namenode CLASS" (the suite's
 * check_namesystem reads it).
 */
final class InProcessNameNode {
  private InProcessNameNode() {}

  static NameNode start(String label) throws IOException {
    NameNode nameNode = NameNode.createNameNode(new String[0], new HdfsConfiguration());
    nameNode.getRpcServer().setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
    System.out.println(label + " namenode " + nameNode.getNamesystem().getClass().getName());
    return nameNode;
  }

  /**
   * NNBenchWithoutMR's layout for {@code files} files by {@code dirs} clients under {@code root},
   * each client's directory made.
   */
  static ClientShares shares(NamenodeProtocols nn, String root, long files, int dirs)
      throws IOException {
    ClientShares shares =
        new ClientShares(root, InetAddress.getLocalHost().getHostName(), files, dirs);
    for (int c = 0; c < dirs; c++) {
      nn.mkdirs(shares.dirOf(c), FsPermission.getDirDefault(), true);
    }
    return shares;
  }
}
