package org.nvmnn.it.jar;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.nvm.NvmConfigKeys;
import org.junit.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * hdfs-nvm-default.xml (in the drop-in jar) and NvmConfigKeys agree: every documented property has
 * a {@code *_KEY} constant, every {@code *_KEY} is documented, and the documented value is the
 * {@code *_DEFAULT} constant's value as Hadoop's {@link Configuration} reads it. A property
 * documented with an empty value is one whose code default is "unset": it has no {@code *_DEFAULT}
 * constant, and vice versa.
 */
public class NvmConfigDefaultsTest {
  private static final String RESOURCE = "hdfs-nvm-default.xml";

  @Test
  public void defaultsFileAndNvmConfigKeysMatch() throws Exception {
    // Constants: prefix -> key name, prefix -> default field.
    Map<String, String> keys = new TreeMap<>();
    Map<String, Field> defaults = new TreeMap<>();
    for (Field f : NvmConfigKeys.class.getFields()) {
      if (!Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      if (f.getName().endsWith("_KEY")) {
        keys.put(f.getName().substring(0, f.getName().length() - 4), (String) f.get(null));
      } else if (f.getName().endsWith("_DEFAULT")) {
        defaults.put(f.getName().substring(0, f.getName().length() - 8), f);
      }
    }
    assertFalse("no *_KEY constants found", keys.isEmpty());
    for (String prefix : defaults.keySet()) {
      assertTrue(prefix + "_DEFAULT has no " + prefix + "_KEY", keys.containsKey(prefix));
    }

    // The property names documented in the file (all of them, including those without a value).
    TreeSet<String> documented = new TreeSet<>();
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(RESOURCE)) {
      assertNotNull(RESOURCE + " not on the class path", in);
      Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
      NodeList props = doc.getElementsByTagName("property");
      for (int i = 0; i < props.getLength(); i++) {
        NodeList names = ((Element) props.item(i)).getElementsByTagName("name");
        assertEquals("property #" + i + " has one <name>", 1, names.getLength());
        assertTrue(
            "duplicate property " + names.item(0).getTextContent(),
            documented.add(names.item(0).getTextContent().trim()));
      }
    }
    assertEquals(
        "properties documented in " + RESOURCE + " vs *_KEY constants",
        new TreeSet<>(keys.values()),
        documented);

    // The values, as Hadoop reads them from that resource alone.
    Configuration conf = new Configuration(false);
    conf.addResource(RESOURCE);
    for (Map.Entry<String, String> k : keys.entrySet()) {
      String prefix = k.getKey(), name = k.getValue();
      Field def = defaults.get(prefix);
      String raw = conf.getRaw(name);
      if (def == null) {
        assertNull(
            name
                + " has no "
                + prefix
                + "_DEFAULT, so its documented value must be empty, was "
                + raw,
            raw);
        continue;
      }
      assertNotNull(name + " is documented without a value but has " + prefix + "_DEFAULT", raw);
      Class<?> t = def.getType();
      if (t == boolean.class) {
        assertTrue(
            name + "=" + raw + " is not a boolean", raw.equals("true") || raw.equals("false"));
        assertEquals(name, def.getBoolean(null), conf.getBoolean(name, !def.getBoolean(null)));
      } else if (t == long.class || t == int.class) {
        assertEquals(
            name, ((Number) def.get(null)).longValue(), conf.getLongBytes(name, Long.MIN_VALUE));
      } else if (t == String.class) {
        assertEquals(name, def.get(null), raw);
      } else {
        throw new AssertionError(prefix + "_DEFAULT has a type this test does not know: " + t);
      }
    }
  }
}
