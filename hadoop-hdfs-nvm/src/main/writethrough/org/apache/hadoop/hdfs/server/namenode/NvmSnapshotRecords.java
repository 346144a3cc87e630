package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotAccess;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotEncoder;
import org.apache.hadoop.hdfs.server.namenode.snapshot.Snapshot;
import org.apache.hadoop.hdfs.server.namenode.snapshot.SnapshotManager;

/**
 * The snapshot state in the region (region-format.md §13, docs/snapshots.md): the snapshot counter,
 * one record per snapshot and one per inode with diffs, each kept equal to memory by the batch of
 * the edit that changed it, as {@link NvmTruncateRecords} keeps truncate blocks: the batch encodes
 * the state memory has now and rewrites the record only if its bytes differ.
 *
 * <p>And one record per current reference child (a DstReference: an inode renamed out of a
 * snapshotted tree), kept by the batches that stage its directory.
 *
 * <p>Which inodes a batch looks at: those the write-through staged and those a directory's snapshot
 * branch reported ({@link SlimNamespace#snapshotChanged}); after a delete under a snapshot or a
 * snapshot's deletion, whose stock walks change the diffs of inodes no hook names, every inode that
 * has a record.
 */
final class NvmSnapshotRecords {
  private final InodeStore store;

  /** Snapshot id + 1 &rarr; record page (ids start at 0, which the map reserves). */
  private final LongLongMap snapshotPages = new LongLongMap();

  /** Inode id &rarr; record page of its diff list. */
  private final LongLongMap diffPages = new LongLongMap();

  /** Referred inode id &rarr; record page of its current reference (a DstReference). */
  private final LongLongMap refPages = new LongLongMap();

  /** Referred inode id &rarr; the directory its reference record names (the record's value). */
  private final LongLongMap refParents = new LongLongMap();

  /**
   * Referred inode id &rarr; the directories whose diffs' deleted lists hold a reference to it (a
   * renamed inode's old places); and the ids each directory holds so, to forget them when it
   * changes or goes.
   */
  private final Map<Long, java.util.Set<Long>> oldPlaces = new java.util.HashMap<>();

  private final Map<Long, long[]> oldPlacesOf = new java.util.HashMap<>();

  /** The inode ids the running batch removes (stageRemovals), for stageOldPlaceParents. */
  private LongLongMap removedNow = new LongLongMap();

  private long counterPage = LongLongMap.MISSING;

  /**
   * A snapshot whose record is not known by name was deleted: the snapshot records are compared
   * whole (not reached while every path names its snapshot).
   */
  private boolean snapshotsChanged;

  /**
   * Snapshots created or renamed since the last batch, by directory and name: their records are
   * written. Only those: comparing every snapshot's record per snapshot edit made each edit cost
   * the number of snapshots (65,536 creations in one directory, TestNestedSnapshots, ran for
   * hours).
   */
  private final List<INodeDirectory> writtenDirs = new ArrayList<INodeDirectory>();

  private final List<String> writtenNames = new ArrayList<String>();

  /** Ids of the snapshots deleted since the last batch: their records are removed. */
  private final List<Integer> deletedIds = new ArrayList<Integer>();

  /** "directory id/snapshot name" &rarr; snapshot id, to find a deleted snapshot's record. */
  private final Map<String, Integer> idsByName = new java.util.HashMap<String, Integer>();

  private boolean counterChanged;

  /** A stock walk changed diffs no hook names: every inode with a record is compared. */
  private boolean sweep;

  NvmSnapshotRecords(InodeStore store) {
    this.store = store;
  }

  /** Whether any snapshot state exists in memory or in the region (else a batch skips it all). */
  boolean active(SnapshotManager sm) {
    return sm.getNumSnapshots() > 0
        || diffPages.size() > 0
        || snapshotPages.size() > 0
        || refPages.size() > 0
        || snapshotsChanged;
  }

  /** logCreateSnapshot: the new snapshot's record, and the counter. */
  void snapshotCreated(INodeDirectory dir, String name) {
    writtenDirs.add(dir);
    writtenNames.add(name);
    counterChanged = true;
  }

  /** logRenameSnapshot: the record under the snapshot's id is written again with its new name. */
  void snapshotRenamed(INodeDirectory dir, String oldName, String newName) {
    idsByName.remove(nameKey(dir.getId(), oldName));
    writtenDirs.add(dir);
    writtenNames.add(newName);
  }

