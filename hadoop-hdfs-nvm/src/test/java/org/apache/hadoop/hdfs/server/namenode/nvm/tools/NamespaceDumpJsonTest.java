package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.util.List;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeAttrs;
import org.apache.hadoop.hdfs.server.namenode.nvm.InodeStore;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;
import org.junit.Test;

/**
 * The JSON dump parses (with an independent parser) and carries the same fields as the text dump.
 */
public class NamespaceDumpJsonTest extends SampleNamespaceFixture {
  private final ObjectMapper mapper = new ObjectMapper();

  private JsonNode inode(JsonNode doc, String path) {
    for (JsonNode i : doc.get("inodes")) {
      if (i.get("path").getTextValue().equals(path)) {
        return i;
      }
    }
    throw new AssertionError(path + " not in " + doc);
  }

  @Test
  public void documentHasCountersAndOneObjectPerInodeInPathOrder() throws Exception {
    JsonNode doc = mapper.readTree(NamespaceDump.json(n.file));
    assertEquals(n.file.getPath(), doc.get("region").getTextValue());
    assertEquals(1100, doc.get("counters").get("genstampV2").getLongValue());
    assertEquals(42, doc.get("counters").get("lastTxId").getLongValue());
    assertFalse(doc.get("counters").get("undoArmed").getBooleanValue());
    List<String> lines = NamespaceDump.lines(n.file);
    assertEquals(lines.size(), doc.get("inodes").size());
    for (int i = 0; i < lines.size(); i++) {
      assertTrue(
          lines.get(i),
          lines.get(i).startsWith(doc.get("inodes").get(i).get("path").getTextValue() + " "));
    }
  }

  @Test
  public void everyFieldOfAFileAndADirectory() throws Exception {
    JsonNode doc = mapper.readTree(NamespaceDump.json(n.file));
    JsonNode w = inode(doc, "/user/alice/writing.log");
    assertEquals(n.id(n.writing), w.get("id").getLongValue());
    assertEquals("file", w.get("type").getTextValue());
    assertEquals("0644", w.get("mode").getTextValue());
    assertEquals("bob", w.get("owner").getTextValue());
    assertEquals("staff", w.get("group").getTextValue());
    assertEquals(7000, w.get("mtime").getLongValue());
    assertEquals(7001, w.get("atime").getLongValue());
    assertEquals(3, w.get("replication").getIntValue());
    assertEquals(128L << 20, w.get("preferredBlockSize").getLongValue());
    assertEquals(0, w.get("storagePolicy").getIntValue());
    assertEquals(
        "DFSClient_NONMAPREDUCE_1", w.get("underConstruction").get("clientName").getTextValue());
    assertEquals("10.0.0.7", w.get("underConstruction").get("clientMachine").getTextValue());
    assertEquals(2, w.get("blocks").size());
    assertEquals(SampleNamespace.BLOCK_BASE + 41, w.get("blocks").get(1).get("id").getLongValue());
    assertEquals(0, w.get("blocks").get(1).get("numBytes").getLongValue());
    assertEquals(1100, w.get("blocks").get(1).get("generationStamp").getLongValue());
    assertTrue(inode(doc, "/user/alice/small.txt").get("underConstruction").isNull());
    assertEquals(
        SampleNamespace.BIG_BLOCKS, inode(doc, "/user/alice/big.bin").get("blocks").size());
    JsonNode u = inode(doc, "/user");
    assertEquals("dir", u.get("type").getTextValue());
    assertEquals(100, u.get("nsQuota").getLongValue());
    assertEquals(1L << 30, u.get("dsQuota").getLongValue());
    assertEquals(5000, u.get("typeQuota").get("SSD").getLongValue());
    assertEquals(-1, u.get("typeQuota").get("ARCHIVE").getLongValue());
    assertEquals(7, u.get("storagePolicy").getIntValue());
    assertEquals(2001, u.get("atime").getLongValue());
  }

  @Test
  public void awkwardNamesSurviveJsonEscaping() throws Exception {
    String name = "q\"uote\\tab\tnl\nü";
    try (InodeStore s = shm.reopen("r")) {
      createInode(s, n.tmp, InodeAttrs.file(name).owner("o", "g"));
    }
    JsonNode doc = mapper.readTree(NamespaceDump.json(n.file));
    inode(doc, "/tmp/" + name);
    for (String line : NamespaceDump.jsonLines(n.file)) {
      assertFalse("one object per line", line.contains("\n"));
    }
  }
}
