package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.Test;

/**
 * The enumerated facts C and Java share agree, both ways, with the lists of nvmns.h that
 * nvm_layout_table() exports: every native entry exists in Java with the same value, and every Java
 * entry exists natively (as {@link RegionLayoutTest} does for the layout constants). NVM_ERRORS is
 * {@link NvmException.ErrorCode}, NVM_OPS {@link MutationBatch.Op}, NVM_FIELDS {@link Field},
 * NVM_MODES {@link PersistMode} (with its configuration names); NVM_BATCH_HEADER and
 * NVM_BATCH_ENTRY_HEADER are {@link MutationBatch#HEADER} and {@link MutationBatch#ENTRY_HEADER}.
 * Page kinds and states are layout constants (KIND_*, STATE_*), mirrored by RegionLayout and
 * checked by RegionLayoutTest; here they are checked to be distinct.
 */
public class FormatFactsTest {
  /** Native list entry name to value, checked both ways against the Java names and values. */
  private static void assertSameBothWays(String list, String prefix, Map<String, Integer> java) {
    Map<String, NativeTable.Entry> n = NativeTable.list(prefix);
    assertFalse("nvm_layout_table() has no " + prefix + " entries", n.isEmpty());
    for (Map.Entry<String, NativeTable.Entry> e : n.entrySet()) {
      assertTrue(list + " lacks native " + prefix + e.getKey(), java.containsKey(e.getKey()));
      assertEquals(list + "." + e.getKey(), e.getValue().value, (long) java.get(e.getKey()));
    }
    for (Map.Entry<String, Integer> e : java.entrySet()) {
      assertTrue(
          "nvm_layout_table() lacks " + prefix + e.getKey() + " of " + list,
          n.containsKey(e.getKey()));
    }
    assertDistinct(list, java);
  }

  private static void assertDistinct(String list, Map<String, ? extends Number> m) {
    Set<Long> seen = new HashSet<Long>();
    for (Map.Entry<String, ? extends Number> e : m.entrySet()) {
      assertTrue(
          list + ": " + e.getKey() + " repeats the value " + e.getValue(),
          seen.add(e.getValue().longValue()));
    }
  }

  @Test
  public void errorCodesMatchNvmErrors() {
    Map<String, Integer> java = new LinkedHashMap<String, Integer>();
    for (NvmException.ErrorCode c : NvmException.ErrorCode.values()) {
      if (c != NvmException.ErrorCode.UNKNOWN) {
        java.put(c.name(), c.value());
      }
    }
    assertSameBothWays("NvmException.ErrorCode", NativeTable.ERROR, java);
    // UNKNOWN is Java's own: a code this binding does not know, never a native one.
    Map<String, NativeTable.Entry> n = NativeTable.list(NativeTable.ERROR);
    for (NativeTable.Entry e : n.values()) {
      assertNotEquals(NvmException.ErrorCode.UNKNOWN.value(), e.value);
    }
    assertFalse(n.containsKey(NvmException.ErrorCode.UNKNOWN.name()));
    // nvm_strerror is generated from the same list
    for (Map.Entry<String, NativeTable.Entry> e : n.entrySet()) {
      assertEquals("NVM_" + e.getKey(), NvmNative.strerror((int) e.getValue().value));
      assertEquals(
          NvmException.ErrorCode.valueOf(e.getKey()),
          NvmException.ErrorCode.of((int) e.getValue().value));
    }
    assertEquals("NVM_EUNKNOWN", NvmNative.strerror(NvmException.ErrorCode.UNKNOWN.value()));
  }

  @Test
  public void batchOpsMatchNvmOps() {
    Map<String, Integer> java = new LinkedHashMap<String, Integer>();
    for (MutationBatch.Op op : MutationBatch.Op.values()) {
      java.put(op.name(), op.code);
    }
    assertSameBothWays("MutationBatch.Op", NativeTable.OP, java);
  }

  @Test
  public void fieldIdsMatchNvmFields() {
    Map<String, Integer> java = new LinkedHashMap<String, Integer>();
    for (Field f : Field.values()) {
      java.put(f.name(), f.id());
    }
    assertSameBothWays("Field", NativeTable.FIELD, java);
  }

  @Test
  public void persistModesMatchNvmModes() {
    Map<String, Integer> java = new LinkedHashMap<String, Integer>();
    for (PersistMode m : PersistMode.values()) {
      java.put(m.name(), m.value());
    }
    assertSameBothWays("PersistMode", NativeTable.MODE, java);
    // the configuration value is the native list's config name, which nvm_mode_name() returns
    for (Map.Entry<String, NativeTable.Entry> e : NativeTable.list(NativeTable.MODE).entrySet()) {
      assertEquals(
          "PersistMode." + e.getKey(),
          e.getValue().meaning,
          PersistMode.valueOf(e.getKey()).configName());
    }
  }

  @Test
  public void batchHeaderSizesMatch() {
    Map<String, Integer> java = new LinkedHashMap<String, Integer>();
    java.put("HEADER", MutationBatch.HEADER);
    java.put("ENTRY_HEADER", MutationBatch.ENTRY_HEADER);
    Map<String, NativeTable.Entry> n = NativeTable.list(NativeTable.BATCH);
    assertEquals("the BATCH_ entries of nvm_layout_table()", java.keySet(), n.keySet());
    for (Map.Entry<String, Integer> e : java.entrySet()) {
      assertEquals("MutationBatch." + e.getKey(), n.get(e.getKey()).value, (long) e.getValue());
    }
  }

  @Test
  public void everyListEntryHasAOneLineMeaning() {
    for (String prefix : new String[] {NativeTable.ERROR, NativeTable.OP, NativeTable.FIELD}) {
      for (Map.Entry<String, NativeTable.Entry> e : NativeTable.list(prefix).entrySet()) {
        String m = e.getValue().meaning;
        assertNotNull(prefix + e.getKey() + " has no meaning", m);
        assertFalse(prefix + e.getKey() + ": empty meaning", m.trim().isEmpty());
        assertFalse(
            prefix + e.getKey() + ": a meaning is plain text for a table cell: " + m,
            m.contains("|") || m.contains("`"));
      }
    }
  }

  @Test
  public void pageKindsAndStatesAreDistinct() {
    Map<String, Long> kinds = new TreeMap<String, Long>(), states = new TreeMap<String, Long>();
    for (Map.Entry<String, Long> e : NativeTable.layout().entrySet()) {
      String name = e.getKey();
      if (name.startsWith("KIND_") && !name.equals("KIND_SHIFT")) {
        kinds.put(name, e.getValue());
        assertTrue(
            name + " fits the kind byte and is not 0", e.getValue() > 0 && e.getValue() <= 0xff);
      } else if (name.startsWith("STATE_") && !name.equals("STATE_MASK")) {
        states.put(name, e.getValue());
        assertTrue(
            name + " fits the state bits",
            e.getValue() >= 0 && e.getValue() <= RegionLayout.STATE_MASK);
      }
    }
    assertEquals(11, kinds.size());
    assertEquals(3, states.size());
    assertDistinct("page kinds", kinds);
    assertDistinct("page states", states);
  }
}