  /** logDeleteSnapshot: the snapshot's record goes (what its diffs held: the sweep). */
  void snapshotDeleted(INodeDirectory dir, String name) {
    Integer id = idsByName.remove(nameKey(dir.getId(), name));
    if (id == null) {
      snapshotsChanged = true;
    } else {
      deletedIds.add(id);
    }
  }

  private static String nameKey(long dirId, String name) {
    return dirId + "/" + name;
  }

  void sweep() {
    sweep = true;
  }

  boolean sweepPending() {
    return sweep;
  }

  /** Inode ids that have a diff record (for the sweep). */
  long[] inodesWithDiffs() {
    return diffPages.keys();
  }

  /**
   * Stages what changed: the counter and the snapshot records if a snapshot op ran, and the diff
   * records of {@code inodes} (plus every inode with a record on a sweep). Returns the files whose
   * diffs are in memory now, which the caller pins in the inode cache once the batch is staged.
   */
  List<INodeFile> stage(Txn t, FSNamesystem fsn, List<INode> inodes, IdPageMap pages)
      throws IOException {
    SnapshotManager sm = fsn.getSnapshotManager();
    if (snapshotsChanged) {
      stageCounter(t, NvmSnapshotAccess.counter(sm));
      stageSnapshots(t, sm);
      snapshotsChanged = false;
    } else {
      stageSnapshotEdits(t, sm);
    }
    writtenDirs.clear();
    writtenNames.clear();
    deletedIds.clear();
    counterChanged = false;
    Map<INode, Boolean> seen = new IdentityHashMap<INode, Boolean>();
    List<INodeFile> withDiffs = new ArrayList<INodeFile>();
    for (INode n : inodes) {
      stageDiffs(t, n, seen, withDiffs);
    }
    if (sweep) {
      sweep = false;
      FSDirectory fsd = fsn.getFSDirectory();
      for (long id : diffPages.keys()) {
        INode n = fsd.getInode(id);
        if (n == null) {
          t.removeRecord(diffPages.remove(id)); // destroyed by the walk; its page goes too
        } else {
          stageDiffs(t, n, seen, withDiffs);
        }
      }
    }
    if (!oldPlaces.isEmpty()) {
      stageOldPlaceParents(t, pages);
    }
    removedNow = new LongLongMap();
    return withDiffs;
  }

  private void stageDiffs(Txn t, INode n, Map<INode, Boolean> seen, List<INodeFile> withDiffs)
      throws IOException {
    if (n == null) {
      return;
    }
    INode target = n.isReference() ? n.asReference().getReferredINode() : n;
    if (target.isReference()) { // a WithCount
      target = target.asReference().getReferredINode();
    }
    if (seen.put(target, Boolean.TRUE) != null || removedNow.containsKey(target.getId())) {
      return; // done, or removed by this batch (its records went in stageRemovals)
    }
    if (target instanceof NvmINodeDirectory) {
      stageReferences(t, (NvmINodeDirectory) target);
      noteOldPlaces(target.asDirectory());
    }
    byte[] want = NvmSnapshotEncoder.diffs(target);
    if (want != null && target.isFile()) {
      withDiffs.add(target.asFile());
    }
    replace(t, diffPages, target.getId(), RegionLayout.RECORD_INODE_DIFFS, 0, want);
  }

  /**
   * The records of {@code dir}'s current reference children as memory has them: one per
   * DstReference (value: this directory's id), none for a reference that left it.
   */
  private void stageReferences(Txn t, NvmINodeDirectory dir) throws IOException {
    List<INodeReference> now = dir.dstReferences();
    if (now.isEmpty() && refPages.size() == 0) {
      return;
    }
    LongLongMap here = new LongLongMap();
    for (INodeReference r : now) {
      here.put(r.getId(), 1);
      replace(
          t,
          refPages,
          r.getId(),
          RegionLayout.RECORD_INODE_REF,
          dir.getId(),
          NvmSnapshotEncoder.reference(r));
    }
    for (INodeReference r : now) {
      refParents.put(r.getId(), dir.getId());
    }
    for (long id : refParents.keys()) {
      if (!here.containsKey(id) && refParents.get(id) == dir.getId()) {
        refParents.remove(id);
        t.removeRecord(refPages.remove(id));
      }
    }
  }

