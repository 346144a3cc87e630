package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.apache.hadoop.hdfs.server.namenode.nvm.Txn;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotAccess;
import org.apache.hadoop.hdfs.server.namenode.snapshot.NvmSnapshotEncoder;

/**
 * The renamed inodes' part of the snapshot state in the region (region-format.md §13): one record
 * per current reference child (a DstReference: an inode renamed out of or within a snapshotted
 * tree), and where the page of a renamed inode that only its old places hold lives.
 *
 * <p>Work per batch is bounded by what the batch changed, not by how many renamed inodes exist: a
 * directory's reference records are compared only for the references the operation reported (or
 * that have no record, or a record naming another directory), and only the renamed inodes whose
 * reference or old places changed in the batch are checked for a page move. A snapshot's deletion
 * ({@link #touchAll}) compares everything, as its stock walk changes references no hook names.
 */
final class NvmReferenceRecords {
  private static final org.apache.commons.logging.Log LOG =
      org.apache.commons.logging.LogFactory.getLog(NvmReferenceRecords.class);

  private final InodeStore store;

  /** Referred inode id &rarr; record page of its current reference (a DstReference). */
  private final LongLongMap refPages = new LongLongMap();

  /** Referred inode id &rarr; the directory its reference record names (the record's value). */
  private final LongLongMap refParents = new LongLongMap();

  /** Directory id &rarr; the referred ids {@link #refParents} maps to it. */
  private final Map<Long, LongLongMap> refsByDir = new HashMap<>();

  /**
   * Referred inode id &rarr; the directories whose diffs' deleted lists hold a reference to it (a
   * renamed inode's old places); and the ids each directory holds so, to forget them when it
   * changes or goes.
   */
  private final Map<Long, Set<Long>> oldPlaces = new HashMap<>();

  private final Map<Long, LongLongMap> oldPlacesOf = new HashMap<>();

  /** Inode ids the running operation reported changed: their reference records are compared. */
  private LongLongMap touched = new LongLongMap();

  /**
   * Renamed inodes whose reference or old places changed in this batch: their pages are checked.
   */
  private LongLongMap unsettled = new LongLongMap();

  /**
   * References whose record this batch wrote already: a record written in the batch is not readable
   * before the commit, so a second comparison in the same batch must not look at it.
   */
  private LongLongMap writtenNow = new LongLongMap();

  /** The batch compares every reference and checks every renamed inode's page. */
  private boolean all;

  /** The inode ids the running batch removes. */
  private LongLongMap removedNow = new LongLongMap();

  NvmReferenceRecords(InodeStore store) {
    this.store = store;
  }

  boolean isEmpty() {
    return refPages.size() == 0 && oldPlaces.isEmpty();
  }

  /** {@code id} was reported changed by the running operation. */
  void touched(long id) {
    touched.put(id, 1);
  }

  /** A stock walk changed references no hook names: the next batch compares them all. */
  void touchAll() {
    all = true;
  }

  /**
   * Renamed inodes whose reference or old places this batch changed so far: a reference it dropped
   * (a removed directory held it, or it left its directory: 2.7.3 destroyed it and cleaned its
   * referred inode's diffs), or a deleted list that gained or lost it.
   */
  long[] unsettledInodes() {
    return unsettled.keys();
  }

