package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.apache.hadoop.hdfs.server.namenode.nvm.StoreOps.*;
import static org.junit.Assert.*;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionDamage;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.junit.Test;

/** The command line: each subcommand's output and exit code, and usage errors. */
public class NvmRegionToolTest extends SampleNamespaceFixture {
  private String out;
  private String err;

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = NvmRegionTool.run(args, new PrintStream(o, true), new PrintStream(e, true));
    out = new String(o.toByteArray(), StandardCharsets.UTF_8);
    err = new String(e.toByteArray(), StandardCharsets.UTF_8);
    return code;
  }

  private String region() {
    return n.file.getPath();
  }

  @Test
  public void checkExitCodes() throws Exception {
    assertEquals(0, run("check", region()));
    assertTrue(out, out.endsWith("consistent (exit 0)\n"));
    RegionDamage.dropStringReference(n.file, n.writing, "alice"); // "bob" is left unreferenced
    assertEquals(2, run("check", region()));
    assertTrue(out, out.startsWith("RECOVERABLE at offset "));
    RegionDamage.putLong(n.file, n.small + RegionLayout.IN_PARENT_ID, 7);
    assertEquals(1, run("check", region()));
    assertTrue(
        out,
        out.contains(
            "ERROR at offset " + (n.small + RegionLayout.IN_PARENT_ID) + ": BROKEN_PARENT_LINK: "));
    RegionDamage.flipBit(n.file, RegionLayout.HDR_CRC, 0);
    assertEquals(1, run("check", region()));
    assertTrue(out, out.startsWith("ERROR at offset " + RegionLayout.HDR_CRC + ": REFUSED: "));
  }

  @Test
  public void dumpTextAndJson() throws Exception {
    assertEquals(0, run("dump", region()));
    assertEquals(NamespaceDump.read(n.file).text(), out);
    assertTrue(out, out.contains("\n/user/alice/small.txt id="));
    assertEquals(0, run("dump", "--json", region()));
    assertTrue(out, out.startsWith("{\"region\": "));
    assertEquals(NamespaceDump.json(n.file), out);
    assertEquals(0, run("dump", region(), "--json")); // the flag may come last
  }

  @Test
  public void statTextAndJson() throws Exception {
    assertEquals(0, run("stat", region()));
    assertTrue(out, out.contains("\nliveInodes: 8\n"));
    assertEquals(0, run("stat", "--json", region()));
    assertTrue(out, out.contains("\"liveInodes\":8"));
  }

  @Test
  public void unreadableRegionIsExitOneForDumpAndStat() throws Exception {
    RegionDamage.truncate(n.file, 100);
    assertEquals(1, run("dump", region()));
    assertTrue(err, err.contains("NVM_ENOTREGION"));
    assertEquals(1, run("stat", region()));
    assertEquals(1, run("check", region()));
  }

  @Test
  public void usageErrors() throws Exception {
    assertEquals(NvmRegionTool.EXIT_USAGE, run());
    assertTrue(err, err.startsWith("usage: "));
    assertEquals(NvmRegionTool.EXIT_USAGE, run("check"));
    assertEquals(NvmRegionTool.EXIT_USAGE, run("fsck", region()));
    assertTrue(err, err.startsWith("unknown command 'fsck'"));
    assertEquals(NvmRegionTool.EXIT_USAGE, run("check", "--json", region()));
    assertEquals(NvmRegionTool.EXIT_USAGE, run("dump", region(), region()));
    assertEquals(NvmRegionTool.EXIT_USAGE, run("stat", "--verbose", region()));
    assertEquals(0, run("--help"));
    assertTrue(out, out.startsWith("usage: "));
  }
}
