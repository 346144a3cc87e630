package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.net.Node;

/**
 * The namesystem of an NVM NameNode: the stock FSNamesystem plus one observation point and one
 * end-of-operation hook. {@code removeLeasesAndINodes} receives the complete list of inodes an
 * operation removed from the namespace — for delete (incremental or not), create with overwrite and
 * rename with overwrite alike — while the write lock is still held and before the RPC answers. The
 * list is handed to {@link NvmWriteThrough} before the stock method clears it (see
 * docs/namenode-integration.md, "Removal capture").
 *
 * <p>{@code @Metrics} is not inherited; it is repeated with FSNamesystem's source name so the
 * metrics (and JMX bean) keep the stock name.
 */
@Metrics(name = "FSNamesystem", context = "dfs")
class NvmFSNamesystem extends FSNamesystem {
  private final NvmFSImage nvmImage;

  /** The RPC server's region space check, for the owner of a new inode (set once it exists). */
  private volatile NvmSpaceGuard ownerSpace;

  NvmFSNamesystem(Configuration conf, NvmFSImage image) throws IOException {
    super(conf, image, false);
    this.nvmImage = image;
  }

  void guardOwnerSpace(NvmSpaceGuard space) {
    this.ownerSpace = space;
  }

  /**
   * The owner's name string is checked for room here, where the stock RPC server has resolved it
   * ({@code permissions}): the RPC server checks the rest before it calls, and resolving the caller
   * there too would cost a second lookup of the caller's identity (an access-control context walk
   * for a call from inside the process). Still before the namespace changes.
   */
  @Override
  HdfsFileStatus startFile(
      String src,
      PermissionStatus permissions,
      String holder,
      String clientMachine,
      EnumSet<CreateFlag> flag,
      boolean createParent,
      short replication,
      long blockSize,
      CryptoProtocolVersion[] supportedVersions,
      boolean logRetryCache)
      throws IOException {
    checkOwnerSpace("create", src, permissions);
    return super.startFile(
        src,
        permissions,
        holder,
        clientMachine,
        flag,
        createParent,
        replication,
        blockSize,
        supportedVersions,
        logRetryCache);
  }

  /** As {@link #startFile}: the new directories' owner. */
  @Override
  boolean mkdirs(String src, PermissionStatus permissions, boolean createParent)
      throws IOException {
    checkOwnerSpace("mkdirs", src, permissions);
    return super.mkdirs(src, permissions, createParent);
  }

  private void checkOwnerSpace(String what, String src, PermissionStatus permissions)
      throws IOException {
    NvmSpaceGuard space = ownerSpace;
    if (space != null && permissions != null) {
      space.check(what, src, space.newStringPages(permissions.getUserName()));
    }
  }

  /**
   * 2.7.3 logs the access-time update of an open ({@code OP_TIMES}) and never syncs it: the edit
   * waits for the next call that syncs, and a crash before that brings back an older access time
   * than the one served (found by the differential fuzzer). The NVM NameNode makes the update's
   * batch durable before the blocks are returned, as every write call does; when the call changed
   * nothing (within the access-time precision, or in safe mode) there is nothing to sync.
   */
  @Override
  LocatedBlocks getBlockLocations(String clientMachine, String src, long offset, long length)
      throws IOException {
    LocatedBlocks blocks = super.getBlockLocations(clientMachine, src, offset, length);
    NvmWriteThrough ns = nvmImage.writeThrough();
    if (ns != null && ns.store().stagedByMeNotDurable()) {
      getEditLog().logSync();
    }
    return blocks;
  }

  /**
   * 2.7.3 allocates the new block's id (OP_ALLOCATE_BLOCK_ID) before its quota check, so an
   * addBlock refused with a quota error has used an id all the same, which the next call's sync
   * makes durable. Its staged counter is synced before the refusal answers, as a stock edit log
   * synced at that point keeps it: a restart never hands out that id again (the fuzzer, docs/repro/
   * block-id-after-restart.ops).
   */
  @Override
  LocatedBlock getAdditionalBlock(
      String src,
      long fileId,
      String clientName,
      ExtendedBlock previous,
      Set<Node> excludedNodes,
      List<String> favoredNodes)
      throws IOException {
    try {
      return super.getAdditionalBlock(
          src, fileId, clientName, previous, excludedNodes, favoredNodes);
    } catch (IOException | RuntimeException e) {
      NvmWriteThrough ns = nvmImage.writeThrough();
      if (ns != null && ns.store().stagedByMeNotDurable()) {
        getEditLog().logSync();
      }
      throw e;
    }
  }

  @Override
  void removeLeasesAndINodes(String src, List<INode> removedINodes, boolean acquireINodeMapLock) {
    NvmWriteThrough ns = nvmImage.writeThrough();
    if (ns == null) {
      WriteThroughFailure.stop("removal under " + src + " before the region was opened", null);
    }
    ns.removed(src, removedINodes);
    super.removeLeasesAndINodes(src, removedINodes, acquireINodeMapLock);
  }

  /**
   * 2.7.3's concat removes its sources from the namespace without {@code removeLeasesAndINodes} and
   * logs them only by path, so their inodes are resolved here first, under the same hold of the
   * write lock as the stock concat (the lock is reentrant), and handed to the write-through for the
   * batch of the concat's edit. A source that does not resolve is left out: the stock concat
   * refuses the call then, before it changes anything.
   */
  @Override
  void concat(String target, String[] srcs, boolean logRetryCache) throws IOException {
    NvmWriteThrough ns = nvmImage.writeThrough();
    writeLock();
    try {
      if (ns != null) {
        List<INode> sources = new ArrayList<>();
        if (srcs != null) {
          for (String src : srcs) {
            try {
              // only a valid absolute path is resolved: FSDirectory asserts that it gets one, and
              // the stock concat answers anything else itself
              INode n =
                  src != null && DFSUtil.isValidName(src) ? getFSDirectory().getINode(src) : null;
              if (n != null) {
                sources.add(n);
              }
            } catch (IOException | RuntimeException e) {
              // a malformed path: the stock concat answers it
            }
          }
        }
        ns.concatStarting(sources);
      }
      super.concat(target, srcs, logRetryCache);
    } finally {
      if (ns != null) {
        ns.concatStarting(null);
      }
      writeUnlock();
    }
  }

  /**
   * When the outermost hold of the write lock is released, the operation is over and has persisted
   * its changes: directories it created are turned into slim ones and the files it closed leave the
   * inode cache. If it left objects waiting for full cache sets (it read files), the lock is
   * downgraded and the cache trimmed under the read lock: after the operation (no object it holds
   * is evicted under it), with no other write operation running, while readers go on.
   */
  @Override
  public void writeUnlock() {
    SlimNamespace trim = null;
    try {
      NvmWriteThrough ns = nvmImage.writeThrough();
      if (ns != null && getWriteHoldCount() == 1) {
        ns.endOfWriteOperation();
        ns.slim().endOfWriteOperation();
        if (ns.slim().cacheOverCapacity()) {
          readLock(); // a write-lock holder may always take the read lock (downgrade)
          trim = ns.slim();
        }
      }
    } finally {
      super.writeUnlock();
    }
    if (trim != null) {
      try {
        trim.trimCache();
      } finally {
        readUnlock();
      }
    }
  }
}