  /**
   * Whether this batch dropped the current reference of a directory that stays (an old place holds
   * it).
   */
  boolean droppedLiveDirectory(FSDirectory fsd) {
    for (long id : unsettled.keys()) {
      if (!refPages.containsKey(id) && !removedNow.containsKey(id)) {
        INode n;
        try {
          n = fsd.getInode(id);
        } catch (IllegalStateException e) {
          n = null; // the slim map's: a cold file
        }
        if (n != null && n.isDirectory()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The records of {@code dir}'s current reference children as memory has them: one per
   * DstReference (value: this directory's id), none for a reference that left it. Scoped to the
   * children the operation reported for the directory ({@code changed}: a reference comes and goes
   * only through its addChild, removeChild and replaceChild) and the inodes it reported changed,
   * unless the batch compares everything, or the directory's count of references differs from its
   * records' after that.
   */
  void stageReferences(Txn t, NvmINodeDirectory dir, Map<Long, ?> changed, boolean whole)
      throws IOException {
    if (removedNow.containsKey(dir.getId())) {
      // destroyed by this batch (its references' records went in stageRemovals); a reference the
      // walk reported still names it as its parent
      return;
    }
    if (!all && !whole && stageScoped(t, dir, changed)) {
      return;
    }
    List<INodeReference> now = dir.dstReferences();
    LongLongMap before = refsByDir.get(dir.getId());
    if (now.isEmpty() && before == null) {
      return;
    }
    LongLongMap here = new LongLongMap();
    for (INodeReference r : now) {
      long id = r.getId();
      here.put(id, 1);
      if (writtenNow.containsKey(id)) {
        continue;
      }
      if (all
          || touched.containsKey(id)
          || !refPages.containsKey(id)
          || refParents.get(id) != dir.getId()) {
        replaceRecord(
            store,
            t,
            refPages,
            id,
            RegionLayout.RECORD_INODE_REF,
            dir.getId(),
            NvmSnapshotEncoder.reference(r));
        setRefParent(id, dir.getId());
        writtenNow.put(id, 1);
      }
    }
    if (before != null) {
      for (long id : before.keys()) {
        if (!here.containsKey(id)) {
          dropReference(t, id);
        }
      }
    }
  }

  /** The scoped comparison; false if the directory has to be compared whole. */
  private boolean stageScoped(Txn t, NvmINodeDirectory dir, Map<Long, ?> changed)
      throws IOException {
    long dirId = dir.getId();
    LongLongMap before = refsByDir.get(dirId);
    LongLongMap ids = new LongLongMap();
    if (changed != null) {
      for (long id : changed.keySet()) {
        ids.put(id, 1);
      }
    }
    if (before != null && touched.size() > 0) {
      for (long id : touched.keys()) {
        if (before.containsKey(id)) {
          ids.put(id, 1);
        }
      }
    }
    for (long id : ids.keys()) {
      INodeReference r = dir.referenceChild(id);
      if (r instanceof INodeReference.DstReference) {
        if (!writtenNow.containsKey(id)) {
          replaceRecord(
              store,
              t,
              refPages,
              id,
              RegionLayout.RECORD_INODE_REF,
              dirId,
              NvmSnapshotEncoder.reference(r));
          setRefParent(id, dirId);
          writtenNow.put(id, 1);
        }
      } else if (before != null && before.containsKey(id)) {
        dropReference(t, id);
      }
    }
    LongLongMap after = refsByDir.get(dirId);
    return dir.dstReferenceCount() == (after == null ? 0 : after.size());
  }

  private void setRefParent(long id, long dirId) {
    long old = refParents.put(id, dirId);
    if (old == dirId) {
      return;
    }
    if (old != LongLongMap.MISSING) {
      forgetRefOf(old, id);
    }
    refsByDir.computeIfAbsent(dirId, k -> new LongLongMap()).put(id, 1);
  }

  private void forgetRefOf(long dirId, long id) {
    LongLongMap m = refsByDir.get(dirId);
    if (m != null && m.remove(id) != LongLongMap.MISSING && m.size() == 0) {
      refsByDir.remove(dirId);
    }
  }

  /** The reference record of {@code id} goes (it left its directory, or its directory went). */
  private void dropReference(Txn t, long id) throws IOException {
    long dir = refParents.remove(id);
    if (dir != LongLongMap.MISSING) {
      forgetRefOf(dir, id);
    }
    long page = refPages.remove(id);
    if (page != LongLongMap.MISSING) {
      t.removeRecord(page);
    }
    unsettled.put(id, 1);
  }

  /**
   * Which renamed inodes {@code dir}'s deleted lists refer to now. Only those it gained or lost are
   * unsettled: the others' old places did not change.
   */
  void noteOldPlaces(INodeDirectory dir, LongLongMap compared) {
    long dirId = dir.getId();
    if (compared != null) {
      notePlaces(dirId, compared);
      return;
    }
    LongLongMap had = oldPlacesOf.remove(dirId);
    List<INodeReference> refs = NvmSnapshotAccess.deletedReferences(dir);
    LongLongMap now = new LongLongMap();
    for (INodeReference r : refs) {
      now.put(r.getId(), 1);
    }
    if (had != null) {
      for (long id : had.keys()) {
        if (!now.containsKey(id)) {
          Set<Long> owners = oldPlaces.get(id);
          unsettled.put(id, 1);
          if (owners != null && owners.remove(dirId) && owners.isEmpty()) {
            oldPlaces.remove(id);
          }
        }
      }
    }
    if (now.size() > 0) {
      for (long id : now.keys()) {
        if (had == null || !had.containsKey(id)) {
          oldPlaces.computeIfAbsent(id, k -> new HashSet<Long>()).add(dirId);
          unsettled.put(id, 1);
        }
      }
      oldPlacesOf.put(dirId, now);
    }
  }

  /**
   * The scoped form of {@link #noteOldPlaces}: only the children the batch compared ({@code
   * compared}: child id &rarr; 1 if a deleted list of the directory refers to it now) can have
   * gained or lost this directory as an old place.
   */
  private void notePlaces(long dirId, LongLongMap compared) {
    LongLongMap held = oldPlacesOf.get(dirId);
    if (held == null) {
      held = new LongLongMap();
    }
    boolean changed = false;
    for (long id : compared.keys()) {
      boolean now = compared.get(id) == 1;
      if (now == held.containsKey(id)) {
        continue;
      }
      changed = true;
      unsettled.put(id, 1);
      if (now) {
        held.put(id, 1);
        oldPlaces.computeIfAbsent(id, k -> new HashSet<Long>()).add(dirId);
      } else {
        held.remove(id);
        Set<Long> owners = oldPlaces.get(id);
        if (owners != null && owners.remove(dirId) && owners.isEmpty()) {
          oldPlaces.remove(id);
        }
      }
    }
    if (changed) {
      if (held.size() == 0) {
        oldPlacesOf.remove(dirId);
      } else {
        oldPlacesOf.put(dirId, held);
      }
    }
  }

  private void forgetOldPlace(long dirId) {
    LongLongMap before = oldPlacesOf.remove(dirId);
    if (before != null) {
      for (long id : before.keys()) {
        Set<Long> owners = oldPlaces.get(id);
        unsettled.put(id, 1);
        if (owners != null && owners.remove(dirId) && owners.isEmpty()) {
          oldPlaces.remove(id);
        }
      }
    }
  }

  /**
   * The batch removes the inodes {@code ids} ({@code removed} holds them as a set): their own
   * reference records, the references their directories held, and the old places they were.
   */
  void stageRemovals(Txn t, LongLongMap removed, long[] ids, int n) throws IOException {
    removedNow = removed;
    for (int i = 0; i < n; i++) {
      if (!oldPlacesOf.isEmpty()) {
        forgetOldPlace(ids[i]);
      }
      if (refPages.containsKey(ids[i])) {
        dropReference(t, ids[i]);
      }
      // a removed directory's current references go with it (2.7.3 keeps the inodes they refer to
      // while a snapshot's old place holds them: stageOldPlaceParents re-parents their pages)
      LongLongMap held = refsByDir.get(ids[i]);
      if (held != null) {
        for (long id : held.keys()) {
          dropReference(t, id);
        }
      }
    }
  }

  /**
   * After a snapshot's deletion ({@link #touchAll}): the record of a reference whose directory
   * 2.7.3 destroyed goes, with the reference. A destroyed directory a deleted one still lists keeps
   * its page (RemovalParents), so no removal took its references' records; 2.7.3 destroyed the
   * references themselves.
   */
  void dropDestroyed(Txn t, FSDirectory fsd) throws IOException {
    if (!all) {
      return;
    }
    for (long id : refPages.keys()) {
      if (writtenNow.containsKey(id)) {
        continue;
      }
      INode dir;
      try {
        dir = fsd.getInode(refParents.get(id));
      } catch (IllegalStateException e) {
        dir = null; // not in the inode map; the slim map took the id for a cold file's
      }
      boolean held = false;
      if (dir instanceof NvmINodeDirectory) {
        for (INodeReference r : ((NvmINodeDirectory) dir).dstReferences()) {
          held |= r.getId() == id;
        }
      }
      if (!held) {
        dropReference(t, id);
      }
    }
  }

  /**
   * A renamed inode that only its old places hold (no current reference: it was deleted at its
   * destination, or its destination directory was) keeps its page under a directory that stays: one
   * of its old places. Its page still names the destination, which the batch may free; the rebuild
   * keeps it out of the current tree either way (region-format.md §13). Ends the batch.
   */
  void stageOldPlaceParents(Txn t, IdPageMap pages) throws IOException {
    if (!oldPlaces.isEmpty()) {
      // a move may have to wait for another: Y renamed out of X, then X into Y, both held by their
      // old places only; Y's old place is X, whose page is under Y's until X goes under its own
      List<Long> todo = new ArrayList<>();
      if (all) {
        todo.addAll(oldPlaces.keySet());
      } else {
        for (long id : unsettled.keys()) {
          if (oldPlaces.containsKey(id)) {
            todo.add(id);
          }
        }
      }
      boolean progress = true;
      while (!todo.isEmpty() && progress) {
        progress = false;
        for (Iterator<Long> it = todo.iterator(); it.hasNext(); ) {
          long id = it.next();
          int done = stageOldPlaceParent(t, pages, id, oldPlaces.get(id));
          if (done != 0) {
            it.remove();
            progress |= done > 0;
          }
        }
      }
    }
    touched = new LongLongMap();
    unsettled = new LongLongMap();
    writtenNow = new LongLongMap();
    removedNow = new LongLongMap();
    all = false;
  }

  /**
   * Puts the page of renamed inode {@code id} under one of its old places {@code owners} that
   * stays, if it needs to go; 1: moved, -1: nothing to do, 0: every old place is below it now
   * (retry).
   */
  private int stageOldPlaceParent(Txn t, IdPageMap pages, long id, Set<Long> owners)
      throws IOException {
    long page = pages.get(id);
    if (page == IdPageMap.MISSING || removedNow.containsKey(id)) {
      return -1;
    }
    long parent = store.inode(page).parentPage();
    if (refPages.containsKey(id)) {
      // current at its reference's directory, where a rename moved its page; a page left under an
      // old place (the fuzzer found one under an old place a snapshot's deletion freed) goes there
      long dir = pages.get(refParents.get(id));
      if (dir == IdPageMap.MISSING
          || dir == parent
          || removedNow.containsKey(refParents.get(id))
          || t.wouldCycle(page, dir)) {
        return -1;
      }
      t.move(page, dir, store.inode(page).nameBytes());
      return 1;
    }
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

  /**
   * The record of map key {@code key} made to hold {@code payload} (null: removed); its RC_KEY is
   * {@code key} for a diff or reference record, {@code key - 1} (the snapshot id) for a snapshot
   * record.
   */
  static void replaceRecord(
      InodeStore store, Txn t, LongLongMap pages, long key, int type, long value, byte[] payload)
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

  /** The debug check (nvm.debug.snapshotSweep): every reference record unequal to memory. */
  void differing(FSDirectory fsd, Map<Long, String> out) throws IOException {
    for (long id : refPages.keys()) {
      INode dir;
      try {
        dir = fsd.getInode(refParents.get(id));
      } catch (IllegalStateException e) {
        // not in the inode map (2.7.3 destroyed it) while its page stays (RemovalParents): the
        // slim map took the id for a cold file's; nothing in memory to compare the record with.
        // Open (docs/snapshots.md): the record stays, so a restart brings the reference back
        // into that directory, which only snapshots show
        LOG.warn(
            "nvm.debug.snapshotSweep: the reference record of inode "
                + id
                + " names directory "
                + refParents.get(id)
                + ", which 2.7.3 destroyed");
        continue;
      }
      INodeReference ref = null;
      if (dir instanceof NvmINodeDirectory) {
        for (INodeReference r : ((NvmINodeDirectory) dir).dstReferences()) {
          if (r.getId() == id) {
            ref = r;
          }
        }
      }
      byte[] have = store.record(refPages.get(id)).payload();
      if (ref == null || !Arrays.equals(have, NvmSnapshotEncoder.reference(ref))) {
        out.put(
            -id, // apart from the inode's diff record
            "the reference record of inode "
                + id
                + (ref == null
                    ? " names directory " + refParents.get(id) + ", which does not hold it"
                    : " differs from memory"));
      }
    }
  }

  // ---- restart (SnapshotRestore fills these from the recovered records)

  void restoredReference(long referredId, long page, long parentId) {
    refPages.put(referredId, page);
    setRefParent(referredId, parentId);
  }

  /** At a restart: {@code dir}'s diffs are in memory again. */
  void restoredDiffs(INodeDirectory dir) {
    noteOldPlaces(dir, null);
    unsettled = new LongLongMap();
  }
}
