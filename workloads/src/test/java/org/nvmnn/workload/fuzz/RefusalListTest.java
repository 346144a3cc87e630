package org.nvmnn.workload.fuzz;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Paths;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction;
import org.junit.Test;

public class RefusalListTest {
  @Test
  public void theDocumentedListNamesOnlyCallsTheFuzzerMakes() throws Exception {
    RefusalList r = RefusalList.read(Paths.get("../docs/unsupported-operations.md"));
    Set<String> known = new HashSet<>();
    for (Call c : Call.values()) {
      known.add(c.name());
    }
    Set<String> unknown = new HashSet<>(r.calls());
    unknown.removeAll(known);
    assertEquals("refused calls the fuzzer does not make", new HashSet<String>(), unknown);
    assertTrue(r.listed(Op.of(Call.createSnapshot, "/a", "s1")));
    // allowing and disallowing snapshots are persisted (DI_SNAPSHOT): no longer listed
    assertFalse(r.listed(Op.of(Call.allowSnapshot, "/a")));
    assertFalse(r.listed(Op.of(Call.disallowSnapshot, "/a")));
    // ACLs and xattrs are persisted (region-format.md §5.6): no longer listed
    assertFalse(r.listed(Op.of(Call.setAcl, "/a", "user:x:rwx")));
    assertFalse(r.listed(Op.of(Call.removeXAttr, "/a", "user.x")));
    assertTrue(r.listed(Op.of(Call.rollingUpgrade, RollingUpgradeAction.PREPARE)));
    assertFalse(r.listed(Op.of(Call.rollingUpgrade, RollingUpgradeAction.QUERY)));
    assertFalse(r.listed(Op.of(Call.mkdirs, "/a", 0755, true)));
    // delegation tokens are persisted (region-format.md §5.5): no longer listed
    assertFalse(r.listed(Op.of(Call.getDelegationToken, "x")));
    assertFalse(r.conditional(Op.of(Call.truncate, "/a", 0L, "c")));
  }

  @Test
  public void aRowMarkedOnlyWhileIsConditional() {
    RefusalList r =
        RefusalList.parse(
            Arrays.asList(
                "## Refused",
                "| `getDelegationToken` — **only while** the secret manager runs | tokens | why |",
                "| `concat` | concat | why |"));
    assertTrue(r.conditional(Op.of(Call.getDelegationToken, "x")));
    assertFalse(r.conditional(Op.of(Call.concat, "/a", new String[] {"/b"})));
  }

  @Test
  public void rowsOutsideTheRefusedSectionAreIgnored() {
    RefusalList r =
        RefusalList.parse(
            Arrays.asList(
                "## Refused",
                "| `concat` | concat | why |",
                "| `rollingUpgrade(PREPARE)`, `rollingUpgrade(FINALIZE)` | x | y |",
                "## Allowed",
                "| `create` | - | - |"));
    assertEquals(new HashSet<>(Arrays.asList("concat", "rollingUpgrade")), r.calls());
    assertFalse(
        r.listed(
            Op.of(
                Call.create,
                "/a",
                0644,
                "c",
                EnumSet.noneOf(org.apache.hadoop.fs.CreateFlag.class),
                true,
                (short) 1,
                1L)));
  }

  @Test
  public void failureLinesReduceToAStableReasonAndAPath() {
    String line =
        "09:01:40,066 ERROR NameNode: org.apache.hadoop.hdfs.server.namenode.nvm.NvmException:"
            + " NVM_ECORRUPT: /dev/shm/x/nvm.region: inode 16386 (page 31744) has a name that"
            + " contains a NUL byte";
    assertEquals(
        "NvmException NVM_ECORRUPT: inode # (page #) has a name that contains a NUL byte",
        Divergence.reason(line));
    assertEquals(
        "/n455/n456",
        Divergence.pathIn("java.io.IOException: File is not under construction: /n455/n456"));
    assertEquals(null, Divergence.pathIn(line.replace("/dev/shm/x/nvm.region", "region")));
  }
}
