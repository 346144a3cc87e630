package org.apache.hadoop.hdfs.server.namenode.nvm.tools;

import static org.junit.Assert.*;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.server.namenode.nvm.RegionLayout;
import org.junit.Test;

/**
 * The checker names and knows exactly the page kinds and states of the format: every KIND_* and
 * STATE_* of RegionLayout (which RegionLayoutTest ties to nvmns_layout.h) and nothing else.
 */
public class PageStateTest {
  private static Map<String, Integer> constants(String prefix, String exclude)
      throws IllegalAccessException {
    Map<String, Integer> m = new TreeMap<String, Integer>();
    for (Field f : RegionLayout.class.getDeclaredFields()) {
      int mod = f.getModifiers();
      if (Modifier.isStatic(mod)
          && f.getType() == int.class
          && f.getName().startsWith(prefix)
          && !f.getName().equals(exclude)) {
        m.put(f.getName().substring(prefix.length()), f.getInt(null));
      }
    }
    assertFalse("RegionLayout has no " + prefix + " constants", m.isEmpty());
    return m;
  }

  @Test
  public void everyPageKindIsKnownAndNamed() throws Exception {
    Map<String, Integer> kinds = constants("KIND_", "KIND_SHIFT");
    for (Map.Entry<String, Integer> e : kinds.entrySet()) {
      assertTrue("checker does not know KIND_" + e.getKey(), PageState.isKnownKind(e.getValue()));
      assertEquals(e.getKey(), PageState.kindName(e.getValue()));
    }
    for (int k = 0; k <= 0xff; k++) {
      assertEquals("kind " + k, kinds.containsValue(k), PageState.isKnownKind(k));
    }
  }

  @Test
  public void everyPageStateIsNamed() throws Exception {
    Map<String, Integer> states = constants("STATE_", "STATE_MASK");
    for (Map.Entry<String, Integer> e : states.entrySet()) {
      assertEquals(e.getKey(), PageState.stateName(e.getValue()));
    }
    for (int s = 0; s <= RegionLayout.STATE_MASK; s++) {
      if (!states.containsValue(s)) {
        assertEquals("state " + s, PageState.stateName(s));
      }
    }
  }
}
