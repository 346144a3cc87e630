package org.nvmnn.it.core;

import org.junit.AfterClass;

/**
 * {@link NamespaceOpsTestBase} against the stock NameNode path of the same jar (fsimage + edits).
 */
public class StockNamespaceOpsTest extends NamespaceOpsTestBase {
  @Override
  protected boolean nvm() {
    return false;
  }

  @AfterClass
  public static void tearDown() {
    shutdown(StockNamespaceOpsTest.class);
  }
}
