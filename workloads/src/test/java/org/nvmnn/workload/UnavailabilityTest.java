package org.nvmnn.workload;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.Test;

public class UnavailabilityTest {
  @Test
  public void deadOrRestartingNameNode() {
    assertTrue(Unavailability.isNameNodeUnavailable(new ConnectException("Connection refused")));
    assertTrue(
        Unavailability.isNameNodeUnavailable(
            new IOException("Failed on local exception", new EOFException())));
    assertTrue(
        Unavailability.isNameNodeUnavailable(
            new IOException(
                "Failed on local exception: java.io.IOException: Connection reset by peer",
                new IOException("Connection reset by peer"))));
    assertTrue(
        Unavailability.isNameNodeUnavailable(
            new IOException("Failed on local exception", new IOException("Broken pipe"))));
    assertTrue(
        Unavailability.isNameNodeUnavailable(
            new RemoteException(
                "org.apache.hadoop.hdfs.server.namenode.SafeModeException", "safe mode")));
    assertTrue(
        Unavailability.isNameNodeUnavailable(
            new RemoteException(
                "org.apache.hadoop.ipc.RetriableException", "NameNode still not started")));
  }

  @Test
  public void anythingElse() {
    assertFalse(Unavailability.isNameNodeUnavailable(new FileNotFoundException("/crash/t0/f1")));
    assertFalse(
        Unavailability.isNameNodeUnavailable(new IOException("Connection reset by peer: no")));
    assertFalse(
        Unavailability.isNameNodeUnavailable(
            new RemoteException("org.apache.hadoop.fs.FileAlreadyExistsException", "exists")));
    assertFalse(
        Unavailability.isNameNodeUnavailable(
            new UnexpectedResult(new Op("t0#1", Op.Kind.MKDIR, "/crash/t0/d1", null, 0, 0))));
  }
}