  /** Which renamed inodes {@code dir}'s deleted lists refer to now. */
  private void noteOldPlaces(INodeDirectory dir) {
    forgetOldPlace(dir.getId());
    List<INodeReference> refs = NvmSnapshotAccess.deletedReferences(dir);
    if (!refs.isEmpty()) {
      long[] ids = new long[refs.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = refs.get(i).getId();
        oldPlaces.computeIfAbsent(ids[i], k -> new java.util.HashSet<Long>()).add(dir.getId());
      }
      oldPlacesOf.put(dir.getId(), ids);
    }
  }

  private void forgetOldPlace(long dirId) {
    long[] before = oldPlacesOf.remove(dirId);
    if (before != null) {
      for (long id : before) {
        java.util.Set<Long> owners = oldPlaces.get(id);
        if (owners != null && owners.remove(dirId) && owners.isEmpty()) {
          oldPlaces.remove(id);
        }
      }
    }
  }

  /**
   * A renamed inode that only its old places hold (no current reference: it was deleted at its
   * destination, or its destination directory was) keeps its page under a directory that stays: one
   * of its old places. Its page still names the destination, which the batch may free; the rebuild
   * keeps it out of the current tree either way (region-format.md §13).
   */
  private void stageOldPlaceParents(Txn t, IdPageMap pages) throws IOException {
    // a move may have to wait for another: Y renamed out of X, then X into Y, both held by their
    // old places only; Y's old place is X, whose page is under Y's until X goes under its own
    java.util.List<Map.Entry<Long, java.util.Set<Long>>> todo =
        new java.util.ArrayList<>(oldPlaces.entrySet());
    boolean progress = true;
    while (!todo.isEmpty() && progress) {
      progress = false;
      for (java.util.Iterator<Map.Entry<Long, java.util.Set<Long>>> it = todo.iterator();
          it.hasNext(); ) {
        Map.Entry<Long, java.util.Set<Long>> e = it.next();
        int done = stageOldPlaceParent(t, pages, e.getKey(), e.getValue());
        if (done != 0) {
          it.remove();
          progress |= done > 0;
        }
      }
    }
  }

  /**
   * Puts the page of renamed inode {@code id} under one of its old places {@code owners} that
   * stays, if it needs to go; 1: moved, -1: nothing to do, 0: every old place is below it now
   * (retry).
   */
  private int stageOldPlaceParent(Txn t, IdPageMap pages, long id, java.util.Set<Long> owners)
      throws IOException {
    if (refPages.containsKey(id)) {
      return -1; // current at its reference's directory, where the rename moved its page
    }
    long page = pages.get(id);
    if (page == IdPageMap.MISSING || removedNow.containsKey(id)) {
      return -1;
    }
    long parent = store.inode(page).parentPage();
    long staying = IdPageMap.MISSING;
    boolean blocked = false;
    for (long owner : owners) {
      long ownerPage = pages.get(owner);
      if (ownerPage == IdPageMap.MISSING || removedNow.containsKey(owner)) {
        continue;
      }
      if (ownerPage == parent) {
        return -1; // already under an old place that stays
      }
      if (t.wouldCycle(page, ownerPage)) {
        blocked = true;
      } else if (staying == IdPageMap.MISSING) {
        staying = ownerPage;
      }
    }
    if (staying == IdPageMap.MISSING) {
      return blocked ? 0 : -1;
    }
    t.move(page, staying, store.inode(page).nameBytes());
    return 1;
  }

  private void stageCounter(Txn t, int counter) throws IOException {
    if (counterPage == LongLongMap.MISSING) {
      if (counter != 0) {
        counterPage = t.createRecord(RegionLayout.RECORD_SNAPSHOT_IDS, 0, counter, new byte[0]);
      }
    } else {
      t.setRecordValue(counterPage, counter);
    }
  }

  /** The records of the snapshots the hooks named: written, or removed, and the counter. */
  private void stageSnapshotEdits(Txn t, SnapshotManager sm) throws IOException {
    if (counterChanged) {
      stageCounter(t, NvmSnapshotAccess.counter(sm));
    }
    for (int i = 0; i < writtenDirs.size(); i++) {
      INodeDirectory d = writtenDirs.get(i);
      Snapshot s =
          d.getDirectorySnapshottableFeature() == null
              ? null
              : d.getDirectorySnapshottableFeature()
                  .getSnapshot(DFSUtil.string2Bytes(writtenNames.get(i)));
      if (s != null) {
        replace(
            t,
            snapshotPages,
            s.getId() + 1L,
            RegionLayout.RECORD_SNAPSHOT,
            d.getId(),
            NvmSnapshotEncoder.snapshot(s));
        idsByName.put(nameKey(d.getId(), writtenNames.get(i)), s.getId());
      }
    }
    for (int id : deletedIds) {
      long page = snapshotPages.remove(id + 1L);
      if (page != LongLongMap.MISSING) {
        t.removeRecord(page);
      }
    }
  }

