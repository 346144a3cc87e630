package org.nvmnn.patcher;

/**
 * Child-process entry point for {@link JvmVerifierTest}: loads, links (which verifies) and
 * initializes each named class and prints where it came from, and the modifiers of its declared
 * methods whose name starts with "stock" (as reflection sees them).
 */
public final class LoadClass {
  private LoadClass() {}

  public static void main(String[] args) {
    try {
      for (String name : args) {
        Class<?> c = Class.forName(name, true, LoadClass.class.getClassLoader());
        System.out.println(
            "LOADED " + name + " FROM " + c.getProtectionDomain().getCodeSource().getLocation());
        for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
          if (m.getName().startsWith("stock")) {
            System.out.println(
                "METHOD "
                    + name
                    + "."
                    + m.getName()
                    + " 0x"
                    + Integer.toHexString(m.getModifiers())
                    + (m.isSynthetic() ? " synthetic" : ""));
          }
        }
      }
    } catch (Throwable t) {
      System.out.println("FAILED " + t);
      t.printStackTrace(System.out);
      System.exit(1);
    }
    System.exit(0);
  }
}
