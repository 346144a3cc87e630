package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Each way a referenced string's STRING_EXT chain can be broken ({@link StringChainDamage}) is one
 * ERROR at the link or page field that is wrong; pages the broken chain no longer reaches are
 * RECOVERABLE leftovers, nothing else is reported. Checker only: {@link StringChainOracleTest}
 * holds the native open to the same verdicts.
 */
@RunWith(Parameterized.class)
public class RegionCheckStringChainDamageTest extends SampleNamespaceFixture {
  @Parameterized.Parameters(name = "{0}")
  public static Collection<Object[]> cases() {
    List<Object[]> c = new ArrayList<Object[]>();
    for (StringChainDamage d : StringChainDamage.values()) {
      c.add(new Object[] {d});
    }
    return c;
  }

  private final StringChainDamage damage;

  public RegionCheckStringChainDamageTest(StringChainDamage damage) {
    this.damage = damage;
  }

  @Test
  public void oneErrorAtTheBadLinkOrField() throws Exception {
    ChainedString s = StringChainDamage.setUp(n);
    assertEquals(0, CheckAssert.check(n.file).exitCode());
    long offset = damage.damage(n, s);
    CheckReport r = CheckAssert.check(n.file);
    Finding f = CheckAssert.onlyError(r, damage.kind, offset);
    assertTrue(f.message(), f.message().contains("string chain"));
    assertTrue(f.message(), f.message().contains("recovery refuses the region"));
    for (Finding x : r.findings()) {
      if (x != f) {
        assertEquals(r.format(), Finding.Severity.RECOVERABLE, x.severity());
      }
    }
  }
}