  /** Every snapshot's record as memory has it: new ones created, renamed ones rewritten. */
  private void stageSnapshots(Txn t, SnapshotManager sm) throws IOException {
    LongLongMap live = new LongLongMap();
    idsByName.clear();
    for (INodeDirectory d : NvmSnapshotAccess.snapshottableDirs(sm)) {
      for (Snapshot s : d.getDirectorySnapshottableFeature().getSnapshotList()) {
        live.put(s.getId() + 1L, 1);
        idsByName.put(nameKey(d.getId(), s.getRoot().getLocalName()), s.getId());
        replace(
            t,
            snapshotPages,
            s.getId() + 1L,
            RegionLayout.RECORD_SNAPSHOT,
            d.getId(),
            NvmSnapshotEncoder.snapshot(s));
      }
    }
    for (long id : snapshotPages.keys()) {
      if (!live.containsKey(id)) {
        t.removeRecord(snapshotPages.remove(id));
      }
    }
  }

  /**
   * The record of map key {@code key} made to hold {@code payload} (null: removed); its RC_KEY is
   * {@code key} for a diff record, {@code key - 1} (the snapshot id) for a snapshot record.
   */
  private void replace(Txn t, LongLongMap pages, long key, int type, long value, byte[] payload)
      throws IOException {
    long have = pages.get(key);
    if (have != LongLongMap.MISSING) {
      if (payload != null
          && store.record(have).value() == value
          && Arrays.equals(store.record(have).payload(), payload)) {
        return;
      }
      t.removeRecord(have);
      pages.remove(key);
    }
    if (payload != null) {
      long rcKey = type == RegionLayout.RECORD_SNAPSHOT ? key - 1 : key;
      pages.put(key, t.createRecord(type, rcKey, value, payload));
    }
  }

  /** The diff and reference records of removed inodes go with their pages. */
  void stageRemovals(Txn t, long[] ids, int n) throws IOException {
    removedNow = new LongLongMap(Math.max(16, 2 * n));
    for (int i = 0; i < n; i++) {
      removedNow.put(ids[i], 1);
      if (!oldPlacesOf.isEmpty()) {
        forgetOldPlace(ids[i]);
      }
    }
    if (diffPages.size() == 0 && refPages.size() == 0) {
      return;
    }
    for (int i = 0; i < n; i++) {
      long page = diffPages.remove(ids[i]);
      if (page != LongLongMap.MISSING) {
        t.removeRecord(page);
      }
      page = refPages.remove(ids[i]);
      if (page != LongLongMap.MISSING) {
        refParents.remove(ids[i]);
        t.removeRecord(page);
      }
    }
    if (refParents.size() > 0) {
      // a removed directory's current references go with it (2.7.3 keeps the inodes they refer to
      // while a snapshot's old place holds them: stageOldPlaceParents re-parents their pages)
      for (long id : refParents.keys()) {
        if (removedNow.containsKey(refParents.get(id))) {
          refParents.remove(id);
          t.removeRecord(refPages.remove(id));
        }
      }
    }
  }

  // ---- restart (SnapshotRestore fills these from the recovered records)

  void restoredSnapshot(long snapshotId, long page) {
    snapshotPages.put(snapshotId + 1, page);
  }

  void restoredDiffs(long inodeId, long page) {
    diffPages.put(inodeId, page);
  }

  /** At a restart: {@code dir}'s diffs are in memory again. */
  void restoredDiffs(INodeDirectory dir) {
    noteOldPlaces(dir);
  }

  void restoredReference(long referredId, long page, long parentId) {
    refPages.put(referredId, page);
    refParents.put(referredId, parentId);
  }

  void restoredCounter(long page) {
    counterPage = page;
  }

  /** At a restart, once the snapshots are in memory: each one's id by its directory and name. */
  void restoredNames(SnapshotManager sm) {
    for (INodeDirectory d : NvmSnapshotAccess.snapshottableDirs(sm)) {
      for (Snapshot s : d.getDirectorySnapshottableFeature().getSnapshotList()) {
        idsByName.put(nameKey(d.getId(), s.getRoot().getLocalName()), s.getId());
      }
    }
  }
}
