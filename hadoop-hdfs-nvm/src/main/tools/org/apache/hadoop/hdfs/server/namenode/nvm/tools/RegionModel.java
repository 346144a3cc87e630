package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.hdfs.server.namenode.nvm.DiffEntryFormat;
import org.apache.hadoop.hdfs.server.namenode.nvm.LongLongMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * What the tools know of an open region: the rolled-back view, its pages, the attached tree and the
 * strings.
 */
final class RegionModel {
  final RegionImage image;
  final PageCensus census;
  final Attachment tree;
  final StringPages strings;

  private StringRefs stringRefs;
  private LongLongMap attachedById;

  private RegionModel(RegionImage image) {
    this.image = image;
    this.census = PageCensus.scan(image);
    this.tree = Attachment.attach(image, census);
    this.strings = StringPages.load(image, census);
  }

  /** The model of {@code region} with its write-ahead log {@code logFile} (null: the default). */
  static RegionModel load(Region region, File logFile) {
    return new RegionModel(new RegionImage(region, logFile));
  }

  /**
   * As {@link #load}, for dump and stat: refuses (IOException) a region whose write-ahead log a
   * read-write open refuses, as the native open's refusals are; there is no namespace to show.
   */
  static RegionModel loadUsable(Region region, File logFile) throws IOException {
    RegionImage image = new RegionImage(region, logFile);
    image.log().requireUsable();
    return new RegionModel(image);
  }

  InodePage inode(long page) {
    return new InodePage(image, page);
  }

  RecordPage record(long page) {
    return new RecordPage(image, page);
  }

  /**
   * The page of the attached inode with id {@code id} (not 0; the lowest page if several carry it),
   * or {@link LongLongMap#MISSING}. The map is built on first use.
   */
  long attachedPageOfId(long id) {
    if (attachedById == null) {
      attachedById = new LongLongMap(Math.max(16, tree.order.length));
      for (long page : tree.order) {
        long pid = inode(page).id();
        if (pid == 0) {
          continue; // not a key the map can hold
        }
        long seen = attachedById.get(pid);
        if (seen == LongLongMap.MISSING || page < seen) {
          attachedById.put(pid, page);
        }
      }
    }
    return attachedById.get(id);
  }

  private LongLongMap notInTree;

  /**
   * The ids of the inodes only snapshots hold (region-format.md §13): their pages keep a parent
   * link but they are not children in the current tree. They are the inodes the RECORD_INODE_DIFFS
   * records' deleted lists hold, and those their references there refer to unless a current
   * reference (RECORD_INODE_REF) names them; each maps to the diff record's inode id. Built on
   * first use.
   */
  LongLongMap notInCurrentTree() {
    if (notInTree == null) {
      notInTree = new LongLongMap();
      LongList current = new LongList();
      for (int i = 0; i < census.liveRecords.size(); i++) {
        RecordPage r = record(census.liveRecords.get(i));
        if (r.isInodeRef()) {
          current.add(r.key());
        }
        if (r.isDiffEntry()) {
          try {
            for (DiffEntryFormat.Entry e : DiffEntryFormat.decode(r.payload())) {
              if (e.kind != DiffEntryFormat.CREATED && r.value() != 0) {
                notInTree.put(r.value(), r.key());
              }
            }
          } catch (java.io.IOException e) {
            // a damaged payload: SnapshotRecordCheck's finding
          }
          continue;
        }
        if (!r.isInodeDiffs()) {
          continue;
        }
        DiffRecordHeader h = DiffRecordHeader.decode(r.payload());
        if (h != null) {
          for (long[] ids : new long[][] {h.deleted, h.referred}) {
            for (long id : ids) {
              if (id != 0) {
                notInTree.put(id, r.key());
              }
            }
          }
        }
      }
      for (int i = 0; i < current.size(); i++) {
        if (current.get(i) != 0) {
          notInTree.remove(current.get(i));
        }
      }
    }
    return notInTree;
  }

  /** The STRING pages attached and detached inodes refer to (computed on first use). */
  StringRefs stringRefs() {
    if (stringRefs == null) {
      stringRefs = StringRefs.of(this);
    }
    return stringRefs;
  }
}
