package org.nvmnn.it.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.Test;
import org.nvmnn.it.NvmCluster;

/**
 * Client input at the limits gets the same answers in NVM mode as in stock mode (both run here, one
 * after the other, and their outcomes are compared input by input), and everything accepted
 * survives a restart: names of 255 and 256 bytes (ASCII and 3-byte characters), a path of 8000
 * characters and one over, 1000 levels and one more, 10,000 components, names with unusual bytes,
 * and a directory at its item limit (lowered to 20,000 so the test stays short; the check is the
 * same at the default 1M).
 */
public class ClientLimitsTest {
  private static final int MAX_ITEMS = 20_000;

  private static String repeat(String s, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(s);
    }
    return b.toString();
  }

  /** The paths tried, in order: label -> path. */
  private static Map<String, String> inputs() {
    Map<String, String> in = new LinkedHashMap<>();
    in.put("255-byte name", "/names/" + repeat("a", 255));
    in.put("256-byte name", "/names/" + repeat("b", 256));
    in.put("255 bytes of 3-byte characters", "/names/" + repeat("\u20ac", 85));
    in.put("258 bytes of 3-byte characters", "/names/" + repeat("\u20ac", 86));
    StringBuilder p = new StringBuilder("/long");
    while (p.length() + 201 <= 8000) {
      p.append('/').append(repeat("c", 200));
    }
    p.append('/').append(repeat("d", 8000 - p.length() - 1));
    in.put("path of 8000 characters", p.toString());
    in.put("path of 8002 characters", p + "/e");
    in.put("999 levels below the root", repeat("/x", 999));
    in.put("1000 levels below the root", repeat("/x", 1000));
    in.put("1001 levels below the root", repeat("/x", 1001));
    in.put("10,000 components", repeat("/z", 10_000));
    String[] odd = {
      "with space",
      "tab\tin",
      "ctrl\u0001byte",
      "quote\"s'",
      "back\\slash",
      "per%cent",
      "emoji\uD83D\uDE00",
      "nul-lookalike\u2400",
      "*?[glob]",
      "-dash",
      ".hidden",
      "..dots",
      "...",
      "co:lon"
    };
    for (String name : odd) {
      in.put("name '" + name + "'", "/odd/" + name);
    }
    return in;
  }

  private static String outcome(ClientProtocol nn, String path) {
    try {
      return nn.mkdirs(path, FsPermission.getDirDefault(), true) ? "ok" : "false";
    } catch (RemoteException e) {
      return e.getClassName();
    } catch (IOException | RuntimeException e) {
      return e.getClass().getName();
    }
  }

  /** Runs every input against a fresh cluster of one mode; returns label -> outcome. */
  private static Map<String, String> run(boolean nvm) throws Exception {
    Configuration conf = NamespaceOpsTestBase.conf(nvm);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_MAX_DIRECTORY_ITEMS_KEY, MAX_ITEMS);
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        NamespaceOpsTestBase.baseDir(ClientLimitsTest.class) + "-" + nvm);
    MiniDFSCluster cluster = NvmCluster.builder(conf, 0).build();
    try {
      cluster.waitActive();
      DistributedFileSystem fs = cluster.getFileSystem();
      ClientProtocol nn = fs.getClient().getNamenode();
      Map<String, String> out = new LinkedHashMap<>();
      List<String> accepted = new ArrayList<>();
      for (Map.Entry<String, String> e : inputs().entrySet()) {
        String o = outcome(nn, e.getValue());
        out.put(e.getKey(), o);
        if (o.equals("ok")) {
          accepted.add(e.getValue());
        }
      }
      for (int i = 0; i < MAX_ITEMS; i++) {
        nn.mkdirs("/items/" + i, FsPermission.getDirDefault(), true);
      }
      out.put("item " + (MAX_ITEMS + 1) + " of a directory", outcome(nn, "/items/one-too-many"));

      NvmCluster.Snapshot before = NvmCluster.snapshot(fs, "/names");
      cluster.restartNameNode(true);
      fs = cluster.getFileSystem();
      NvmCluster.assertSameNamespace(
          "names after restart", before, NvmCluster.snapshot(fs, "/names"));
      for (String p : accepted) {
        assertTrue(
            p + " after restart (" + (nvm ? "NVM" : "stock") + ")",
            fs.getFileStatus(new Path(p)).isDirectory());
      }
      int listed = 0;
      byte[] after = HdfsFileStatus.EMPTY_NAME;
      DirectoryListing l;
      do {
        l = fs.getClient().listPaths("/items", after);
        listed += l.getPartialListing().length;
        after = l.getLastName();
      } while (l.hasMore());
      assertEquals(MAX_ITEMS, listed);
      out.put(
          "item " + (MAX_ITEMS + 1) + " after restart",
          outcome(fs.getClient().getNamenode(), "/items/one-too-many"));
      return out;
    } finally {
      cluster.shutdown();
    }
  }

  @Test(timeout = 900_000)
  public void limitsAnswerAsOnStockAndAcceptedInputSurvivesRestart() throws Exception {
    Map<String, String> stock = run(false);
    Map<String, String> nvm = run(true);
    StringBuilder table = new StringBuilder();
    for (String k : stock.keySet()) {
      table.append(String.format("%-40s stock: %-60s nvm: %s%n", k, stock.get(k), nvm.get(k)));
    }
    System.out.print(table);
    assertEquals("outcomes differ:\n" + table, stock, nvm);
    // the limits themselves (so that "equal" cannot mean "both wrong")
    assertEquals("ok", nvm.get("255-byte name"));
    assertTrue(nvm.get("256-byte name").endsWith("PathComponentTooLongException"));
    assertEquals("ok", nvm.get("255 bytes of 3-byte characters"));
    assertEquals("ok", nvm.get("path of 8000 characters"));
    assertTrue(!nvm.get("path of 8002 characters").equals("ok"));
    assertTrue(!nvm.get("10,000 components").equals("ok"));
    assertTrue(
        nvm.get("item " + (MAX_ITEMS + 1) + " of a directory")
            .endsWith("MaxDirectoryItemsExceededException"));
    assertEquals(255, repeat("\u20ac", 85).getBytes(StandardCharsets.UTF_8).length);
  }
}
