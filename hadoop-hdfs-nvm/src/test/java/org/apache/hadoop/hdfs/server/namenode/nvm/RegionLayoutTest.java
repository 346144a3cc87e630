package org.apache.hadoop.hdfs.server.namenode.nvm;

import static org.junit.Assert.*;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/** RegionLayout mirrors nvmns_layout.h: every constant of nvm_layout_table() in both directions. */
public class RegionLayoutTest {
  /** Public static final int/long fields of RegionLayout by name. */
  static Map<String, Long> javaConstants() throws IllegalAccessException {
    Map<String, Long> m = new TreeMap<String, Long>();
    for (Field f : RegionLayout.class.getDeclaredFields()) {
      int mod = f.getModifiers();
      if (Modifier.isPublic(mod)
          && Modifier.isStatic(mod)
          && Modifier.isFinal(mod)
          && (f.getType() == int.class || f.getType() == long.class)) {
        m.put(f.getName(), ((Number) f.get(null)).longValue());
      }
    }
    return m;
  }

  /** The layout constants of nvm_layout_table() (the enumerated lists are FormatFactsTest's). */
  static Map<String, Long> nativeConstants() {
    return NativeTable.layout();
  }

  @Test
  public void everyNativeConstantExistsInJavaWithTheSameValue() throws Exception {
    Map<String, Long> j = javaConstants();
    Map<String, Long> n = nativeConstants();
    assertTrue("native table is suspiciously small: " + n.size(), n.size() > 50);
    for (Map.Entry<String, Long> e : n.entrySet()) {
      assertTrue("RegionLayout lacks " + e.getKey(), j.containsKey(e.getKey()));
      assertEquals(e.getKey(), e.getValue(), j.get(e.getKey()));
    }
  }

  @Test
  public void everyJavaConstantExistsNatively() throws Exception {
    Map<String, Long> n = nativeConstants();
    for (Map.Entry<String, Long> e : javaConstants().entrySet()) {
      assertTrue("nvm_layout_table() lacks " + e.getKey(), n.containsKey(e.getKey()));
      assertEquals(e.getKey(), n.get(e.getKey()), e.getValue());
    }
  }

  @Test
  public void stateWordHelpersMatchTheMacros() {
    long w = RegionLayout.stateWord(RegionLayout.KIND_FILE, RegionLayout.STATE_LIVE);
    assertEquals(0x504d564e00000201L, w);
    assertEquals(RegionLayout.KIND_FILE, RegionLayout.kindOf(w));
    assertEquals(RegionLayout.STATE_LIVE, RegionLayout.stateOf(w));
    assertEquals(RegionLayout.PAGE_MAGIC, RegionLayout.magicOf(w));
  }
}
