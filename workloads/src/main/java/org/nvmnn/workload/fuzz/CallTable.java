package org.nvmnn.workload.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * The weighted table the generator draws its calls from: every ClientProtocol method the fuzzer
 * knows (writes, reads, administration, the calls the NVM NameNode refuses by design) and the fake
 * DataNode's actions, each with a weight and a builder of its arguments.
 *
 * <p>A draw picks an entry by walking the table in order, so the order of the entries and their
 * weights are part of what a seed means: reordering, reweighting or adding an entry changes every
 * seed's calls (GeneratorSequenceTest). Only {@code snapshotCalls} switches between two tables; the
 * one without it is the table of the runs of record.
 */
final class CallTable {
  private static final class Entry {
    final int weight;
    final Supplier<Op> make;

    Entry(int weight, Supplier<Op> make) {
      this.weight = weight;
      this.make = make;
    }
  }

  private final Random rnd;
  private final List<Entry> table = new ArrayList<>();
  private int totalWeight;

  CallTable(
      Dice d,
      Names names,
      PathChoice paths,
      Values values,
      BlockCalls blocks,
      NamespaceCalls ns,
      AttrCalls attrs,
      SnapshotOps snapshots,
      boolean snapshotCalls) {
    this.rnd = d.rnd;
    // namespace writes
    add(110, blocks::create);
    add(70, () -> Op.of(Call.mkdirs, paths.freshPath(), values.perm(), rnd.nextInt(5) > 0));
    add(45, () -> paths.withFile(p -> blocks.addBlock(p, values.holderOf(p))));
    add(45, blocks::complete);
    add(20, blocks::append);
    add(8, blocks::abandonBlock);
    add(14, blocks::fsync);
    add(10, blocks::updateBlockForPipeline);
    add(5, blocks::updatePipeline);
    add(35, ns::rename);
    add(35, ns::rename2);
    add(45, ns::delete);
    add(30, () -> Op.of(Call.setPermission, paths.target(), values.perm()).as(d.caller()));
    add(30, ns::setOwner);
    add(30, ns::setTimes);
    add(25, () -> Op.of(Call.setReplication, paths.target(), values.replication()).as(d.caller()));
    add(20, () -> Op.of(Call.setStoragePolicy, paths.target(), values.policy()).as(d.caller()));
    add(25, ns::setQuota);
    add(15, () -> Op.of(Call.recoverLease, paths.openOrAny(), values.client(null)).as(d.caller()));
    add(8, () -> Op.of(Call.renewLease, values.client(null)));
    add(8, () -> Op.of(Call.dnHeartbeat));
    add(2, () -> Op.of(Call.dnReport));
    add(8, blocks::dnWriteStray);
    // reads
    add(45, () -> Op.of(Call.getFileInfo, paths.target()).as(d.caller()));
    add(
        30,
        () ->
            Op.of(Call.getListing, paths.dirOrAny(), names.startAfter(), rnd.nextBoolean())
                .as(d.caller()));
    add(18, () -> Op.of(Call.getContentSummary, paths.dirOrAny()).as(d.caller()));
    add(
        22,
        () ->
            Op.of(Call.getBlockLocations, paths.target(), values.offset(), values.offset())
                .as(d.caller()));
    add(6, () -> Op.of(Call.getPreferredBlockSize, paths.target()).as(d.caller()));
    add(10, () -> Op.of(Call.isFileClosed, paths.target()).as(d.caller()));
    add(4, () -> Op.of(Call.getFileLinkInfo, paths.target()).as(d.caller()));
    add(3, () -> Op.of(Call.getStoragePolicies));
    add(2, () -> Op.of(Call.getServerDefaults));
    add(8, () -> Op.of(Call.getAclStatus, paths.target()).as(d.caller()).tag("acl"));
    add(
        8,
        () ->
            Op.of(Call.getXAttrs, attrs.xattrTarget(), attrs.xattrNames())
                .as(d.caller())
                .tag("xattr"));
    add(5, () -> Op.of(Call.listXAttrs, attrs.xattrTarget()).as(d.caller()).tag("xattr"));
    add(3, () -> Op.of(Call.getLinkTarget, paths.target()).as(d.caller()));
    add(6, () -> Op.of(Call.checkAccess, paths.target(), d.pick(FsAction.values())).as(d.caller()));
    add(2, () -> Op.of(Call.getSnapshottableDirListing));
    if (snapshotCalls) {
      add(3, snapshots::diff);
      add(6, snapshots::read);
    } else {
      add(2, () -> Op.of(Call.getSnapshotDiffReport, paths.dirOrAny(), "s1", "").as(d.caller()));
    }
    add(2, () -> Op.of(Call.getEZForPath, paths.target()).as(d.caller()));
    add(2, () -> Op.of(Call.listEncryptionZones, 0L));
    add(2, () -> Op.of(Call.listCachePools, ""));
    add(2, () -> Op.of(Call.listCacheDirectives, 0L));
    add(3, () -> Op.of(Call.listCorruptFileBlocks, paths.dirOrAny(), null).as(d.caller()));
    add(2, () -> Op.of(Call.getDelegationToken, d.pick(new String[] {"fz", "", null})));
    add(1, () -> Op.of(Call.renewDelegationToken));
    add(1, () -> Op.of(Call.cancelDelegationToken));
    add(2, () -> Op.of(Call.getCurrentEditLogTxid));
    add(2, () -> Op.of(Call.getDatanodeReport, d.pick(HdfsConstants.DatanodeReportType.values())));
    // administration
    add(
        2,
        () ->
            Op.of(
                    Call.setSafeMode,
                    d.pick(
                        new HdfsConstants.SafeModeAction[] {
                          HdfsConstants.SafeModeAction.SAFEMODE_ENTER,
                          HdfsConstants.SafeModeAction.SAFEMODE_GET,
                          HdfsConstants.SafeModeAction.SAFEMODE_LEAVE
                        }),
                    rnd.nextBoolean())
                .as(d.caller()));
    add(1, () -> Op.of(Call.saveNamespace).as(d.caller()).tag("admin"));
    add(1, () -> Op.of(Call.rollEdits).as(d.caller()).tag("admin"));
    add(1, () -> Op.of(Call.refreshNodes).as(d.caller()));
    add(
        2,
        () ->
            Op.of(Call.rollingUpgrade, d.pick(HdfsConstants.RollingUpgradeAction.values()))
                .as(d.caller()));
    // ACLs and xattrs (persisted since issue 25)
    add(
        12,
        () -> Op.of(Call.setAcl, paths.target(), attrs.aclSpec(true)).as(d.caller()).tag("acl"));
    add(
        10,
        () ->
            Op.of(Call.modifyAclEntries, paths.target(), attrs.aclSpec(false))
                .as(d.caller())
                .tag("acl"));
    add(
        6,
        () ->
            Op.of(Call.removeAclEntries, paths.target(), attrs.aclRemoval())
                .as(d.caller())
                .tag("acl"));
    add(4, () -> Op.of(Call.removeDefaultAcl, paths.target()).as(d.caller()).tag("acl"));
    add(5, () -> Op.of(Call.removeAcl, paths.target()).as(d.caller()).tag("acl"));
    add(20, attrs::setXAttr);
    add(10, attrs::removeXAttr);
    // concat (persisted since issue 25)
    add(
        2,
        () ->
            Op.of(
                Call.concat,
                paths.fileOrAny(),
                new String[] {paths.fileOrAny(), paths.fileOrAny()}));
    // centralized cache management (persisted as records since issue 25)
    add(1, () -> Op.of(Call.addCacheDirective, paths.target(), "fz-pool"));
    add(1, () -> Op.of(Call.modifyCacheDirective, 1L, paths.target()));
    add(1, () -> Op.of(Call.removeCacheDirective, 1L));
    add(1, () -> Op.of(Call.addCachePool, "fz-pool"));
    add(1, () -> Op.of(Call.modifyCachePool, "fz-pool"));
    add(1, () -> Op.of(Call.removeCachePool, "fz-pool"));
    // what the NVM NameNode refuses (it answers first; the stock NameNode only if it did not)
    add(2, () -> Op.of(Call.allowSnapshot, paths.dirOrAny()).as(d.caller()));
    add(1, () -> Op.of(Call.disallowSnapshot, paths.dirOrAny()).as(d.caller()));
    if (snapshotCalls) {
      add(3, snapshots::create);
      add(1, snapshots::rename);
      add(2, snapshots::delete);
    } else { // refused by the NVM NameNode
      add(
          2,
          () ->
              Op.of(Call.createSnapshot, paths.dirOrAny(), d.pick(new String[] {"s1", null, ""})));
      add(1, () -> Op.of(Call.renameSnapshot, paths.dirOrAny(), "s1", "s2"));
      add(1, () -> Op.of(Call.deleteSnapshot, paths.dirOrAny(), "s1"));
    }
    add(2, () -> Op.of(Call.createSymlink, paths.target(), paths.freshPath(), values.perm(), true));
    add(
        2,
        () -> Op.of(Call.truncate, paths.fileOrAny(), (long) rnd.nextInt(3), values.client(null)));
    add(1, () -> Op.of(Call.createEncryptionZone, paths.dirOrAny(), "fz-key"));
    add(1, () -> Op.of(Call.getEditsFromTxid, 0L));
  }

  private void add(int weight, Supplier<Op> make) {
    table.add(new Entry(weight, make));
    totalWeight += weight;
  }

  /** A call drawn by weight (one draw, then those of its builder). */
  Op draw() {
    int x = rnd.nextInt(totalWeight);
    for (Entry e : table) {
      x -= e.weight;
      if (x < 0) {
        return e.make.get();
      }
    }
    throw new IllegalStateException();
  }
}
