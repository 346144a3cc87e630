package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout.*;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Space use of a region, as the next read-write open would account it: a page is used if recovery
 * keeps it (an attached inode, a page of one of their extension chains (name, blocks, attributes, a
 * symlink's target), a string one of them refers to and the pages of its STRING_EXT chain, a record
 * and the pages of its RECORD_EXT chain). Pages recovery would reclaim are counted by kind and as
 * {@link #reclaimablePages()}, not as used.
 */
public final class StatReport {
  final String region;
  long regionSize;
  long pagesTotal;
  long highWater;
  long pagesUsed;
  long liveDirPages;
  long liveFilePages;
  long liveSymlinkPages;
  long liveNameExtPages;
  long liveBlockExtPages;
  long liveStringPages;
  long liveStringExtPages;
  long liveRecordPages;
  long liveRecordExtPages;
  long liveAttrExtPages;
  long cachePools;
  long cacheDirectives;
  long pendingPages;
  long invalidPages;
  long malformedPages;
  long reclaimablePages;
  long dirs;
  long files;
  long symlinks;
  long filesUnderConstruction;
  long blocks;
  long blockBytes;
  boolean undoArmed;
  boolean pageChecksums;

  /** The write-ahead log replayed into these numbers; null if the region needs none. */
  String log;

  long logCapacity;
  long logRecords;
  long logBytes;

  StatReport(String region) {
    this.region = region;
  }

  public long regionSize() {
    return regionSize;
  }

  public int pageSize() {
    return PAGE_SIZE;
  }

  public long pagesTotal() {
    return pagesTotal;
  }

  /** Pages recovery keeps. */
  public long pagesUsed() {
    return pagesUsed;
  }

  public long pagesFree() {
    return pagesTotal - pagesUsed;
  }

  /** Pages at an index at or above this have never been used. */
  public long highWater() {
    return highWater;
  }

  public long pagesNeverUsed() {
    return pagesTotal - highWater;
  }

  /** Free pages below the high-water mark: holes the allocator reuses before it raises the mark. */
  public long pagesFreeBelowHighWater() {
    return highWater - pagesUsed;
  }

  public long liveDirPages() {
    return liveDirPages;
  }

  public long liveFilePages() {
    return liveFilePages;
  }

  /** LIVE SYMLINK pages, in a region with the symlinks feature. */
  public long liveSymlinkPages() {
    return liveSymlinkPages;
  }

  public long liveNameExtPages() {
    return liveNameExtPages;
  }

  public long liveBlockExtPages() {
    return liveBlockExtPages;
  }

  public long liveStringPages() {
    return liveStringPages;
  }

  public long liveStringExtPages() {
    return liveStringExtPages;
  }

  /**
   * LIVE RECORD pages (delegation tokens, master keys, retry log pages, cache pools, cache
   * directives, the cache ids record), in a region with the records feature.
   */
  public long liveRecordPages() {
    return liveRecordPages;
  }

  public long liveRecordExtPages() {
    return liveRecordExtPages;
  }

  /** LIVE ATTR_EXT pages (inode attributes), in a region with the inode-attributes feature. */
  public long liveAttrExtPages() {
    return liveAttrExtPages;
  }

  /** Of the LIVE RECORD pages, the cache pools (RECORD_CACHE_POOL). */
  public long cachePools() {
    return cachePools;
  }

  /** Of the LIVE RECORD pages, the cache directives (RECORD_CACHE_DIRECTIVE). */
  public long cacheDirectives() {
    return cacheDirectives;
  }

  public long pendingPages() {
    return pendingPages;
  }

  public long invalidPages() {
    return invalidPages;
  }

  /** Pages whose state word recovery refuses (wrong magic, state, or kind). */
  public long malformedPages() {
    return malformedPages;
  }

  /** LIVE pages recovery would reclaim: orphans, unlinked extension pages, unreferenced strings. */
  public long reclaimablePages() {
    return reclaimablePages;
  }

  /** Attached inodes (the root included). */
  public long liveInodes() {
    return dirs + files + symlinks;
  }

  public long dirs() {
    return dirs;
  }

  public long files() {
    return files;
  }

  /** Attached symlinks. */
  public long symlinks() {
    return symlinks;
  }

  public long filesUnderConstruction() {
    return filesUnderConstruction;
  }

  public long blocks() {
    return blocks;
  }

  public long blockBytes() {
    return blockBytes;
  }

  /** Used bytes (used pages times the page size) per attached inode; 0 if there is none. */
  public double bytesPerInode() {
    return liveInodes() == 0 ? 0 : (double) pagesUsed * PAGE_SIZE / liveInodes();
  }

  /** Free pages below the high-water mark as a fraction of it (0 = no holes). */
  public double fragmentation() {
    return highWater == 0 ? 0 : (double) pagesFreeBelowHighWater() / highWater;
  }

  public boolean undoArmed() {
    return undoArmed;
  }

  /**
   * Whether the region has the page-checksums feature (region-format.md §11); a region written
   * before it gets it at its next read-write open.
   */
  public boolean pageChecksums() {
    return pageChecksums;
  }

  /**
   * The write-ahead log a read-write open replays before it counts (region-format.md §12.5), whose
   * replay these numbers include; null if the region needs none (its file is complete alone).
   */
  public String log() {
    return log;
  }

  /** Bytes of the log's ring (0 without a log). */
  public long logCapacity() {
    return logCapacity;
  }

  /** Records of committed groups the replay stores (0 without a log). */
  public long logRecords() {
    return logRecords;
  }

  /** Bytes of those records, headers included (0 without a log). */
  public long logBytes() {
    return logBytes;
  }

  private Map<String, Object> values() {
    Map<String, Object> v = new LinkedHashMap<String, Object>();
    v.put("regionSize", regionSize);
    v.put("pageSize", (long) PAGE_SIZE);
    v.put("pagesTotal", pagesTotal);
    v.put("pagesUsed", pagesUsed);
    v.put("pagesFree", pagesFree());
    v.put("highWater", highWater);
    v.put("pagesNeverUsed", pagesNeverUsed());
    v.put("pagesFreeBelowHighWater", pagesFreeBelowHighWater());
    v.put("liveDirPages", liveDirPages);
    v.put("liveFilePages", liveFilePages);
    v.put("liveSymlinkPages", liveSymlinkPages);
    v.put("liveNameExtPages", liveNameExtPages);
    v.put("liveBlockExtPages", liveBlockExtPages);
    v.put("liveStringPages", liveStringPages);
    v.put("liveStringExtPages", liveStringExtPages);
    v.put("liveRecordPages", liveRecordPages);
    v.put("liveRecordExtPages", liveRecordExtPages);
    v.put("liveAttrExtPages", liveAttrExtPages);
    v.put("cachePools", cachePools);
    v.put("cacheDirectives", cacheDirectives);
    v.put("pendingPages", pendingPages);
    v.put("invalidPages", invalidPages);
    v.put("malformedPages", malformedPages);
    v.put("reclaimablePages", reclaimablePages);
    v.put("liveInodes", liveInodes());
    v.put("dirs", dirs);
    v.put("files", files);
    v.put("symlinks", symlinks);
    v.put("filesUnderConstruction", filesUnderConstruction);
    v.put("blocks", blocks);
    v.put("blockBytes", blockBytes);
    v.put("bytesPerInode", bytesPerInode());
    v.put("fragmentation", fragmentation());
    v.put("undoArmed", undoArmed);
    v.put("pageChecksums", pageChecksums);
    if (log != null) {
      v.put("log", log);
      v.put("logCapacity", logCapacity);
      v.put("logRecords", logRecords);
      v.put("logBytes", logBytes);
    }
    return v;
  }

  /** "name: value" per line. */
  public String format() {
    StringBuilder b = new StringBuilder("region: ").append(TextEscape.path(region)).append('\n');
    for (Map.Entry<String, Object> e : values().entrySet()) {
      Object v = e.getValue();
      b.append(e.getKey())
          .append(": ")
          .append(
              v instanceof Double
                  ? String.format("%.4f", (Double) v)
                  : v instanceof String ? TextEscape.path((String) v) : v)
          .append('\n');
    }
    return b.toString();
  }

  public String json() {
    Json j = new Json().put("region", region);
    for (Map.Entry<String, Object> e : values().entrySet()) {
      Object v = e.getValue();
      if (v instanceof Double) {
        j.put(e.getKey(), (Double) v);
      } else if (v instanceof Boolean) {
        j.put(e.getKey(), (Boolean) v);
      } else if (v instanceof String) {
        j.put(e.getKey(), (String) v);
      } else {
        j.put(e.getKey(), (Long) v);
      }
    }
    return j.toString() + "\n";
  }
}
