package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Calls a stock 2.7.3 method body that the patched jar keeps under a new name (nvm-patcher adds
 * {@code stockDoRollback}, {@code stockDoRecovery}, {@code stockStartHttpServer} and {@code
 * stockInitialize}); by reflection, because this module compiles against the unpatched jar, which
 * does not have them. The calls are one-off start-up paths.
 */
final class StockMethod {
  private StockMethod() {}

  /** Invokes {@code owner.name(types)} on {@code target} (null: static) and unwraps its failure. */
  static Object call(Class<?> owner, String name, Class<?>[] types, Object target, Object... args)
      throws IOException {
    Method m;
    try {
      m = owner.getDeclaredMethod(name, types);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(
          owner.getName()
              + "."
              + name
              + " is missing: this "
              + owner.getSimpleName()
              + " was not patched by nvm-patcher (the hook runs only in the patched jar)",
          e);
    }
    m.setAccessible(true);
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException) {
        throw (IOException) c;
      }
      if (c instanceof RuntimeException) {
        throw (RuntimeException) c;
      }
      if (c instanceof Error) {
        throw (Error) c;
      }
      throw new IOException(c);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + owner.getName() + "." + name, e);
    }
  }
}
