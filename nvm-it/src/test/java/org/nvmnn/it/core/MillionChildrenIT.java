package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;

import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.Test;

/**
 * One directory with 1,000,000 children, in stock and in NVM mode: created through the NameNode's
 * RPC methods in this JVM, listed page by page, restarted, listed again (the item limit itself is
 * ClientLimitsTest's). Not part of make test (about 90 s on this machine): {@code mvn -pl nvm-it
 * surefire:test -Dtest=MillionChildrenIT}.
 */
public class MillionChildrenIT {
  private static final int CHILDREN = Integer.getInteger("nvm.children", 1_000_000);

  private static int list(NamenodeProtocols nn) throws Exception {
    int n = 0;
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing l;
    do {
      l = nn.getListing("/big", after, false);
      n += l.getPartialListing().length;
      after = l.getLastName();
    } while (l.hasMore());
    return n;
  }

  private static void run(boolean nvm) throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    if (nvm) {
      conf.set(NvmConfigKeys.NVM_REGION_SIZE_KEY, "1g");
    }
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        NamespaceOpsTestBase.baseDir(MillionChildrenIT.class) + "-" + nvm);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    try {
      cluster.waitActive();
      NamenodeProtocols nn = cluster.getNameNodeRpc();
      nn.mkdirs("/big", FsPermission.getDirDefault(), true);
      long t0 = System.nanoTime();
      for (int i = 0; i < CHILDREN; i++) {
        String p = "/big/f" + i;
        HdfsFileStatus st =
            nn.create(
                p,
                FsPermission.getFileDefault(),
                "million",
                new EnumSetWritable<CreateFlag>(EnumSet.of(CreateFlag.CREATE)),
                false,
                (short) 1,
                1 << 20,
                CryptoProtocolVersion.supported());
        nn.complete(p, "million", null, st.getFileId());
      }
      long created = System.nanoTime();
      assertEquals(CHILDREN, list(nn));
      long listed = System.nanoTime();
      cluster.restartNameNode(true);
      long restarted = System.nanoTime();
      nn = cluster.getNameNodeRpc();
      assertEquals(CHILDREN, list(nn));
      System.out.printf(
          "MILLION %s: %d children created in %.1f s, listed in %.1f s, NameNode restart %.1f s,"
              + " listed again after restart: %d%n",
          nvm ? "nvm" : "stock",
          CHILDREN,
          (created - t0) / 1e9,
          (listed - created) / 1e9,
          (restarted - listed) / 1e9,
          CHILDREN);
    } finally {
      cluster.shutdown();
    }
  }

  @Test(timeout = 3_600_000)
  public void aMillionChildrenInOneDirectoryInBothModes() throws Exception {
    run(false);
    run(true);
  }
}
