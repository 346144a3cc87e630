package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.Collection;
import org.apache.hadoop.conf.Configuration;

/**
 * The name directories of an NVM NameNode. One difference from the stock storage: the newest
 * fsimage is handed out ({@code dfsadmin -fetchImage}, the NameNode's {@code /imagetransfer} with
 * {@code txid=latest}, the only caller) only while it holds the whole namespace. A stock NameNode's
 * newest fsimage plus its edits are the namespace; an NVM NameNode writes no edits, so an image
 * saved before the last change is simply old, and serving it would hand out a stale namespace
 * without a word. The refusal says how to get a current one.
 */
final class NvmNNStorage extends NNStorage {
  private volatile NvmRollbackImageGuard guard;

  NvmNNStorage(Configuration conf, Collection<URI> imageDirs, Collection<URI> editsDirs)
      throws IOException {
    super(conf, imageDirs, editsDirs);
  }

  void setGuard(NvmRollbackImageGuard guard) {
    this.guard = guard;
  }

  @Override
  public File getHighestFsImageName() {
    NvmRollbackImageGuard g = guard;
    if (g == null) { // HA: an image and the shared journal's edits after it are the namespace
      return super.getHighestFsImageName();
    }
    long txid = g.currentImageTxId();
    File f = txid < 0 ? null : getFsImageName(txid);
    if (f == null) {
      throw new NvmImageNotCurrentException(
          "NVM NameNode: no current fsimage to serve: the newest one in the name directory (if"
              + " any) was saved before the namespace last changed or before this NameNode"
              + " started, and NVM mode writes no edits to bring it forward. Save one and fetch it"
              + " while nothing can change: hdfs dfsadmin -safemode enter; hdfs dfsadmin"
              + " -saveNamespace; hdfs dfsadmin -fetchImage <dir>; hdfs dfsadmin -safemode leave"
              + " (docs/operator-guide.md, section 5)");
    }
    return f;
  }

  /**
   * Unchecked, because {@code getHighestFsImageName} declares nothing; the image servlet turns any
   * failure into its error response, with this message.
   */
  static final class NvmImageNotCurrentException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NvmImageNotCurrentException(String msg) {
      super(msg);
    }
  }
}
