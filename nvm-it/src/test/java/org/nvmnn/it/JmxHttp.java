package org.nvmnn.it;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.codehaus.jackson.JsonNode;
import org.codehaus.jackson.map.ObjectMapper;

/**
 * Reads MBeans the way an operator's monitoring does: HTTP GET of a daemon's {@code
 * /jmx?qry=<object name pattern>}, JSON parsed into one map per bean.
 */
public final class JmxHttp {
  private JmxHttp() {}

  /** The beans matching {@code query} (e.g. {@code Hadoop:service=NameNode,name=NvmNamespace*}). */
  public static List<Map<String, JsonNode>> beans(String hostPort, String query)
      throws IOException {
    URL url = new URL("http://" + hostPort + "/jmx?qry=" + URLEncoder.encode(query, "UTF-8"));
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setConnectTimeout(10_000);
    c.setReadTimeout(30_000);
    try (InputStream in = c.getInputStream()) {
      if (c.getResponseCode() != 200) {
        throw new IOException(url + ": HTTP " + c.getResponseCode());
      }
      JsonNode root = new ObjectMapper().readTree(in);
      List<Map<String, JsonNode>> out = new ArrayList<>();
      for (JsonNode bean : root.path("beans")) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = bean.getFields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          m.put(e.getKey(), e.getValue());
        }
        out.add(m);
      }
      return out;
    } finally {
      c.disconnect();
    }
  }

  /** The one bean matching {@code query}; fails if there are none or several. */
  public static Map<String, JsonNode> bean(String hostPort, String query) throws IOException {
    List<Map<String, JsonNode>> b = beans(hostPort, query);
    if (b.size() != 1) {
      throw new AssertionError(
          b.size() + " beans match " + query + " at " + hostPort + ": " + names(b));
    }
    return b.get(0);
  }

  public static List<String> names(List<Map<String, JsonNode>> beans) {
    List<String> n = new ArrayList<>();
    for (Map<String, JsonNode> b : beans) {
      n.add(text(b, "name"));
    }
    return n;
  }

  /** A numeric attribute; fails if it is missing or not a number. */
  public static long num(Map<String, JsonNode> bean, String attr) {
    JsonNode v = bean.get(attr);
    if (v == null || !v.isNumber()) {
      throw new AssertionError(
          "bean "
              + text(bean, "name")
              + " has no numeric "
              + attr
              + " ("
              + v
              + "); attributes: "
              + bean.keySet());
    }
    return v.getLongValue();
  }

  public static double dbl(Map<String, JsonNode> bean, String attr) {
    JsonNode v = bean.get(attr);
    if (v == null || !v.isNumber()) {
      throw new AssertionError(
          "bean " + text(bean, "name") + " has no numeric " + attr + " (" + v + ")");
    }
    return v.getDoubleValue();
  }

  public static String text(Map<String, JsonNode> bean, String attr) {
    JsonNode v = bean.get(attr);
    return v == null ? null : v.getTextValue();
  }
}
