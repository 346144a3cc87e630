package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.nvm.Region;

/**
 * The namespace in a region, read-only (like {@code hdfs oiv}): one line per attached inode, sorted
 * by path (UTF-8 byte order, then id), with every persisted field; the superblock counters
 * separately; and the records (delegation tokens and master keys, without the keys' bytes; retry
 * log pages; cache pools, cache directives and the next directive id; truncate blocks) after the
 * inodes. The namespace is the one the next read-write open would load: an armed undo record is
 * shown rolled back and orphans are left out. Two regions hold the same namespace iff their {@link
 * #lines(File)} are equal (page offsets and the region identity are not part of a line). Text and
 * JSON forms: docs/offline-tools.md.
 */
public final class NamespaceDump {
  private static final Comparator<InodeRecord> BY_PATH =
      new Comparator<InodeRecord>() {
        @Override
        public int compare(InodeRecord a, InodeRecord b) {
          int c = NameCheck.compareBytes(a.pathKey, b.pathKey);
          return c != 0 ? c : Long.compare(a.id, b.id);
        }
      };

  private final String region;
  private final RegionCounters counters;
  private final List<InodeRecord> inodes;

  private final List<RecordEntry> records;
  private final WriteAheadLog log;

  private NamespaceDump(File file, RegionModel m) {
    this.region = file.getPath();
    this.counters = new RegionCounters(m);
    this.log = m.image.log();
    this.inodes = inodeRecords(m);
    this.records = recordEntries(m);
  }

  /** Reads a region (refusals of the native open are thrown as NvmException). */
  public static NamespaceDump read(File region) throws IOException {
    return read(region, null);
  }

  /**
   * As {@link #read(File)}, with the region's write-ahead log at {@code log} (null: the region's
   * path + ".wal"), replayed if the region needs it; a log a read-write open refuses is refused
   * (IOException).
   */
  public static NamespaceDump read(File region, File log) throws IOException {
    Region r = Region.openReadOnly(region);
    try {
      return new NamespaceDump(region, RegionModel.loadUsable(r, log));
    } finally {
      RegionCheck.closeQuietly(r);
    }
  }

  public static List<String> lines(File region) throws IOException {
    return read(region).lines();
  }

  /** One JSON object per inode, in the order of {@link #lines(File)}. */
  public static List<String> jsonLines(File region) throws IOException {
    return read(region).jsonLines();
  }

  /** The whole dump as one JSON document: {"region", "counters", "inodes": [...], "records"}. */
  public static String json(File region) throws IOException {
    return read(region).json();
  }

  /** "name=value" for the header identity and every superblock counter. */
  public static List<String> counters(File region) throws IOException {
    return read(region).counters();
  }

  private static List<RecordEntry> recordEntries(RegionModel m) {
    LongList pages = m.census.liveRecords;
    List<RecordEntry> out = new ArrayList<RecordEntry>(pages.size());
    for (int i = 0; i < pages.size(); i++) {
      out.add(new RecordEntry(m.record(pages.get(i))));
    }
    Collections.sort(out, RecordEntry.ORDER);
    return out;
  }

  private static List<InodeRecord> inodeRecords(RegionModel m) {
    Map<Long, String> paths = new HashMap<Long, String>();
    List<InodeRecord> out = new ArrayList<InodeRecord>(m.tree.order.length);
    for (long page : m.tree.order) { // parents before children
      InodePage p = m.inode(page);
      String path = "/";
      boolean complete = true;
      if (page != m.tree.rootPage) {
        ExtChain names = ExtChain.names(p, null);
        byte[] name = p.nameBytes(names);
        complete = names.problem() == null && name.length == p.nameLength();
        String parent = paths.get(p.parentPage());
        path = (parent.equals("/") ? "" : parent) + "/" + StringPages.decode(name);
      }
      paths.put(page, path);
      out.add(new InodeRecord(m, p, path, complete));
    }
    Collections.sort(out, BY_PATH);
    return out;
  }

  public List<String> lines() {
    List<String> out = new ArrayList<String>(inodes.size());
    for (InodeRecord r : inodes) {
      out.add(r.text());
    }
    return out;
  }

