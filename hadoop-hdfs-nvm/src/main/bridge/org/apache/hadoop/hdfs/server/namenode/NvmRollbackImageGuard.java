package org.apache.hadoop.hdfs.server.namenode;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Keeps an fsimage saved in NVM mode (dfsadmin -saveNamespace, or the offline export) loadable by
 * the stock NameNode exactly as long as it holds the whole namespace.
 *
 * <p>The stock start-up loads the newest fsimage and insists on edits up to {@code seen_txid} ("Gap
 * in transactions" otherwise). In NVM mode no edit is ever written, so the stock save's {@code
 * seen_txid} of image + 1 would make every such image unloadable, and a {@code seen_txid} equal to
 * the image's would make a stale image look complete once the namespace changed. So after a save
 * {@code seen_txid} is the image's transaction, and the first namespace change after it (any
 * write-through of {@link NvmFSEditLog}, under the write lock, before it is persisted) sets it to
 * image + 1 first: from then on the stock NameNode refuses the image instead of silently losing
 * that change.
 */
final class NvmRollbackImageGuard {
  static final Log LOG = LogFactory.getLog(NvmRollbackImageGuard.class);

  private final NNStorage storage;

  /** Transaction of the last saved image while the namespace is unchanged since, else -1. */
  private volatile long imageTxId = -1;

  NvmRollbackImageGuard(NNStorage storage) {
    this.storage = storage;
  }

  /** An fsimage of {@code txid} was saved in every name directory. */
  synchronized void imageSaved(long txid) {
    storage.writeTransactionIdFileToStorage(txid);
    imageTxId = txid;
    LOG.info(
        "NVM NameNode: fsimage of transaction "
            + txid
            + " saved; seen_txid is "
            + txid
            + " so that the stock "
            + "NameNode can start on it until the namespace changes");
  }

  /**
   * The transaction of the newest fsimage if it still holds the whole namespace (saved by this
   * NameNode, no change since), else -1. After a restart no image counts as current: start-up opens
   * a new segment and moves {@code seen_txid} past every image.
   */
  long currentImageTxId() {
    return imageTxId;
  }

  /**
   * Called before every namespace change is persisted; costs a volatile read unless an image was
   * just saved.
   */
  void beforeChange() {
    if (imageTxId < 0) {
      return;
    }
    synchronized (this) {
      long txid = imageTxId;
      if (txid >= 0) {
        storage.writeTransactionIdFileToStorage(txid + 1);
        imageTxId = -1;
        LOG.info(
            "NVM NameNode: the namespace changes after the fsimage of transaction "
                + txid
                + "; seen_txid is now "
                + (txid + 1)
                + ", so the stock NameNode refuses that image (export again before a rollback)");
      }
    }
  }
}
