package org.apache.hadoop.hdfs.server.namenode;

import org.apache.hadoop.security.UserGroupInformation;

/**
 * The short user name of a caller's UGI, for the space check of an operation that may add the
 * caller as a new owner string ({@link NvmRpcServer}): remembered for the last UGI asked about, so
 * a run of calls from one connection (or, in process, the login user) does not rebuild the
 * subject's principal sets for every call. A UGI's short name never changes; the memo is one
 * immutable pair, replaced on a miss.
 */
final class RemoteUserName {
  private RemoteUserName() {}

  private static final class Last {
    final UserGroupInformation ugi;
    final String name;

    Last(UserGroupInformation ugi, String name) {
      this.ugi = ugi;
      this.name = name;
    }
  }

  private static volatile Last last;

  static String of(UserGroupInformation ugi) {
    Last l = last;
    if (l != null && l.ugi == ugi) {
      return l.name;
    }
    String name = ugi.getShortUserName();
    last = new Last(ugi, name);
    return name;
  }
}
