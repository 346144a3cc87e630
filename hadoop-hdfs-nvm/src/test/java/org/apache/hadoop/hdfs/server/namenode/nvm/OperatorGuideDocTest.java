package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.Rule;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * docs/operator-guide.md's reference tables match the code: the configuration table has exactly the
 * keys of hdfs-nvm-default.xml and NvmConfigKeys, with the documented defaults; the metrics table
 * has exactly the names the NvmNamespace source publishes (with every optional part on).
 */
public class OperatorGuideDocTest {
  @Rule public ShmDir shm = new ShmDir();

  private static String guide() throws Exception {
    File f = new File("../docs/operator-guide.md");
    assertTrue("missing " + f.getAbsolutePath(), f.isFile());
    return new String(Files.readAllBytes(f.toPath()), StandardCharsets.UTF_8);
  }

  /**
   * The table rows after {@code marker}, up to the first line that is not a row: first cell, second
   * cell.
   */
  private static Map<String, String> table(String doc, String marker) {
    int at = doc.indexOf(marker);
    assertTrue("no '" + marker + "' in the guide", at >= 0);
    Map<String, String> rows = new LinkedHashMap<>();
    String[] lines = doc.substring(at).split("\n");
    Pattern cell = Pattern.compile("`([^`]+)`");
    for (int i = 1; i < lines.length && lines[i].startsWith("|"); i++) {
      String[] cells = lines[i].split("\\|");
      if (cells.length < 3 || cells[1].trim().startsWith("---") || !cells[1].contains("`")) {
        continue; // header and separator
      }
      Matcher m = cell.matcher(cells[1]);
      while (m.find()) {
        assertNull("listed twice: " + m.group(1), rows.put(m.group(1), cells[2].trim()));
      }
    }
    assertFalse("empty table after " + marker, rows.isEmpty());
    return rows;
  }

  @Test
  public void configurationTableMatchesTheDefaultsFileAndTheKeys() throws Exception {
    Map<String, String> documented = table(guide(), "<!-- configuration table");
    Map<String, String> xml = new TreeMap<>();
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("hdfs-nvm-default.xml")) {
      assertNotNull("hdfs-nvm-default.xml not on the class path", in);
      Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = d.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        Element p = (Element) props.item(i);
        xml.put(
            p.getElementsByTagName("name").item(0).getTextContent().trim(),
            p.getElementsByTagName("value").item(0).getTextContent().trim());
      }
    }
    TreeSet<String> keys = new TreeSet<>();
    for (Field f : NvmConfigKeys.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getName().endsWith("_KEY")) {
        keys.add((String) f.get(null));
      }
    }
    assertEquals(
        "guide's table vs hdfs-nvm-default.xml", xml.keySet(), new TreeSet<>(documented.keySet()));
    assertEquals("guide's table vs NvmConfigKeys", keys, new TreeSet<>(documented.keySet()));
    for (Map.Entry<String, String> e : xml.entrySet()) {
      String want = e.getValue().isEmpty() ? "(unset)" : "`" + e.getValue() + "`";
      assertEquals("default of " + e.getKey() + " in the guide", want, documented.get(e.getKey()));
    }
  }

  @Test
  public void metricsTableMatchesWhatTheSourcePublishes() throws Exception {
    Map<String, String> documented = table(guide(), "<!-- metrics table");
    TreeSet<String> published = new TreeSet<>();
    Map<String, Boolean> kinds = new TreeMap<>();
    try (InodeStore s = shm.createStore("r", ShmDir.MEDIUM)) {
      createInode(s, s.rootPage(), InodeAttrs.directory("d"));
    }
    try (InodeStore s = shm.reopen("r")) {
      publish(s, published, kinds);
    }
    // the disk mode publishes its write-ahead log's metrics too (region-format.md §12)
    RegionOptions disk = new RegionOptions(null, 1 << 20, 0, 0, RegionOptions.NO_CHECKPOINTER);
    try (InodeStore s =
        InodeStore.open(
            Region.create(shm.file("d"), ShmDir.MEDIUM, ShmDir.ID, PersistMode.DISK, disk))) {
      s.format(1000L, 0755, "hdfs", "supergroup");
    }
    try (InodeStore s = InodeStore.open(Region.open(shm.file("d"), PersistMode.DISK, disk))) {
      assertTrue("a disk-mode store has a log", s.region().logStats() != null);
      publish(s, published, kinds);
    }
    assertEquals(
        "guide's metrics table vs the NvmNamespace source",
        published,
        new TreeSet<>(documented.keySet()));
    for (String name : published) {
      String kind = documented.get(name);
      if (name.startsWith("tag.")) {
        assertEquals(name, "tag", kind);
      } else {
        assertEquals("kind of " + name, kinds.get(name) ? "counter" : "gauge", kind);
      }
    }
  }

  /** The tags and values an NvmNamespace source over {@code s} publishes, with their kinds. */
  private static void publish(InodeStore s, TreeSet<String> published, Map<String, Boolean> kinds) {
    Configuration conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_METRICS_PERCENTILES_INTERVALS_KEY, "60");
    conf.set(DFSConfigKeys.DFS_NAMESERVICE_ID, "ns1");
    NvmNamespaceMetrics m =
        new NvmNamespaceMetrics(conf, s, new LastRecovery(s.region().recovery(), 1, 1, 2));
    m.setInodeCacheStats(
        new InodeCacheStats() {
          public long size() {
            return 0;
          }

          public long capacity() {
            return 1;
          }

          public long hits() {
            return 0;
          }

          public long misses() {
            return 0;
          }

          public long evictions() {
            return 0;
          }
        });
    RecordingCollector c = new RecordingCollector();
    m.getMetrics(c, true);
    for (String t : c.tags.keySet()) {
      published.add("tag." + t);
    }
    published.addAll(c.values.keySet());
    kinds.putAll(c.isCounter);
  }
}