  /**
   * One line per record (tokens, master keys, retry log pages, cache pools, cache directives, the
   * cache ids record, truncate blocks), as the text output lists them after the inodes.
   */
  public List<String> recordLines() {
    List<String> out = new ArrayList<String>();
    for (RecordEntry r : records) {
      out.add(r.text());
    }
    return out;
  }

  public static List<String> recordLines(File region) throws IOException {
    return read(region).recordLines();
  }

  /** Attached inodes, the root included. */
  public int inodeCount() {
    return inodes.size();
  }

  /** The block ids of every attached file, sorted. */
  public long[] blockIds() {
    int n = 0;
    for (InodeRecord r : inodes) {
      n += r.blocks.length / 3;
    }
    long[] ids = new long[n];
    int k = 0;
    for (InodeRecord r : inodes) {
      for (int i = 0; i < r.blocks.length; i += 3) {
        ids[k++] = r.blocks[i];
      }
    }
    Arrays.sort(ids);
    return ids;
  }

  public List<String> jsonLines() {
    List<String> out = new ArrayList<String>(inodes.size());
    for (InodeRecord r : inodes) {
      out.add(r.json());
    }
    return out;
  }

  public List<String> counters() {
    return counters.lines();
  }

  /**
   * "name=value" for the write-ahead log replayed into this dump (its file, the checkpoint LSN the
   * replay starts at, the LSN it ends at, the records and entries it stores); none if the region
   * needs no log (region-format.md §12.5).
   */
  public List<String> logLines() {
    List<String> out = new ArrayList<String>();
    if (log.isNeeded()) {
      out.add("log=" + TextEscape.path(log.file.getPath()));
      out.add("logCheckpoint=" + Long.toUnsignedString(log.checkpoint));
      out.add("logEnd=" + Long.toUnsignedString(log.replay.end));
      out.add("logRecords=" + log.replay.records);
      out.add("logEntries=" + log.replay.entries);
    }
    return out;
  }

  /**
   * The command's text output: "# name=value" counter lines (and the write-ahead log's, if one is
   * replayed), the inode lines, then the record lines.
   */
  public String text() {
    StringWriter w = new StringWriter();
    writeText(new PrintWriter(w));
    return w.toString();
  }

  /** {@link #text()}, written line by line (a dump of millions of inodes is never one string). */
  public void writeText(PrintWriter out) {
    out.print("# region=" + TextEscape.path(region) + "\n");
    for (String c : counters()) {
      out.print("# " + c + "\n");
    }
    for (String l : logLines()) {
      out.print("# " + l + "\n");
    }
    for (InodeRecord r : inodes) {
      out.print(r.text());
      out.print('\n');
    }
    for (String r : recordLines()) {
      out.print(r);
      out.print('\n');
    }
    out.flush();
  }

  /**
   * The command's JSON output: one document, one inode object per line inside "inodes", one record
   * object per line inside "records".
   */
  public String json() {
    StringWriter w = new StringWriter();
    writeJson(new PrintWriter(w));
    return w.toString();
  }

  /** ",\n"log": {...}" if a write-ahead log is replayed into this dump, else "". */
  private String logJson() {
    if (!log.isNeeded()) {
      return "";
    }
    return ",\n\"log\": "
        + new Json()
            .put("file", log.file.getPath())
            .put("checkpoint", log.checkpoint)
            .put("end", log.replay.end)
            .put("records", log.replay.records)
            .put("entries", log.replay.entries);
  }

  /** {@link #json()}, written line by line. */
  public void writeJson(PrintWriter out) {
    out.print(
        "{\"region\": "
            + Json.quote(region)
            + ",\n\"counters\": "
            + counters.json()
            + logJson()
            + ",\n\"inodes\": [");
    boolean first = true;
    for (InodeRecord r : inodes) {
      out.print(first ? "\n" : ",\n");
      out.print(r.json());
      first = false;
    }
    out.print("\n],\n\"records\": [");
    first = true;
    for (RecordEntry r : records) {
      out.print(first ? "\n" : ",\n");
      out.print(r.json());
      first = false;
    }
    out.print("\n]}\n");
    out.flush();
  }
}
