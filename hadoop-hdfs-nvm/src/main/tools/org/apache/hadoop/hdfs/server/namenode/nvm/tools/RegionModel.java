package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

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

  static RegionModel load(Region region) {
    return new RegionModel(new RegionImage(region));
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

  /** The STRING pages attached and detached inodes refer to (computed on first use). */
  StringRefs stringRefs() {
    if (stringRefs == null) {
      stringRefs = StringRefs.of(this);
    }
    return stringRefs;
  }
}
