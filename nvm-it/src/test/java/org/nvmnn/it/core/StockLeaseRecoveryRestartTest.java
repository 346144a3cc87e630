package org.nvmnn.it.core;

/**
 * {@link LeaseRecoveryRestartTestBase} against the stock NameNode path of the same jar (fsimage +
 * edits): the behaviour the NVM restart must match.
 */
public class StockLeaseRecoveryRestartTest extends LeaseRecoveryRestartTestBase {
  @Override
  protected boolean nvm() {
    return false;
  }
}
