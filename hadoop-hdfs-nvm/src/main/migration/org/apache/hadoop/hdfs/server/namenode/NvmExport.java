package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.common.Storage.StorageDirectory;
import org.apache.hadoop.hdfs.server.namenode.NNStorage.NameNodeDirType;
import org.apache.hadoop.hdfs.server.namenode.NNStorage.NameNodeFile;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;

/**
 * {@code NvmMigrationTool export}: writes a standard fsimage of a stopped NVM NameNode's namespace
 * into its name directories, so that the stock NameNode can start on them (rollback). It loads the
 * namesystem from the region exactly as the NVM NameNode's start-up does, without RPC, and saves it
 * with the stock image saver — the same path as {@code hdfs dfsadmin -saveNamespace} on a running
 * NVM NameNode — then closes it. See docs/migration.md.
 */
final class NvmExport {
  private final Configuration conf;
  private final PrintStream out;

  NvmExport(Configuration conf, PrintStream out) {
    this.conf = conf;
    this.out = out;
  }

  void run() throws IOException {
    Configuration nvm = new Configuration(conf);
    nvm.setBoolean(NvmConfigKeys.NVM_ENABLED_KEY, true);
    NvmMigrationTool.refuseHa(nvm, "export");
    File region = regionFile(nvm);
    if (!region.exists()) {
      // without this check the NVM start-up would create a region on a freshly formatted directory
      throw new NvmMigrationRefusedException(
          "refused, nothing was written: there is no region at "
              + region
              + ", so this name directory holds no NVM namespace to export (a stock name directory needs no export; "
              + "if the region lives elsewhere, set "
              + NvmConfigKeys.NVM_REGION_PATH_KEY
              + ")");
    }
    long t0 = System.nanoTime();
    FSNamesystem fsn = NvmNamesystemLoader.load(null, nvm); // locks the name dirs and the region
    try {
      out.println(
          "export: loaded "
              + fsn.getFSDirectory().getInodeMapSize()
              + " inodes from "
              + region
              + " in "
              + (System.nanoTime() - t0) / 1000000
              + " ms");
      long t1 = System.nanoTime();
      FSImage image = fsn.getFSImage();
      fsn.readLock();
      try {
        image.saveNamespace(fsn);
      } finally {
        fsn.readUnlock();
      }
      long txid = image.getStorage().getMostRecentCheckpointTxId();
      for (Iterator<StorageDirectory> it = image.getStorage().dirIterator(NameNodeDirType.IMAGE);
          it.hasNext(); ) {
        File f = NNStorage.getImageFile(it.next(), NameNodeFile.IMAGE, txid);
        out.println(
            "export: wrote " + f + " (" + f.length() + " bytes, with its .md5); seen_txid " + txid);
      }
      out.println(
          "export: done in "
              + (System.nanoTime() - t1) / 1000000
              + " ms: the stock NameNode ("
              + NvmConfigKeys.NVM_ENABLED_KEY
              + "=false or the stock jar) starts on "
              + NvmImport.dirs(image)
              + " with this namespace; the region is left as it is");
    } finally {
      fsn.close();
    }
  }

  /**
   * The region the NVM NameNode of {@code conf} would open (the storage is only read, not locked).
   */
  static File regionFile(Configuration conf) throws IOException {
    NNStorage storage =
        new NNStorage(
            conf, FSNamesystem.getNamespaceDirs(conf), FSNamesystem.getNamespaceEditsDirs(conf));
    try {
      return NvmFSImage.regionFile(conf, storage);
    } finally {
      storage.close();
    }
  }
}
