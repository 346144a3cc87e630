package org.apache.hadoop.hdfs.server.namenode;

import static org.junit.Assert.*;

import org.apache.hadoop.security.UserGroupInformation;
import org.junit.Test;

/** The memo of the caller's short name answers for the UGI it is asked about, never another's. */
public class RemoteUserNameTest {
  @Test
  public void answersForEachUgiAlsoWhenTheyAlternate() {
    UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
    UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
    UserGroupInformation carol = UserGroupInformation.createRemoteUser("carol");
    for (int i = 0; i < 3; i++) {
      assertEquals("alice", RemoteUserName.of(alice));
      assertEquals("alice", RemoteUserName.of(alice));
      assertEquals("bob", RemoteUserName.of(bob));
      assertEquals("carol", RemoteUserName.of(carol));
      assertEquals("bob", RemoteUserName.of(bob));
    }
  }

  @Test
  public void threadsAskingAboutDifferentUgisGetTheirOwn() throws Exception {
    final UserGroupInformation[] users = new UserGroupInformation[4];
    for (int i = 0; i < users.length; i++) {
      users[i] = UserGroupInformation.createRemoteUser("user" + i);
    }
    final Throwable[] failure = new Throwable[1];
    Thread[] threads = new Thread[users.length];
    for (int t = 0; t < threads.length; t++) {
      final int k = t;
      threads[t] =
          new Thread(
              () -> {
                for (int i = 0; i < 20_000; i++) {
                  String got = RemoteUserName.of(users[k]);
                  if (!got.equals("user" + k)) {
                    synchronized (failure) {
                      failure[0] = new AssertionError("user" + k + " got " + got);
                    }
                    return;
                  }
                }
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertNull(String.valueOf(failure[0]), failure[0]);
  }
}
