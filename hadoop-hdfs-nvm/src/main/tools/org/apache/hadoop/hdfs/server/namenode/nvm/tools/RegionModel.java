package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

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

  /** The STRING pages attached and detached inodes refer to (computed on first use). */
  StringRefs stringRefs() {
    if (stringRefs == null) {
      stringRefs = StringRefs.of(this);
    }
    return stringRefs;
  }
}
