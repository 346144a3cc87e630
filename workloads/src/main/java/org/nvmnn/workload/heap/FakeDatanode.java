package org.nvmnn.workload.heap;

import java.io.Closeable;
import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.util.VersionInfo;

/**
 * A DataNode that exists only as DatanodeProtocol calls: it registers with one storage of ample
 * reported capacity, sends an empty first block report and then heartbeats every few seconds, and
 * reports the blocks the caller says it received. No block data exists anywhere; it lets the
 * NameNode place a block on it and complete the file, which is all the heap measurement needs.
 * Commands in heartbeat answers are ignored.
 */
final class FakeDatanode implements Closeable {
  private static final long CAPACITY = 1L << 50;

  private final DatanodeProtocol nn;
  private final DatanodeStorage storage = new DatanodeStorage("DS-" + UUID.randomUUID());
  private final String blockPoolId;
  private final DatanodeRegistration registration;
  private final Thread heartbeats;
  private volatile boolean closed;
  private volatile IOException heartbeatFailure;

  FakeDatanode(DatanodeProtocol nn, int xferPort) throws IOException {
    this.nn = nn;
    NamespaceInfo ns = nn.versionRequest();
    this.blockPoolId = ns.getBlockPoolID();
    StorageInfo si =
        new StorageInfo(
            DataNodeLayoutVersion.CURRENT_LAYOUT_VERSION,
            ns.getNamespaceID(),
            ns.getClusterID(),
            ns.getCTime(),
            NodeType.DATA_NODE);
    DatanodeID id =
        new DatanodeID(
            "127.0.0.1",
            "localhost",
            UUID.randomUUID().toString(),
            xferPort,
            xferPort + 1,
            0,
            xferPort + 2);
    this.registration =
        nn.registerDatanode(
            new DatanodeRegistration(id, si, new ExportedBlockKeys(), VersionInfo.getVersion()));
    registration.setNamespaceInfo(
        ns); // the block report's encoding depends on the NameNode's capabilities
    nn.blockReport(
        registration,
        blockPoolId,
        new StorageBlockReport[] {new StorageBlockReport(storage, BlockListAsLongs.EMPTY)},
        new BlockReportContext(1, 0, System.nanoTime()));
    heartbeat();
    heartbeats = new Thread(this::heartbeatLoop, "fake-datanode-heartbeat");
    heartbeats.setDaemon(true);
    heartbeats.start();
  }

  String blockPoolId() {
    return blockPoolId;
  }

  /** Tells the NameNode this node now holds {@code block} (finalized, with its length). */
  void received(Block block) throws IOException {
    checkHeartbeats();
    ReceivedDeletedBlockInfo info =
        new ReceivedDeletedBlockInfo(
            block, ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null);
    nn.blockReceivedAndDeleted(
        registration,
        blockPoolId,
        new StorageReceivedDeletedBlocks[] {
          new StorageReceivedDeletedBlocks(
              storage.getStorageID(), new ReceivedDeletedBlockInfo[] {info})
        });
  }

  private void heartbeat() throws IOException {
    StorageReport r = new StorageReport(storage, false, CAPACITY, 0, CAPACITY, 0);
    nn.sendHeartbeat(registration, new StorageReport[] {r}, 0, 0, 0, 0, 0, null);
  }

  private void heartbeatLoop() {
    while (!closed) {
      try {
        Thread.sleep(3000);
        if (!closed) {
          heartbeat();
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException e) {
        heartbeatFailure = e;
        return;
      }
    }
  }

  private void checkHeartbeats() throws IOException {
    IOException e = heartbeatFailure;
    if (e != null) {
      throw new IOException("fake DataNode heartbeat failed", e);
    }
  }

  @Override
  public void close() {
    closed = true;
    heartbeats.interrupt();
  }
}
