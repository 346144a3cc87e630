package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import org.apache.hadoop.hdfs.server.namenode.FSImageFormatProtobuf.SaverContext;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.StringTableSection;

/**
 * The string table a snapshot record's payload starts with (region-format.md §13): the stock
 * fsimage's {@code StringTableSection} (a count, then (id, string) entries), holding the strings
 * its permission, ACL and xattr words name by id. Here because the saver's string map is readable
 * only from this package.
 */
public final class NvmStringTables {
  private NvmStringTables() {}

  /** Writes the strings {@code ctx} handed ids out for. */
  public static void write(SaverContext ctx, OutputStream out) throws IOException {
    StringTableSection.newBuilder()
        .setNumEntry(ctx.getStringMap().size())
        .build()
        .writeDelimitedTo(out);
    for (Map.Entry<String, Integer> e : ctx.getStringMap().entrySet()) {
      StringTableSection.Entry.newBuilder()
          .setId(e.getValue())
          .setStr(e.getKey())
          .build()
          .writeDelimitedTo(out);
    }
  }

  /** Reads a table {@link #write} wrote: index = id, as the stock loader's table. */
  public static String[] read(InputStream in) throws IOException {
    StringTableSection s = StringTableSection.parseDelimitedFrom(in);
    if (s == null) {
      throw new IOException("a snapshot record without its string table");
    }
    String[] table = new String[s.getNumEntry() + 1];
    for (int i = 0; i < s.getNumEntry(); i++) {
      StringTableSection.Entry e = StringTableSection.Entry.parseDelimitedFrom(in);
      if (e == null || e.getId() <= 0 || e.getId() > s.getNumEntry()) {
        throw new IOException("a snapshot record's string table is damaged");
      }
      table[e.getId()] = e.getStr();
    }
    return table;
  }
}
