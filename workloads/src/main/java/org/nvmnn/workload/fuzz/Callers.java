package org.nvmnn.workload.fuzz;

import java.io.IOException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who makes a call ({@link Op#caller}): 0 is the user running the fuzzer, which is also the user
 * running both NameNodes and so their superuser; the others are plain users without groups, two of
 * them with names past the region's 232-byte string limit (the connection carries the name, and a
 * file they create is owned by it).
 */
final class Callers {
  private Callers() {}

  static final String[] NAMES = {
    null, "fz-user", "fz-" + Text.repeat('u', 230), Text.repeat('v', 10000),
  };

  static int count() {
    return NAMES.length;
  }

  static UserGroupInformation ugi(int caller) throws IOException {
    if (caller == 0) {
      return UserGroupInformation.getCurrentUser();
    }
    return UserGroupInformation.createRemoteUser(NAMES[caller]);
  }

  static String describe(int caller) {
    return caller == 0 ? "the superuser" : Text.brief(NAMES[caller]);
  }
}
