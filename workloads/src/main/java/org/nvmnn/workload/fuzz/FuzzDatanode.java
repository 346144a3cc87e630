package org.nvmnn.workload.fuzz;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.protocol.BlockRecoveryCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.util.VersionInfo;

/**
 * A DataNode that exists only as DatanodeProtocol calls, driven by the fuzzer one call at a time
 * (no background heartbeat), with the same identity (uuid, storage ids, ports) on both NameNodes so
 * that block locations compare equal. It holds replicas as (id, generation stamp, length) and no
 * data: {@code dnWrite} stores one and reports it received; a full report (after every restart, and
 * {@code dnReport}) lists them all as finalized; a heartbeat carries out the block recovery
 * commands in its answer (commitBlockSynchronization with the replica's length).
 *
 * <p>2.7.3 queues incremental block reports for a background thread, so a complete() right after
 * one may or may not see the replica. Every report is therefore followed by a barrier: an empty
 * full report of a second, empty storage (RAM_DISK, no capacity), which the NameNode processes on
 * the same queue and answers only when everything before it is done. The NameNode's other commands
 * (invalidate, transfer) depend on its background threads' timing and are ignored.
 */
final class FuzzDatanode {
  static final String UUID = "fuzz-datanode-uuid";
  static final String MAIN = "DS-fuzz-main";
  static final String FLUSH = "DS-fuzz-barrier";
  private static final long CAPACITY = 1L << 50;

  private final DatanodeStorage main = new DatanodeStorage(MAIN);
  // RAM_DISK with no capacity: block placement never chooses it (a second DISK storage would be
  // chosen at random, and the two NameNodes would place blocks differently)
  private final DatanodeStorage flush =
      new DatanodeStorage(FLUSH, DatanodeStorage.State.NORMAL, StorageType.RAM_DISK);
  private final TreeMap<Long, long[]> replicas = new TreeMap<>();
  private DatanodeProtocol nn;
  private DatanodeRegistration reg;
  private String bpid;
  private long reportId = 1;

  /** Registers with a (re)started NameNode, sends the full report and a heartbeat. */
  void connect(DatanodeProtocol p) throws IOException {
    this.nn = p;
    NamespaceInfo ns = nn.versionRequest();
    bpid = ns.getBlockPoolID();
    StorageInfo si =
        new StorageInfo(
            DataNodeLayoutVersion.CURRENT_LAYOUT_VERSION,
            ns.getNamespaceID(),
            ns.getClusterID(),
            ns.getCTime(),
            NodeType.DATA_NODE);
    DatanodeID id = new DatanodeID("127.0.0.1", "localhost", UUID, 50010, 50075, 50475, 50020);
    reg =
        nn.registerDatanode(
            new DatanodeRegistration(id, si, new ExportedBlockKeys(), VersionInfo.getVersion()));
    reg.setNamespaceInfo(ns);
    fullReport();
    heartbeat();
  }

  String blockPoolId() {
    return bpid;
  }

  DatanodeID id() {
    return reg;
  }

  String storageId() {
    return MAIN;
  }

  /** The block's replica now has the block's length and stamp; reported received. */
  void received(ExtendedBlock b) throws IOException {
    replicas.put(b.getBlockId(), new long[] {b.getGenerationStamp(), b.getNumBytes()});
    report(b.getBlockId());
  }

  /** A pipeline update gave the block a new generation stamp: the replica follows. */
  void newStamp(ExtendedBlock b) throws IOException {
    long[] r = replicas.get(b.getBlockId());
    if (r != null) {
      r[0] = b.getGenerationStamp();
      report(b.getBlockId());
    }
  }

  private void report(long id) throws IOException {
    long[] r = replicas.get(id);
    ReceivedDeletedBlockInfo info =
        new ReceivedDeletedBlockInfo(
            new Block(id, r[1], r[0]), ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK, null);
    nn.blockReceivedAndDeleted(
        reg,
        bpid,
        new StorageReceivedDeletedBlocks[] {
          new StorageReceivedDeletedBlocks(MAIN, new ReceivedDeletedBlockInfo[] {info})
        });
    barrier();
  }

  /** Returns once the NameNode has processed every report sent before (see the class comment). */
  void barrier() throws IOException {
    // two RPCs announced, one sent: the NameNode never takes this for a complete report, so it
    // does not drop the main storage as a zombie
    nn.blockReport(
        reg,
        bpid,
        new StorageBlockReport[] {new StorageBlockReport(flush, BlockListAsLongs.EMPTY)},
        new BlockReportContext(2, 0, reportId++));
  }

  void fullReport() throws IOException {
    List<BlockListAsLongs.BlockReportReplica> list = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : replicas.entrySet()) {
      list.add(
          new BlockListAsLongs.BlockReportReplica(
              new Block(e.getKey(), e.getValue()[1], e.getValue()[0])));
    }
    nn.blockReport(
        reg,
        bpid,
        new StorageBlockReport[] {
          new StorageBlockReport(main, BlockListAsLongs.encode(list)),
          new StorageBlockReport(flush, BlockListAsLongs.EMPTY)
        },
        new BlockReportContext(1, 0, reportId++));
  }

  /**
   * One heartbeat; carries out the block recoveries in the answer. Returns what it did, e.g.
   * ["recover 1073741825_1003 -> 1004 len 5: ok"].
   */
  List<String> heartbeat() throws IOException {
    StorageReport[] reports = {
      new StorageReport(main, false, CAPACITY, 0, CAPACITY, 0),
      new StorageReport(flush, false, 0, 0, 0, 0)
    };
    HeartbeatResponse resp = nn.sendHeartbeat(reg, reports, 0, 0, 0, 0, 0, null);
    List<String> done = new ArrayList<>();
    if (resp.getCommands() == null) {
      return done;
    }
    for (DatanodeCommand cmd : resp.getCommands()) {
      if (cmd instanceof BlockRecoveryCommand) {
        for (BlockRecoveryCommand.RecoveringBlock rb :
            ((BlockRecoveryCommand) cmd).getRecoveringBlocks()) {
          done.add(recover(rb));
        }
      }
    }
    return done;
  }

  private String recover(BlockRecoveryCommand.RecoveringBlock rb) {
    ExtendedBlock b = rb.getBlock();
    long gs = rb.getNewGenerationStamp();
    long[] r = replicas.get(b.getBlockId());
    String what = "recover " + Canon.block(b) + " -> " + gs;
    if (r == null) {
      return what + ": no replica";
    }
    try {
      nn.commitBlockSynchronization(
          b, gs, r[1], true, false, new DatanodeID[] {reg}, new String[] {MAIN});
      r[0] = gs;
      report(b.getBlockId());
      return what + " len " + r[1] + ": ok";
    } catch (IOException e) {
      return what + " len " + r[1] + ": " + Outcome.exceptionClass(e);
    }
  }
}
